// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
//
// `float t = half(t);` generated code that did not compile (the helper's
// parameter was initialised from t before t was declared).
#include <stencil/dsl.hpp>

static float half(float x) { return 0.5f * x; }

STENCIL_KERNEL void throughHelper(const stencil::Index3D &idx, const float *f, float *fn) {
  float t = half(t); // expected-error {{local variable 't' is used in its own initializer}}
  fn[idx.ix()] = t + f[idx.ix()];
}

STENCIL_KERNEL void direct(const stencil::Index3D &idx, const float *f, float *fn) {
  float t = t * 2.0f + f[idx.ix()]; // expected-error {{local variable 't' is used in its own initializer}}
  fn[idx.ix()] = t;
}

// The name of an enclosing variable is fine once the new one is complete.
STENCIL_KERNEL void shadowing(const stencil::Index3D &idx, const float *f, float *fn) {
  float t = f[idx.ix()];
  {
    float u = half(t);
    t = half(u);
  }
  fn[idx.ix()] = t;
}
