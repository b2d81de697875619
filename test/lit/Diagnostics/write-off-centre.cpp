// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Shift {
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix<1, 0, 0>()] = f[idx.ix()]; // expected-error {{array 'fn' is written at offset [1,0,0]; stencils may write only at the centre 'idx.ix()'}}
  }
};

STENCIL_KERNEL void compound(const stencil::Index2D &idx, float *g) {
  g[idx.ix<0, -1>()] += 1.0f; // expected-error {{array 'g' is written at offset [0,-1]}}
}
