// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

inline float power(float x, int n) {
  return n == 0 ? 1.0f : x * power(x, n - 1); // expected-error {{recursive call to 'power' cannot be inlined into a stencil}}
}

STENCIL_KERNEL void usesPower(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = power(f[idx.ix()], 3); // expected-note {{in helper 'power' inlined from here}}
}
