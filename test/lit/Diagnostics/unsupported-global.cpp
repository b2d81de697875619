// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

float globalScale = 2.0f;
const float ConstScale = 3.0f;

STENCIL_KERNEL void readsGlobal(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = globalScale * f[idx.ix()]; // expected-error {{'globalScale' is a global variable that is not a compile-time constant; pass it as a parameter}}
}

// Compile-time constants are folded in.
STENCIL_KERNEL void readsConstant(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = ConstScale * f[idx.ix()];
}
