// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void twoOffsets(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<1, 0>()]; // expected-error {{access to 'f' has 2 offsets but the stencil is 3-D}}
}
