// dycore_step.hpp - one time step: three Runge-Kutta stages, each the step
// rungeKuttaStage (dycore_stage.hpp) over a model's arrays.
//
// A Model is where the stencils run: the serial reference (ReferenceModel:
// a stencil::Step3D on the host engine whose hook wraps the periodic halos)
// or a Domain over MPI ranks (DistributedModel: DomainStep, which exchanges
// what the step's graph asks for). It provides
//   Array                          double * or stencil::Field<double>
//   runStep(function, args...)     runs a step function over its points
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
#include "dycore_stage.hpp"

#include <limits>

namespace dycore {

/// One stage of the Shu-Osher SSP-RK3 on \p M:
///   Out = WeightN * Qn + WeightS * (Qs + dt * L(Qs)).
template <typename Model, typename A = typename Model::Array>
void runStage(Model &M, Prognostic<A> &Qn, Prognostic<A> &Qs,
              Prognostic<A> &Out, double WeightN, double WeightS) {
  const Parameters &P = M.parameters();
  Diagnostic<A> &D = M.diagnostics();
  Fluxes<A> &F = M.fluxes();
  M.runStep(rungeKuttaStage, WeightN, WeightS, P.Dt, P.Rdx, P.Rdy, P.Rdz, P.Kb,
            P.Kt, Gas::P00, Gas::Rd, Gas::CpOverCv, Gas::G, M.pBase(),
            M.rhoBase(), M.heat(), Qn.Rho, Qn.RhoU, Qn.RhoV, Qn.RhoW, Qn.RhoT,
            Qn.RhoQ, Qs.Rho, Qs.RhoU, Qs.RhoV, Qs.RhoW, Qs.RhoT, Qs.RhoQ,
            Out.Rho, Out.RhoU, Out.RhoV, Out.RhoW, Out.RhoT, Out.RhoQ, D.Pp,
            D.Th, D.Q, D.U, D.V, D.W, F.Tx, F.Ty, F.Tz, F.Qx, F.Qy, F.Qz, F.Ux,
            F.Uy, F.Uz, F.Vx, F.Vy, F.Vz, F.Wx, F.Wy, F.Wz);
}

/// One time step of SSP-RK3 (Shu and Osher 1988) from state(0):
///   Q1 = Q^n + dt L(Q^n)
///   Q2 = 3/4 Q^n + 1/4 (Q1 + dt L(Q1))
///   Q^{n+1} = 1/3 Q^n + 2/3 (Q2 + dt L(Q2))
/// The first stage has no Q^n term; state(2) stands in for it with weight 0,
/// since the arrays of one launch must not overlap.
template <typename Model> void step(Model &M) {
  auto &Qn = M.state(0), &Q1 = M.state(1), &Q2 = M.state(2);
  runStage(M, Q2, Qn, Q1, 0.0, 1.0);
  runStage(M, Qn, Q1, Q2, 0.75, 0.25);
  runStage(M, Qn, Q2, Q1, 1.0 / 3.0, 2.0 / 3.0);
  M.rotate();
}

/// Sets state(0) to the case's initial state and poisons the rest with NaN
/// (diagnostics, fluxes, state(1), every halo until an exchange or the
/// reference's wrap fills it, and the z halo beyond the ground and the lid
/// for ever), so a point that a
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
