// mpi_stencils.hpp - the stencils of the MPI tests, in the DSL (stencilc
// generates their code from mpi_test.cpp, which includes this file).
//
//   Diffusion7  3-D 7-point, faces only; a source and a fixed plane from the
//               global coordinates (idx.i/j/k), so a wrong origin shows
//   Box27       3-D 27-point with diagonal offsets: edges and corners, double
//   Smooth7d    3-D 7-point, double: the post stencil after Box27 (two-divided)
//   Wide        3-D, halo widths differ per side: x 2/1, y 0/2, z 1/0
//   Heat2d9     2-D 9-point (diagonals), double, with a fixed column
//   Upwind      3-D, double, uneven reach (x 1/2, y 1/0, z 0/1) with a
//               diagonal offset, and no coordinate: time loops take several
//               steps per exchange across periodic wraps too
//   diffuse2d   2-D 5-point, float, no coordinate
//   Blend       3-D, float: reads the array it writes at the centre (what it
//               held two steps back, in a time loop)
//   Clip        3-D, double: writes its output only where f > 0.5 (elsewhere
//               it keeps what it held two steps back)
//   Accumulate  3-D, double: a time loop's third array, updated in place and
//               read at the centre (an accumulator the next level reads)
#ifndef STENCILC_TEST_MPI_STENCILS_HPP
#define STENCILC_TEST_MPI_STENCILS_HPP

#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Diffusion7 {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float c, float s,
                             int fixedK, const float *f, float *fn) const {
    const float src =
        s * static_cast<float>(idx.i() + 2 * idx.j() + 3 * idx.k());
    fn[idx.ix()] =
        idx.k() == fixedK
            ? f[idx.ix()]
            : (1.0f - 6.0f * c) * f[idx.ix()] + c * f[idx.ix<1, 0, 0>()] +
                  c * f[idx.ix<-1, 0, 0>()] + c * f[idx.ix<0, 1, 0>()] +
                  c * f[idx.ix<0, -1, 0>()] + c * f[idx.ix<0, 0, 1>()] +
                  c * f[idx.ix<0, 0, -1>()] + src;
  }
};

struct STENCIL_KERNEL Box27 {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, double w, const double *f,
                             double *fn) const {
    const double sum =
        f[idx.ix<-1, -1, -1>()] + 2.0 * f[idx.ix<0, -1, -1>()] +
        3.0 * f[idx.ix<1, -1, -1>()] + 4.0 * f[idx.ix<-1, 0, -1>()] +
        5.0 * f[idx.ix<0, 0, -1>()] + 6.0 * f[idx.ix<1, 0, -1>()] +
        7.0 * f[idx.ix<-1, 1, -1>()] + 8.0 * f[idx.ix<0, 1, -1>()] +
        9.0 * f[idx.ix<1, 1, -1>()] + 10.0 * f[idx.ix<-1, -1, 0>()] +
        11.0 * f[idx.ix<0, -1, 0>()] + 12.0 * f[idx.ix<1, -1, 0>()] +
        13.0 * f[idx.ix<-1, 0, 0>()] + 14.0 * f[idx.ix()] +
        15.0 * f[idx.ix<1, 0, 0>()] + 16.0 * f[idx.ix<-1, 1, 0>()] +
        17.0 * f[idx.ix<0, 1, 0>()] + 18.0 * f[idx.ix<1, 1, 0>()] +
        19.0 * f[idx.ix<-1, -1, 1>()] + 20.0 * f[idx.ix<0, -1, 1>()] +
        21.0 * f[idx.ix<1, -1, 1>()] + 22.0 * f[idx.ix<-1, 0, 1>()] +
        23.0 * f[idx.ix<0, 0, 1>()] + 24.0 * f[idx.ix<1, 0, 1>()] +
        25.0 * f[idx.ix<-1, 1, 1>()] + 26.0 * f[idx.ix<0, 1, 1>()] +
        27.0 * f[idx.ix<1, 1, 1>()];
    fn[idx.ix()] = w * sum + 1e-3 * static_cast<double>(idx.j() - idx.k());
  }
};

struct STENCIL_KERNEL Smooth7d {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, double c, const double *g,
                             double *f) const {
    f[idx.ix()] = (1.0 - 6.0 * c) * g[idx.ix()] +
                  c * (g[idx.ix<1, 0, 0>()] + g[idx.ix<-1, 0, 0>()] +
                       g[idx.ix<0, 1, 0>()] + g[idx.ix<0, -1, 0>()] +
                       g[idx.ix<0, 0, 1>()] + g[idx.ix<0, 0, -1>()]);
  }
};

struct STENCIL_KERNEL Wide {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float a, const float *f,
                             float *fn) const {
    fn[idx.ix()] =
        a * (f[idx.ix<-2, 0, 0>()] + 2.0f * f[idx.ix<1, 0, 0>()] +
             3.0f * f[idx.ix<0, 2, 0>()] + 4.0f * f[idx.ix<0, 1, 0>()] +
             5.0f * f[idx.ix<0, 0, -1>()] + f[idx.ix()]) +
        0.01f * static_cast<float>(idx.i());
  }
};

struct STENCIL_KERNEL Upwind {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, double a, const double *f,
                             double *fn) const {
    fn[idx.ix()] =
        f[idx.ix()] + a * (f[idx.ix<-1, 0, 0>()] - 2.0 * f[idx.ix<2, 0, 0>()] +
                           0.5 * f[idx.ix<1, -1, 0>()] + f[idx.ix<0, 0, 1>()] -
                           0.5 * f[idx.ix()]);
  }
};

// Reads a profile along z (an array of lower rank) beside a field.
struct STENCIL_KERNEL Profile7 {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *f0,
                             const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix()] * f0[idx.ix_z<1>()] + f0[idx.ix_z<-1>()];
  }
};

// A step (STENCIL_STEP): fluxes in x and y, then their divergence weighted
// by a profile along z; the fluxes are read off the centre after they are
// written, u before.
struct STENCIL_KERNEL FluxX {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *u,
                             float *fx) const {
    fx[idx.ix()] = 0.5f * (u[idx.ix<1, 0, 0>()] + u[idx.ix()]);
  }
};
struct STENCIL_KERNEL FluxY {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *u,
                             float *fy) const {
    fy[idx.ix()] = 0.5f * (u[idx.ix<0, 1, 0>()] + u[idx.ix()]);
  }
};
struct STENCIL_KERNEL Divergence {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float dt,
                             const float *rho0, const float *fx,
                             const float *fy, const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix()] + dt * rho0[idx.ix_z()] *
                                     (fx[idx.ix()] - fx[idx.ix<-1, 0, 0>()] +
                                      fy[idx.ix()] - fy[idx.ix<0, -1, 0>()]);
  }
};
STENCIL_STEP
void advectStep(stencil::Step3D &s, float dt, const float *rho0, const float *u,
                float *fx, float *fy, float *un) {
  s.run(FluxX(), u, fx);
  s.run(FluxY(), u, fy);
  s.run(Divergence(), dt, rho0, fx, fy, u, un);
}

/// relaxStep: Diagnose reads only centres, so it needs no exchange, and
/// Relax reads what it wrote off the centre; Relax writes what Diagnose
/// reads, so the two are not fused: the exchange of p between them is
/// overlapped two-divided.
struct STENCIL_KERNEL Diagnose {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *u,
                             const float *w, float *p) const {
    p[idx.ix()] = 0.5f * u[idx.ix()] * u[idx.ix()] + 0.25f * w[idx.ix()];
  }
};
struct STENCIL_KERNEL Relax {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float c, const float *p,
                             const float *u, float *w) const {
    w[idx.ix()] =
        u[idx.ix()] +
        c * (p[idx.ix<-1, 0, 0>()] + p[idx.ix<1, 0, 0>()] +
             p[idx.ix<0, -2, 0>()] + p[idx.ix<0, 1, 0>()] +
             p[idx.ix<0, 0, -1>()] + p[idx.ix<1, 0, 1>()] - 6.0f * p[idx.ix()]);
  }
};
STENCIL_STEP
void relaxStep(stencil::Step3D &s, float c, const float *u, float *p,
               float *w) {
  s.run(Diagnose(), u, w, p);
  s.run(Relax(), c, p, u, w);
}

STENCIL_KERNEL
void heat2d9(const stencil::Index2D &idx, double c, int fixedI, const double *u,
             double *un) {
  un[idx.ix()] = idx.i() == fixedI
                     ? u[idx.ix()]
                     : (1.0 - 8.0 * c) * u[idx.ix()] +
                           c * (u[idx.ix<-1, 0>()] + u[idx.ix<1, 0>()] +
                                u[idx.ix<0, -1>()] + u[idx.ix<0, 1>()]) +
                           c * (u[idx.ix<-1, -1>()] + u[idx.ix<1, -1>()] +
                                u[idx.ix<-1, 1>()] + u[idx.ix<1, 1>()]) +
                           1e-4 * static_cast<double>(idx.j());
}

// Reached through a function pointer (mpi.error.repeat-marks-swapped).
STENCIL_KERNEL
void smooth3d(const stencil::Index3D &idx, const float *u, float *un) {
  un[idx.ix()] = 0.5f * u[idx.ix<1, 0, 0>()] + 0.25f * u[idx.ix<0, -1, 0>()] +
                 0.25f * u[idx.ix<0, 0, 1>()];
}

STENCIL_KERNEL
void diffuse2d(const stencil::Index2D &idx, float c, const float *u,
               float *un) {
  un[idx.ix()] = (1.0f - 4.0f * c) * u[idx.ix()] +
                 c * (u[idx.ix<-1, 0>()] + u[idx.ix<1, 0>()] +
                      u[idx.ix<0, -1>()] + u[idx.ix<0, 1>()]);
}

// The next level read at its centre: a time loop's step t reads level t - 2
// there, also at the halo points that the steps between exchanges compute.
struct STENCIL_KERNEL Blend {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float w, const float *f,
                             float *fn) const {
    fn[idx.ix()] =
        w * fn[idx.ix()] + 0.25f * (1.0f - w) *
                               (f[idx.ix<1, 0, 0>()] + f[idx.ix<0, -1, 0>()] +
                                f[idx.ix<0, 0, 1>()] + f[idx.ix()]);
  }
};

// The next level stored on some points only: elsewhere it keeps level t - 2.
struct STENCIL_KERNEL Clip {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, double a, const double *f,
                             double *fn) const {
    if (f[idx.ix()] > 0.5)
      fn[idx.ix()] = a * (f[idx.ix<1, 0, 0>()] + f[idx.ix<-1, 0, 0>()] +
                          f[idx.ix<0, 1, 1>()] + f[idx.ix<0, 0, -1>()]) +
                     0.05;
  }
};

// A third array besides the time levels, updated in place and read at its
// centre: between exchanges the steps compute it in the halo too, from what
// the halo held there.
struct STENCIL_KERNEL Accumulate {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, double c, const double *f,
                             double *fn, double *w) const {
    const double s = c * (f[idx.ix<1, 0, 0>()] + f[idx.ix<-1, 0, 0>()] +
                          f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()]) +
                     (1.0 - 4.0 * c) * f[idx.ix()];
    w[idx.ix()] = 0.5 * w[idx.ix()] + s;
    fn[idx.ix()] = s + 0.01 * w[idx.ix()];
  }
};

#endif // STENCILC_TEST_MPI_STENCILS_HPP
