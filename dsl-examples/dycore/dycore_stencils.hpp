// dycore_stencils.hpp - the stencils of the dynamical core: one Runge-Kutta
// stage of the compressible Euler equations in flux form (README.md has the
// equations and the grid).
//
// The grid is an Arakawa C-grid with a Lorenz vertical grid: density rho,
// rho*theta, rho*q and the perturbation pressure p' live at cell centres;
// rho*u[i] sits on the west face of cell i (x = i - 1/2), rho*v[j] on the
// south face (y = j - 1/2) and rho*w[k] on the bottom face (z = k - 1/2).
// rho*w at the lowest level (idx.k() == kb) is the ground, held at 0; the lid
// above the highest level (kt) is not stored: every read of it is a 0 chosen
// from idx.k(), so no stencil reads the z halo beyond the ground or the lid.
//
// Fluxes follow one rule: a flux F_d[p] sits half a cell above the point p of
// the quantity it carries in direction d, and the divergence at p is
// (F_d[p] - F_d[p - e_d]) / delta_d. Every flux is a mass flux (rho*u, or the
// mean of two, at the flux point) times the carried quantity (theta, q, u, v
// or w) reconstructed there by a van Leer limited upwind scheme, so mass and
// tracer mass are conserved to round-off and the tracer gets no new extrema.
//
// kb and kt are idx.k() of the lowest and the highest level: 0 and nz - 1
// over a Domain (global coordinates), the first and last own plane of the
// arrays under the serial reference's Loop3D.
#ifndef DYCORE_STENCILS_HPP
#define DYCORE_STENCILS_HPP

#include <stencil/dsl.hpp>

#include <cmath>

namespace dycore {

/// The value a limited upwind scheme puts on the downstream face of the
/// upwind cell \p Up, whose other neighbours are \p Far (upstream) and \p Down
/// (downstream): van Leer's limiter, Up + 0.5 phi(r) (Down - Up) with
/// phi(r) = 2r / (1 + r), written as a harmonic mean so that it needs no
/// division by a gradient that may be zero. It lies between Up and Down,
/// which is what keeps the scheme free of new extrema.
STENCIL_HD inline double vanLeerFace(double Up, double Far, double Down) {
  const double A = Up - Far;
  const double B = Down - Up;
  return A * B > 0.0 ? Up + A * B / (A + B) : Up;
}

/// The value on the face between \p Q0 and \p Q1 (in that order along the
/// axis, \p Qm before and \p Qp after them) carried by mass flux \p Flux.
STENCIL_HD inline double upwindFace(double Qm, double Q0, double Q1, double Qp,
                                    double Flux) {
  return Flux >= 0.0 ? vanLeerFace(Q0, Qm, Q1) : vanLeerFace(Q1, Qp, Q0);
}

/// One Shu-Osher stage, A * Q^n + B * (Q^s + dt * tendency) with A + B = 1,
/// evaluated as Q^s + B * dt * tendency + A * (Q^n - Q^s): a state that
/// does not change (a zero tendency, Q^n = Q^s) stays bit for bit what it is,
/// where the weighted sum would round it (the base state would not stay at
/// rest, and 1/3 + 2/3 rounded is not 1: the mass would drift). The first
/// stage has A = 0, and 0 * (Q^n - Q^s) adds nothing for finite values.
STENCIL_HD inline double rungeKutta(double A, double B, double Dt, double Qn,
                                    double Qs, double Tendency) {
  return Qs + B * Dt * Tendency + A * (Qn - Qs);
}

/// p' = p(rho theta) - p0(z), theta and q at the cell centres. The base
/// state's pressure p0 is the same equation of state of the base state's
/// rho theta, so a fluid at rest in the base state has p' = 0 exactly.
struct STENCIL_KERNEL Diagnose {
  STENCIL_HD void operator()(const stencil::Index3D &idx, double p00, double rd,
                             double cpOverCv, const double *rho,
                             const double *rhot, const double *rhoq,
                             const double *pBase, double *pp, double *th,
                             double *q) const {
    const double R = rho[idx.ix()];
    pp[idx.ix()] =
        p00 * std::pow(rd * rhot[idx.ix()] / p00, cpOverCv) - pBase[idx.ix_z()];
    th[idx.ix()] = rhot[idx.ix()] / R;
    q[idx.ix()] = rhoq[idx.ix()] / R;
  }
};

/// The velocities on the faces: momentum over the mean density of the two
/// cells the face separates; w = 0 on the ground.
struct STENCIL_KERNEL FaceVelocity {
  STENCIL_HD void operator()(const stencil::Index3D &idx, int kb,
                             const double *rho, const double *rhou,
                             const double *rhov, const double *rhow, double *u,
                             double *v, double *w) const {
    const double R = rho[idx.ix()];
    u[idx.ix()] = rhou[idx.ix()] / (0.5 * (rho[idx.ix<-1, 0, 0>()] + R));
    v[idx.ix()] = rhov[idx.ix()] / (0.5 * (rho[idx.ix<0, -1, 0>()] + R));
    w[idx.ix()] = idx.k() == kb
                      ? 0.0
                      : rhow[idx.ix()] / (0.5 * (rho[idx.ix<0, 0, -1>()] + R));
  }
};

/// The value of \p q on the face x = i + 1/2 carried by mass flux \p Flux.
STENCIL_HD inline double faceX(const stencil::Index3D &idx, const double *q,
                               double Flux) {
  return upwindFace(q[idx.ix<-1, 0, 0>()], q[idx.ix()], q[idx.ix<1, 0, 0>()],
                    q[idx.ix<2, 0, 0>()], Flux);
}

/// The value of \p q on the face y = j + 1/2 carried by mass flux \p Flux.
STENCIL_HD inline double faceY(const stencil::Index3D &idx, const double *q,
                               double Flux) {
  return upwindFace(q[idx.ix<0, -1, 0>()], q[idx.ix()], q[idx.ix<0, 1, 0>()],
                    q[idx.ix<0, 2, 0>()], Flux);
}

/// The value of \p q on the face z = k + 1/2 carried by mass flux \p Flux,
/// for a quantity of the levels (not w): next to the ground and the lid,
/// where the upstream neighbour would lie outside, first-order upwind; at
/// the lid itself (k = kt, whose Flux is 0) the level's own value.
STENCIL_HD inline double faceZ(const stencil::Index3D &idx, int kb, int kt,
                               const double *q, double Flux) {
  const int K = idx.k();
  const double Q0 = q[idx.ix()];
  const double Qm = K == kb ? Q0 : q[idx.ix<0, 0, -1>()];
  const double Q1 = K == kt ? Q0 : q[idx.ix<0, 0, 1>()];
  const double Q2 = K + 1 >= kt ? Q1 : q[idx.ix<0, 0, 2>()];
  return upwindFace(Qm, Q0, Q1, Q2, Flux);
}

/// Fluxes of rho theta and rho q through the east face (x = i + 1/2).
struct STENCIL_KERNEL ScalarFluxX {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *rhou,
                             const double *th, const double *q, double *ftx,
                             double *fqx) const {
    const double F = rhou[idx.ix<1, 0, 0>()];
    ftx[idx.ix()] = F * faceX(idx, th, F);
    fqx[idx.ix()] = F * faceX(idx, q, F);
  }
};

/// Fluxes of rho theta and rho q through the north face (y = j + 1/2).
struct STENCIL_KERNEL ScalarFluxY {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *rhov,
                             const double *th, const double *q, double *fty,
                             double *fqy) const {
    const double F = rhov[idx.ix<0, 1, 0>()];
    fty[idx.ix()] = F * faceY(idx, th, F);
    fqy[idx.ix()] = F * faceY(idx, q, F);
  }
};

/// Fluxes of rho theta and rho q through the top face (z = k + 1/2), none
/// through the lid.
struct STENCIL_KERNEL ScalarFluxZ {
  STENCIL_HD void operator()(const stencil::Index3D &idx, int kb, int kt,
                             const double *rhow, const double *th,
                             const double *q, double *ftz, double *fqz) const {
    const double F = idx.k() == kt ? 0.0 : rhow[idx.ix<0, 0, 1>()];
    ftz[idx.ix()] = F * faceZ(idx, kb, kt, th, F);
    fqz[idx.ix()] = F * faceZ(idx, kb, kt, q, F);
  }
};

/// Fluxes of rho u: in x at the centre of cell i (between u[i] and u[i+1]),
/// in y at (i - 1/2, j + 1/2), in z at (i - 1/2, k + 1/2), none through the
/// lid.
struct STENCIL_KERNEL MomentumFluxU {
  STENCIL_HD void operator()(const stencil::Index3D &idx, int kb, int kt,
                             const double *rhou, const double *rhov,
                             const double *rhow, const double *u, double *fux,
                             double *fuy, double *fuz) const {
    const double Mx = 0.5 * (rhou[idx.ix()] + rhou[idx.ix<1, 0, 0>()]);
    fux[idx.ix()] = Mx * faceX(idx, u, Mx);
    const double My =
        0.5 * (rhov[idx.ix<-1, 1, 0>()] + rhov[idx.ix<0, 1, 0>()]);
    fuy[idx.ix()] = My * faceY(idx, u, My);
    const double Mz =
        idx.k() == kt
            ? 0.0
            : 0.5 * (rhow[idx.ix<-1, 0, 1>()] + rhow[idx.ix<0, 0, 1>()]);
    fuz[idx.ix()] = Mz * faceZ(idx, kb, kt, u, Mz);
  }
};

/// Fluxes of rho v: in x at (i + 1/2, j - 1/2), in y at the centre of cell
/// j, in z at (j - 1/2, k + 1/2), none through the lid.
struct STENCIL_KERNEL MomentumFluxV {
  STENCIL_HD void operator()(const stencil::Index3D &idx, int kb, int kt,
                             const double *rhou, const double *rhov,
                             const double *rhow, const double *v, double *fvx,
                             double *fvy, double *fvz) const {
    const double Mx =
        0.5 * (rhou[idx.ix<1, -1, 0>()] + rhou[idx.ix<1, 0, 0>()]);
    fvx[idx.ix()] = Mx * faceX(idx, v, Mx);
    const double My = 0.5 * (rhov[idx.ix()] + rhov[idx.ix<0, 1, 0>()]);
    fvy[idx.ix()] = My * faceY(idx, v, My);
    const double Mz =
        idx.k() == kt
            ? 0.0
            : 0.5 * (rhow[idx.ix<0, -1, 1>()] + rhow[idx.ix<0, 0, 1>()]);
    fvz[idx.ix()] = Mz * faceZ(idx, kb, kt, v, Mz);
  }
};

/// Fluxes of rho w: in x at (i + 1/2, k - 1/2), in y at (j + 1/2, k - 1/2)
/// (none at the ground, whose w is fixed), in z at the centre of cell k,
/// between w[k] and w[k + 1], which is 0 at the lid.
struct STENCIL_KERNEL MomentumFluxW {
  STENCIL_HD void operator()(const stencil::Index3D &idx, int kb, int kt,
                             const double *rhou, const double *rhov,
                             const double *rhow, const double *w, double *fwx,
                             double *fwy, double *fwz) const {
    const int K = idx.k();
    const double W0 = w[idx.ix()];
    const double Mx =
        K == kb ? 0.0
                : 0.5 * (rhou[idx.ix<1, 0, -1>()] + rhou[idx.ix<1, 0, 0>()]);
    fwx[idx.ix()] = Mx * faceX(idx, w, Mx);
    const double My =
        K == kb ? 0.0
                : 0.5 * (rhov[idx.ix<0, 1, -1>()] + rhov[idx.ix<0, 1, 0>()]);
    fwy[idx.ix()] = My * faceY(idx, w, My);
    const double Mz =
        0.5 * (rhow[idx.ix()] + (K == kt ? 0.0 : rhow[idx.ix<0, 0, 1>()]));
    const double Wm = K == kb ? W0 : w[idx.ix<0, 0, -1>()];
    const double W1 = K == kt ? 0.0 : w[idx.ix<0, 0, 1>()];
    const double W2 = K == kt ? W1 : (K + 1 == kt ? 0.0 : w[idx.ix<0, 0, 2>()]);
    fwz[idx.ix()] = Mz * upwindFace(Wm, W0, W1, W2, Mz);
  }
};

/// rho: the divergence of the mass flux (rho u, rho v, rho w themselves).
struct STENCIL_KERNEL UpdateMass {
  STENCIL_HD void operator()(const stencil::Index3D &idx, double a, double b,
                             double dt, double rdx, double rdy, double rdz,
                             int kt, const double *rhoN, const double *rho,
                             const double *rhou, const double *rhov,
                             const double *rhow, double *rhoOut) const {
    const double Top = idx.k() == kt ? 0.0 : rhow[idx.ix<0, 0, 1>()];
    const double Div = (rhou[idx.ix<1, 0, 0>()] - rhou[idx.ix()]) * rdx +
                       (rhov[idx.ix<0, 1, 0>()] - rhov[idx.ix()]) * rdy +
                       (Top - rhow[idx.ix()]) * rdz;
    rhoOut[idx.ix()] =
        rungeKutta(a, b, dt, rhoN[idx.ix()], rho[idx.ix()], -Div);
  }
};

/// The divergence of one scalar's fluxes; nothing through the ground.
STENCIL_HD inline double scalarDivergence(const stencil::Index3D &idx, int kb,
                                          double rdx, double rdy, double rdz,
                                          const double *fx, const double *fy,
                                          const double *fz) {
  const double Bottom = idx.k() == kb ? 0.0 : fz[idx.ix<0, 0, -1>()];
  return (fx[idx.ix()] - fx[idx.ix<-1, 0, 0>()]) * rdx +
         (fy[idx.ix()] - fy[idx.ix<0, -1, 0>()]) * rdy +
         (fz[idx.ix()] - Bottom) * rdz;
}

/// rho theta and rho q; the surface heat flux (a 2-D field, K kg m^-2 s^-1)
/// heats the lowest level.
struct STENCIL_KERNEL UpdateScalars {
  STENCIL_HD void
  operator()(const stencil::Index3D &idx, double a, double b, double dt,
             double rdx, double rdy, double rdz, int kb, const double *heat,
             const double *rhotN, const double *rhoqN, const double *rhot,
             const double *rhoq, const double *ftx, const double *fty,
             const double *ftz, const double *fqx, const double *fqy,
             const double *fqz, double *rhotOut, double *rhoqOut) const {
    const double Heat = idx.k() == kb ? heat[idx.ix_xy()] * rdz : 0.0;
    const double DivT = scalarDivergence(idx, kb, rdx, rdy, rdz, ftx, fty, ftz);
    const double DivQ = scalarDivergence(idx, kb, rdx, rdy, rdz, fqx, fqy, fqz);
    rhotOut[idx.ix()] =
        rungeKutta(a, b, dt, rhotN[idx.ix()], rhot[idx.ix()], Heat - DivT);
    rhoqOut[idx.ix()] =
        rungeKutta(a, b, dt, rhoqN[idx.ix()], rhoq[idx.ix()], -DivQ);
  }
};

/// rho u: momentum fluxes and the pressure gradient across the west face.
struct STENCIL_KERNEL UpdateU {
  STENCIL_HD void operator()(const stencil::Index3D &idx, double a, double b,
                             double dt, double rdx, double rdy, double rdz,
                             int kb, const double *rhouN, const double *rhou,
                             const double *fux, const double *fuy,
                             const double *fuz, const double *pp,
                             double *rhouOut) const {
    const double Div = scalarDivergence(idx, kb, rdx, rdy, rdz, fux, fuy, fuz);
    const double Pgf = (pp[idx.ix()] - pp[idx.ix<-1, 0, 0>()]) * rdx;
    rhouOut[idx.ix()] =
        rungeKutta(a, b, dt, rhouN[idx.ix()], rhou[idx.ix()], -Div - Pgf);
  }
};

/// rho v: momentum fluxes and the pressure gradient across the south face.
struct STENCIL_KERNEL UpdateV {
  STENCIL_HD void operator()(const stencil::Index3D &idx, double a, double b,
                             double dt, double rdx, double rdy, double rdz,
                             int kb, const double *rhovN, const double *rhov,
                             const double *fvx, const double *fvy,
                             const double *fvz, const double *pp,
                             double *rhovOut) const {
    const double Div = scalarDivergence(idx, kb, rdx, rdy, rdz, fvx, fvy, fvz);
    const double Pgf = (pp[idx.ix()] - pp[idx.ix<0, -1, 0>()]) * rdy;
    rhovOut[idx.ix()] =
        rungeKutta(a, b, dt, rhovN[idx.ix()], rhov[idx.ix()], -Div - Pgf);
  }
};

/// rho w: momentum fluxes, the perturbation pressure gradient and the
/// buoyancy of the density perturbation against the base state (whose own
/// pressure gradient and weight balance: hydrostatic), averaged onto the
/// bottom face; 0 on the ground.
struct STENCIL_KERNEL UpdateW {
  STENCIL_HD void operator()(const stencil::Index3D &idx, double a, double b,
                             double dt, double rdx, double rdy, double rdz,
                             double g, int kb, const double *rhoBase,
                             const double *rhowN, const double *rhow,
                             const double *rho, const double *fwx,
                             const double *fwy, const double *fwz,
                             const double *pp, double *rhowOut) const {
    if (idx.k() == kb) {
      rhowOut[idx.ix()] = 0.0;
    } else {
      const double Div = (fwx[idx.ix()] - fwx[idx.ix<-1, 0, 0>()]) * rdx +
                         (fwy[idx.ix()] - fwy[idx.ix<0, -1, 0>()]) * rdy +
                         (fwz[idx.ix()] - fwz[idx.ix<0, 0, -1>()]) * rdz;
      const double Pgf = (pp[idx.ix()] - pp[idx.ix<0, 0, -1>()]) * rdz;
      const double Buoyancy =
          g * 0.5 *
          ((rho[idx.ix()] - rhoBase[idx.ix_z()]) +
           (rho[idx.ix<0, 0, -1>()] - rhoBase[idx.ix_z<-1>()]));
      rhowOut[idx.ix()] = rungeKutta(a, b, dt, rhowN[idx.ix()], rhow[idx.ix()],
                                     -Div - Pgf - Buoyancy);
    }
  }
};

} // namespace dycore

#endif // DYCORE_STENCILS_HPP
