// domain_step_harness.hpp - what every program of gen_domain_steps.py runs
// per step: stencil::DomainStep on this run's ranks against a host reference
// and against one rank, bit for bit.
//
// For each periodicity (none, all, mixed) rank 0 first computes
//   - the host reference: a one-rank domain's fields (the global grid, halo
//     as haloOf gives it), the step's stencils run in order over the own
//     points by Index<Dims> with the global origin (the host code, not
//     stencilc's), every full array's halo wrapped around the periodic
//     dimensions before each stencil; margins beyond non-periodic edges are
//     never written (what call by call exchanges give a distributed run);
//   - the step on one rank (DomainStep, MPI_COMM_SELF, stencilc's plan),
// then every decomposition of the ranks (1-D along each dimension, 2-D, 3-D,
// MPI's own; those whose blocks are thinner than the halo, from 6 ranks on,
// left out) runs the step with and without overlap, as planned and with
// STENCIL_STEP_PLAN=multi-kernel, and every full array's own points are
// gathered and compared with both. Also, once per periodicity on the first
// decomposition (all ranks along x): fields whose halo is one point short of
// the plan on one side (or without corners) must run call by call with the same
// bits, and one Field passed for two read-only arrays likewise (against a
// reference given the same array twice). Each run checks ranPlan(): true as
// planned with haloOf's fields, false otherwise.
//
// Fields start with values from their global coordinates (in [1, 2)) on own
// points and beyond non-periodic edges (from the global coordinates as they
// are, or wrapped: wrappedMargins()), NaN in every halo point an exchange must
// fill; pieces of arrays of lower rank hold values of their global
// coordinates wrapped around periodic dimensions. The step runs twice per
// check (the second run reads what the first wrote and reuses its
// exchanges).
#ifndef STENCILC_TEST_DOMAIN_STEP_HARNESS_HPP
#define STENCILC_TEST_DOMAIN_STEP_HARNESS_HPP

#include <stencil/dsl.hpp>
#include <stencil/mpi.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dstest {

inline int &checks() {
  static int C = 0;
  return C;
}
inline int &failures() {
  static int F = 0;
  return F;
}
/// Decompositions left out: blocks thinner than the halo (more than 4 ranks).
inline int &skipped() {
  static int S = 0;
  return S;
}
/// Steps, steps with a fused group, steps with a group of two producers or
/// more, distributed runs with an exchange overlapped two-divided.
inline int *stats() {
  static int S[4] = {0, 0, 0, 0};
  return S;
}
inline bool verbose() {
  static const bool V = std::getenv("STENCIL_TEST_VERBOSE") != nullptr;
  return V;
}

/// Whether margins beyond a non-periodic edge take their values from
/// coordinates wrapped around the periodic dimensions (the margin at x = -1
/// beyond a wall in y is the one at x = N - 1; STENCIL_TEST_WRAPPED_MARGINS=1)
/// or, by default, from the global coordinates as they are: then only the
/// exchanges bring the wrapped margins into a periodic halo along a wall, and
/// a fused group whose consumer reads a recomputed array there must run as its
/// calls alone to get them (the reference's wrap() brings them likewise).
inline bool wrappedMargins() {
  static const bool W = std::getenv("STENCIL_TEST_WRAPPED_MARGINS") != nullptr;
  return W;
}

/// A value in [1, 2) of array \p A at global point \p G.
inline double valueAt(unsigned Seed, int A, const long long *G) {
  std::uint64_t H = Seed * 0x9E3779B97F4A7C15ull +
                    static_cast<std::uint64_t>(A) * 0xBF58476D1CE4E5B9ull;
  for (int D = 0; D < 4; ++D) {
    H ^= static_cast<std::uint64_t>(G[D]) + 0x94D049BB133111EBull + (H << 6) +
         (H >> 2);
    H *= 0xD6E8FEB86659FD93ull;
  }
  H ^= H >> 29;
  return 1.0 + static_cast<double>((H >> 11) % 4096) / 4096.0;
}

/// Decompositions of \p P ranks over \p Dims dimensions: along each
/// dimension alone, 2-D and 3-D where P allows, and MPI_Dims_create's.
inline std::vector<std::vector<int>> decompositions(int P, int Dims) {
  std::vector<std::vector<int>> Out;
  auto Add = [&](std::vector<int> V) {
    V.resize(3, 1);
    for (const auto &O : Out)
      if (O == V)
        return;
    Out.push_back(V);
  };
  for (int A = 0; A < Dims; ++A) {
    std::vector<int> V(3, 1);
    V[A] = P;
    Add(V);
  }
  for (int A = 2; A < P; ++A)
    if (P % A == 0) {
      Add({A, P / A, 1});
      if (Dims == 3)
        Add({1, A, P / A});
      break;
    }
  if (Dims == 3 && P == 8)
    Add({2, 2, 2});
  Add({0, 0, 0}); // automatic
  return Out;
}

/// Runs a step's stencils in order over the own points of a one-rank
/// domain's fields, with the host code: what the step means.
template <int Dims> class Reference {
public:
  Reference(const stencil::Grid &G, const stencil::Region &Own,
            std::function<void()> BeforeEach)
      : g_(G), own_(Own), before_(std::move(BeforeEach)) {}

  template <typename StencilT, typename... Args>
  void run(const StencilT &S, Args &&...A) const {
    before_();
    stencil::Index<Dims> Idx = index(std::make_integer_sequence<int, Dims>());
    long long P[4] = {own_.lo[0], own_.lo[1], own_.lo[2], own_.lo[3]};
    for (int D = 0; D < Dims; ++D)
      if (own_.lo[D] >= own_.hi[D])
        return;
    for (;;) {
      place(Idx, P, std::make_integer_sequence<int, Dims>());
      if constexpr (std::is_class_v<StencilT>) {
        StencilT Copy(S);
        Copy(Idx, A...);
      } else {
        S(Idx, A...);
      }
      int D = 0;
      while (D < Dims && ++P[D] == own_.hi[D]) {
        P[D] = own_.lo[D];
        ++D;
      }
      if (D == Dims)
        return;
    }
  }

private:
  template <int... D>
  stencil::Index<Dims> index(std::integer_sequence<int, D...>) const {
    stencil::Index<Dims> Idx(g_.extent[D]...);
    Idx.set_origin(g_.origin[D]...);
    return Idx;
  }
  template <int... D>
  static void place(stencil::Index<Dims> &Idx, const long long *P,
                    std::integer_sequence<int, D...>) {
    Idx.set_pos(P[D]...);
  }

  stencil::Grid g_;
  stencil::Region own_;
  std::function<void()> before_;
};

/// One step's case: its global extents, its arrays (axis mask each: all
/// dimensions for a full array, fewer for a profile), and two of them to
/// pass as one Field in a run of their own (no call reading one and writing
/// the other; the second may be written).
template <typename T, int Dims> class Case {
public:
  using Result = std::vector<std::vector<T>>;

  Case(const char *Name, unsigned Seed, const long long (&Extent)[Dims],
       std::vector<unsigned> Axes, std::vector<const char *> Names,
       std::vector<int> ReadOnly)
      : name_(Name), seed_(Seed), axes_(std::move(Axes)),
        names_(std::move(Names)), readOnly_(std::move(ReadOnly)) {
    for (int D = 0; D < Dims; ++D)
      ext_.push_back(Extent[D]);
  }

  /// The arrays of one run, as the calls see them: \p f(i) the Field of
  /// full array i, \p p(i) the pointer of array i (a Field's data or a
  /// piece of a profile). Index i goes through the run's map (aliases).
  struct Arrays {
    std::vector<std::unique_ptr<stencil::Field<T>>> fields;
    std::vector<std::vector<T>> pieces;
    std::vector<int> map;
    stencil::Field<T> &f(int I) { return *fields[map[I]]; }
    T *p(int I) {
      const int A = map[I];
      return fields[A] ? fields[A]->data() : pieces[A].data();
    }
  };

  enum class Halos { Plan, Thin };

  /// \p Step: the step function; \p Dist(step, arrays, overlap) runs it
  /// with a DomainStep; \p Ref(reference, arrays) runs it on the host.
  template <typename F, typename DistF, typename RefF>
  void run(F *Step, DistF Dist, RefF Ref) {
    step_ = reinterpret_cast<const void *>(Step);
    dist_ = [Dist](stencil::DomainStep &S, Arrays &A, bool Overlap) {
      Dist(S, A, Overlap);
    };
    ref_ = [Ref](const Reference<Dims> &R, Arrays &A) { Ref(R, A); };
    haloOf_ = [Step](stencil::Backend B) {
      return stencil::DomainStep::haloOf(B, Step);
    };
    int Rank = 0, Size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
    MPI_Comm_size(MPI_COMM_WORLD, &Size);
    const stencil::GeneratedStep *E =
        stencil::findGeneratedStep(stencil::Backend::OpenMP, step_);
    if (!E) {
      report(Rank, "no OpenMP step registered: DIFFERS");
      return;
    }
    // What the plan has: fused groups, and groups of several producers.
    bool Fused = false, Several = false;
    for (int R = 0; R < E->roundCount; ++R)
      if (E->rounds[R].group >= 0) {
        Fused = true;
        const char *Comma = std::strchr(E->rounds[R].label, ',');
        Several = Several || (Comma && std::strchr(Comma + 1, ','));
      }
    ++stats()[0];
    stats()[1] += Fused;
    stats()[2] += Several;
    if (Rank == 0 && verbose())
      std::printf("%s: %s\n", name_, E->plan);
    std::vector<int> Identity;
    for (size_t A = 0; A < axes_.size(); ++A)
      Identity.push_back(static_cast<int>(A));
    std::vector<int> Alias = Identity;
    if (readOnly_.size() >= 2)
      Alias[readOnly_[1]] = readOnly_[0];
    const std::vector<std::vector<bool>> Periodic =
        Dims == 3 ? std::vector<std::vector<bool>>{{false, false, false},
                                                   {true, true, true},
                                                   {true, false, true}}
                  : std::vector<std::vector<bool>>{
                        {false, false}, {true, true}, {false, true}};
    for (const std::vector<bool> &Per : Periodic) {
      Result Expected, AliasExpected;
      if (Rank == 0) {
        Expected = reference(Per, Identity);
        if (Alias != Identity)
          AliasExpected = reference(Per, Alias);
        bool RanPlan = false;
        const Result One = distributed(MPI_COMM_SELF, {1, 1, 1}, Per, true,
                                       true, Halos::Plan, Identity, RanPlan);
        check(Rank, One == Expected ? "" : describe(Expected, One),
              RanPlan ? "" : "ran call by call", "1 rank (MPI_COMM_SELF)", Per,
              false);
      }
      // Decompositions whose blocks hold the halo (all of them up to 4
      // ranks: the extents are at least 16).
      std::vector<std::vector<int>> Decs;
      for (const std::vector<int> &Procs : decompositions(Size, Dims))
        if (fits(Procs, Per))
          Decs.push_back(Procs);
        else
          ++skipped();
      if (Decs.empty())
        continue;
      for (const std::vector<int> &Procs : Decs)
        for (int Plan = 1; Plan >= 0; --Plan)
          for (int Overlap = 1; Overlap >= 0; --Overlap) {
            bool RanPlan = false;
            const Result Got =
                distributed(MPI_COMM_WORLD, Procs, Per, Overlap, Plan,
                            Halos::Plan, Identity, RanPlan);
            const std::string Where =
                where(Procs, Overlap, Plan ? "plan" : "multi-kernel");
            check(Rank,
                  Rank              ? ""
                  : Got == Expected ? ""
                                    : describe(Expected, Got),
                  RanPlan == bool(Plan) ? ""
                  : RanPlan             ? "ran its plan"
                                        : "ran call by call",
                  Where, Per, true);
          }
      // Hostile: halos one short of the plan, one Field for two arrays; each
      // must run call by call, with the bits of the reference.
      auto Hostile = [&](const std::vector<int> &Procs, Halos H,
                         const std::vector<int> &Map, const Result &Want,
                         const char *Plan, const char *How) {
        bool RanPlan = true;
        const Result Got = distributed(MPI_COMM_WORLD, Procs, Per, true, true,
                                       H, Map, RanPlan);
        check(Rank,
              Rank          ? ""
              : Got == Want ? ""
                            : describe(Want, Got),
              RanPlan ? Plan : "", where(Procs, true, How), Per, true);
      };
      if (thinHalo(nullptr))
        Hostile(Decs.front(), Halos::Thin, Identity, Expected,
                "ran its plan with fields too thin for it",
                "plan, halo one short");
      // Along every decomposition: the exchanges a written alias needs
      // differ by the axis split.
      for (const std::vector<int> &Procs : Decs)
        if (Alias != Identity)
          Hostile(Procs, Halos::Plan, Alias, AliasExpected,
                  "ran its plan with one Field for two arrays",
                  "plan, one Field twice");
    }
  }

private:
  std::string where(const std::vector<int> &Procs, bool Overlap,
                    const char *How) const {
    char Buf[128];
    std::snprintf(Buf, sizeof(Buf), "procs %dx%dx%d, %s, %s", Procs[0],
                  Procs[1], Procs[2], Overlap ? "overlap" : "plain", How);
    return Buf;
  }

  void report(int Rank, const std::string &Text) const {
    if (Rank == 0)
      std::printf("%s: %s\n", name_, Text.c_str());
  }

  /// Counts one check (every rank) and prints it where it failed.
  void check(int Rank, const std::string &Diff, const std::string &PlanError,
             const std::string &Where, const std::vector<bool> &Per,
             bool Collective) {
    int Bad[2] = {!Diff.empty(), !PlanError.empty()};
    if (Collective)
      MPI_Bcast(Bad, 2, MPI_INT, 0, MPI_COMM_WORLD);
    ++checks();
    failures() += Bad[0] || Bad[1];
    std::string P;
    for (bool B : Per)
      P += B ? "1" : "0";
    if (Rank == 0 && (Bad[0] || Bad[1] || verbose()))
      std::printf(
          "%s: periodic %s, %s: %s%s%s\n", name_, P.c_str(), Where.c_str(),
          Bad[0] ? "DIFFERS from the host reference: " : "bit-equal",
          Diff.c_str(),
          Bad[1] ? (", DIFFERS in how it ran: " + PlanError).c_str() : "");
  }

  /// The first difference of each array, with its global point.
  std::string describe(const Result &Want, const Result &Got) const {
    std::vector<const char *> Names; // of the full arrays, as gathered
    for (size_t A = 0; A < axes_.size(); ++A)
      if (axes_[A] == (1u << Dims) - 1)
        Names.push_back(names_[A]);
    std::string Out;
    for (size_t A = 0; A < Want.size(); ++A) {
      if (A >= Got.size() || Want[A].size() != Got[A].size()) {
        Out += std::string(" array ") + Names[A] + " of another size;";
        continue;
      }
      for (size_t I = 0; I < Want[A].size(); ++I)
        if (std::memcmp(&Want[A][I], &Got[A][I], sizeof(T))) {
          char Buf[200];
          size_t R = I;
          std::string At;
          for (int D = 0; D < Dims; ++D) {
            At += (D ? "," : "") + std::to_string(R % ext_[D]);
            R /= ext_[D];
          }
          std::snprintf(Buf, sizeof(Buf), " %s at (%s): want %.17g, got %.17g;",
                        Names[A], At.c_str(), double(Want[A][I]),
                        double(Got[A][I]));
          Out += Buf;
          break;
        }
    }
    return Out;
  }

  /// Whether fields with haloOf's halo can be made on \p Procs: every
  /// block at least as thick as the halo it sends.
  bool fits(const std::vector<int> &Procs, const std::vector<bool> &Per) const {
    const stencil::Domain D(MPI_COMM_WORLD, ext_, options(Procs, Per));
    const stencil::Halo H = haloOf_(D.backend());
    for (int Ax = 0; Ax < Dims; ++Ax)
      if (D.exchanges(Ax) && D.smallestBlock(Ax) < std::max(H.lo[Ax], H.hi[Ax]))
        return false;
    return true;
  }

  /// Fields with one side of the plan's halo one point short (a side where
  /// the plan reaches further than any call alone), or without corners;
  /// false when the plan needs no more than the calls.
  bool thinHalo(stencil::Halo *Out) const {
    const stencil::GeneratedStep *E =
        stencil::findGeneratedStep(stencil::Backend::OpenMP, step_);
    stencil::Halo H = haloOf_(stencil::Backend::OpenMP);
    bool CallCorners = false;
    for (int I = 0; I < E->exchangeCount; ++I)
      CallCorners = CallCorners || E->exchanges[I].diagonal;
    for (int S = 0; S < 2 * Dims; ++S) {
      const int D = (S + static_cast<int>(seed_)) % Dims,
                Side = (S / Dims + seed_ / 7) % 2;
      int &W = Side ? H.hi[D] : H.lo[D];
      if (W > E->halo[D][Side]) {
        --W;
        if (Out)
          *Out = H;
        return true;
      }
    }
    if (H.corners && !CallCorners) {
      H.corners = false;
      if (Out)
        *Out = H;
      return true;
    }
    return false;
  }

  /// Fields of \p D with \p H, own points and margins beyond non-periodic
  /// edges from valueAt, NaN where an exchange must fill; pieces of profiles.
  void fill(const stencil::Domain &D, const stencil::Halo &H,
            const std::vector<int> &Map, Arrays &A) const {
    A.map = Map;
    A.fields.resize(axes_.size());
    A.pieces.resize(axes_.size());
    const unsigned All = (1u << Dims) - 1;
    for (size_t I = 0; I < axes_.size(); ++I) {
      if (axes_[I] != All)
        continue;
      A.fields[I] = std::make_unique<stencil::Field<T>>(D, H, names_[I]);
      A.fields[I]->fill([&](long long X, long long Y, long long Z) {
        const long long G[4] = {X, Y, Z, 0};
        bool Own = true, Wall = false;
        for (int Ax = 0; Ax < Dims; ++Ax) {
          Own = Own && G[Ax] >= D.localOffset(Ax) &&
                G[Ax] < D.localOffset(Ax) + D.localExtent(Ax);
          Wall = Wall || (!D.periodic(Ax) &&
                          (G[Ax] < 0 || G[Ax] >= D.globalExtent(Ax)));
        }
        if (!Own && !Wall)
          return std::numeric_limits<T>::quiet_NaN();
        // Margins as a boundary condition that is periodic where the
        // domain is (see wrappedMargins()).
        long long W[4] = {G[0], G[1], G[2], 0};
        for (int Ax = 0; Ax < Dims; ++Ax)
          if (Wall && D.periodic(Ax) && wrappedMargins())
            W[Ax] = (W[Ax] % D.globalExtent(Ax) + D.globalExtent(Ax)) %
                    D.globalExtent(Ax);
        return static_cast<T>(valueAt(seed_, static_cast<int>(I), W));
      });
    }
    const stencil::Grid &G = A.fields[firstField()]->grid();
    for (size_t I = 0; I < axes_.size(); ++I) {
      if (axes_[I] == All)
        continue;
      // Spanned dimensions in order, the first contiguous.
      std::vector<int> Span;
      size_t Count = 1;
      for (int Ax = 0; Ax < Dims; ++Ax)
        if (axes_[I] >> Ax & 1) {
          Span.push_back(Ax);
          Count *= static_cast<size_t>(G.extent[Ax]);
        }
      A.pieces[I].resize(Count);
      for (size_t L = 0; L < Count; ++L) {
        long long Global[4] = {0, 0, 0, 0};
        size_t R = L;
        for (int Ax : Span) {
          long long P = G.origin[Ax] + static_cast<long long>(R % G.extent[Ax]);
          R /= G.extent[Ax];
          const long long N = D.globalExtent(Ax);
          if (D.periodic(Ax))
            P = (P % N + N) % N;
          Global[Ax] = P;
        }
        A.pieces[I][L] =
            static_cast<T>(valueAt(seed_, static_cast<int>(I), Global));
      }
    }
  }

  size_t firstField() const {
    for (size_t I = 0; I < axes_.size(); ++I)
      if (axes_[I] == (1u << Dims) - 1)
        return I;
    return 0;
  }

  Result gather(Arrays &A) const {
    Result R;
    for (auto &F : A.fields)
      if (F)
        R.push_back(F->gather());
    return R;
  }

  stencil::DomainOptions options(const std::vector<int> &Procs,
                                 const std::vector<bool> &Per) const {
    stencil::DomainOptions O;
    for (int Ax = 0; Ax < Dims; ++Ax) {
      O.procs[Ax] = Procs[Ax];
      O.periodic[Ax] = Per[Ax];
    }
    O.memory = stencil::Memory::Host;
    return O;
  }

  /// The host reference on rank 0 alone.
  Result reference(const std::vector<bool> &Per,
                   const std::vector<int> &Map) const {
    const stencil::Domain D(MPI_COMM_SELF, ext_, options({1, 1, 1}, Per));
    Arrays A;
    fill(D, haloOf_(D.backend()), Map, A);
    const stencil::Field<T> &First = *A.fields[firstField()];
    const stencil::Grid G = First.grid();
    const stencil::Region Own = stencil::detail::ownRegion(D, First.halo());
    auto WrapAll = [&] {
      for (auto &F : A.fields)
        if (F)
          wrap(*F);
    };
    const Reference<Dims> R(G, Own, WrapAll);
    for (int Rep = 0; Rep < 2; ++Rep)
      ref_(R, A);
    return gather(A);
  }

  /// Own values copied into the halo around periodic dimensions, and along
  /// a wall the margin at the wrapped point (what the exchanges bring: the
  /// margin at x = -1 beyond a wall in y is the one at x = N - 1); points
  /// beyond non-periodic edges alone keep their margin.
  static void wrap(stencil::Field<T> &F) {
    const stencil::Domain &D = F.domain();
    const stencil::Grid &G = F.grid();
    T *V = F.data();
    const std::vector<T> Own(V, V + F.count());
    long long L[4] = {0, 0, 0, 0};
    for (size_t I = 0; I < F.count(); ++I) {
      size_t R = I;
      for (int A = 0; A < Dims; ++A) {
        L[A] = static_cast<long long>(R % G.extent[A]);
        R /= G.extent[A];
      }
      long long Src = 0;
      bool Wrapped = false;
      for (int A = Dims - 1; A >= 0; --A) {
        const long long Lo = F.halo().lo[A], N = D.globalExtent(A);
        long long S = L[A];
        if ((S < Lo || S >= Lo + N) && D.periodic(A)) {
          Wrapped = true;
          S = ((S - Lo) % N + N) % N + Lo;
        }
        Src = Src * G.extent[A] + S;
      }
      if (Wrapped)
        V[I] = Own[static_cast<size_t>(Src)];
    }
  }

  /// The step with a DomainStep over \p Comm, twice; every full array
  /// gathered on rank 0.
  Result distributed(MPI_Comm Comm, const std::vector<int> &Procs,
                     const std::vector<bool> &Per, bool Overlap, bool Plan,
                     Halos Kind, const std::vector<int> &Map,
                     bool &RanPlan) const {
    setenv("STENCIL_STEP_PLAN", Plan ? "" : "multi-kernel", 1);
    const stencil::Domain D(Comm, ext_, options(Procs, Per));
    stencil::Halo H = haloOf_(D.backend());
    if (Kind == Halos::Thin)
      thinHalo(&H);
    Arrays A;
    fill(D, H, Map, A);
    stencil::DomainLoop L(D);
    stencil::DomainStep S(L);
    for (int Rep = 0; Rep < 2; ++Rep)
      dist_(S, A, Overlap);
    L.synchronize();
    RanPlan = S.ranPlan();
    stats()[3] += S.twoDivided() > 0;
    setenv("STENCIL_STEP_PLAN", "", 1);
    return gather(A);
  }

  const char *name_;
  unsigned seed_;
  std::vector<long long> ext_;
  std::vector<unsigned> axes_;
  std::vector<const char *> names_;
  std::vector<int> readOnly_;
  const void *step_ = nullptr;
  std::function<void(stencil::DomainStep &, Arrays &, bool)> dist_;
  std::function<void(const Reference<Dims> &, Arrays &)> ref_;
  std::function<stencil::Halo(stencil::Backend)> haloOf_;
};

/// DomainStep::run or runWithoutOverlap.
template <typename F, typename... Args>
void call(stencil::DomainStep &S, bool Overlap, F *Step, Args &&...A) {
  if (Overlap)
    S.run(Step, std::forward<Args>(A)...);
  else
    S.runWithoutOverlap(Step, std::forward<Args>(A)...);
}

/// Counts one check of anything else (every rank), printed by rank 0 where
/// it failed or with STENCIL_TEST_VERBOSE.
inline void record(bool Ok, const std::string &What) {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  ++checks();
  failures() += !Ok;
  if (Rank == 0 && (!Ok || verbose()))
    std::printf("%s: %s\n", What.c_str(), Ok ? "bit-equal" : "DIFFERS");
}

/// Prints the counts (rank 0) and returns the exit status.
inline int summary(const char *What) {
  int Rank = 0, Size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (Rank == 0)
    std::printf(
        "domain steps (%s), %d ranks: %d steps, %d with fused groups, %d with "
        "several producers in one, %d runs two-divided: %d of %d checks "
        "bit-equal%s\n",
        What, Size, stats()[0], stats()[1], stats()[2], stats()[3],
        checks() - failures(), checks(),
        skipped() ? (" (" + std::to_string(skipped()) +
                     " decompositions left out: blocks thinner than the halo)")
                        .c_str()
                  : "");
  return failures() ? 1 : 0;
}

} // namespace dstest

#endif // STENCILC_TEST_DOMAIN_STEP_HARNESS_HPP
