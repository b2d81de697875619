// blur.cpp - a DSL source for check_rebuild.cmake, which edits it.
// REBUILD-COMMENT: version 1
#include <stencil/dsl.hpp>

STENCIL_KERNEL
void blur(const stencil::Index2D &idx, const float *u, float *v) {
  v[idx.ix()] = 0.5f * u[idx.ix()] + 0.25f * (u[idx.ix<-1, 0>()] + u[idx.ix<1, 0>()]);
}

int main() { return 0; }
