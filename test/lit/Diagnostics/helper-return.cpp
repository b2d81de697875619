// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

inline float clampPositive(float x) {
  if (x < 0.0f)
    return 0.0f; // expected-error {{helper 'clampPositive' must return only at the end of its body, of both branches of a final if/else or of every case of a final switch}}
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

// A path that ends without a return: an empty else, an empty body (clang
// warns; C++ leaves the value undefined, so stencilc refuses).
inline float emptyElse(float x) {
  if (x > 0.0f) {
    return 1.0f;
  } else { // expected-error {{helper 'emptyElse' must return only at the end of its body, of both branches of a final if/else or of every case of a final switch}}
  }
} // expected-warning {{non-void function does not return a value in all control paths}}
inline float emptyBody(float x) { // expected-error {{helper 'emptyBody' must return only at the end}}
} // expected-warning {{non-void function does not return a value}}
inline float nullElse(float x) {
  if (x > 0.0f)
    return 1.0f;
  else
    ; // expected-error {{helper 'nullElse' must return only at the end}}
} // expected-warning {{non-void function does not return a value in all control paths}}
STENCIL_KERNEL void usesEmpty(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = emptyElse(f[idx.ix()]) // expected-note {{in helper 'emptyElse' inlined from here}}
                 + emptyBody(f[idx.ix()]) // expected-note {{in helper 'emptyBody' inlined from here}}
                 + nullElse(f[idx.ix()]); // expected-note {{in helper 'nullElse' inlined from here}}
}
