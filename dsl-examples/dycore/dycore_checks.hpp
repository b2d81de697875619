// dycore_checks.hpp - what the dycore checks, on any Model (README.md says
// why each bound is what it is):
//   (a) mass and tracer mass conserved to round-off,
//   (b) a tracer carried once round the periodic domain by a uniform wind:
//       its error, and no new extrema,
//   (c) the frequency of a linear gravity and of a linear acoustic wave
//       against the analytic dispersion relation,
//   rest: the hydrostatic base state stays at rest bit for bit,
// and the comparison of a backend's state with the host reference's.
// Each check prints its figures on rank 0 and returns whether it passed
// there (the caller shares the verdict with the other ranks).
#ifndef DYCORE_CHECKS_HPP
#define DYCORE_CHECKS_HPP

#include "../common/example_harness.hpp"
#include "dycore_step.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace dycore {

using Global = Prognostic<std::vector<double>>;

/// The whole state(0) on rank 0 (empty vectors elsewhere). Collective.
template <typename Model> Global gatherState(Model &M) {
  std::vector<typename Model::Array *> Arrays;
  M.state(0).forEach(
      [&](typename Model::Array &A, const char *) { Arrays.push_back(&A); });
  int N = 0;
  return Global([&](const char *) { return M.gather(*Arrays[N++]); });
}

/// The state on rank 0 at the start of case \p C and after \p Steps steps.
template <typename Model>
std::pair<Global, Global> runFromStart(Model &M, const Case &C, int Steps) {
  initialize(M, C);
  Global Start = gatherState(M);
  for (int S = 0; S < Steps; ++S)
    step(M);
  return {std::move(Start), gatherState(M)};
}

/// FNV-1a of the whole state's bits: equal only if every value is.
inline std::uint64_t checksum(Global &G) {
  std::uint64_t H = 1469598103934665603ull;
  G.forEach([&](std::vector<double> &V, const char *) {
    const unsigned char *P = reinterpret_cast<const unsigned char *>(V.data());
    for (std::size_t I = 0; I < V.size() * sizeof(double); ++I)
      H = (H ^ P[I]) * 1099511628211ull;
  });
  return H;
}

/// A sum with Neumaier's compensation: its own rounding stays far below the
/// drift it measures.
inline double accurateSum(const std::vector<double> &V) {
  double S = 0, C = 0;
  for (double X : V) {
    const double T = S + X;
    C += std::fabs(S) >= std::fabs(X) ? (S - T) + X : (X - T) + S;
    S = T;
  }
  return S + C;
}

inline const char *verdict(bool Pass) { return Pass ? "PASS" : "FAIL"; }

/// Compares each prognostic array of \p Got with the reference's: bit-exact
/// when \p Tolerance is 0, else within it relative to the array's largest
/// value.
inline bool compareWithReference(Global &Got, Global &Ref, const char *Backend,
                                 double Tolerance) {
  std::vector<std::vector<double> *> RefArrays;
  Ref.forEach(
      [&](std::vector<double> &V, const char *) { RefArrays.push_back(&V); });
  bool All = true;
  int N = 0;
  Got.forEach([&](std::vector<double> &V, const char *Name) {
    const example::Comparison C = example::compareArrays(*RefArrays[N++], V);
    const bool Pass =
        C.bitExact() || (C.NonFinite == 0 && C.MaxRelError <= Tolerance);
    if (C.bitExact())
      std::printf("check: %s: %s vs host reference: bit-exact (%zu values): "
                  "PASS\n",
                  Name, Backend, C.Count);
    else
      std::printf("check: %s: %s vs host reference: %zu of %zu values differ, "
                  "%zu not finite, max relative error %.3g (tolerance %.3g): "
                  "%s\n",
                  Name, Backend, C.Differing, C.Count, C.NonFinite,
                  C.MaxRelError, Tolerance, verdict(Pass));
    All = All && Pass;
  });
  return All;
}

/// (a): the relative change of the total mass and tracer mass over \p Steps
/// steps of case \p C. The bound: each stage rounds each cell's update by a
/// few ulp, independently, so the sums drift by ~1e-16 times the square root
/// of the number of updates; 1e-12 is far above that and far below any
/// error of the scheme (a flux that leaks shows at once: see the README).
template <typename Model>
bool checkConservation(Model &M, const Case &C, int Steps) {
  constexpr double Bound = 1e-12;
  auto [Before, After] = runFromStart(M, C, Steps);
  if (!M.root())
    return true;
  bool All = true;
  auto Report = [&](const char *What, const std::vector<double> &A,
                    const std::vector<double> &B) {
    const double M0 = accurateSum(A), M1 = accurateSum(B);
    const double Drift = std::fabs(M1 - M0) / std::fabs(M0);
    const bool Pass = Drift <= Bound; // NaN fails
    std::printf("check (a) %s: relative drift %.3g over %d steps (bound %.0e): "
                "%s\n",
                What, Drift, Steps, Bound, verdict(Pass));
    All = All && Pass;
  };
  Report("mass", Before.Rho, After.Rho);
  Report("tracer mass", Before.RhoQ, After.RhoQ);
  return All;
}

/// The base state at rest stays at rest bit for bit: its p' and buoyancy are
/// exactly 0 (p0 is the equation of state of the base rho theta), so every
/// tendency is 0 and the stages add exactly 0 (rungeKutta). Values are
/// compared as numbers: a momentum of 0 may change sign.
template <typename Model> bool checkRest(Model &M, const Case &C, int Steps) {
  auto [Before, After] = runFromStart(M, C, Steps);
  if (!M.root())
    return true;
  std::vector<std::vector<double> *> Start;
  Before.forEach(
      [&](std::vector<double> &V, const char *) { Start.push_back(&V); });
  std::size_t Changed = 0, Count = 0;
  double MaxW = 0;
  int N = 0;
  After.forEach([&](std::vector<double> &V, const char *) {
    const std::vector<double> &S = *Start[N++];
    for (std::size_t I = 0; I < V.size(); ++I)
      Changed += !(V[I] == S[I]);
    Count += V.size();
  });
  for (double W : After.RhoW)
    MaxW = std::max(MaxW, std::fabs(W)); // NaN stays out: Changed counts it
  const bool Pass = Changed == 0;
  std::printf("check rest: the base state at rest after %d steps: %zu of %zu "
              "values changed, max |rho w| %.3g (bound: none changed): %s\n",
              Steps, Changed, Count, MaxW, verdict(Pass));
  return Pass;
}

/// The mixing ratio q = rho q / rho of a gathered state.
inline std::vector<double> mixingRatio(const Global &G) {
  std::vector<double> Q(G.Rho.size());
  for (std::size_t I = 0; I < Q.size(); ++I)
    Q[I] = G.RhoQ[I] / G.Rho[I];
  return Q;
}

/// (b): case Tracer (a uniform wind, at rest otherwise) for exactly one
/// revolution: the tracer is back where it started, smeared by the scheme.
/// Bounds: the errors of the van Leer scheme for this bell at the default
/// 32 x 32 points (0.26 and 0.29), with a margin; they hold on finer grids,
/// where the errors fall as dx^1.7 (README). The extrema: within 1e-12 of
/// the initial range (round-off of q = rho q / rho).
template <typename Model> bool checkTracer(Model &M, const Case &C) {
  constexpr double BoundL1 = 0.35, BoundMax = 0.4, ExtremaTolerance = 1e-12;
  const int Steps = C.revolutionSteps();
  const auto [Start, End] = runFromStart(M, C, Steps);
  if (!M.root())
    return true;
  const std::vector<double> Q0 = mixingRatio(Start), Q1 = mixingRatio(End);
  double Diff = 0, Norm = 0, MaxDiff = 0, MaxQ = 0;
  double Min0 = Q0[0], Max0 = Q0[0], Min1 = Q1[0], Max1 = Q1[0];
  for (std::size_t I = 0; I < Q0.size(); ++I) {
    Diff += std::fabs(Q1[I] - Q0[I]);
    Norm += std::fabs(Q0[I]);
    MaxDiff = std::max(MaxDiff, std::fabs(Q1[I] - Q0[I]));
    MaxQ = std::max(MaxQ, std::fabs(Q0[I]));
    Min0 = std::min(Min0, Q0[I]), Max0 = std::max(Max0, Q0[I]);
    Min1 = std::min(Min1, Q1[I]), Max1 = std::max(Max1, Q1[I]);
  }
  const double L1 = Diff / Norm, Max = MaxDiff / MaxQ;
  const double Slack = ExtremaTolerance * (Max0 - Min0);
  const bool ErrorPass = L1 <= BoundL1 && Max <= BoundMax;
  const bool ExtremaPass = Min1 >= Min0 - Slack && Max1 <= Max0 + Slack;
  std::printf("check (b) tracer after one revolution (%d steps, wind %.1f, "
              "%.1f m/s): relative error L1 %.3g (bound %.2g), max %.3g "
              "(bound %.2g): %s\n",
              Steps, C.windU(), C.windV(), L1, BoundL1, Max, BoundMax,
              verdict(ErrorPass));
  std::printf("check (b) tracer extrema: min %.3g -> %.3g, max %.3g -> %.3g "
              "(new extrema beyond %.0e of the range: %s): %s\n",
              Min0, Min1, Max0, Max1, ExtremaTolerance,
              ExtremaPass ? "none" : "some", verdict(ExtremaPass));
  return ErrorPass && ExtremaPass;
}

/// The complex amplitude of the wave's mode in rho w: the sum over the grid
/// of rho w sin(m z) / sqrt(rho0) e^{-ikx}. The vertical modes of an
/// isothermal atmosphere are orthogonal with this weight, and e^{-ikx}
/// picks the wavenumber, so the amplitude turns as e^{-i omega t}.
inline std::complex<double> modeAmplitude(const Case &C,
                                          const std::vector<double> &RhoW) {
  const LinearWave &W = C.wave();
  const long long Nx = C.extent(0), Ny = C.extent(1), Nz = C.extent(2);
  std::complex<double> A = 0;
  for (long long K = 1; K < Nz; ++K) {
    const double Z = C.zFace(K);
    const double Weight = std::sin(W.M * Z) / std::sqrt(C.base().rho(Z));
    for (long long J = 0; J < Ny; ++J)
      for (long long I = 0; I < Nx; ++I) {
        const double X = (double(I) + 0.5) * C.spacing(0);
        A += RhoW[I + Nx * (J + Ny * K)] * Weight * std::polar(1.0, -W.K * X);
      }
  }
  return A;
}

/// (c): case GravityWave or AcousticWave for two periods; the frequency is
/// the least-squares slope of the mode amplitude's unwrapped phase. The
/// bound comes from the scheme's dispersion at this resolution: centred
/// differences see the wavenumbers k and m as (2/dx) sin(k dx/2) and
/// (2/dz) sin(m dz/2), and the Lorenz grid averages w to the levels of rho
/// theta and the buoyancy back to the levels of w, which multiplies N^2 by
/// cos^2(m dz/2). The relative change of omega these make in the analytic
/// dispersion relation is the leading error; the bound is 1.5 times it (the
/// discrete base state, the time scheme and the wave's finite amplitude add
/// the rest; README).
template <typename Model> bool checkWave(Model &M, const Case &C) {
  const LinearWave &W = C.wave();
  const bool Gravity = C.isGravityWave();
  const double Period = 2.0 * Pi / W.Omega;
  const int Steps = static_cast<int>(std::lround(2.0 * Period / C.dt()));
  // At least 32 samples a period: the phase moves less than pi/16 between.
  const int Every = std::max(1, static_cast<int>(Period / C.dt() / 32.0));
  initialize(M, C);
  std::vector<double> Times, Phases;
  for (int S = 0;; ++S) {
    if (S % Every == 0 || S == Steps) {
      const std::vector<double> RhoW = M.gather(M.state(0).RhoW);
      if (M.root()) {
        const double Phase = std::arg(modeAmplitude(C, RhoW));
        double Unwrapped = Phase;
        if (!Phases.empty()) {
          const double Previous = Phases.back();
          Unwrapped = Previous + std::remainder(Phase - Previous, 2.0 * Pi);
        }
        Times.push_back(S * C.dt());
        Phases.push_back(Unwrapped);
      }
    }
    if (S == Steps)
      break;
    step(M);
  }
  if (!M.root())
    return true;
  double Mt = 0, Mp = 0;
  for (std::size_t I = 0; I < Times.size(); ++I)
    Mt += Times[I], Mp += Phases[I];
  Mt /= Times.size(), Mp /= Times.size();
  double Stt = 0, Stp = 0;
  for (std::size_t I = 0; I < Times.size(); ++I) {
    Stt += (Times[I] - Mt) * (Times[I] - Mt);
    Stp += (Times[I] - Mt) * (Phases[I] - Mp);
  }
  const double Measured = -Stp / Stt;
  const double Error = std::fabs(Measured - W.Omega) / W.Omega;
  const double Dx = C.spacing(0), Dz = C.spacing(2);
  const double Kd = 2.0 / Dx * std::sin(0.5 * W.K * Dx);
  const double Md = 2.0 / Dz * std::sin(0.5 * W.M * Dz);
  const double Lorenz = std::pow(std::cos(0.5 * W.M * Dz), 2);
  const double Estimate =
      std::fabs(W.frequency(Kd, Md, Gravity, Lorenz) - W.Omega) / W.Omega;
  const double Bound = 1.5 * Estimate;
  const bool Pass = Error <= Bound;
  std::printf("check (c) %s wave: frequency %.6g 1/s vs analytic %.6g 1/s "
              "(period %.2f s, %d steps): relative error %.3g (bound %.3g, "
              "1.5 x the scheme's dispersion error %.3g): %s\n",
              Gravity ? "gravity" : "acoustic", Measured, W.Omega, Period,
              Steps, Error, Bound, Estimate, verdict(Pass));
  return Pass;
}

} // namespace dycore

#endif // DYCORE_CHECKS_HPP
