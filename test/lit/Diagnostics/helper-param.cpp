// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

inline void accumulate(float &sum, float v) { sum = sum + v; }

STENCIL_KERNEL void structHelper(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  accumulate(s, f[idx.ix()]); // expected-error {{parameter 'sum' of helper 'accumulate' has type 'float &'; helpers take scalars by value, arrays as pointers or the stencil index}}
  fn[idx.ix()] = s;
}
