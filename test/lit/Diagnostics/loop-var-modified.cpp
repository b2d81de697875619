// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void skips(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (int m = 0; m < 4; ++m) {
    s += f[idx.ix()];
    m += 1; // expected-error {{loop variable 'm' is modified in the loop body}}
  }
  fn[idx.ix()] = s;
}
