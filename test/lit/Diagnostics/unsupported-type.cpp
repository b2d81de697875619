// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void longDouble(const stencil::Index3D &idx, const float *f, float *fn) {
  long double wide = f[idx.ix()]; // expected-error {{unsupported type 'long double' in a stencil; use bool, integer, float or double scalars}}
  fn[idx.ix()] = 0.0f;
}

STENCIL_KERNEL void localArray(const stencil::Index3D &idx, const float *f, float *fn) {
  float taps[3] = {1.0f, 2.0f, 1.0f}; // expected-error {{unsupported type 'float[3]' in a stencil}}
  fn[idx.ix()] = f[idx.ix()];
}

// One error where the type comes in, not one per expression built on it.
STENCIL_KERNEL void longDoubleLiteral(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix()] * 0.5L; // expected-error {{unsupported type 'long double' in a stencil}}
}
