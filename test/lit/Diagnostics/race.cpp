// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void inPlace(const stencil::Index3D &idx, float *f) {
  f[idx.ix()] = 0.5f * (f[idx.ix<-1, 0, 0>()] // expected-error {{array 'f' is written and also read at offset [-1,0,0] in the same stencil; neighbouring points would race}}
                        + f[idx.ix()]);       // expected-note@-1 {{'f' is written here}}
}

// Reading a written array at the centre is fine (intent inout).
STENCIL_KERNEL void scale(const stencil::Index3D &idx, float a, float *f) {
  f[idx.ix()] = a * f[idx.ix()];
}
