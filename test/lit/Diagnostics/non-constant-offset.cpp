// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void runtimeOffset(const stencil::Index3D &idx, int n, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix() + n]; // expected-error {{array 'f' must be indexed by 'idx.ix<...>()' with compile-time constant offsets}}
}

STENCIL_KERNEL void plainInt(const stencil::Index3D &idx, int n, const float *f, float *fn) {
  fn[idx.ix()] = f[n]; // expected-error {{array 'f' must be indexed by 'idx.ix<...>()'}}
}
