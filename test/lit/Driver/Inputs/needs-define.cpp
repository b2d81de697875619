// Parses only with -DFROM_DATABASE=1, which only the compilation database gives.
#include <stencil/dsl.hpp>
#ifndef FROM_DATABASE
#error "FROM_DATABASE is not defined: the compile command was not used"
#endif

struct STENCIL_KERNEL Copy {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *f, float *g) const {
    g[idx.ix()] = f[idx.ix<1, 0, 0>()];
  }
};
