// benchmark.cpp - the single-GPU benchmark and GPU correctness check of
// stencilc's CUDA variants, written in the DSL (stencilc generates its
// kernels on a build machine; nvcc builds it on the GPU machine; see
// tools/benchmark.sh).
//
//   benchmark --bench [--copy-gbs=G] [--csv=FILE] [--cases=a,b]   time every case (tuned
//                                                                 rows, the fixed engine's
//                                                                 planned "default" row)
//             [--layouts=tight,aligned]                           (default: both layouts)
//             [--kinds=K;K...]   rows: best-<variant>, auto, default, force:<variant:bx,by,bz>
//   benchmark --verify                                            check every candidate
//   benchmark --cache-demo=FILE                                   online tuning, twice
#include <stencil/autotuning_engine.hpp>
#include <stencil/dsl.hpp>
#include <stencil/host_engine.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

/// 7-point star, radius 1 (seed 000's diffusion), float.
struct STENCIL_KERNEL Star7F {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float c0, float c1, const float *f,
                             float *fn) const {
    fn[idx.ix()] = c0 * f[idx.ix()] +
                   c1 * (f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()] + f[idx.ix<0, -1, 0>()] +
                         f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()] + f[idx.ix<0, 0, 1>()]);
  }
};

/// 7-point star, radius 1, double.
struct STENCIL_KERNEL Star7D {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, double c0, double c1, const double *f,
                             double *fn) const {
    fn[idx.ix()] = c0 * f[idx.ix()] +
                   c1 * (f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()] + f[idx.ix<0, -1, 0>()] +
                         f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()] + f[idx.ix<0, 0, 1>()]);
  }
};

/// 13-point star, radius 2, float.
struct STENCIL_KERNEL Star13F {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float c0, float c1, float c2, const float *f,
                             float *fn) const {
    fn[idx.ix()] = c0 * f[idx.ix()] +
                   c1 * (f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()] + f[idx.ix<0, -1, 0>()] +
                         f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()] + f[idx.ix<0, 0, 1>()]) +
                   c2 * (f[idx.ix<-2, 0, 0>()] + f[idx.ix<2, 0, 0>()] + f[idx.ix<0, -2, 0>()] +
                         f[idx.ix<0, 2, 0>()] + f[idx.ix<0, 0, -2>()] + f[idx.ix<0, 0, 2>()]);
  }
};

/// 25-point star, radius 4, float.
struct STENCIL_KERNEL Star25F {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float c0, float c1, float c2, float c3,
                             float c4, const float *f, float *fn) const {
    fn[idx.ix()] = c0 * f[idx.ix()] +
                   c1 * (f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()] + f[idx.ix<0, -1, 0>()] +
                         f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()] + f[idx.ix<0, 0, 1>()]) +
                   c2 * (f[idx.ix<-2, 0, 0>()] + f[idx.ix<2, 0, 0>()] + f[idx.ix<0, -2, 0>()] +
                         f[idx.ix<0, 2, 0>()] + f[idx.ix<0, 0, -2>()] + f[idx.ix<0, 0, 2>()]) +
                   c3 * (f[idx.ix<-3, 0, 0>()] + f[idx.ix<3, 0, 0>()] + f[idx.ix<0, -3, 0>()] +
                         f[idx.ix<0, 3, 0>()] + f[idx.ix<0, 0, -3>()] + f[idx.ix<0, 0, 3>()]) +
                   c4 * (f[idx.ix<-4, 0, 0>()] + f[idx.ix<4, 0, 0>()] + f[idx.ix<0, -4, 0>()] +
                         f[idx.ix<0, 4, 0>()] + f[idx.ix<0, 0, -4>()] + f[idx.ix<0, 0, 4>()]);
  }
};

/// 27-point box, float: weights by distance class (centre, faces, edges, corners).
struct STENCIL_KERNEL Box27F {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float c0, float c1, float c2, float c3,
                             const float *f, float *fn) const {
    fn[idx.ix()] = c0 * f[idx.ix()] +
                   c1 * (f[idx.ix<0, 0, -1>()] + f[idx.ix<0, -1, 0>()] + f[idx.ix<-1, 0, 0>()] +
                         f[idx.ix<1, 0, 0>()] + f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, 1>()]) +
                   c2 * (f[idx.ix<0, -1, -1>()] + f[idx.ix<-1, 0, -1>()] + f[idx.ix<1, 0, -1>()] +
                         f[idx.ix<0, 1, -1>()] + f[idx.ix<-1, -1, 0>()] + f[idx.ix<1, -1, 0>()] +
                         f[idx.ix<-1, 1, 0>()] + f[idx.ix<1, 1, 0>()] + f[idx.ix<0, -1, 1>()] +
                         f[idx.ix<-1, 0, 1>()] + f[idx.ix<1, 0, 1>()] + f[idx.ix<0, 1, 1>()]) +
                   c3 * (f[idx.ix<-1, -1, -1>()] + f[idx.ix<1, -1, -1>()] + f[idx.ix<-1, 1, -1>()] +
                         f[idx.ix<1, 1, -1>()] + f[idx.ix<-1, -1, 1>()] + f[idx.ix<1, -1, 1>()] +
                         f[idx.ix<-1, 1, 1>()] + f[idx.ix<1, 1, 1>()]);
  }
};

/// The same box written plane by plane, each point's weight its own term: a
/// sum in the order of its planes, so stencilc also plans the zsum variant
/// (running sums by plane). Not Box27F's rounding: its sums differ.
struct STENCIL_KERNEL Box27PlanesF {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float c0, float c1,
                             float c2, float c3, const float *f,
                             float *fn) const {
    fn[idx.ix()] = c3 * f[idx.ix<-1, -1, -1>()] + c2 * f[idx.ix<0, -1, -1>()] +
                   c3 * f[idx.ix<1, -1, -1>()] + c2 * f[idx.ix<-1, 0, -1>()] +
                   c1 * f[idx.ix<0, 0, -1>()] + c2 * f[idx.ix<1, 0, -1>()] +
                   c3 * f[idx.ix<-1, 1, -1>()] + c2 * f[idx.ix<0, 1, -1>()] +
                   c3 * f[idx.ix<1, 1, -1>()] + c2 * f[idx.ix<-1, -1, 0>()] +
                   c1 * f[idx.ix<0, -1, 0>()] + c2 * f[idx.ix<1, -1, 0>()] +
                   c1 * f[idx.ix<-1, 0, 0>()] + c0 * f[idx.ix()] +
                   c1 * f[idx.ix<1, 0, 0>()] + c2 * f[idx.ix<-1, 1, 0>()] +
                   c1 * f[idx.ix<0, 1, 0>()] + c2 * f[idx.ix<1, 1, 0>()] +
                   c3 * f[idx.ix<-1, -1, 1>()] + c2 * f[idx.ix<0, -1, 1>()] +
                   c3 * f[idx.ix<1, -1, 1>()] + c2 * f[idx.ix<-1, 0, 1>()] +
                   c1 * f[idx.ix<0, 0, 1>()] + c2 * f[idx.ix<1, 0, 1>()] +
                   c3 * f[idx.ix<-1, 1, 1>()] + c2 * f[idx.ix<0, 1, 1>()] +
                   c3 * f[idx.ix<1, 1, 1>()];
  }
};

/// 2-D 5-point star, float.
struct STENCIL_KERNEL Star5F2D {
  STENCIL_HD void operator()(const stencil::Index2D &idx, float c0, float c1, const float *f,
                             float *fn) const {
    fn[idx.ix()] = c0 * f[idx.ix()] + c1 * (f[idx.ix<-1, 0>()] + f[idx.ix<1, 0>()] +
                                            f[idx.ix<0, -1>()] + f[idx.ix<0, 1>()]);
  }
};

namespace bench {

using stencil::DeviceAutoTuningInfo;
using stencil::tuning::Candidate;

/// Coefficients per stencil: positive, summing to about 1.
template <typename S> struct Coeffs;
template <> struct Coeffs<Star7F> {
  using T = float;
  static constexpr int Dims = 3, Radius = 1;
  template <typename F> static void call(F &&Run, const T *f, T *fn) {
    Run(Star7F(), 0.4f, 0.1f, f, fn);
  }
};
template <> struct Coeffs<Star7D> {
  using T = double;
  static constexpr int Dims = 3, Radius = 1;
  template <typename F> static void call(F &&Run, const T *f, T *fn) {
    Run(Star7D(), 0.4, 0.1, f, fn);
  }
};
template <> struct Coeffs<Star13F> {
  using T = float;
  static constexpr int Dims = 3, Radius = 2;
  template <typename F> static void call(F &&Run, const T *f, T *fn) {
    Run(Star13F(), 0.4f, 0.07f, 0.03f, f, fn);
  }
};
template <> struct Coeffs<Star25F> {
  using T = float;
  static constexpr int Dims = 3, Radius = 4;
  template <typename F> static void call(F &&Run, const T *f, T *fn) {
    Run(Star25F(), 0.2f, 0.06f, 0.04f, 0.02f, 0.01f, f, fn);
  }
};
template <> struct Coeffs<Box27F> {
  using T = float;
  static constexpr int Dims = 3, Radius = 1;
  template <typename F> static void call(F &&Run, const T *f, T *fn) {
    Run(Box27F(), 0.2f, 0.05f, 0.02f, 0.01f, f, fn);
  }
};
template <> struct Coeffs<Box27PlanesF> {
  using T = float;
  static constexpr int Dims = 3, Radius = 1;
  template <typename F> static void call(F &&Run, const T *f, T *fn) {
    Run(Box27PlanesF(), 0.2f, 0.05f, 0.02f, 0.01f, f, fn);
  }
};
template <> struct Coeffs<Star5F2D> {
  using T = float;
  static constexpr int Dims = 2, Radius = 1;
  template <typename F> static void call(F &&Run, const T *f, T *fn) {
    Run(Star5F2D(), 0.6f, 0.1f, f, fn);
  }
};

/// The arrays' extents: the interior plus a margin of the radius per side
/// ("tight"), or, in x, a margin of 128 bytes before the interior and an
/// extent padded to a multiple of 32 elements ("aligned": every row and its
/// interior start on a 128-byte boundary, so a warp's row access touches no
/// extra sector).
template <typename S> struct Shape {
  static constexpr int Dims = Coeffs<S>::Dims, R = Coeffs<S>::Radius;
  long long n[3] = {1, 1, 1}; ///< Interior points.
  long long lead = R;         ///< Points in x before the interior.
  long long pitch = 0;        ///< The x extent; 0: tight.
  bool aligned() const { return pitch != 0; }
  long long extent(int D) const {
    if (D == 0)
      return aligned() ? pitch : n[0] + 2 * R;
    return D < Dims ? n[D] + 2 * R : 1;
  }
  /// Points in x after the interior.
  long long trail() const { return extent(0) - lead - n[0]; }
  std::size_t count() const { return std::size_t(extent(0)) * extent(1) * extent(2); }
  bool interior(long long I, long long J, long long K) const {
    return I >= lead && I < n[0] + lead && J >= R && J < n[1] + R &&
           (Dims == 2 || (K >= R && K < n[2] + R));
  }
  Shape withAlignedRows() const {
    Shape A = *this;
    A.lead = 128 / static_cast<long long>(sizeof(typename Coeffs<S>::T));
    A.pitch = (A.lead + n[0] + R + 31) / 32 * 32;
    return A;
  }
  std::string text() const {
    return (Dims == 2
                ? std::to_string(n[0]) + "x" + std::to_string(n[1])
                : std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2])) +
           (aligned() ? "a" : "");
  }
};

/// Calls F with a Loop over the interior of \p Sh for engine family E.
template <typename S, template <int> class E, typename F>
void withLoop(const Shape<S> &Sh, F &&Fn) {
  constexpr int R = Coeffs<S>::Radius;
  if constexpr (Coeffs<S>::Dims == 3) {
    stencil::Loop3D<E<3>> L(Sh.extent(0), Sh.lead, Sh.trail(), Sh.extent(1), R, R, Sh.extent(2), R,
                            R);
    Fn(L);
  } else {
    stencil::Loop2D<E<2>> L(Sh.extent(0), Sh.lead, Sh.trail(), Sh.extent(1), R, R);
    Fn(L);
  }
}

template <typename T> void fillRandom(std::vector<T> &V, std::uint64_t Seed) {
  const long long N = static_cast<long long>(V.size());
#pragma omp parallel for schedule(static)
  for (long long I = 0; I < N; ++I) {
    std::uint64_t X = (static_cast<std::uint64_t>(I) + 1) * 0x9E3779B97F4A7C15ull ^ Seed;
    X ^= X >> 31;
    X *= 0xBF58476D1CE4E5B9ull;
    X ^= X >> 29;
    V[I] = static_cast<T>(static_cast<double>(X >> 11) / 9007199254740992.0);
  }
}

template <typename T> void fillNaN(std::vector<T> &V) {
  std::fill(V.begin(), V.end(), std::numeric_limits<T>::quiet_NaN());
}

struct CheckResult {
  double maxRel = 0;       ///< max |out - ref| / max |ref| over the interior.
  long long unwritten = 0; ///< Interior points left NaN.
  long long outside = 0;   ///< Points outside the region that were written.
};

template <typename S, typename T>
CheckResult compare(const Shape<S> &Sh, const std::vector<T> &Out, const std::vector<T> &Ref) {
  double MaxDiff = 0, MaxRef = 0;
  long long Unwritten = 0, Outside = 0;
  const long long NX = Sh.extent(0), NY = Sh.extent(1), NZ = Sh.extent(2);
#pragma omp parallel for collapse(2) reduction(max : MaxDiff, MaxRef) reduction(+ : Unwritten, Outside)
  for (long long K = 0; K < NZ; ++K)
    for (long long J = 0; J < NY; ++J)
      for (long long I = 0; I < NX; ++I) {
        const std::size_t C = static_cast<std::size_t>((K * NY + J) * NX + I);
        if (!Sh.interior(I, J, K)) {
          Outside += !std::isnan(Out[C]);
          continue;
        }
        if (std::isnan(Out[C])) {
          ++Unwritten;
          continue;
        }
        MaxDiff = std::max(MaxDiff, std::fabs(double(Out[C]) - double(Ref[C])));
        MaxRef = std::max(MaxRef, std::fabs(double(Ref[C])));
      }
  return {MaxRef > 0 ? MaxDiff / MaxRef : MaxDiff, Unwritten, Outside};
}

template <typename T> double tolerance() { return sizeof(T) == 4 ? 1e-6 : 1e-12; }

//===----------------------------------------------------------------------===//
// --verify
//===----------------------------------------------------------------------===//

/// Every candidate of \p Sh (or \p Sample of them, spread, per variant)
/// against the host reference on fresh random input, output poisoned.
template <typename S>
int verifyCase(const char *Name, Shape<S> Sh, int Sample, std::uint64_t Seed) {
  using T = typename Coeffs<S>::T;
  std::vector<T> F(Sh.count()), Ref(Sh.count()), Out(Sh.count());
  fillRandom(F, Seed);
  fillNaN(Ref);
  withLoop<S, stencil::HostLoopEngine>(Sh, [&](auto &L) {
    Coeffs<S>::call([&](auto St, auto... A) { L.run(St, A...); }, F.data(), Ref.data());
  });
  stencil::DeviceArray<T> DF(Sh.count()), DOut(Sh.count());
  DF.upload(F.data());
  // The legal candidates, from a session that tunes nothing.
  std::vector<Candidate> All;
  {
    DeviceAutoTuningInfo Info;
    Info.useCache = false;
    Info.force = "grid:32,1,1";
    withLoop<S, stencil::DeviceAutoTuningLoopEngine>(Sh, [&](auto &L) {
      Coeffs<S>::call([&](auto St, auto... A) { L.run(St, &Info, A...); }, DF.data(), DOut.data());
    });
    All = Info.legalCandidates();
  }
  std::vector<Candidate> Chosen;
  if (Sample <= 0) {
    Chosen = All;
  } else {
    std::vector<std::string> Variants;
    for (const Candidate &C : All)
      if (std::find(Variants.begin(), Variants.end(), C.variant) == Variants.end())
        Variants.push_back(C.variant);
    for (const std::string &V : Variants) {
      std::vector<Candidate> Of;
      for (const Candidate &C : All)
        if (C.variant == V)
          Of.push_back(C);
      for (int I = 0; I < Sample && I < static_cast<int>(Of.size()); ++I)
        Chosen.push_back(Of[(static_cast<std::size_t>(I) * Of.size()) / Sample]);
      Chosen.push_back(Of.back());
    }
  }
  int Failures = 0;
  double Worst = 0;
  std::vector<T> Poison(Sh.count());
  fillNaN(Poison);
  for (const Candidate &C : Chosen) {
    DOut.upload(Poison.data());
    DeviceAutoTuningInfo Info;
    Info.useCache = false;
    Info.force = stencil::tuning::toString(C);
    withLoop<S, stencil::DeviceAutoTuningLoopEngine>(Sh, [&](auto &L) {
      Coeffs<S>::call([&](auto St, auto... A) { L.run(St, &Info, A...); }, DF.data(), DOut.data());
    });
    stencil::deviceSynchronize();
    DOut.download(Out.data());
    CheckResult R = compare(Sh, Out, Ref);
    Worst = std::max(Worst, R.maxRel);
    bool Ok = Info.source() == DeviceAutoTuningInfo::Source::Forced && R.unwritten == 0 &&
              R.outside == 0 && R.maxRel <= tolerance<T>();
    if (!Ok) {
      if (++Failures <= 10)
        std::printf("verify FAIL %s %s %s: max rel %.3g, unwritten %lld, written outside %lld%s\n",
                    Name, Sh.text().c_str(), stencil::tuning::toString(C).c_str(), R.maxRel,
                    R.unwritten, R.outside,
                    Info.source() == DeviceAutoTuningInfo::Source::Forced ? "" : " (not run)");
    }
  }
  std::printf(
      "verify %-8s %-14s %4zu of %4zu candidates: %s (worst max rel %.3g, tolerance %.0e)\n", Name,
      Sh.text().c_str(), Chosen.size(), All.size(), Failures ? "FAIL" : "PASS", Worst,
      tolerance<T>());
  return Failures ? 1 : 0;
}

/// Online tuning over a time loop gives the host's result, step by step.
template <typename S>
int verifyOnline(const char *Name, Shape<S> Sh, int Steps, std::uint64_t Seed) {
  using T = typename Coeffs<S>::T;
  std::vector<T> A(Sh.count()), B(Sh.count());
  fillRandom(A, Seed);
  B = A; // margins hold the same boundary values
  std::vector<T> HA = A, HB = B;
  stencil::DeviceArray<T> DA(Sh.count()), DB(Sh.count());
  DA.upload(A.data());
  DB.upload(B.data());
  DeviceAutoTuningInfo Info;
  Info.useCache = false;
  int Calls = 0;
  withLoop<S, stencil::DeviceAutoTuningLoopEngine>(Sh, [&](auto &L) {
    for (int St = 0; St < Steps; ++St) {
      T *From = St % 2 ? DB.data() : DA.data(), *To = St % 2 ? DA.data() : DB.data();
      Coeffs<S>::call([&](auto Sx, auto... X) { L.run(Sx, &Info, X...); }, From, To);
      Calls += !Info.settled();
    }
  });
  withLoop<S, stencil::HostLoopEngine>(Sh, [&](auto &L) {
    for (int St = 0; St < Steps; ++St) {
      T *From = St % 2 ? HB.data() : HA.data(), *To = St % 2 ? HA.data() : HB.data();
      Coeffs<S>::call([&](auto Sx, auto... X) { L.run(Sx, X...); }, From, To);
    }
  });
  stencil::deviceSynchronize();
  std::vector<T> Out(Sh.count());
  (Steps % 2 ? DB : DA).download(Out.data());
  const std::vector<T> &Ref = Steps % 2 ? HB : HA;
  double MaxDiff = 0, MaxRef = 0;
  for (std::size_t I = 0; I < Out.size(); ++I) {
    MaxDiff = std::max(MaxDiff, std::fabs(double(Out[I]) - double(Ref[I])));
    MaxRef = std::max(MaxRef, std::fabs(double(Ref[I])));
  }
  double Rel = MaxDiff / MaxRef;
  // Rounding differences (FMA) compound over the steps.
  bool Ok = Rel <= tolerance<T>() * Steps && Info.settled();
  std::printf("verify %-8s %-14s online tuning over %d steps (settled after %d tuning calls on "
              "%s): %s (max rel "
              "%.3g)\n",
              Name, Sh.text().c_str(), Steps, Info.tuningCalls(),
              Info.chosen() ? stencil::tuning::toString(*Info.chosen()).c_str() : "-",
              Ok ? "PASS" : "FAIL", Rel);
  return Ok ? 0 : 1;
}

template <typename S> Shape<S> shape(long long X, long long Y, long long Z = 1) {
  Shape<S> Sh;
  Sh.n[0] = X;
  Sh.n[1] = Y;
  Sh.n[2] = Z;
  return Sh;
}

int verifyAll() {
  int Fail = 0;
  std::uint64_t Seed = 0x5eed;
  // Every legal candidate at sizes no block divides.
  Fail |= verifyCase("star7f", shape<Star7F>(67, 61, 59), 0, ++Seed);
  Fail |= verifyCase("star7d", shape<Star7D>(67, 61, 59), 0, ++Seed);
  Fail |= verifyCase("star13f", shape<Star13F>(67, 61, 59), 0, ++Seed);
  Fail |= verifyCase("star25f", shape<Star25F>(45, 37, 41), 0, ++Seed);
  Fail |= verifyCase("box27f", shape<Box27F>(67, 61, 59), 0, ++Seed);
  Fail |= verifyCase("box27pf", shape<Box27PlanesF>(67, 61, 59), 0, ++Seed);
  Fail |= verifyCase("star5f", shape<Star5F2D>(1031, 1029), 0, ++Seed);
  Fail |= verifyCase("star7f", shape<Star7F>(8, 509, 507), 0, ++Seed);
  Fail |= verifyCase("star7f", shape<Star7F>(509, 507, 7), 0, ++Seed);
  // The aligned layout (a margin of 128 bytes before the interior).
  Fail |= verifyCase("star7f", shape<Star7F>(67, 61, 59).withAlignedRows(), 0, ++Seed);
  Fail |= verifyCase("star7d", shape<Star7D>(67, 61, 59).withAlignedRows(), 0, ++Seed);
  Fail |= verifyCase("star25f", shape<Star25F>(45, 37, 41).withAlignedRows(), 0, ++Seed);
  Fail |= verifyCase("star5f", shape<Star5F2D>(1031, 1029).withAlignedRows(), 0, ++Seed);
  // Large, not multiples of any block: a spread sample per variant.
  Fail |= verifyCase("star7f", shape<Star7F>(509, 507, 503), 12, ++Seed);
  Fail |= verifyCase("star7d", shape<Star7D>(509, 507, 503), 6, ++Seed);
  Fail |= verifyCase("box27f", shape<Box27F>(509, 507, 251), 6, ++Seed);
  Fail |= verifyCase("box27pf", shape<Box27PlanesF>(509, 507, 251), 6, ++Seed);
  Fail |= verifyCase("star25f", shape<Star25F>(253, 251, 249), 6, ++Seed);
  Fail |= verifyCase("star5f", shape<Star5F2D>(16381, 4093), 8, ++Seed);
  Fail |= verifyCase("star13f", shape<Star13F>(509, 507, 251).withAlignedRows(), 6, ++Seed);
  Fail |= verifyOnline("star7f", shape<Star7F>(67, 61, 59), 240, ++Seed);
  Fail |= verifyOnline("star13f", shape<Star13F>(67, 61, 59), 240, ++Seed);
  std::printf("verify: %s\n", Fail ? "FAIL" : "PASS");
  return Fail;
}

//===----------------------------------------------------------------------===//
// --bench
//===----------------------------------------------------------------------===//

struct Options {
  double copyGbs = 0;
  std::FILE *csv = nullptr;
  std::string cases; ///< Comma-separated names; empty: all.
  int reps = 30;
  std::vector<std::string> layouts = {"tight", "aligned"};
  /// Rows per case: best-<variant>, auto, default, or force:<variant:bx,by,bz>
  /// (one fixed configuration, untuned); empty: the standard rows.
  std::vector<std::string> kinds;
};

/// The comma-separated words of \p List ("a,b" -> {a, b}); \p Sep splits.
inline std::vector<std::string> splitList(const std::string &List, char Sep = ',') {
  std::vector<std::string> Out;
  std::string L = List + Sep;
  for (std::size_t P = 0, Q; (Q = L.find(Sep, P)) != std::string::npos; P = Q + 1)
    if (Q > P)
      Out.push_back(L.substr(P, Q - P));
  return Out;
}

/// Time per step in ms: \p Reps back-to-back calls of \p Launch between two
/// events, as in a time loop (launch overheads overlap the previous step);
/// the median of 5 such batches.
template <typename F> double timeMs(F &&Launch, int Reps) {
  const stencil::DeviceOps &Ops = stencil::detail::requireDeviceOps();
  void *Start = nullptr, *Stop = nullptr;
  stencil::detail::checkTuning(Ops.eventCreate(&Start), "event");
  stencil::detail::checkTuning(Ops.eventCreate(&Stop), "event");
  Launch(); // warm-up
  std::vector<double> Ms;
  for (int B = 0; B < 5; ++B) {
    Ops.eventRecord(Start, nullptr);
    for (int R = 0; R < Reps; ++R)
      Launch();
    Ops.eventRecord(Stop, nullptr);
    float T = 0;
    stencil::detail::checkTuning(Ops.eventElapsedMs(&T, Start, Stop), "timing");
    Ms.push_back(T / Reps);
  }
  Ops.eventDestroy(Start);
  Ops.eventDestroy(Stop);
  return stencil::tuning::median(Ms);
}

template <typename S>
void benchLayout(const Options &O, const char *Case, const char *Name, Shape<S> Sh);

/// \p Case in each layout of \p O.
template <typename S>
void benchCase(const Options &O, const char *Case, const char *Name, Shape<S> Sh) {
  if (!O.cases.empty() &&
      ("," + O.cases + ",").find(std::string(",") + Case + ",") == std::string::npos)
    return;
  for (const std::string &Layout : O.layouts)
    benchLayout(O, Case, Name, Layout == "aligned" ? Sh.withAlignedRows() : Sh);
}

/// The engine a user meets first: DeviceLoopEngine without tuning, which
/// launches the variant and block stencilc's plan chose (adapted to the
/// region).
template <int Dims> using FixedEngine = stencil::GeneratedLoopEngine<Dims, stencil::Backend::Cuda>;

/// One output row (console and CSV).
template <typename S>
void printRow(const Options &O, const char *Case, const char *Name, const Shape<S> &Sh,
              const std::string &Kind, const Candidate &C, double Ms, int TuningCalls) {
  using T = typename Coeffs<S>::T;
  const stencil::GeneratedStencil *E = stencil::generatedFor(stencil::Backend::Cuda, S());
  const double Points = double(Sh.n[0]) * Sh.n[1] * (Coeffs<S>::Dims == 3 ? Sh.n[2] : 1);
  const double Sec = Ms * 1e-3;
  const double Gbs = E->bytesPerPoint * Points / Sec / 1e9;
  const double Gcells = Points / Sec / 1e9;
  const double Gflops = E->flopsPerPoint * Points / Sec / 1e9;
  const double Ratio = O.copyGbs > 0 ? Gbs / O.copyGbs : 0;
  std::printf("%-10s %-8s %-14s %-24s %-20s %9.4f ms %8.1f GB/s %7.2f GCells/s %8.1f GFlop/s "
              "%5.3f of copy "
              "(%d tuning calls)\n",
              Case, Name, Sh.text().c_str(), Kind.c_str(), stencil::tuning::toString(C).c_str(), Ms,
              Gbs, Gcells, Gflops, Ratio, TuningCalls);
  // A forced configuration's commas would split the CSV field.
  std::string CsvKind = Kind;
  std::replace(CsvKind.begin(), CsvKind.end(), ',', 'x');
  if (O.csv)
    std::fprintf(O.csv,
                 "%s,%s,%s,%d,%lld,%lld,%lld,%s,%s,%d,%d,%d,%.6f,%.2f,%.4f,%.2f,%.4f,%d,%.1f,%.1f,"
                 "%s\n",
                 Case, Name, sizeof(T) == 4 ? "f32" : "f64", Coeffs<S>::Dims, Sh.n[0], Sh.n[1],
                 Coeffs<S>::Dims == 3 ? Sh.n[2] : 1, CsvKind.c_str(), C.variant.c_str(), C.bx, C.by,
                 C.bz, Ms, Gbs, Gcells, Gflops, Ratio, TuningCalls, E->flopsPerPoint,
                 E->bytesPerPoint, Sh.aligned() ? "aligned" : "tight");
}

template <typename S, typename T>
void benchDefault(const Options &O, const char *Case, const char *Name, const Shape<S> &Sh,
                  const T *F, T *Out) {
  // What the engine will launch, as it decides it.
  stencil::Region R;
  for (int D = 0; D < Coeffs<S>::Dims; ++D) {
    R.lo[D] = D == 0 ? Sh.lead : Coeffs<S>::Radius;
    R.hi[D] = R.lo[D] + Sh.n[D];
  }
  const stencil::GeneratedStencil *E = stencil::generatedFor(stencil::Backend::Cuda, S());
  stencil::DefaultLaunchChoice Choice =
      stencil::chooseDefaultLaunch(stencil::generatedVariants(*E), R, stencil::LaunchConfig());
  Candidate C;
  C.variant = Choice.entry->variant;
  C.bx = Choice.block[0];
  C.by = Choice.block[1];
  C.bz = Choice.block[2];
  double Ms = 0;
  withLoop<S, FixedEngine>(Sh, [&](auto &L) {
    Coeffs<S>::call([&](auto St, auto... A) { Ms = timeMs([&] { L.run(St, A...); }, O.reps); },
                    F, Out);
  });
  stencil::deviceSynchronize();
  printRow(O, Case, Name, Sh, "default", C, Ms, 0);
}

template <typename S>
void benchLayout(const Options &O, const char *Case, const char *Name, Shape<S> Sh) {
  using T = typename Coeffs<S>::T;
  std::vector<T> F(Sh.count());
  fillRandom(F, 42);
  stencil::DeviceArray<T> DF(Sh.count()), DOut(Sh.count());
  DF.upload(F.data());
  DOut.upload(F.data());
  std::vector<std::string> Kinds = {"best-grid",
                                    "best-zmarch",
                                    "best-zmarch2",
                                    "best-smem",
                                    "best-zsum",
                                    "best-zsum4",
                                    "auto",
                                    "default",
                                    "fixed-zmarch-128x1x1-z2",
                                    "fixed-grid-64x4x1"};
  const auto Variants = stencil::generatedVariants(
      *stencil::generatedFor(stencil::Backend::Cuda, S()));
  if (!O.kinds.empty())
    Kinds = O.kinds;
  for (const std::string &Kind : Kinds) {
    if (Kind == "default") {
      benchDefault(O, Case, Name, Sh, DF.data(), DOut.data());
      continue;
    }
    DeviceAutoTuningInfo Info;
    Info.useCache = false;
    bool Tune = true;
    if (Kind.rfind("best-", 0) == 0 &&
        std::none_of(Variants.begin(), Variants.end(), [&](const auto *V) {
          return Kind.substr(5) == V->variant;
        }))
      continue; // a variant the stencil has not (zsum, zsum4: a sum by planes)
    if (Kind.rfind("best-", 0) == 0)
      Info.variants = {Kind.substr(5)};
    else if (Kind == "fixed-zmarch-128x1x1-z2")
      Info.force = "zmarch:128,1,2", Tune = false;
    else if (Kind == "fixed-grid-64x4x1")
      Info.force = "grid:64,4,1", Tune = false;
    else if (Kind.rfind("force:", 0) == 0)
      Info.force = Kind.substr(6), Tune = false;
    bool Missing = false;
    withLoop<S, stencil::DeviceAutoTuningLoopEngine>(Sh, [&](auto &L) {
      Coeffs<S>::call(
          [&](auto St, auto... A) {
            try {
              if (Tune)
                stencil::tuneNow(L, St, &Info, A...);
              else
                L.run(St, &Info, A...);
            } catch (const std::exception &Ex) {
              std::printf("bench %s %s: %s\n", Case, Kind.c_str(), Ex.what());
              Missing = true;
            }
          },
          DF.data(), DOut.data());
    });
    if (Missing || !Info.chosen())
      continue;
    double Ms = 0;
    withLoop<S, stencil::DeviceAutoTuningLoopEngine>(Sh, [&](auto &L) {
      Coeffs<S>::call(
          [&](auto St, auto... A) { Ms = timeMs([&] { L.run(St, &Info, A...); }, O.reps); },
          DF.data(), DOut.data());
    });
    stencil::deviceSynchronize();
    printRow(O, Case, Name, Sh, Kind, *Info.chosen(), Ms, Info.tuningCalls());
    if (Kind == "auto" && std::getenv("BENCH_REPORT"))
      Info.report(stdout);
  }
}

int benchAll(const Options &O) {
  if (O.csv)
    std::fprintf(
        O.csv,
        "case,stencil,type,dims,nx,ny,nz,row,variant,bx,by,bz,ms_per_step,gb_per_s,gcells_per_s,"
        "gflop_per_s,ratio_to_copy,tuning_calls,flops_per_point,bytes_per_point,layout\n");
  benchCase(O, "s7f-512", "star7", shape<Star7F>(512, 512, 512));
  benchCase(O, "s7d-512", "star7", shape<Star7D>(512, 512, 512));
  benchCase(O, "s7f-1k", "star7", shape<Star7F>(1024, 1024, 256));
  benchCase(O, "s7d-1k", "star7", shape<Star7D>(1024, 1024, 256));
  benchCase(O, "s7f-slabx", "star7", shape<Star7F>(8, 512, 512));
  benchCase(O, "s7f-slabz", "star7", shape<Star7F>(512, 512, 8));
  benchCase(O, "s7f-64", "star7", shape<Star7F>(64, 64, 64));
  benchCase(O, "s7f-32", "star7", shape<Star7F>(32, 32, 32));
  benchCase(O, "s7f-256", "star7", shape<Star7F>(256, 256, 256));
  benchCase(O, "b27f-512", "box27", shape<Box27F>(512, 512, 512));
  benchCase(O, "b27pf-512", "box27p", shape<Box27PlanesF>(512, 512, 512));
  benchCase(O, "s13f-512", "star13", shape<Star13F>(512, 512, 512));
  benchCase(O, "s25f-512", "star25", shape<Star25F>(512, 512, 512));
  benchCase(O, "s5f-16k", "star5-2d", shape<Star5F2D>(16384, 16384));
  return 0;
}

//===----------------------------------------------------------------------===//
// --cache-demo
//===----------------------------------------------------------------------===//

/// A time loop with online tuning of the 7-point stencil at 512^3 through
/// the cache file \p Path: the first run tunes, a second starts tuned.
int cacheDemo(const std::string &Path) {
  Shape<Star7F> Sh = shape<Star7F>(512, 512, 512);
  std::vector<float> F(Sh.count());
  fillRandom(F, 7);
  stencil::DeviceArray<float> DA(Sh.count()), DB(Sh.count());
  DA.upload(F.data());
  DB.upload(F.data());
  DeviceAutoTuningInfo Info;
  Info.cachePath = Path;
  int Steps = 0, SettledAt = -1;
  withLoop<Star7F, stencil::DeviceAutoTuningLoopEngine>(Sh, [&](auto &L) {
    for (; Steps < 300; ++Steps) {
      float *From = Steps % 2 ? DB.data() : DA.data(), *To = Steps % 2 ? DA.data() : DB.data();
      L.run(Star7F(), &Info, 0.4f, 0.1f, From, To);
      if (SettledAt < 0 && Info.settled())
        SettledAt = Steps + 1;
    }
  });
  stencil::deviceSynchronize();
  Info.report(stdout);
  std::printf("cache-demo: %d steps; settled after %d calls; tuning calls %d; source %s\n", Steps,
              SettledAt, Info.tuningCalls(),
              Info.source() == DeviceAutoTuningInfo::Source::Cache ? "cache" : "tuned (online)");
  return SettledAt > 0 && SettledAt <= 200 ? 0 : 1;
}

} // namespace bench

int main(int argc, char **argv) {
  bench::Options O;
  std::string Mode, CsvPath, CachePath;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A == "--bench" || A == "--verify")
      Mode = A;
    else if (A.rfind("--cache-demo=", 0) == 0)
      Mode = "--cache-demo", CachePath = A.substr(13);
    else if (A.rfind("--copy-gbs=", 0) == 0)
      O.copyGbs = std::atof(A.c_str() + 11);
    else if (A.rfind("--csv=", 0) == 0)
      CsvPath = A.substr(6);
    else if (A.rfind("--cases=", 0) == 0)
      O.cases = A.substr(8);
    else if (A.rfind("--reps=", 0) == 0)
      O.reps = std::atoi(A.c_str() + 7);
    else if (A.rfind("--layouts=", 0) == 0)
      O.layouts = bench::splitList(A.substr(10));
    else if (A.rfind("--kinds=", 0) == 0)
      O.kinds = bench::splitList(A.substr(8), ';');
    else {
      std::fprintf(stderr, "benchmark: unknown argument '%s'\n", A.c_str());
      return 2;
    }
  }
  try {
    if (!stencil::deviceAvailable()) {
      std::fprintf(stderr, "benchmark: no GPU\n");
      return 1;
    }
    std::printf("GPU: %s\n", stencil::deviceName().c_str());
    if (Mode == "--verify")
      return bench::verifyAll();
    if (Mode == "--cache-demo")
      return bench::cacheDemo(CachePath);
    if (Mode == "--bench") {
      if (!CsvPath.empty())
        O.csv = std::fopen(CsvPath.c_str(), "w");
      int R = bench::benchAll(O);
      if (O.csv)
        std::fclose(O.csv);
      return R;
    }
    std::fprintf(stderr, "usage: benchmark --bench|--verify|--cache-demo=FILE [options]\n");
    return 2;
  } catch (const std::exception &E) {
    std::fprintf(stderr, "benchmark: %s\n", E.what());
    return 1;
  }
}
