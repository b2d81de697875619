// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

static STENCIL_KERNEL void hidden(const stencil::Index3D &idx, float *fn) { // expected-error {{free-function stencil 'hidden' must have external linkage and must not be inline, so that generated engines can find it}}
  fn[idx.ix()] = 0.0f;
}

inline STENCIL_KERNEL void inlined(const stencil::Index3D &idx, float *fn) { // expected-error {{free-function stencil 'inlined' must have external linkage}}
  fn[idx.ix()] = 0.0f;
}

namespace {
STENCIL_KERNEL void anonymous(const stencil::Index3D &idx, float *fn) { // expected-error {{free-function stencil 'anonymous' must have external linkage}}
  fn[idx.ix()] = 0.0f;
}
} // namespace
