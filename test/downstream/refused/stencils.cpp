// stencils.cpp - a DSL source the target does not compile (no compile command
// to read: stencilc gets the flags the helper gathers, and what it cannot
// gather is refused).
#include <stencil/dsl.hpp>

#ifndef APP_SCALE
#define APP_SCALE 1.0f
#endif

struct STENCIL_KERNEL Scale {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *v) const {
    v[idx.ix()] = APP_SCALE * u[idx.ix<1, 0>()];
  }
};
