// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void deref(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = *(f + 1); // expected-error {{pointer arithmetic on array 'f' is not allowed; index it with 'idx.ix<...>()'}}
}

STENCIL_KERNEL void shifted(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = (f + 1)[idx.ix()]; // expected-error {{pointer arithmetic on array 'f' is not allowed}}
}
