// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void breaks(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (int m = 0; m < 4; ++m) {
    if (s > 1.0f)
      break; // expected-error {{unsupported statement in a stencil: 'break'}}
    s += f[idx.ix()];
  }
  fn[idx.ix()] = s;
}

STENCIL_KERNEL void switches(const stencil::Index3D &idx, int mode, const float *f, float *fn) {
  switch (mode) { // expected-error {{unsupported statement in a stencil: 'switch'}}
  default:
    fn[idx.ix()] = f[idx.ix()];
  }
}

STENCIL_KERNEL void staticLocal(const stencil::Index3D &idx, float *fn) {
  static float counter = 0.0f; // expected-error {{unsupported statement in a stencil: static local variable}}
  fn[idx.ix()] = 0.0f;
}
