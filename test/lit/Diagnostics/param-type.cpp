// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

struct Coefficients { float a, b; };

STENCIL_KERNEL void structParam(const stencil::Index3D &idx, Coefficients c, float *fn) { // expected-error {{parameter 'c' of stencil 'structParam' has type 'Coefficients'; stencil parameters are scalars by value or pointers to scalars (arrays)}}
  fn[idx.ix()] = 0.0f;
}

STENCIL_KERNEL void refParam(const stencil::Index3D &idx, float &out, float *fn) { // expected-error {{parameter 'out' of stencil 'refParam' has type 'float &'}}
  fn[idx.ix()] = 0.0f;
}
