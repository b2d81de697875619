// other/app.cpp - a second DSL source named like ../app.cpp.
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL OtherCopy {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *v) const {
    v[idx.ix()] = u[idx.ix<1, 0>()];
  }
};
