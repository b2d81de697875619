// mpi_test.cpp - the distributed runtime against a one-rank reference.
//
// For every case (stencil set) and decomposition of this run's ranks into
// 1-D, 2-D and 3-D grids, periodic, non-periodic and mixed, runs a few steps
// with the plain exchange and with overlap (one- and two-divided
// CompCommBinder) and compares the gathered result with rank 0's one-rank run
// bit for bit. The reference fills halos by its own periodic-wrap loop, not by
// HaloExchange, so the exchange is checked, not only its consistency.
//
//   mpirun -np P mpi_test [--memory host|device] [--steps N] [--case TEXT]
//       [--variant NAME --block X,Y,Z]   (every run, the reference's too, with
//                                         this variant of the CUDA code)
//   mpirun -np 2 mpi_test --error
//   small-extent|decomposition|shape|variant|lower-rank-field|
//       extents-disagree|procs-disagree|periodic-disagree|variant-one-rank|
//       exchange-disagree|exception-one-rank|region-margin|corners|
//       repeat-halo|repeat-halo-huge|repeat-one-field|repeat-coordinates|repeat-steps-disagree|
//       repeat-negative|repeat-steps-huge|repeat-timing-one-rank|
//       repeat-block-disagree|
//       repeat-marks-swapped|run-field-twice|step-field-twice|step-null-profile|
//       repeat-next-as-argument
// Exit status 0 when every check passes; 1 on a failure or a (reported) error.
#include "mpi_stencils.hpp"

#include <stencil/mpi.hpp>
// The former header and class names still work (issue 11).
#include <stencil/boundary_exchange.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <unistd.h>
#include <utility>
#include <vector>

static_assert(std::is_same_v<stencil::BoundaryExchange, stencil::HaloExchange>,
              "BoundaryExchange stays a name of HaloExchange");

namespace {

using stencil::Domain;
using stencil::DomainOptions;
using stencil::Field;
using stencil::Memory;

enum class Mode { Reference, Plain, Overlap };
const char *modeName(Mode M) { return M == Mode::Plain ? "plain" : "overlap"; }

struct Config {
  int procs[3];
  bool periodic[3];
};

struct Settings {
  Memory memory = Memory::Host;
  int steps = 3;
  std::string variant = "grid";
  int block[3] = {64, 4, 1};
  std::string only; ///< --case: only the cases whose name has it
  /// Microseconds every rank but the first waits before each step (not the
  /// reference's): the first runs ahead of its receivers.
  int lateUs = 0;
};

/// A loop that launches the settings' variant and block.
struct TestLoop : stencil::DomainLoop {
  TestLoop(const Domain &D, const Settings &S) : stencil::DomainLoop(D) {
    setVariant(S.variant);
    setBlock(S.block[0], S.block[1], S.block[2]);
  }
};

/// A value from global coordinates: every decomposition fills alike.
double initial(long long I, long long J, long long K) {
  std::uint64_t H = static_cast<std::uint64_t>(I) * 73856093u ^
                    static_cast<std::uint64_t>(J) * 19349663u ^
                    static_cast<std::uint64_t>(K) * 83492791u;
  H ^= H >> 13;
  H *= 0x9E3779B97F4A7C15ull;
  return static_cast<double>((H >> 20) % 1000) / 1000.0;
}

/// Own points and the halo beyond non-periodic global edges (the boundary
/// condition) get initial(); every halo point that the exchange must fill
/// gets NaN, so a missed message cannot go unnoticed.
template <typename T> void fillInitial(Field<T> &F, double Scale = 1.0) {
  const Domain &D = F.domain();
  F.fill([&](long long I, long long J, long long K) {
    const long long G[3] = {I, J, K};
    bool Own = true, Wall = false;
    for (int A = 0; A < D.dims(); ++A) {
      Own = Own && G[A] >= D.localOffset(A) &&
            G[A] < D.localOffset(A) + D.localExtent(A);
      Wall =
          Wall || (!D.periodic(A) && (G[A] < 0 || G[A] >= D.globalExtent(A)));
    }
    return Own || Wall ? static_cast<T>(Scale * initial(I, J, K))
                       : std::numeric_limits<T>::quiet_NaN();
  });
}

/// The reference's halo: own values wrapped around periodic dimensions, by a
/// loop of its own (one rank owns everything). Beyond a wall the margin
/// wraps along the periodic dimensions too (HaloExchange's messages carry
/// it): the one at x = -1 beyond a wall in y is the one at x = N - 1.
template <typename T> void wrapHalo(Field<T> &F) {
  const Domain &D = F.domain();
  const stencil::Grid &G = F.grid();
  std::vector<T> V = F.values();
  const std::vector<T> Own = V;
  for (long long K = 0; K < G.extent[2]; ++K)
    for (long long J = 0; J < G.extent[1]; ++J)
      for (long long I = 0; I < G.extent[0]; ++I) {
        const long long L[3] = {I, J, K};
        long long Src[3];
        bool Wraps = false;
        for (int A = 0; A < 3; ++A) {
          const long long Lo = F.halo().lo[A], N = D.globalExtent(A);
          Src[A] = L[A];
          if (L[A] >= Lo && L[A] < Lo + N)
            continue;
          if (D.periodic(A)) {
            Wraps = true;
            Src[A] = ((L[A] - Lo) % N + N) % N + Lo;
          }
        }
        if (Wraps)
          V[(K * G.extent[1] + J) * G.extent[0] + I] =
              Own[(Src[2] * G.extent[1] + Src[1]) * G.extent[0] + Src[0]];
      }
  F.upload(V);
}

DomainOptions options(const Config &C, const Settings &S, bool Reference) {
  DomainOptions O;
  for (int A = 0; A < 3; ++A) {
    O.procs[A] = Reference ? 1 : C.procs[A];
    O.periodic[A] = C.periodic[A];
  }
  O.memory = S.memory;
  return O;
}

/// The result bytes of one run, on rank 0.
using Result = std::vector<char>;
template <typename T> Result bytesOf(const std::vector<T> &V) {
  Result R(V.size() * sizeof(T));
  if (!V.empty())
    std::memcpy(R.data(), V.data(), R.size());
  return R;
}

/// Halo points beyond this rank's own points in two or more dimensions (the
/// halo's edges and corners) that an exchange fills, i.e. not beyond a
/// non-periodic global edge, summed over the ranks: how many there are and
/// how many still hold fillInitial's NaN.
template <typename T> std::pair<long long, long long> diagonalHalo(const Field<T> &F) {
  const Domain &D = F.domain();
  const stencil::Grid &G = F.grid();
  const std::vector<T> V = F.values();
  long long Counts[2] = {0, 0};
  std::size_t N = 0;
  for (long long K = 0; K < G.extent[2]; ++K)
    for (long long J = 0; J < G.extent[1]; ++J)
      for (long long I = 0; I < G.extent[0]; ++I, ++N) {
        const long long L[3] = {I, J, K};
        int Beyond = 0;
        bool Wall = false;
        for (int A = 0; A < D.dims(); ++A) {
          const long long Global = G.origin[A] + L[A];
          Beyond += Global < D.localOffset(A) ||
                    Global >= D.localOffset(A) + D.localExtent(A);
          Wall = Wall || (!D.periodic(A) && (Global < 0 || Global >= D.globalExtent(A)));
        }
        if (Beyond < 2 || Wall)
          continue;
        ++Counts[0];
        Counts[1] += V[N] != V[N]; // NaN
      }
  MPI_Allreduce(MPI_IN_PLACE, Counts, 2, MPI_LONG_LONG, MPI_SUM, D.comm());
  return {Counts[0], Counts[1]};
}

/// Runs whose exchange filled the halo's edges and corners where the
/// stencil reads none, or left them where it reads them.
int DiagonalHaloChecks = 0, DiagonalHaloFailures = 0;

/// One stencil updating f into fn, ping-pong: the one-divided binder. The
/// exchange fills the halo's edges and corners only if the stencil reads
/// them (\p ReadsDiagonal, as the test knows it): a star stencil's stay NaN
/// (and its result is still bit-equal to the reference's), a box stencil's
/// are all filled.
template <typename T, typename StencilT, typename... Scalars>
Result runSingle(MPI_Comm Comm, const std::vector<long long> &Extents,
                 const Config &C, const Settings &S, Mode M, bool ReadsDiagonal,
                 const StencilT &St, Scalars... Sc) {
  const Domain D(Comm, Extents, options(C, S, M == Mode::Reference));
  const stencil::Halo H = stencil::haloOf(D.backend(), St);
  Field<T> F(D, H, "f"), Fn(D, H, "fn");
  fillInitial(F);
  fillInitial(Fn);
  TestLoop Loop(D, S);
  // Seed 001's form: an exchange the domain owns.
  stencil::BoundaryExchange *Exchange = D.exchange();
  Exchange->append(F);
  stencil::CompCommBinder Binder(Loop, *Exchange);
  Binder.set_post_func(St, Sc..., F, Fn);
  for (int Step = 0; Step < S.steps; ++Step) {
    if (M == Mode::Reference) {
      wrapHalo(F);
      Loop.run(St, Sc..., F, Fn);
    } else {
      if (S.lateUs && D.rank() != 0)
        usleep(S.lateUs);
      Binder.run(M == Mode::Overlap);
    }
    F.swap(Fn);
  }
  Loop.synchronize();
  if (M != Mode::Reference) {
    // Fn is the storage the last step exchanged.
    const auto [Points, Poisoned] = diagonalHalo(Fn);
    const long long Want = ReadsDiagonal ? 0 : Points;
    ++DiagonalHaloChecks;
    if (Poisoned != Want) {
      ++DiagonalHaloFailures;
      if (D.rank() == 0)
        std::printf("%s %s: %lld of %lld edge and corner halo points not exchanged, "
                    "expected %lld: DIFFERS from what the stencil reads\n",
                    typeid(StencilT).name(), modeName(M), Poisoned, Points, Want);
    }
  }
  return bytesOf(F.gather());
}

/// Where a time loop's steps between exchanges come from.
enum class PerExchangeFrom {
  Given,     ///< setTemporal
  Shallower, ///< setTemporal, one step fewer than the halo holds
  Halo,      ///< as many as the halo allows
  Timing,    ///< chooseStepsByTiming, the loop run in two parts
};

/// Time loops whose overlapped passes' parts (DeepRegions::passParts) broke
/// a rule below.
int PassPartsChecks = 0, PassPartsFailures = 0;

/// The parts of an overlapped pass of 1 to \p Deepest steps on this rank, for
/// a stencil reading \p Reads: their stores are disjoint and cover the own
/// points; each store, widened by steps - 1 reaches, is computed (inside its
/// region); no region reads beyond what the exchange fills (steps reaches);
/// the interior's reads none of the halo. Widening is only towards a
/// neighbour. Collective.
void checkPassParts(const Domain &D, const stencil::Halo &H,
                    const stencil::Halo &Reads, int Deepest) {
  const stencil::Region Own = stencil::detail::ownRegion(D, H);
  const stencil::detail::DeepRegions Regions(D, Own, Reads);
  auto Widened = [&](stencil::Region R, long long By) {
    for (int X = 0; X < D.dims(); ++X) {
      stencil::Direction Low, High;
      Low.d[X] = -1;
      High.d[X] = 1;
      if (D.exchanges(X) && D.neighbour(Low) >= 0)
        R.lo[X] -= By * Reads.lo[X];
      if (D.exchanges(X) && D.neighbour(High) >= 0)
        R.hi[X] += By * Reads.hi[X];
    }
    return R;
  };
  auto Inside = [&](const stencil::Region &A, const stencil::Region &B) {
    for (int X = 0; X < D.dims(); ++X)
      if (A.lo[X] < B.lo[X] || A.hi[X] > B.hi[X])
        return false;
    return true;
  };
  auto Count = [&](const stencil::Region &R) {
    long long N = 1;
    for (int X = 0; X < D.dims(); ++X)
      N *= std::max(0LL, R.hi[X] - R.lo[X]);
    return N;
  };
  int Bad = 0;
  for (int Steps = 1; Steps <= Deepest; ++Steps) {
    const auto Parts = Regions.passParts(Steps);
    long long Stored = 0;
    for (std::size_t I = 0; I < Parts.size(); ++I) {
      const auto &P = Parts[I];
      Stored += Count(P.store);
      Bad += !Inside(P.store, Own);
      Bad += !Inside(Widened(P.store, Steps - 1), P.region);
      Bad += !Inside(Widened(P.region, 1), Widened(Own, Steps));
      if (P.interior)
        Bad += !Inside(Widened(P.region, 1), Own) || I != 0;
      for (std::size_t J = 0; J < I; ++J) {
        stencil::Region Both = P.store;
        for (int X = 0; X < D.dims(); ++X) {
          Both.lo[X] = std::max(Both.lo[X], Parts[J].store.lo[X]);
          Both.hi[X] = std::min(Both.hi[X], Parts[J].store.hi[X]);
        }
        Bad += Count(Both) > 0;
      }
    }
    Bad += Stored != Count(Own);
  }
  MPI_Allreduce(MPI_IN_PLACE, &Bad, 1, MPI_INT, MPI_SUM, D.comm());
  ++PassPartsChecks;
  if (Bad) {
    ++PassPartsFailures;
    if (D.rank() == 0)
      std::printf("overlapped passes' parts: %d rules broken: DIFFERS\n", Bad);
  }
}

/// A time loop, DomainLoop::repeat: 2 * steps + 1 steps (not a multiple of
/// 2 or 3) of \p St, in halos \p PerExchange steps deep, with as many steps
/// between exchanges as \p From says; the overlap mode overlaps each
/// exchange. The reference runs the steps one by one. Both levels are
/// compared: repeat() leaves both exact. With \p Third, the stencil also
/// takes a third field after the levels (Accumulate's), compared too.
template <typename T, bool Third = false, typename StencilT,
          typename... Scalars>
Result runRepeat(MPI_Comm Comm, const std::vector<long long> &Extents,
                 const Config &C, const Settings &S, Mode M, int PerExchange,
                 PerExchangeFrom From, const StencilT &St, Scalars... Sc) {
  const Domain D(Comm, Extents, options(C, S, M == Mode::Reference));
  const stencil::Halo H = stencil::deepHaloOf(D.backend(), PerExchange, St);
  Field<T> F(D, H, "f"), Fn(D, H, "fn"), W(D, H, "w");
  fillInitial(F);
  fillInitial(Fn, 0.5); // each level's margin its own
  fillInitial(W, 0.25);
  TestLoop Loop(D, S);
  // Calls \p Call with the arguments after the scalars.
  auto With = [&W](auto Call, auto &&Previous, auto &&Next) {
    if constexpr (Third)
      Call(Previous, Next, W);
    else
      Call(Previous, Next);
  };
  const long long Steps = 2LL * S.steps + 1;
  if (M == Mode::Reference) {
    for (long long N = 0; N < Steps; ++N) {
      wrapHalo(F);
      With([&](auto &...L) { Loop.run(St, Sc..., L...); }, F, Fn);
      F.swap(Fn);
    }
  } else {
    stencil::TemporalConfig Temporal;
    Temporal.steps = From == PerExchangeFrom::Given       ? PerExchange
                     : From == PerExchangeFrom::Shallower ? PerExchange - 1
                                                          : 0;
    Loop.setTemporal(Temporal);
    Loop.setRepeatOverlap(M == Mode::Overlap);
    if (M == Mode::Overlap)
      checkPassParts(D, H, stencil::haloOf(D.backend(), St), PerExchange);
    Loop.chooseStepsByTiming(From == PerExchangeFrom::Timing, "");
    // Timed: the choice is made once, on copies, and kept for the second
    // part; the two parts make the same loop.
    const long long First = From == PerExchangeFrom::Timing ? 3 : Steps;
    auto Repeat = [&](long long N) {
      With([&](auto &...L) { Loop.repeat(N, St, Sc..., L...); },
           stencil::previousLevel(F), stencil::nextLevel(Fn));
    };
    Repeat(First);
    const int Chosen = Loop.lastStepsPerExchange();
    Repeat(Steps - First);
    if (From == PerExchangeFrom::Timing &&
        (Chosen < 1 || Chosen > PerExchange ||
         Loop.lastStepsPerExchange() != Chosen ||
         static_cast<int>(Loop.lastTimings().size()) >
             std::max(PerExchange, 3)))
      throw std::runtime_error(
          "error: chooseStepsByTiming chose " + std::to_string(Chosen) +
          " then " + std::to_string(Loop.lastStepsPerExchange()) +
          " steps per exchange from " +
          std::to_string(Loop.lastTimings().size()) +
          " timings, in a halo of " + std::to_string(PerExchange));
  }
  Loop.synchronize();
  Result R = bytesOf(F.gather());
  const Result Before = bytesOf(Fn.gather());
  R.insert(R.end(), Before.begin(), Before.end());
  if (Third) {
    const Result Kept = bytesOf(W.gather());
    R.insert(R.end(), Kept.begin(), Kept.end());
  }
  return R;
}

/// Box27 (f -> g), exchange g, Smooth7d (g -> f): the two-divided binder.
Result runPair(MPI_Comm Comm, const std::vector<long long> &Extents,
               const Config &C, const Settings &S, Mode M) {
  const Domain D(Comm, Extents, options(C, S, M == Mode::Reference));
  const stencil::Halo H = stencil::haloOf(D.backend(), Box27(), Smooth7d());
  Field<double> F(D, H, "f"), G(D, H, "g");
  fillInitial(F);
  fillInitial(G, 0.5);
  TestLoop Loop(D, S);
  stencil::HaloExchange ExF(D), ExG(D);
  ExF.append(F);
  ExG.append(G);
  stencil::CompCommBinder Binder(Loop, ExG);
  Binder.set_pre_func(Box27(), 0.01, F, G);
  Binder.set_post_func(Smooth7d(), 0.1, G, F);
  for (int Step = 0; Step < S.steps; ++Step) {
    if (M == Mode::Reference) {
      wrapHalo(F);
      Loop.run(Box27(), 0.01, F, G);
      wrapHalo(G);
      Loop.run(Smooth7d(), 0.1, G, F);
    } else {
      ExF.transfer(Loop.stream());
      Binder.run(M == Mode::Overlap);
    }
  }
  Loop.synchronize();
  return bytesOf(F.gather());
}

/// advectStep (three stencils, a profile along z): DomainStep exchanges u,
/// then fx and fy, from the step's graph; the reference runs the stencils
/// with each array's halo wrapped before it is read off the centre.
Result runStep(MPI_Comm Comm, const std::vector<long long> &Extents,
               const Config &C, const Settings &S, Mode M) {
  const Domain D(Comm, Extents, options(C, S, M == Mode::Reference));
  const stencil::Halo H =
      stencil::haloOf(D.backend(), FluxX(), FluxY(), Divergence());
  Field<float> U(D, H, "u"), Un(D, H, "un"), Fx(D, H, "fx"), Fy(D, H, "fy");
  fillInitial(U);
  fillInitial(Un);
  fillInitial(Fx, 0.5);
  fillInitial(Fy, 0.25);
  // The rank's piece of the profile, halo included, from global z.
  std::vector<float> Rho0(static_cast<std::size_t>(U.grid().extent[2]));
  for (std::size_t K = 0; K < Rho0.size(); ++K)
    Rho0[K] = 1.0f + 0.01f * static_cast<float>(U.grid().origin[2] +
                                                 static_cast<long long>(K));
  const float *Profile = Rho0.data();
  std::unique_ptr<stencil::DeviceArray<float>> DeviceProfile;
  if (D.memory() == Memory::Device) {
    DeviceProfile = std::make_unique<stencil::DeviceArray<float>>(Rho0.size());
    DeviceProfile->upload(Rho0.data());
    Profile = DeviceProfile->data();
  }
  TestLoop Loop(D, S);
  stencil::DomainStep Step(Loop);
  if (M != Mode::Reference) {
    // One Field for fx and un: refused at Divergence's launch, after the
    // exchange before it started. That exchange is completed: left in
    // flight it refused every later run on fx (and crashed at the end).
    // FluxX and FluxY wrote what the step writes there anyway.
    bool Refused = false;
    try {
      if (M == Mode::Overlap)
        Step.run(advectStep, 0.1f, Profile, U, Fx, Fy, Fx);
      else
        Step.runWithoutOverlap(advectStep, 0.1f, Profile, U, Fx, Fy, Fx);
    } catch (const std::exception &) {
      Refused = true;
    }
    if (!Refused)
      throw std::runtime_error("error: advectStep given fx for un ran");
  }
  for (int N = 0; N < S.steps; ++N) {
    if (M == Mode::Reference) {
      wrapHalo(U);
      Loop.run(FluxX(), U, Fx);
      Loop.run(FluxY(), U, Fy);
      wrapHalo(Fx);
      wrapHalo(Fy);
      Loop.run(Divergence(), 0.1f, Profile, Fx, Fy, U, Un);
    } else {
      if (M == Mode::Overlap)
        Step.run(advectStep, 0.1f, Profile, U, Fx, Fy, Un);
      else
        Step.runWithoutOverlap(advectStep, 0.1f, Profile, U, Fx, Fy, Un);
      // The fields' halo is the stencils' union, which covers the plan's
      // fused group: it runs, unless switched off.
      // STENCIL_STEP_PLAN=timed: the fused group runs fused and apart in
      // turn, each way bit for bit the sequence.
      if (stencil::detail::stepPlanTimed() && Step.choices(advectStep).empty())
        throw std::runtime_error("error: advectStep was not measured");
      if (Step.ranPlan() == stencil::detail::stepPlanDisabled())
        throw std::runtime_error(
            std::string("error: advectStep ran ") +
            (Step.ranPlan() ? "its plan" : "call by call") +
            " with STENCIL_STEP_PLAN " +
            (stencil::detail::stepPlanDisabled() ? "=multi-kernel" : "unset"));
    }
    U.swap(Un);
  }
  Loop.synchronize();
  Result R = bytesOf(U.gather());
  const Result F = bytesOf(Fx.gather());
  R.insert(R.end(), F.begin(), F.end());
  return R;
}

/// relaxStep (two rounds, the first without an exchange): DomainStep
/// overlaps the exchange of p two-divided, which it says; the reference
/// wraps p's halo before Relax reads it. The fields' halo is a point wider
/// than the step reads on every side: the exchange still sends only what
/// Relax reads, as many bytes as an exchange of p's reads.
Result runRelax(MPI_Comm Comm, const std::vector<long long> &Extents,
                const Config &C, const Settings &S, Mode M) {
  const Domain D(Comm, Extents, options(C, S, M == Mode::Reference));
  const stencil::Halo Reads =
      stencil::DomainStep::haloOf(D.backend(), relaxStep);
  stencil::Halo H = Reads;
  for (int X = 0; X < 3; ++X) {
    ++H.lo[X];
    ++H.hi[X];
  }
  Field<float> U(D, H, "u"), P(D, H, "p"), W(D, H, "w");
  stencil::HaloExchange ReadsOnly(D);
  ReadsOnly.append(P, Reads);
  ReadsOnly.transfer(); // sizes its messages
  fillInitial(U, 0.1);
  fillInitial(P, 0.5);
  fillInitial(W, 0.2);
  TestLoop Loop(D, S);
  stencil::DomainStep Step(Loop);
  for (int N = 0; N < S.steps; ++N) {
    if (M == Mode::Reference) {
      Loop.run(Diagnose(), U, W, P);
      wrapHalo(P);
      Loop.run(Relax(), 0.05f, P, U, W);
    } else {
      if (M == Mode::Overlap)
        Step.run(relaxStep, 0.05f, U, P, W);
      else
        Step.runWithoutOverlap(relaxStep, 0.05f, U, P, W);
      // On one process, not periodic, p's exchange has nothing to send.
      const int Expected =
          M == Mode::Overlap && Step.ranPlan() && ReadsOnly.messages() ? 1 : 0;
      if (Step.twoDivided() != Expected)
        throw std::runtime_error(
            "error: relaxStep ran " + std::to_string(Step.twoDivided()) +
            " exchanges two-divided, not " + std::to_string(Expected));
      if (Step.bytesSent() != ReadsOnly.bytesSent())
        throw std::runtime_error(
            "error: relaxStep's exchanges sent " +
            std::to_string(Step.bytesSent()) + " bytes, not the " +
            std::to_string(ReadsOnly.bytesSent()) + " of p's reads");
    }
    U.swap(W);
  }
  Loop.synchronize();
  Result R = bytesOf(U.gather());
  const Result F = bytesOf(P.gather());
  R.insert(R.end(), F.begin(), F.end());
  return R;
}

struct Case {
  std::string name;
  int dims;
  std::function<Result(MPI_Comm, const Config &, const Settings &, Mode)> run;
  /// A time loop's values are of this many bytes: on a GPU, stencilc's
  /// passes may contract multiply-adds unlike the single-step code of the
  /// reference, so there they are compared within the CUDA contract's
  /// tolerance (docs/correctness.md). 0: bit for bit everywhere.
  int valueBytes = 0;
};

/// Whether \p Got is within \p Tolerance of \p Expected, relative to the
/// largest reference value, as values of type T (NaN where it is NaN).
template <typename T>
bool withinTolerance(const Result &Got, const Result &Expected,
                     double Tolerance) {
  if (Got.size() != Expected.size())
    return false;
  const std::size_t N = Got.size() / sizeof(T);
  std::vector<T> A(N), B(N);
  std::memcpy(A.data(), Got.data(), N * sizeof(T));
  std::memcpy(B.data(), Expected.data(), N * sizeof(T));
  double Largest = 0;
  for (T V : B)
    if (V == V)
      Largest = std::max(Largest, std::abs(static_cast<double>(V)));
  for (std::size_t I = 0; I < N; ++I) {
    if ((A[I] != A[I]) != (B[I] != B[I]))
      return false;
    if (B[I] == B[I] &&
        std::abs(static_cast<double>(A[I]) - B[I]) > Tolerance * Largest)
      return false;
  }
  return true;
}

std::vector<Case> cases() {
  const std::vector<long long> E3 = {19, 17, 16}, E2 = {23, 21};
  const std::vector<long long> T3 = {66, 26, 33}, T2 = {33, 34};
  return {
      {"diffusion7", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runSingle<float>(Cm, E3, C, S, M, false, Diffusion7(), 0.1f, 1e-4f, 0);
       }},
      {"box27", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runSingle<double>(Cm, E3, C, S, M, true, Box27(), 0.005);
       }},
      {"wide", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runSingle<float>(Cm, E3, C, S, M, false, Wide(), 0.05f);
       }},
      // Wide's halo has one side only in y and z, so a rank that only sends
      // that way hears nothing back from its receiver; bound once
      // (CompCommBinder) no collective call holds the ranks together, so the
      // first runs ahead. Its exchanges must still not overwrite what a late
      // receiver has not unpacked (the peer transport copies straight into
      // the receiver).
      {"wide, receivers late", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         Settings Late = S;
         Late.lateUs = 2000;
         Late.steps = 8;
         return runSingle<float>(Cm, E3, C, Late, M, false, Wide(), 0.05f);
       }},
      {"box27+smooth7 (two-divided)", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runPair(Cm, E3, C, S, M);
       }},
      {"advectStep (a step: DomainStep)", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runStep(Cm, E3, C, S, M);
       }},
      {"relaxStep (a step: two-divided overlap)", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRelax(Cm, E3, C, S, M);
       }},
      {"heat2d9", 2,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runSingle<double>(Cm, E2, C, S, M, true, heat2d9, 0.05, 3);
       }},
      // Time loops: blocks of every rank count's decompositions stay at
      // least as thick as the deep halos. Stencils that use their
      // coordinates take one step per exchange across periodic wraps.
      {"diffusion7 repeat, 1 step per exchange", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<float>(Cm, T3, C, S, M, 1, PerExchangeFrom::Given, Diffusion7(), 0.1f,
                                 1e-4f, 4);
       },
       4},
      {"diffusion7 repeat, as many steps per exchange as a halo of 3 allows", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<float>(Cm, T3, C, S, M, 3, PerExchangeFrom::Halo, Diffusion7(), 0.1f,
                                 1e-4f, 4);
       },
       4},
      {"box27 repeat, as many steps per exchange as a halo of 3 allows", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<double>(Cm, T3, C, S, M, 3, PerExchangeFrom::Halo, Box27(), 0.005);
       },
       8},
      {"wide repeat, as many steps per exchange as thrice its halo allows", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<float>(Cm, T3, C, S, M, 3, PerExchangeFrom::Halo, Wide(), 0.05f);
       },
       4},
      {"upwind repeat (uneven reach), 4 steps per exchange", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<double>(Cm, T3, C, S, M, 4, PerExchangeFrom::Given, Upwind(), 0.05);
       },
       8},
      {"heat2d9 repeat, as many steps per exchange as a halo of 3 allows", 2,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<double>(Cm, T2, C, S, M, 3, PerExchangeFrom::Halo, heat2d9, 0.05, 3);
       },
       8},
      {"upwind repeat, 2 steps per exchange in a halo of 3", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<double>(Cm, T3, C, S, M, 3,
                                  PerExchangeFrom::Shallower, Upwind(), 0.05);
       },
       8},
      {"upwind repeat, steps per exchange by timing in a halo of 3", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<double>(Cm, T3, C, S, M, 3, PerExchangeFrom::Timing,
                                  Upwind(), 0.05);
       },
       8},
      // The next level's old values matter: its halo too must hold them
      // as deep as the steps between exchanges compute.
      {"blend repeat (the next level read at its centre), 3 steps per exchange",
       3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<float>(Cm, T3, C, S, M, 3, PerExchangeFrom::Given,
                                 Blend(), 0.3f);
       },
       4},
      // A third field updated in place, which the next level reads: its
      // halo too must hold the values of the steps between exchanges.
      {"accumulate repeat (a third field kept), as many steps per exchange as "
       "a halo of 3 allows",
       3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<double, true>(
             Cm, T3, C, S, M, 3, PerExchangeFrom::Halo, Accumulate(), 0.1);
       },
       8},
      {"accumulate repeat, steps per exchange by timing in a halo of 3", 3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<double, true>(
             Cm, T3, C, S, M, 3, PerExchangeFrom::Timing, Accumulate(), 0.1);
       },
       8},
      {"clip repeat (the next level stored on some points), as many steps per "
       "exchange as a halo of 4 allows",
       3,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<double>(Cm, T3, C, S, M, 4, PerExchangeFrom::Halo,
                                  Clip(), 0.24);
       },
       8},
      {"diffuse2d repeat, 4 steps per exchange", 2,
       [=](MPI_Comm Cm, const Config &C, const Settings &S, Mode M) {
         return runRepeat<float>(Cm, T2, C, S, M, 4, PerExchangeFrom::Given, diffuse2d, 0.1f);
       },
       4},
  };
}

/// chooseStepsByTiming's cache file: a second loop, as in a later run,
/// takes the steps between exchanges that the first measured, without
/// measuring. True when it does.
bool timedChoiceIsKept(const Settings &S) {
  DomainOptions O;
  for (bool &P : O.periodic)
    P = true; // exchanges even on one rank: there is a choice to make
  O.memory = S.memory;
  const Domain D(MPI_COMM_WORLD, {40, 30, 28}, O);
  const stencil::Halo H = stencil::deepHaloOf(D.backend(), 3, Upwind());
  Field<double> F(D, H, "f"), G(D, H, "g");
  fillInitial(F);
  fillInitial(G);
  std::string Path = "stencilc-time-loop-cache-" +
                     std::to_string(static_cast<long>(getpid())) + ".json";
  int Length = static_cast<int>(Path.size());
  MPI_Bcast(&Length, 1, MPI_INT, 0, D.comm());
  Path.resize(static_cast<std::size_t>(Length));
  MPI_Bcast(Path.data(), Length, MPI_CHAR, 0, D.comm());
  std::remove(Path.c_str());
  stencil::TemporalConfig Chosen[2];
  std::size_t Timings[2] = {0, 0};
  for (int Run = 0; Run < 2; ++Run) {
    TestLoop Loop(D, S);
    Loop.chooseStepsByTiming(true, Path);
    Loop.repeat(5, Upwind(), 0.05, stencil::previousLevel(F),
                stencil::nextLevel(G));
    Chosen[Run] = Loop.lastTemporal();
    Timings[Run] = Loop.lastTimings().size();
  }
  if (D.rank() == 0) {
    std::remove(Path.c_str());
    std::remove((Path + ".lock").c_str()); // the cache writer's
  }
  bool Ok = Timings[0] == 3 && Timings[1] == 0 &&
            Chosen[1].steps == Chosen[0].steps &&
            std::equal(Chosen[0].block, Chosen[0].block + 3, Chosen[1].block);
  // The cache's text of a choice, and text that is none.
  using stencil::detail::parseTimeLoopChoice;
  const auto Blocked = parseTimeLoopChoice("steps 3 tile 32 16 chunk 128");
  Ok = Ok && Blocked.steps == 3 && Blocked.block[0] == 32 &&
       Blocked.block[1] == 16 && Blocked.block[2] == 128 &&
       parseTimeLoopChoice("steps 2").steps == 2 &&
       parseTimeLoopChoice("steps 2").block[0] == 0;
  for (const char *Bad :
       {"steps 3 tile 32", "steps 3 tile 32 16 chunk 0",
        "steps 3 tile 32 16 chunk 128 more", "steps x", "steps 3x", ""})
    Ok = Ok && parseTimeLoopChoice(Bad).steps == -1;
  if (D.rank() == 0 && (!Ok || std::getenv("STENCIL_TEST_VERBOSE")))
    std::printf("time loop's timed choice: %d steps per exchange, passes "
                "%d,%d,%d, from %zu timings, then %d, %d,%d,%d from %zu (the "
                "cache file's): %s\n",
                Chosen[0].steps, Chosen[0].block[0], Chosen[0].block[1],
                Chosen[0].block[2], Timings[0], Chosen[1].steps,
                Chosen[1].block[0], Chosen[1].block[1], Chosen[1].block[2],
                Timings[1], Ok ? "kept" : "DIFFERS from what was measured");
  return Ok;
}

/// Decompositions of P ranks in Dims dimensions: 1-D along x and along the
/// slowest dimension, 2-D and 3-D where P allows, and MPI_Dims_create's own.
std::vector<std::vector<int>> decompositions(int P, int Dims) {
  std::vector<std::vector<int>> Out;
  auto Add = [&](std::vector<int> V) {
    V.resize(3, 1);
    for (const auto &O : Out)
      if (O == V)
        return;
    Out.push_back(V);
  };
  Add({P});
  Add(Dims == 3 ? std::vector<int>{1, 1, P} : std::vector<int>{1, P});
  for (int A = 2; A < P; ++A)
    if (P % A == 0) {
      Add(Dims == 3 ? std::vector<int>{A, 1, P / A}
                    : std::vector<int>{A, P / A});
      break;
    }
  if (Dims == 3)
    for (int A = 2; A < P; ++A)
      for (int B = 2; A * B < P; ++B)
        if (P % (A * B) == 0 && P / (A * B) > 1) {
          Add({A, B, P / (A * B)});
          A = B = P;
        }
  Add({0, 0, 0}); // automatic
  return Out;
}

int runChecks(const Settings &S) {
  int Rank = 0, Size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  const bool Periodic[3][3] = {
      {false, false, false}, {true, true, true}, {true, false, true}};
  int Checks = 0, Failures = 0, WithinTolerance = 0;
  for (const Case &C : cases())
    for (const auto &Per : Periodic) {
      if (C.name.find(S.only) == std::string::npos)
        continue;
      Config Ref{{1, 1, 1}, {Per[0], Per[1], C.dims == 3 && Per[2]}};
      Result Expected;
      if (Rank == 0)
        Expected = C.run(MPI_COMM_SELF, Ref, S, Mode::Reference);
      for (const auto &Procs : decompositions(Size, C.dims)) {
        Config Cf = Ref;
        for (int A = 0; A < 3; ++A)
          Cf.procs[A] = Procs[A];
        for (Mode M : {Mode::Plain, Mode::Overlap}) {
          const Result Got = C.run(MPI_COMM_WORLD, Cf, S, M);
          int Ok = Rank != 0 || Got == Expected;
          int Close = 0;
          if (!Ok && S.memory == Memory::Device && C.valueBytes)
            Close = Ok = C.valueBytes == 4
                             ? withinTolerance<float>(Got, Expected, 1e-6)
                             : withinTolerance<double>(Got, Expected, 1e-12);
          MPI_Bcast(&Close, 1, MPI_INT, 0, MPI_COMM_WORLD);
          WithinTolerance += Close;
          if (!Ok && std::getenv("STENCIL_TEST_VERBOSE"))
            for (std::size_t B = 0; B < Got.size() && B < Expected.size(); ++B)
              if (Got[B] != Expected[B]) {
                std::size_t Differ = 0;
                for (std::size_t E = B; E < Got.size(); ++E)
                  Differ += Got[E] != Expected[E];
                std::printf("first difference at byte %zu of %zu (%zu bytes "
                            "differ)\n",
                            B, Got.size(), Differ);
                break;
              }
          MPI_Bcast(&Ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
          ++Checks;
          Failures += !Ok;
          if (Rank == 0 && (!Ok || std::getenv("STENCIL_TEST_VERBOSE")))
            std::printf("%s: P=%d procs %dx%dx%d periodic %d%d%d %s: %s\n",
                        C.name.c_str(), Size, Procs[0], Procs[1], Procs[2],
                        Per[0], Per[1], Per[2], modeName(M),
                        Close ? "within the CUDA tolerance of 1 rank"
                        : Ok  ? "bit-equal to 1 rank"
                              : "DIFFERS from 1 rank");
        }
      }
    }
  Checks += DiagonalHaloChecks + PassPartsChecks;
  Failures += DiagonalHaloFailures + PassPartsFailures;
  if (S.only.empty() || std::string("time loop's timed choice").find(S.only) !=
                            std::string::npos) {
    ++Checks;
    Failures += !timedChoiceIsKept(S);
  }
  if (Rank == 0)
    std::printf("mpi_test: %d ranks, %s memory, variant %s (%d,%d,%d): %d of "
                "%d checks bit-equal to the one-rank run (%d more within the "
                "CUDA tolerance: time loops' passes)\n",
                Size, S.memory == Memory::Device ? "device" : "host",
                S.variant.c_str(), S.block[0], S.block[1], S.block[2],
                Checks - Failures - WithinTolerance, Checks, WithinTolerance);
  return Failures ? 1 : 0;
}

/// What the ranks would go on to do after making a domain they disagree on
/// (were it not refused): exchange a halo and run a stencil.
/// A time loop of the stencil behind \p St with the marks swapped: stencilc
/// cannot tell which stencil a pointer parameter holds, so only the run time
/// can see that the previous level is the array the steps write.
void repeatSwapped(stencil::DomainLoop &Loop,
                   void (*St)(const stencil::Index3D &, const float *, float *),
                   Field<float> &U, Field<float> &Un) {
  Loop.repeat(2, St, stencil::nextLevel(U), stencil::previousLevel(Un));
}

void runAfterDisagreement(const Domain &D, const Settings &S) {
  Field<float> F(D, stencil::haloOf(D.backend(), Diffusion7()), "f");
  Field<float> G(D, stencil::haloOf(D.backend(), Diffusion7()), "g");
  stencil::HaloExchange Ex(D);
  Ex.append(F);
  TestLoop Loop(D, S);
  Ex.transfer(Loop.stream());
  Loop.run(Diffusion7(), 0.1f, 0.0f, -1, F, G);
}

/// Bad input, for the error tests: every rank must report and exit (cleanly,
/// or through MPI_Abort when one rank fails alone), never hang.
int runError(const std::string &What, const Settings &S) {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  DomainOptions O;
  O.memory = S.memory;
  if (What == "small-extent") {
    O.procs[0] = 2;
    const Domain D(MPI_COMM_WORLD, {3, 8, 8}, O);
    Field<float> F(D, stencil::haloOf(D.backend(), Wide()), "f");
  } else if (What == "decomposition") {
    O.procs[0] = 3;
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
  } else if (What == "shape") {
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    Field<float> F(D, stencil::haloOf(D.backend(), Diffusion7()), "f");
    Field<float> G(D, stencil::haloOf(D.backend(), Wide()), "g");
    stencil::DomainLoop Loop(D);
    Loop.run(Wide(), 1.0f, F, G);
  } else if (What == "variant") {
    // A variant the stencil's code for this backend does not have.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    Field<float> F(D, stencil::haloOf(D.backend(), Diffusion7()), "f");
    Field<float> G(D, stencil::haloOf(D.backend(), Diffusion7()), "g");
    stencil::DomainLoop Loop(D);
    Loop.setVariant("zmarch");
    Loop.run(Diffusion7(), 0.1f, 0.0f, -1, F, G);
  } else if (What == "extents-disagree") {
    // Rank 1 has another grid: messages of other sizes, before the check.
    const Domain D(MPI_COMM_WORLD, {16, 16, Rank == 1 ? 17 : 16}, O);
    runAfterDisagreement(D, S);
  } else if (What == "procs-disagree") {
    O.procs[2] = Rank == 0 ? 2 : 0;
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    runAfterDisagreement(D, S);
  } else if (What == "periodic-disagree") {
    O.periodic[1] = Rank == 0;
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    runAfterDisagreement(D, S);
  } else if (What == "variant-one-rank") {
    // setVariant on rank 0 only: it alone would fail (or launch other code).
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    Field<float> F(D, stencil::haloOf(D.backend(), Diffusion7()), "f");
    Field<float> G(D, stencil::haloOf(D.backend(), Diffusion7()), "g");
    stencil::DomainLoop Loop(D);
    if (Rank == 0)
      Loop.setVariant("zmarch");
    Loop.run(Diffusion7(), 0.1f, 0.0f, -1, F, G);
    stencil::HaloExchange Ex(D);
    Ex.append(G);
    Ex.transfer(Loop.stream());
  } else if (What == "exchange-disagree") {
    // Rank 1 exchanges a field of another halo: messages would not match.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    Field<float> F(D, stencil::haloOf(D.backend(), Diffusion7()), "f");
    Field<float> G(D, stencil::haloOf(D.backend(), Wide()), "g");
    stencil::HaloExchange Ex(D);
    if (Rank == 1)
      Ex.append(G);
    else
      Ex.append(F);
    Ex.transfer();
  } else if (What == "region-margin") {
    // A region reaching into the halo: the stencil would read beyond the
    // fields (margin 0 where its halo is 1).
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    Field<float> F(D, stencil::haloOf(D.backend(), Diffusion7()), "f");
    Field<float> G(D, stencil::haloOf(D.backend(), Diffusion7()), "g");
    stencil::DomainLoop Loop(D);
    const stencil::BoundStencil B =
        Loop.bind(Diffusion7(), 0.1f, 0.0f, -1, F, G);
    stencil::Region R = B.own;
    R.lo[0] = 0;
    Loop.launch(B, R);
  } else if (What == "corners") {
    // Fields whose halo skips the edges and corners (a 7-point stencil's),
    // passed to a stencil that reads them: they would be stale.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    Field<double> F(D, stencil::haloOf(D.backend(), Smooth7d()), "f");
    Field<double> G(D, stencil::haloOf(D.backend(), Smooth7d()), "g");
    stencil::DomainLoop Loop(D);
    Loop.run(Box27(), 0.01, F, G);
  } else if (What == "repeat-halo" || What == "repeat-halo-huge" ||
             What == "repeat-one-field" || What == "repeat-coordinates" ||
             What == "repeat-steps-disagree" || What == "repeat-negative" ||
             What == "repeat-steps-huge") {
    // A time loop asked for more steps between exchanges than the halo (or
    // a periodic wrap, for a stencil using its coordinates) allows, given
    // one field as both levels, a step count that differs on rank 1, or an
    // unsigned count past LLONG_MAX (it arrives negative).
    O.periodic[0] = What == "repeat-coordinates";
    O.procs[0] = 2;
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    const int Deep = What == "repeat-coordinates" ? 2 : 1;
    Field<float> F(D, stencil::deepHaloOf(D.backend(), Deep, Diffusion7()),
                   "f");
    Field<float> G(D, stencil::deepHaloOf(D.backend(), Deep, Diffusion7()),
                   "g");
    stencil::DomainLoop Loop(D);
    stencil::TemporalConfig Temporal;
    Temporal.steps = What == "repeat-halo" ? 3
                     : What == "repeat-halo-huge"
                         ? std::numeric_limits<int>::max()
                     : What == "repeat-coordinates" ? 2
                     : What == "repeat-negative"    ? -2
                                                    : 0;
    Loop.setTemporal(Temporal);
    const unsigned long long Huge = ~0ull;
    const long long Steps = What == "repeat-steps-huge" ? Huge
                            : What == "repeat-steps-disagree" && Rank == 1 ? 5
                                                                           : 4;
    Field<float> &Next = What == "repeat-one-field" ? F : G;
    Loop.repeat(Steps, Diffusion7(), 0.1f, 0.0f, -1, stencil::previousLevel(F),
                stencil::nextLevel(Next));
  } else if (What == "repeat-timing-one-rank") {
    // Only rank 0 asks for the steps between exchanges to be timed: the
    // trials' collective calls would wait for rank 1 for ever.
    O.procs[0] = 2;
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    const stencil::Halo H = stencil::deepHaloOf(D.backend(), 2, Diffusion7());
    Field<float> F(D, H, "f"), G(D, H, "g");
    stencil::DomainLoop Loop(D);
    Loop.chooseStepsByTiming(Rank == 0, "");
    Loop.repeat(4, Diffusion7(), 0.1f, 0.0f, -1, stencil::previousLevel(F),
                stencil::nextLevel(G));
  } else if (What == "repeat-block-disagree") {
    // Every rank times, but rank 1 sets the passes' block: on a GPU the
    // ranks would make different trials, each between collectives.
    O.procs[0] = 2;
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    const stencil::Halo H = stencil::deepHaloOf(D.backend(), 2, Diffusion7());
    Field<float> F(D, H, "f"), G(D, H, "g");
    stencil::DomainLoop Loop(D);
    stencil::TemporalConfig C;
    if (Rank == 1)
      C.block[0] = 8, C.block[1] = 4, C.block[2] = 2;
    Loop.setTemporal(C);
    Loop.chooseStepsByTiming(true, "");
    Loop.repeat(4, Diffusion7(), 0.1f, 0.0f, -1, stencil::previousLevel(F),
                stencil::nextLevel(G));
  } else if (What == "repeat-next-as-argument") {
    // The next level passed again as an input: the steps would read the
    // field they write.
    O.procs[0] = 2;
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    const stencil::Halo H = stencil::haloOf(D.backend(), Divergence());
    Field<float> U(D, H, "u"), Un(D, H, "un"), Fy(D, H, "fy");
    std::vector<float> Rho0(static_cast<std::size_t>(U.grid().extent[2]), 1.0f);
    stencil::DomainLoop Loop(D);
    Loop.repeat(4, Divergence(), 0.1f, Rho0.data(), Un, Fy,
                stencil::previousLevel(U), stencil::nextLevel(Un));
  } else if (What == "run-field-twice") {
    // One field read off the centre and written by one launch: a race.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    Field<float> F(D, stencil::haloOf(D.backend(), Diffusion7()), "f");
    stencil::DomainLoop Loop(D);
    Loop.run(Diffusion7(), 0.1f, 0.0f, -1, F, F);
  } else if (What == "step-field-twice") {
    // One field for the step's fx and un: Divergence would read fx off the
    // centre while it writes un, the same field.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    const stencil::Halo H =
        stencil::DomainStep::haloOf(D.backend(), advectStep);
    Field<float> U(D, H, "u"), Fx(D, H, "fx"), Fy(D, H, "fy");
    std::vector<float> Rho0(static_cast<std::size_t>(U.grid().extent[2]), 1.0f);
    stencil::DomainLoop Loop(D);
    stencil::DomainStep Step(Loop);
    Step.run(advectStep, 0.1f, Rho0.data(), U, Fx, Fy, Fx);
  } else if (What == "repeat-marks-swapped") {
    // With K = 2 the deep halo would be exchanged on the field the steps
    // write: wrong numbers, had it run.
    O.procs[0] = 2;
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    const stencil::Halo H = stencil::deepHaloOf(D.backend(), 2, smooth3d);
    Field<float> U(D, H, "u"), Un(D, H, "un");
    stencil::DomainLoop Loop(D);
    repeatSwapped(Loop, &smooth3d, U, Un);
  } else if (What == "lower-rank-field") {
    // A Field passed for a profile along z: its data is no profile.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    Field<float> P(D, stencil::haloOf(D.backend(), Profile7()), "f0");
    Field<float> F(D, stencil::haloOf(D.backend(), Profile7()), "f");
    Field<float> G(D, stencil::haloOf(D.backend(), Profile7()), "g");
    stencil::DomainLoop Loop(D);
    Loop.run(Profile7(), P, F, G);
  } else if (What == "step-null-profile") {
    // A null profile: refused before anything runs (the fused kernels read
    // through it).
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    const stencil::Halo H =
        stencil::DomainStep::haloOf(D.backend(), advectStep);
    Field<float> U(D, H, "u"), Un(D, H, "un"), Fx(D, H, "fx"), Fy(D, H, "fy");
    stencil::DomainLoop Loop(D);
    stencil::DomainStep Step(Loop);
    Step.run(advectStep, 0.1f, static_cast<const float *>(nullptr), U, Fx, Fy,
             Un);
  } else if (What == "step-pointer") {
    // A step array whose halo must be exchanged passed as a pointer.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    const stencil::Halo H =
        stencil::haloOf(D.backend(), FluxX(), FluxY(), Divergence());
    Field<float> U(D, H, "u"), Un(D, H, "un"), Fx(D, H, "fx"), Fy(D, H, "fy");
    std::vector<float> Rho0(static_cast<std::size_t>(U.grid().extent[2]), 1.0f);
    std::vector<float> Loose(U.count(), 0.0f);
    stencil::DomainLoop Loop(D);
    stencil::DomainStep Step(Loop);
    Step.run(advectStep, 0.1f, Rho0.data(), U, Loose.data(), Fy, Un);
  } else if (What == "binder-other-domain") {
    // A binder's loop and exchange over two domains: it would exchange one
    // domain's fields and compute the other's.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O),
        E(MPI_COMM_WORLD, {16, 16, 16}, O);
    stencil::DomainLoop Loop(D);
    stencil::HaloExchange Ex(E);
    stencil::CompCommBinder Binder(Loop, Ex);
  } else if (What == "binder-unexchanged" || What == "binder-narrow") {
    // The post stencil reads f, a time level, around a point, but the
    // exchange does not hold f (it holds g), or fills less of it than the
    // stencil reads: the first run reads f as filled, the second the
    // values the first wrote into g, with their old halo.
    O.periodic[0] = true;
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    const stencil::Halo H = stencil::haloOf(D.backend(), Diffusion7());
    Field<float> F(D, H, "f"), G(D, H, "g");
    stencil::DomainLoop Loop(D);
    stencil::HaloExchange Ex(D);
    if (What == "binder-unexchanged") {
      Ex.append(G);
    } else {
      stencil::Halo Narrow = H;
      Narrow.hi[0] = 0;
      Ex.append(F, Narrow);
    }
    stencil::CompCommBinder Binder(Loop, Ex);
    Binder.set_post_func(Diffusion7(), 0.1f, 0.0f, -1, F, G);
    Binder.run();
    F.swap(G);
    Binder.run();
  } else if (What == "block-threads") {
    // A grid block of 2048 threads: no GPU launches it; refused on the
    // host as well.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    const stencil::Halo H = stencil::haloOf(D.backend(), Diffusion7());
    Field<float> F(D, H, "f"), G(D, H, "g");
    stencil::DomainLoop Loop(D);
    Loop.setBlock(32, 32, 2);
    Loop.run(Diffusion7(), 0.1f, 0.0f, -1, F, G);
  } else if (What == "no-fit") {
    // More ranks than points whichever way they are split.
    const Domain D(MPI_COMM_WORLD, {1, 1, 1}, O);
  } else if (What == "pointer-for-field") {
    // A pointer to a buffer of the own points only, for an array of every
    // dimension: the stencil would write past it.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    Field<float> F(D, stencil::haloOf(D.backend(), Diffusion7()), "f");
    std::vector<float> Own(static_cast<std::size_t>(
        D.localExtent(0) * D.localExtent(1) * D.localExtent(2)));
    stencil::DomainLoop Loop(D);
    Loop.run(Diffusion7(), 0.1f, 0.0f, -1, F, Own.data());
  } else if (What == "exception-one-rank") {
    // An error on rank 1 alone while the others wait for its halo.
    const Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
    Field<float> F(D, stencil::haloOf(D.backend(), Diffusion7()), "f");
    if (Rank == 1)
      throw std::runtime_error("stencil: a failure on rank 1 only");
    stencil::HaloExchange Ex(D);
    Ex.append(F);
    Ex.transfer();
    MPI_Barrier(D.comm());
  } else {
    throw std::runtime_error("unknown --error '" + What + "'");
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return stencil::runMpiMain(argc, argv, [&] {
    Settings S;
    std::string Error;
    for (int I = 1; I < argc; ++I) {
      const std::string A = argv[I];
      if (A == "--memory" && I + 1 < argc)
        S.memory =
            std::string(argv[++I]) == "device" ? Memory::Device : Memory::Host;
      else if (A == "--steps" && I + 1 < argc)
        S.steps = std::atoi(argv[++I]);
      else if (A == "--error" && I + 1 < argc)
        Error = argv[++I];
      else if (A == "--variant" && I + 1 < argc)
        S.variant = argv[++I];
      else if (A == "--case" && I + 1 < argc)
        S.only = argv[++I];
      else if (A == "--block" && I + 1 < argc &&
               std::sscanf(argv[I + 1], "%d,%d,%d", &S.block[0], &S.block[1],
                           &S.block[2]) == 3)
        ++I;
      else
        throw std::runtime_error(
            "usage: mpi_test [--memory host|device] [--steps N] [--case TEXT] "
            "[--variant NAME --block X,Y,Z] "
            "[--error "
            "small-extent|decomposition|shape|variant|lower-rank-field|extents-"
            "disagree|"
            "procs-disagree|periodic-disagree|variant-one-rank|exchange-"
            "disagree|"
            "exception-one-rank|region-margin|corners|repeat-halo|repeat-halo-"
            "huge|"
            "repeat-one-field|repeat-coordinates|repeat-steps-disagree|"
            "repeat-negative|repeat-steps-huge|repeat-timing-one-rank|"
            "repeat-block-disagree|"
            "repeat-next-as-argument|repeat-marks-swapped|run-field-twice|"
            "step-field-twice|pointer-for-field|binder-other-domain|"
            "binder-unexchanged|binder-narrow|block-threads|no-fit]");
    }
    return Error.empty() ? runChecks(S) : runError(Error, S);
  });
}
