// A C library function off stencilc's list (erf, sqrtl, labs), called by its
// name or through <cmath>'s inline std:: overload: err_call_no_definition at
// the user's call, by the name written there (was "call of the builtin
// '__builtin_erff'", located inside <cmath>). A compiler builtin that is no
// library function keeps its own message.
// RUN: not %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include 2>&1 | FileCheck %s
#include <stencil/dsl.hpp>

#include <cmath>
#include <cstdlib>

STENCIL_KERNEL void callsErf(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = std::erf(f[idx.ix()]);
}
// CHECK: library-function.cpp:[[@LINE-2]]:18: error: call to 'std::erf', which has no visible definition
STENCIL_KERNEL void callsSqrtl(const stencil::Index3D &idx, const double *f, double *fn) {
  fn[idx.ix()] = (double)sqrtl(f[idx.ix()]);
}
// CHECK: library-function.cpp:[[@LINE-2]]:26: error: call to 'sqrtl', which has no visible definition
STENCIL_KERNEL void callsLabs(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = (float)labs((long)f[idx.ix()]);
}
// CHECK: library-function.cpp:[[@LINE-2]]:25: error: call to 'labs', which has no visible definition
STENCIL_KERNEL void callsExpect(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = __builtin_expect(f[idx.ix()] > 0.0f, 1) ? 1.0f : 0.0f;
}
// CHECK: error: unsupported expression in a stencil: call of the builtin '__builtin_expect'
// CHECK-NOT: cmath:{{[0-9]+}}:{{[0-9]+}}: error
