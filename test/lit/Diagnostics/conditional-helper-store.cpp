// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

// Helpers are inlined ahead of the expression that calls them; one that
// writes an array cannot be called where C++ evaluates it conditionally.
inline float mark(const stencil::Index3D &idx, float *flag) {
  flag[idx.ix()] = 1.0f;
  return 2.0f;
}

STENCIL_KERNEL void conditionalWrite(const stencil::Index3D &idx, const float *f, float *flag, float *fn) {
  fn[idx.ix()] = f[idx.ix()] > 0.0f ? mark(idx, flag) : 0.0f; // expected-error {{unsupported expression in a stencil: call of helper 'mark', which writes arrays, in a conditional expression}}
}
