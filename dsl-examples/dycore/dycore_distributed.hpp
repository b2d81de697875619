// dycore_distributed.hpp - the dycore on a stencil::Domain: the grid split
// over MPI ranks (periodic in x and y, walls in z), Fields in host memory
// (stencilc's OpenMP code) or GPU memory (its CUDA code), a DomainLoop and a
// DomainStep, which runs a stage as stencilc planned it, exchanging before
// each group of stencils the halos it reads. One rank gets its periodic
// wraps from the exchanges, and several ranks work the same way.
#ifndef DYCORE_DISTRIBUTED_HPP
#define DYCORE_DISTRIBUTED_HPP

#include "dycore_step.hpp"

#include <stencil/mpi.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dycore {

/// A rank's piece of an array of lower rank (a profile, the surface field),
/// in the memory of the domain's fields: a DomainLoop takes it as a pointer.
class LocalPiece {
public:
  LocalPiece(const stencil::Domain &D, const std::vector<double> &Values)
      : host_(Values) {
    if (D.memory() != stencil::Memory::Device)
      return;
    const std::size_t Bytes = Values.size() * sizeof(double);
    device_ = stencil::mpi_device::allocateDevice(Bytes);
    stencil::mpi_device::copyToDevice(device_, Values.data(), Bytes);
  }
  LocalPiece(const LocalPiece &) = delete;
  LocalPiece &operator=(const LocalPiece &) = delete;
  ~LocalPiece() {
    if (device_)
      stencil::mpi_device::releaseDevice(device_);
  }
  const double *data() const {
    return device_ ? static_cast<const double *>(device_) : host_.data();
  }

private:
  std::vector<double> host_;
  void *device_ = nullptr;
};

class DistributedModel {
public:
  using Array = stencil::Field<double>;

  DistributedModel(const stencil::Domain &D, const Case &C)
      : domain_(D), halo_(haloOfStencils(D)), loop_(D), step_(loop_),
        params_(C.parameters(0)) {
    for (int S = 0; S < 3; ++S)
      states_[S] = std::make_unique<Prognostic<Array>>(
          [&](const char *Name) { return make(Name + std::to_string(S)); });
    diag_ = std::make_unique<Diagnostic<Array>>(
        [&](const char *Name) { return make(Name); });
    flux_ = std::make_unique<Fluxes<Array>>(
        [&](const char *Name) { return make(Name); });
    // The pieces of the profiles and of the surface field span the fields'
    // local extents, halo included (element 0 at the grid's origin).
    const stencil::Grid &G = diag_->Pp.grid();
    std::vector<double> RhoBase(G.extent[2]), PBase(G.extent[2]);
    for (long long K = 0; K < G.extent[2]; ++K) {
      RhoBase[K] = C.rhoBase(G.origin[2] + K);
      PBase[K] = C.pBase(G.origin[2] + K);
    }
    std::vector<double> Heat(G.extent[0] * G.extent[1]);
    for (long long J = 0; J < G.extent[1]; ++J)
      for (long long I = 0; I < G.extent[0]; ++I)
        Heat[I + J * G.extent[0]] = C.heat(G.origin[0] + I, G.origin[1] + J);
    rhoBase_ = std::make_unique<LocalPiece>(D, RhoBase);
    pBase_ = std::make_unique<LocalPiece>(D, PBase);
    heat_ = std::make_unique<LocalPiece>(D, Heat);
  }

  /// The halo every field gets: what stencilc's plan of the stage reads
  /// (a fused group recomputes its producers in the halo, so it reads their
  /// inputs two points out, with corners), which also covers every stencil
  /// alone.
  static stencil::Halo haloOfStencils(const stencil::Domain &D) {
    return stencil::DomainStep::haloOf(D.backend(), rungeKuttaStage);
  }

  stencil::DomainLoop &loop() { return loop_; }
  const Parameters &parameters() const { return params_; }
  Prognostic<Array> &state(int S) { return *states_[S]; }
  Diagnostic<Array> &diagnostics() { return *diag_; }
  Fluxes<Array> &fluxes() { return *flux_; }
  const double *rhoBase() const { return rhoBase_->data(); }
  const double *pBase() const { return pBase_->data(); }
  const double *heat() const { return heat_->data(); }
  void rotate() { std::swap(states_[0], states_[1]); }
  void synchronize() const { loop_.synchronize(); }
  bool root() const { return domain_.rank() == 0; }
  const stencil::Halo &halo() const { return halo_; }

  /// Runs step function \p F (its generated code as stencilc planned it)
  /// over the rank's points with the exchanges its plan asks for.
  /// Collective.
  template <typename F, typename... As> void runStep(F Function, As &&...A) {
    ran_ = true;
    if (overlap_)
      step_.run(Function, std::forward<As>(A)...);
    else
      step_.runWithoutOverlap(Function, std::forward<As>(A)...);
  }
  /// Off: each exchange completes before the round that needs it.
  void overlap(bool On) { overlap_ = On; }
  /// Whether a stage ran, and whether the last ran as stencilc planned it
  /// (else call by call).
  bool ran() const { return ran_; }
  bool ranPlan() const { return step_.ranPlan(); }
  /// The bytes this rank sent in the last stage's exchanges, and how many
  /// of them were overlapped two-divided.
  std::size_t bytesSent() const { return step_.bytesSent(); }
  int twoDivided() const { return step_.twoDivided(); }
  /// The measured choices of the stage's fused groups (STENCIL_STEP_PLAN=
  /// timed: DomainStep::chooseByTiming), by round.
  const std::vector<stencil::DomainStep::GroupChoice> &choices() const {
    return step_.choices(rungeKuttaStage);
  }
  /// Each round of a stage timed alone (DomainStep::timeRounds).
  void timeRounds(bool On) { step_.timeRounds(On); }
  const std::vector<stencil::DomainStep::RoundTime> &roundTimes() const {
    return step_.roundTimes();
  }

  template <typename Fn> void fill(Array &A, Fn F) { A.fill(F); }
  template <typename Fn> void fillState(Prognostic<Array> &Q, Fn F) {
    const stencil::Grid &G = Q.Rho.grid();
    std::vector<double> V[6];
    for (std::vector<double> &Values : V)
      Values.reserve(Q.Rho.count());
    for (long long K = 0; K < G.extent[2]; ++K)
      for (long long J = 0; J < G.extent[1]; ++J)
        for (long long I = 0; I < G.extent[0]; ++I) {
          const PointState S =
              F(G.origin[0] + I, G.origin[1] + J, G.origin[2] + K);
          V[0].push_back(S.Rho), V[1].push_back(S.RhoU);
          V[2].push_back(S.RhoV), V[3].push_back(S.RhoW);
          V[4].push_back(S.RhoT), V[5].push_back(S.RhoQ);
        }
    int N = 0;
    Q.forEach([&](Array &A, const char *) { A.upload(V[N++]); });
  }

  /// The grid's values of \p A on rank 0 (empty elsewhere). Collective.
  std::vector<double> gather(const Array &A) const { return A.gather(); }

private:
  Array make(const std::string &Name) { return Array(domain_, halo_, Name); }

  const stencil::Domain &domain_;
  stencil::Halo halo_;
  stencil::DomainLoop loop_;
  stencil::DomainStep step_;
  bool overlap_ = true;
  bool ran_ = false; ///< A stage has run.
  Parameters params_;
  std::unique_ptr<Prognostic<Array>> states_[3];
  std::unique_ptr<Diagnostic<Array>> diag_;
  std::unique_ptr<Fluxes<Array>> flux_;
  std::unique_ptr<LocalPiece> rhoBase_, pBase_, heat_;
};

} // namespace dycore

#endif // DYCORE_DISTRIBUTED_HPP
