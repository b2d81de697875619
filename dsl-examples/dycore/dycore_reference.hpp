// dycore_reference.hpp - the serial host reference: the whole grid in one
// process, the stencils run by Loop3D<HostLoopEngine3D> (the user's own code,
// point by point), the periodic halos in x and y copied by hand. The
// distributed runtime has no host-reference engine (a Domain on host memory
// runs stencilc's OpenMP code), so --backend=host and --check use this.
#ifndef DYCORE_REFERENCE_HPP
#define DYCORE_REFERENCE_HPP

#include "dycore_step.hpp"

#include <stencil/dsl.hpp>

#include <deque>
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
        params_(C.parameters(Halo)) {
    for (int D = 0; D < 3; ++D)
      n_[D] = extent(C, D);
    auto Make = [this](const char *) { return allocate(count()); };
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

  stencil::Loop3D<stencil::HostLoopEngine3D> &loop() { return loop_; }
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

  /// The periodic halos in x, then in y (its rows include the x halo, so the
  /// edges come out right), on the own levels: nothing is exchanged in z.
  template <typename... As> void exchange(As &...Arrays) {
    (wrap(Arrays), ...);
  }

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
  Parameters params_;
  std::deque<std::vector<double>> storage_;
  std::unique_ptr<Prognostic<Array>> states_[3];
  std::unique_ptr<Diagnostic<Array>> diag_;
  std::unique_ptr<Fluxes<Array>> flux_;
  double *rhoBase_, *pBase_, *heat_;
};

} // namespace dycore

#endif // DYCORE_REFERENCE_HPP
