// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void noIndex(float a, float *fn) { // expected-error {{the first parameter of stencil 'noIndex' must be a stencil index (Index2D, Index3D or Index4D) taken by value or const reference}}
  fn[0] = a;
}

STENCIL_KERNEL void noParams() {} // expected-error {{the first parameter of stencil 'noParams' must be a stencil index}}

STENCIL_KERNEL void mutableIndex(stencil::Index3D &idx, float *fn) { // expected-error {{the first parameter of stencil 'mutableIndex' must be a stencil index}}
  fn[idx.ix()] = 0.0f;
}
