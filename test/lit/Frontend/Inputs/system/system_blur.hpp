// A project's stencil in a header its users reach through -isystem (CMake
// gives imported targets' include directories so).
#pragma once
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL SystemBlur {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const double *u, double *un) const {
    un[idx.ix()] = 0.5 * (u[idx.ix<-1, 0>()] + u[idx.ix<1, 0>()]);
  }
};

STENCIL_STEP
void systemSmooth(stencil::Step2D &s, const double *u, double *v, double *w) {
  s.run(SystemBlur(), u, v);
  s.run(SystemBlur(), v, w);
}

#ifdef WITH_HELPER
inline double twice(double x) { return 2.0 * x; }
struct STENCIL_KERNEL SystemTwice {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const double *u, double *un) const {
    un[idx.ix()] = twice(u[idx.ix()]);
  }
};
#endif
