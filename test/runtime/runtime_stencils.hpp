// runtime_stencils.hpp - the stencils of the runtime tests (stencilc
// translates them from runtime_stencils.cpp, which includes this file).
//
//   Radius2  3-D, reads 2 points on both sides of x, 1 in y, 2 below z: halo
//            x:2/2 y:1/1 z:2/0
//   Copy2d   2-D centre copy, halo 0
//   Upwind   3-D, if/else the OpenMP code prints as selects (a local set on
//            both sides, an array stored on one side), halo x:1/1 y:0/1
#ifndef STENCILC_TEST_RUNTIME_STENCILS_HPP
#define STENCILC_TEST_RUNTIME_STENCILS_HPP

#include <cmath>
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Radius2 {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float c, const float *f,
                             float *fn) const {
    fn[idx.ix()] = c * f[idx.ix()] + f[idx.ix<-2, 0, 0>()] +
                   2.0f * f[idx.ix<2, 0, 0>()] + 3.0f * f[idx.ix<0, -1, 0>()] +
                   4.0f * f[idx.ix<0, 1, 0>()] + 5.0f * f[idx.ix<0, 0, -2>()];
  }
};

struct STENCIL_KERNEL Copy2d {
  STENCIL_HD void operator()(const ArrayIndex2D &idx, const double *f,
                             double *g) const {
    g[idx.ix()] = f[idx.ix()];
  }
};

struct STENCIL_KERNEL Upwind {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float dt, const float *u,
                             const float *q, float *qn) const {
    float flux;
    if (u[idx.ix()] > 0.0f)
      flux = u[idx.ix()] * (q[idx.ix()] - q[idx.ix<-1, 0, 0>()]);
    else
      flux = u[idx.ix()] * (q[idx.ix<1, 0, 0>()] - q[idx.ix()]);
    qn[idx.ix()] = q[idx.ix()] - dt * flux;
    if (q[idx.ix<0, 1, 0>()] < -1.0f)
      qn[idx.ix()] = std::fmin(q[idx.ix()], -0.0f);
  }
};

#endif // STENCILC_TEST_RUNTIME_STENCILS_HPP
