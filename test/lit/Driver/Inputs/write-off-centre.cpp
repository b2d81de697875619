// A stencil with one error, for the colour test.
#include <stencil/dsl.hpp>

STENCIL_KERNEL void shift(const stencil::Index2D &idx, const float *u, float *v) {
  v[idx.ix<1, 0>()] = u[idx.ix()];
}
