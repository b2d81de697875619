// RUN: %stencilc %s --emit=ir -o - -- -I %mock_include | FileCheck %s
//
// Math functions become IR calls computed in the call's type; a function the
// user defines is a helper and is inlined, even when it is named like one.
#include <cmath>
#include <stencil/dsl.hpp>

inline float max(float a, float b) { return a > b ? a : b; }

STENCIL_KERNEL void mathCalls(const stencil::Index3D &idx, const float *f, float *fn) {
  float a = std::sqrt(f[idx.ix()]);
  float b = std::min(a, 2.0f) + std::max(f[idx.ix<1, 0, 0>()], 0.0f);
  double c = sqrt(f[idx.ix()]) + std::pow(2.0, 3.0);
  fn[idx.ix()] = sqrtf(b) + std::fabs(a) + max(a, b) + c;
}

// CHECK: "body": "local a: f32 = sqrt:f32(f[0,0,0])\nlocal b: f32 = (min:f32(a, 2:f32) + max:f32(f[1,0,0], 0:f32))\nlocal c: f64 = (sqrt:f64(f64(f[0,0,0])) + pow:f64(2:f64, 3:f64))\nlocal a_1: f32 = a\nlocal b_1: f32 = b\nlocal max_result: f32\nmax_result = ((a_1 > b_1) ? a_1 : b_1)\nfn[0,0,0] = f32((f64(((sqrt:f32(b) + fabs:f32(a)) + max_result)) + c))\n"
