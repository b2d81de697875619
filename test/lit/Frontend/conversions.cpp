// RUN: %stencilc %s --emit=ir -o - -- -I %mock_include | FileCheck %s
//
// Implicit conversions become explicit casts, so the IR computes in the
// same types as the C++ (0.5 is a double: the product is computed in f64).
#include <cmath>
#include <stencil/dsl.hpp>

constexpr double Half = 0.5;
enum { Two = 2 };

STENCIL_KERNEL void mixed(const stencil::Index3D &idx, int n, const float *f, double *g) {
  float a = 0.5 * f[idx.ix()];
  int k = idx.k() * Two;
  a *= n;
  ++k;
  g[idx.ix()] += Half * a + k + ::sqrt(f[idx.ix()]);
}

// CHECK: "intent": "inout",
// The enumerator is an unsigned constant converted to int; `a *= n`
// computes in float; `g += ...` in double.
// CHECK: "body": "local a: f32 = f32((0.5:f64 * f64(f[0,0,0])))\nlocal k: i32 = (idx.k() * i32(2))\na = (a * f32(n))\nk = (k + 1)\ng[0,0,0] = (g[0,0,0] + (((0.5:f64 * f64(a)) + f64(k)) + sqrt:f64(f64(f[0,0,0]))))\n"
