// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void assignsParam(const stencil::Index3D &idx, float a, float *fn) {
  a = 2.0f; // expected-error {{unsupported expression in a stencil: assignment to parameter 'a' (copy it into a local)}}
  fn[idx.ix()] = a;
}
