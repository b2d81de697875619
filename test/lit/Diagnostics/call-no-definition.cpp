// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

float opaque(float x);

STENCIL_KERNEL void callsOpaque(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = opaque(f[idx.ix()]); // expected-error {{call to 'opaque', which has no visible definition; stencils may call math functions and functions defined in the translation unit}}
}
