// dycore_step.hpp - one time step: three Runge-Kutta stages, each a plain
// sequence of stencil runs with the halo exchanges their reads need.
//
// A Model is where the stencils run: the serial reference (ReferenceModel:
// Loop3D<HostLoopEngine3D>, periodic wraps by hand) or a Domain over MPI
// ranks (DistributedModel: DomainLoop, HaloExchange). It provides
//   Array                          double * or stencil::Field<double>
//   loop()                         with run(stencil, args...)
//   exchange(arrays...)            fills the halos of those arrays
//   state(0..2), diagnostics(), fluxes()
//   parameters(), rhoBase(), pBase(), heat()   (the profiles and the surface
//                                  field: pointers to the rank's piece)
//   rotate()                       state(1) becomes state(0)
// The stage is written once, for both: what the host reference computes is
// what the generated code computes, stencil by stencil.
#ifndef DYCORE_STEP_HPP
#define DYCORE_STEP_HPP

#include "dycore_cases.hpp"
#include "dycore_fields.hpp"
#include "dycore_stencils.hpp"

#include <limits>

namespace dycore {

/// One stage of the Shu-Osher SSP-RK3:
///   Out = WeightN * Qn + WeightS * (Qs + dt * L(Qs)).
/// No stencil is fused with another: fluxes go through arrays, and every
/// array read off its centre is exchanged first.
template <typename Model, typename A = typename Model::Array>
void rungeKuttaStage(Model &M, Prognostic<A> &Qn, Prognostic<A> &Qs,
                     Prognostic<A> &Out, double WeightN, double WeightS) {
  auto &L = M.loop();
  const Parameters &P = M.parameters();
  Diagnostic<A> &D = M.diagnostics();
  Fluxes<A> &F = M.fluxes();
  const double Wn = WeightN, Ws = WeightS;

  // Density and momentum are read at the neighbours (face densities, mass
  // fluxes); rho theta and rho q only at the centre.
  M.exchange(Qs.Rho, Qs.RhoU, Qs.RhoV, Qs.RhoW);
  L.run(Diagnose(), Gas::P00, Gas::Rd, Gas::CpOverCv, Qs.Rho, Qs.RhoT, Qs.RhoQ,
        M.pBase(), D.Pp, D.Th, D.Q);
  L.run(FaceVelocity(), P.Kb, Qs.Rho, Qs.RhoU, Qs.RhoV, Qs.RhoW, D.U, D.V, D.W);

  M.exchange(D.Pp, D.Th, D.Q, D.U, D.V, D.W);
  L.run(ScalarFluxX(), Qs.RhoU, D.Th, D.Q, F.Tx, F.Qx);
  L.run(ScalarFluxY(), Qs.RhoV, D.Th, D.Q, F.Ty, F.Qy);
  L.run(ScalarFluxZ(), P.Kb, P.Kt, Qs.RhoW, D.Th, D.Q, F.Tz, F.Qz);
  L.run(MomentumFluxU(), P.Kb, P.Kt, Qs.RhoU, Qs.RhoV, Qs.RhoW, D.U, F.Ux, F.Uy,
        F.Uz);
  L.run(MomentumFluxV(), P.Kb, P.Kt, Qs.RhoU, Qs.RhoV, Qs.RhoW, D.V, F.Vx, F.Vy,
        F.Vz);
  L.run(MomentumFluxW(), P.Kb, P.Kt, Qs.RhoU, Qs.RhoV, Qs.RhoW, D.W, F.Wx, F.Wy,
        F.Wz);

  // The divergences read each flux one point below.
  M.exchange(F.Tx, F.Ty, F.Tz, F.Qx, F.Qy, F.Qz, F.Ux, F.Uy, F.Uz, F.Vx, F.Vy,
             F.Vz, F.Wx, F.Wy, F.Wz);
  L.run(UpdateMass(), Wn, Ws, P.Dt, P.Rdx, P.Rdy, P.Rdz, P.Kt, Qn.Rho, Qs.Rho,
        Qs.RhoU, Qs.RhoV, Qs.RhoW, Out.Rho);
  L.run(UpdateScalars(), Wn, Ws, P.Dt, P.Rdx, P.Rdy, P.Rdz, P.Kb, M.heat(),
        Qn.RhoT, Qn.RhoQ, Qs.RhoT, Qs.RhoQ, F.Tx, F.Ty, F.Tz, F.Qx, F.Qy, F.Qz,
        Out.RhoT, Out.RhoQ);
  L.run(UpdateU(), Wn, Ws, P.Dt, P.Rdx, P.Rdy, P.Rdz, P.Kb, Qn.RhoU, Qs.RhoU,
        F.Ux, F.Uy, F.Uz, D.Pp, Out.RhoU);
  L.run(UpdateV(), Wn, Ws, P.Dt, P.Rdx, P.Rdy, P.Rdz, P.Kb, Qn.RhoV, Qs.RhoV,
        F.Vx, F.Vy, F.Vz, D.Pp, Out.RhoV);
  L.run(UpdateW(), Wn, Ws, P.Dt, P.Rdx, P.Rdy, P.Rdz, Gas::G, P.Kb, M.rhoBase(),
        Qn.RhoW, Qs.RhoW, Qs.Rho, F.Wx, F.Wy, F.Wz, D.Pp, Out.RhoW);
}

/// One time step of SSP-RK3 (Shu and Osher 1988) from state(0):
///   Q1 = Q^n + dt L(Q^n)
///   Q2 = 3/4 Q^n + 1/4 (Q1 + dt L(Q1))
///   Q^{n+1} = 1/3 Q^n + 2/3 (Q2 + dt L(Q2))
/// The first stage has no Q^n term; state(2) stands in for it with weight 0,
/// since the arrays of one launch must not overlap.
template <typename Model> void step(Model &M) {
  auto &Qn = M.state(0), &Q1 = M.state(1), &Q2 = M.state(2);
  rungeKuttaStage(M, Q2, Qn, Q1, 0.0, 1.0);
  rungeKuttaStage(M, Qn, Q1, Q2, 0.75, 0.25);
  rungeKuttaStage(M, Qn, Q2, Q1, 1.0 / 3.0, 2.0 / 3.0);
  M.rotate();
}

/// Sets state(0) to the case's initial state and poisons the rest with NaN
/// (diagnostics, fluxes, state(1), every halo until an exchange fills it and
/// the z halo beyond the ground and the lid for ever), so a point that a
/// stencil should have written, or must not read, cannot pass for a value.
/// state(2)'s own points are 0: the first stage reads them with weight 0.
template <typename Model> void initialize(Model &M, const Case &C) {
  using Array = typename Model::Array;
  M.fillState(M.state(0), [&](long long I, long long J, long long K) {
    return C.initial(I, J, K);
  });
  auto Fill = [&](double Inside) {
    return [&M, &C, Inside](Array &A, const char *) {
      M.fill(A, [&C, Inside](long long I, long long J, long long K) {
        return C.contains(I, J, K) ? Inside
                                   : std::numeric_limits<double>::quiet_NaN();
      });
    };
  };
  const double NaN = std::numeric_limits<double>::quiet_NaN();
  M.state(1).forEach(Fill(NaN));
  M.state(2).forEach(Fill(0.0));
  M.diagnostics().forEach(Fill(NaN));
  M.fluxes().forEach(Fill(NaN));
}

} // namespace dycore

#endif // DYCORE_STEP_HPP
