// dycore_stage.hpp - one Runge-Kutta stage as a step (STENCIL_STEP): the
// thirteen stencils in order, each array a parameter of its own. It holds no
// exchange: stencilc's dependency graph of the step says which arrays a
// distributed run must exchange before which stencil (DomainStep), and the
// serial reference wraps its arrays from a hook of its stencil::Step.
//
// A step function has external linkage and is not inline, so this header
// belongs to one translation unit (dycore.cpp).
#ifndef DYCORE_STAGE_HPP
#define DYCORE_STAGE_HPP

#include "dycore_stencils.hpp"

#include <stencil/dsl.hpp>

namespace dycore {

/// One stage of the Shu-Osher SSP-RK3, Out = wn Qn + ws (Qs + dt L(Qs)).
/// After the scalars (kb and kt: idx.k() of the lowest and highest level)
/// and the profiles and surface field come the arrays by role: Qn (*N), Qs
/// (rho .. rhoq), Out (*Out), the diagnostics (pp .. w) and the fluxes
/// f<quantity><direction>. Nothing is fused by hand: fluxes go through
/// arrays, marked STENCIL_SCRATCH (the stage writes each before reading it
/// and nothing reads them after it), so a fused update that recomputes its
/// fluxes need not store them.
STENCIL_STEP
void rungeKuttaStage(
    stencil::Step3D &s, double wn, double ws, double dt, double rdx, double rdy,
    double rdz, int kb, int kt, double p00, double rd, double cpOverCv,
    double g, const double *pBase, const double *rhoBase, const double *heat,
    const double *rhoN, const double *rhouN, const double *rhovN,
    const double *rhowN, const double *rhotN, const double *rhoqN,
    const double *rho, const double *rhou, const double *rhov,
    const double *rhow, const double *rhot, const double *rhoq, double *rhoOut,
    double *rhouOut, double *rhovOut, double *rhowOut, double *rhotOut,
    double *rhoqOut, double *pp, double *th, double *q, double *u, double *v,
    double *w, STENCIL_SCRATCH double *ftx, STENCIL_SCRATCH double *fty,
    STENCIL_SCRATCH double *ftz, STENCIL_SCRATCH double *fqx,
    STENCIL_SCRATCH double *fqy, STENCIL_SCRATCH double *fqz,
    STENCIL_SCRATCH double *fux, STENCIL_SCRATCH double *fuy,
    STENCIL_SCRATCH double *fuz, STENCIL_SCRATCH double *fvx,
    STENCIL_SCRATCH double *fvy, STENCIL_SCRATCH double *fvz,
    STENCIL_SCRATCH double *fwx, STENCIL_SCRATCH double *fwy,
    STENCIL_SCRATCH double *fwz) {
  s.run(Diagnose(), p00, rd, cpOverCv, rho, rhot, rhoq, pBase, pp, th, q);
  s.run(FaceVelocity(), kb, rho, rhou, rhov, rhow, u, v, w);

  s.run(ScalarFluxX(), rhou, th, q, ftx, fqx);
  s.run(ScalarFluxY(), rhov, th, q, fty, fqy);
  s.run(ScalarFluxZ(), kb, kt, rhow, th, q, ftz, fqz);
  s.run(MomentumFluxU(), kb, kt, rhou, rhov, rhow, u, fux, fuy, fuz);
  s.run(MomentumFluxV(), kb, kt, rhou, rhov, rhow, v, fvx, fvy, fvz);
  s.run(MomentumFluxW(), kb, kt, rhou, rhov, rhow, w, fwx, fwy, fwz);

  s.run(UpdateMass(), wn, ws, dt, rdx, rdy, rdz, kt, rhoN, rho, rhou, rhov,
        rhow, rhoOut);
  s.run(UpdateScalars(), wn, ws, dt, rdx, rdy, rdz, kb, heat, rhotN, rhoqN,
        rhot, rhoq, ftx, fty, ftz, fqx, fqy, fqz, rhotOut, rhoqOut);
  s.run(UpdateU(), wn, ws, dt, rdx, rdy, rdz, kb, rhouN, rhou, fux, fuy, fuz,
        pp, rhouOut);
  s.run(UpdateV(), wn, ws, dt, rdx, rdy, rdz, kb, rhovN, rhov, fvx, fvy, fvz,
        pp, rhovOut);
  s.run(UpdateW(), wn, ws, dt, rdx, rdy, rdz, g, kb, rhoBase, rhowN, rhow, rho,
        fwx, fwy, fwz, pp, rhowOut);
}

} // namespace dycore

#endif // DYCORE_STAGE_HPP
