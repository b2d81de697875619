// dycore_reference.hpp - the serial host reference: the whole grid in one
// process, the stage's stencils run by a stencil::Step3D on the host engine
// (the user's own code, point by point), the periodic halos in x and y copied
// by hand before each stencil (the step's hook). The distributed runtime has
// no host-reference engine (a Domain on host memory runs stencilc's OpenMP
// code), so --backend=host and --check use this.
#ifndef DYCORE_REFERENCE_HPP
#define DYCORE_REFERENCE_HPP

#include "dycore_step.hpp"

#include <stencil/dsl.hpp>

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dycore {

class ReferenceModel {
public:
  using Array = double *;
  /// Points of halo on each side: what the stencils read (-1 to +2).
  static constexpr int Halo = 2;

  explicit ReferenceModel(const Case &C)
      : loop_(extent(C, 0), Halo, Halo, extent(C, 1), Halo, Halo, extent(C, 2),
              Halo, Halo),
        step_(loop_.ranges(), stencil::StepEngine::Host,
              [this](const void *const *Pointers, int Count) {
                wrapGrids(Pointers, Count);
              }),
        params_(C.parameters(Halo)) {
    for (int D = 0; D < 3; ++D)
      n_[D] = extent(C, D);
    auto Make = [this](const char *) {
      double *A = allocate(count());
      grids_[A] = A;
      return A;
    };
    for (auto &S : states_)
      S = std::make_unique<Prognostic<Array>>(Make);
    diag_ = std::make_unique<Diagnostic<Array>>(Make);
    flux_ = std::make_unique<Fluxes<Array>>(Make);
    rhoBase_ = allocate(n_[2]);
    pBase_ = allocate(n_[2]);
    for (long long K = 0; K < n_[2]; ++K) {
      rhoBase_[K] = C.rhoBase(K - Halo);
      pBase_[K] = C.pBase(K - Halo);
    }
    heat_ = allocate(n_[0] * n_[1]);
    for (long long J = 0; J < n_[1]; ++J)
      for (long long I = 0; I < n_[0]; ++I)
        heat_[I + J * n_[0]] = C.heat(I - Halo, J - Halo);
  }

  // The hook of step_ knows this object's address.
  ReferenceModel(const ReferenceModel &) = delete;
  ReferenceModel &operator=(const ReferenceModel &) = delete;

  /// Runs step function \p F over the grid's own points, stencil by stencil.
  template <typename F, typename... As> void runStep(F Function, As &&...A) {
    Function(step_, std::forward<As>(A)...);
  }

  const Parameters &parameters() const { return params_; }
  Prognostic<Array> &state(int S) { return *states_[S]; }
  Diagnostic<Array> &diagnostics() { return *diag_; }
  Fluxes<Array> &fluxes() { return *flux_; }
  const double *rhoBase() const { return rhoBase_; }
  const double *pBase() const { return pBase_; }
  const double *heat() const { return heat_; }
  void rotate() { std::swap(states_[0], states_[1]); }
  void synchronize() const {}
  bool root() const { return true; }

  /// Sets \p A at every point, halo included, to F(global i, j, k).
  template <typename Fn> void fill(Array A, Fn F) {
    forEachPoint([&](long long N, long long I, long long J, long long K) {
      A[N] = F(I, J, K);
    });
  }
  template <typename Fn> void fillState(Prognostic<Array> &Q, Fn F) {
    forEachPoint([&](long long N, long long I, long long J, long long K) {
      const PointState S = F(I, J, K);
      Q.Rho[N] = S.Rho, Q.RhoU[N] = S.RhoU, Q.RhoV[N] = S.RhoV;
      Q.RhoW[N] = S.RhoW, Q.RhoT[N] = S.RhoT, Q.RhoQ[N] = S.RhoQ;
    });
  }

  /// The grid's values of \p A (no halo), x fastest.
  std::vector<double> gather(const Array &A) const {
    std::vector<double> V;
    V.reserve((n_[0] - 2 * Halo) * (n_[1] - 2 * Halo) * (n_[2] - 2 * Halo));
    for (long long K = Halo; K < n_[2] - Halo; ++K)
      for (long long J = Halo; J < n_[1] - Halo; ++J)
        V.insert(V.end(), A + at(Halo, J, K), A + at(n_[0] - Halo, J, K));
    return V;
  }

private:
  static long long extent(const Case &C, int D) {
    return C.extent(D) + 2 * Halo;
  }
  long long count() const { return n_[0] * n_[1] * n_[2]; }
  long long at(long long I, long long J, long long K) const {
    return I + n_[0] * (J + n_[1] * K);
  }
  double *allocate(long long N) {
    return storage_.emplace_back(N, std::numeric_limits<double>::quiet_NaN())
        .data();
  }
  template <typename Fn> void forEachPoint(Fn F) const {
    for (long long K = 0; K < n_[2]; ++K)
      for (long long J = 0; J < n_[1]; ++J)
        for (long long I = 0; I < n_[0]; ++I)
          F(at(I, J, K), I - Halo, J - Halo, K - Halo);
  }
  /// Before each stencil, the periodic halos of its 3-D arrays: what the
  /// stencil reads of them is then what the exchanges of a Domain give (the
  /// profiles and the surface field are shorter and have no such halo).
  void wrapGrids(const void *const *Pointers, int Count) const {
    for (int I = 0; I < Count; ++I) {
      const auto Grid = grids_.find(Pointers[I]);
      if (Grid != grids_.end())
        wrap(Grid->second);
    }
  }

  /// The periodic halos in x, then in y (its rows include the x halo, so the
  /// edges come out right), on the own levels: nothing is exchanged in z.
  void wrap(double *A) const {
    const long long Nx = n_[0] - 2 * Halo, Ny = n_[1] - 2 * Halo;
    for (long long K = Halo; K < n_[2] - Halo; ++K) {
      for (long long J = Halo; J < n_[1] - Halo; ++J)
        for (long long H = 0; H < Halo; ++H) {
          A[at(H, J, K)] = A[at(H + Nx, J, K)];
          A[at(n_[0] - 1 - H, J, K)] = A[at(n_[0] - 1 - H - Nx, J, K)];
        }
      for (long long H = 0; H < Halo; ++H)
        for (long long I = 0; I < n_[0]; ++I) {
          A[at(I, H, K)] = A[at(I, H + Ny, K)];
          A[at(I, n_[1] - 1 - H, K)] = A[at(I, n_[1] - 1 - H - Ny, K)];
        }
    }
  }

  long long n_[3];
  stencil::Loop3D<stencil::HostLoopEngine3D> loop_;
  stencil::Step3D step_;
  Parameters params_;
  std::deque<std::vector<double>> storage_;
  /// The 3-D arrays (states, diagnostics, fluxes), by address.
  std::map<const void *, double *> grids_;
  std::unique_ptr<Prognostic<Array>> states_[3];
  std::unique_ptr<Diagnostic<Array>> diag_;
  std::unique_ptr<Fluxes<Array>> flux_;
  double *rhoBase_, *pBase_, *heat_;
};

} // namespace dycore

#endif // DYCORE_REFERENCE_HPP
