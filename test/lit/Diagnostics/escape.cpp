// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void aliasArray(const stencil::Index3D &idx, const float *f, float *fn) {
  const float *g = f; // expected-error {{array 'f' may only be indexed with 'idx.ix<...>()' or passed to a helper function}}
  fn[idx.ix()] = 0.0f;
}

STENCIL_KERNEL void storeIndex(const stencil::Index3D &idx, float *fn) {
  long c = idx.ix(); // expected-error {{the stencil index 'idx' may only be used as 'ix<...>()' (or 'ix_z<...>()' and the like, for arrays of lower rank), 'i()', 'j()', 'k()', 'w()' or passed to a helper function}}
  fn[idx.ix()] = 0.0f;
}

// A copy of the index, or a reference to it, in a local: the index itself
// (was "unsupported type", then an error at each use).
STENCIL_KERNEL void copyIndex(const stencil::Index3D &idx, const float *f, float *fn) {
  stencil::Index3D j = idx; // expected-error {{the stencil index 'idx' may only be used as}}
  const auto &r = idx; // expected-error {{the stencil index 'idx' may only be used as}}
  fn[idx.ix()] = f[j.ix()] + f[r.ix()];
}
