// A source compiled by a build whose command is GCC's (see
// build-command.test): PRICE comes from the command, FROM_PCH through an
// -include whose GCC precompiled header lies beside it.
#include <stencil/dsl.hpp>
#ifndef FROM_PCH
#error "FROM_PCH is not defined: the command's -include was not used"
#endif

// Clang warns of this, g++ does not: with the build's -Werror it stopped the
// parse.
class Unused {
  int reserved_ = 0;
};

struct STENCIL_KERNEL Priced {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *v) const {
    v[idx.ix()] = u[idx.ix<1, 0>()] * sizeof(PRICE);
  }
};
