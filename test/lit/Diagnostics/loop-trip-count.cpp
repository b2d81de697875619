// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void paramBound(const stencil::Index3D &idx, int n, const float *f, float *fn) {
  float s = 0.0f;
  for (int m = 0; m < n; ++m) // expected-error {{loop trip count is not a compile-time constant; stencil loops need constant bounds and step}}
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}

STENCIL_KERNEL void whileLoop(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = f[idx.ix()];
  while (s > 1.0f) // expected-error {{loop trip count is not a compile-time constant}}
    s = s * 0.5f;
  fn[idx.ix()] = s;
}

// Constant bounds through constexpr are fine.
constexpr int Taps = 3;
STENCIL_KERNEL void constexprBound(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (int m = 0; m < Taps; ++m)
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}
