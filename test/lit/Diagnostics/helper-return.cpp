// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

inline float clampPositive(float x) {
  if (x < 0.0f)
    return 0.0f; // expected-error {{helper 'clampPositive' must return only at the end of its body or at the end of both branches of a final if/else}}
  return x;
}

STENCIL_KERNEL void usesClamp(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = clampPositive(f[idx.ix()]); // expected-note {{in helper 'clampPositive' inlined from here}}
}

// Returning from both branches of a final if/else is fine.
inline float absolute(float x) {
  if (x < 0.0f)
    return -x;
  else
    return x;
}
STENCIL_KERNEL void usesAbsolute(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = absolute(f[idx.ix()]);
}
