// RUN: %stencilc %s -o %t -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void readsOnly(const stencil::Index3D &idx, const float *f, float *fn) { // expected-warning {{stencil 'readsOnly' writes no array}}
  float unused = f[idx.ix()];
  (void)unused;
}
