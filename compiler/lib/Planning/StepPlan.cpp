//===- StepPlan.cpp - How a step's stencils run together ------------------===//
#include "stencilc/Planning/StepPlan.h"
#include "stencilc/IR/StmtWalk.h"
#include "stencilc/Planning/Plan.h"
#include "llvm/Support/Casting.h"
#include <algorithm>
#include <cstdio>

using namespace stencilc;
using namespace stencilc::planning;

const char *planning::stepStrategyName(StepStrategy S) {
  switch (S) {
  case StepStrategy::Recompute:
    return "recompute";
  case StepStrategy::Staged:
    return "staged";
  case StepStrategy::Together:
    return "together";
  case StepStrategy::MultiKernel:
    break;
  }
  return "multi-kernel";
}

namespace {

/// A step's dependences by the call they come from: what the planner asks
/// of each pair of calls (scanning every dependence for each pair made a
/// step of thousands of calls take minutes to plan).
class DependencesFrom {
public:
  explicit DependencesFrom(const analysis::StepInfo &Info) {
    for (const analysis::Dependence &D : Info.Dependences) {
      if (D.From >= By.size())
        By.resize(D.From + 1);
      By[D.From].push_back(&D);
    }
  }
  const std::vector<const analysis::Dependence *> &
  operator[](unsigned Call) const {
    static const std::vector<const analysis::Dependence *> None;
    return Call < By.size() ? By[Call] : None;
  }

private:
  std::vector<std::vector<const analysis::Dependence *>> By;
};

/// The model machine: an H100's memory bandwidth and arithmetic rates,
/// used only as their ratio (what a step costs relative to another plan).
constexpr double BytesPerSecond = 3.0e12;
constexpr double FloatFlopsPerSecond = 6.0e13;
constexpr double DoubleFlopsPerSecond = 3.0e13;

/// Seconds per point of a kernel moving \p Bytes and computing \p Flops.
double kernelCost(double Bytes, double Flops, bool Double) {
  return std::max(Bytes / BytesPerSecond,
                  Flops / (Double ? DoubleFlopsPerSecond : FloatFlopsPerSecond));
}

bool computesInDouble(const ir::Stencil &S) {
  for (const ir::Param &P : S.Params)
    if (P.Kind != ir::ParamKind::Index &&
        P.Ty.kind() == ir::ScalarKind::Float64)
      return true;
  return false;
}

/// Why call \p P cannot be recomputed inside consumer \p C (empty if it
/// can), and the arrays \p C would recompute. The producer's code moves to
/// \p C's place, so no call between the two may touch what it reads or
/// writes (nor it theirs).
std::string whyNotFusible(const ir::Module &M, const ir::Step &St,
                          const DependencesFrom &From,
                          const std::vector<analysis::StencilInfo> &Infos,
                          unsigned P, unsigned C,
                          std::vector<unsigned> &Recomputed) {
  if (std::none_of(
          From[P].begin(), From[P].end(), [&](const analysis::Dependence *D) {
            return D->Kind == analysis::DependenceKind::Flow && D->To == C;
          }))
    return "no flow dependence";
  for (const analysis::Dependence *Each : From[P]) {
    const analysis::Dependence &D = *Each;
    // Every use of an array by both P and a later call gives an edge from
    // P to the first such call.
    if (D.From == P && D.To > P && D.To < C)
      return "a stencil between them (" +
             M.Stencils[St.Calls[D.To].Stencil].qualifiedName() +
             ") depends on it through '" + St.Params[D.Param].Name + "'";
    if (D.From != P || D.To != C)
      continue;
    if (D.Kind == analysis::DependenceKind::Flow)
      Recomputed.push_back(D.Param);
    else
      return std::string("the consumer writes an array the producer ") +
             (D.Kind == analysis::DependenceKind::Anti ? "reads" : "writes");
  }
  const ir::StepCall &Prod = St.Calls[P];
  const ir::Stencil &PS = M.Stencils[Prod.Stencil];
  for (const analysis::ArrayInfo &A : Infos[Prod.Stencil].Arrays)
    if (A.Read && A.Written)
      return "the producer reads an array it writes ('" +
             PS.Params[A.Param].Name + "')";
  for (unsigned X : Recomputed)
    for (unsigned SP : Prod.boundTo(X))
      if (!ir::storesOnEveryPath(PS, SP))
        return "the producer does not store '" + St.Params[X].Name +
               "' on every path";
  return {};
}

/// The arrays of \p Recomputed that producer \p P need not store when
/// consumer \p C recomputes them: scratch arrays that no other call reads
/// before a call stores them again on every path, or the step ends (a
/// scratch array is never read before the step writes it: checkScratch).
std::vector<unsigned>
unstoredArrays(const ir::Module &M, const ir::Step &St,
               const std::vector<analysis::StencilInfo> &Infos, unsigned P,
               unsigned C, const std::vector<unsigned> &Recomputed) {
  std::vector<unsigned> Out;
  for (unsigned X : Recomputed) {
    if (!St.Params[X].Scratch)
      continue;
    bool ReadElsewhere = false;
    for (unsigned Q = P + 1; Q < St.Calls.size() && !ReadElsewhere; ++Q) {
      const ir::StepCall &Call = St.Calls[Q];
      std::optional<analysis::ArrayUse> U =
          Q == C ? std::nullopt : analysis::useOf(Call, Infos[Call.Stencil], X);
      if (!U)
        continue;
      ReadElsewhere = U->Read;
      bool Overwrites = U->Written;
      for (const analysis::ArrayInfo &A : Infos[Call.Stencil].Arrays)
        if (A.Written &&
            Call.Args[A.Param - 1].From == ir::StepArg::Kind::Param &&
            Call.Args[A.Param - 1].Param == X)
          Overwrites &=
              ir::storesOnEveryPath(M.Stencils[Call.Stencil], A.Param);
      if (Overwrites)
        break;
    }
    if (!ReadElsewhere)
      Out.push_back(X);
  }
  return Out;
}

/// The consumer's distinct offsets other than the centre of the arrays \p P
/// writes and \p C reads: how often \p C evaluates \p P per point (at the
/// centre it loads what \p P just stored there).
size_t recomputations(const DependencesFrom &From, unsigned P, unsigned C) {
  size_t N = 0;
  for (const analysis::Dependence *Each : From[P])
    if (const analysis::Dependence &D = *Each;
        D.Kind == analysis::DependenceKind::Flow && D.To == C)
      N += std::count_if(D.Offsets.begin(), D.Offsets.end(),
                         [](const ir::Offset &O) { return O != ir::Offset{}; });
  return N;
}

/// How far around a point consumer \p C reads array \p X that producer
/// \p P writes (what a staged group holds around its tile).
analysis::Halo reachOf(const DependencesFrom &From, unsigned P, unsigned C,
                       unsigned X) {
  analysis::Halo H{};
  for (const analysis::Dependence *Each : From[P])
    if (const analysis::Dependence &D = *Each;
        D.Kind == analysis::DependenceKind::Flow && D.To == C && D.Param == X)
      for (const ir::Offset &O : D.Offsets)
        for (unsigned Dim = 0; Dim < ir::MaxDims; ++Dim) {
          H[Dim].Lo = std::max<long long>(H[Dim].Lo, -O[Dim]);
          H[Dim].Hi = std::max<long long>(H[Dim].Hi, O[Dim]);
        }
  return H;
}

/// Points a staged kernel holds of an array read \p R around the tile, per
/// plane of z (x by y).
unsigned stagedPlane(const analysis::Halo &R) {
  return (StageTileX + R[0].Lo + R[0].Hi) * (StageTileY + R[1].Lo + R[1].Hi);
}

/// Evaluations per point of an array staged with reach \p R: the tile and
/// the ring around it, and the planes before and after each chunk of z.
double stagedEvaluations(const analysis::Halo &R, unsigned Dims) {
  double N = double(stagedPlane(R)) / (StageTileX * StageTileY);
  if (Dims == 3)
    N *= double(StageChunk + R[2].Lo + R[2].Hi) / StageChunk;
  return N;
}

/// Shared-memory bytes of array \p X staged with reach \p R.
unsigned stagedBytes(const ir::Step &St, unsigned X, const analysis::Halo &R) {
  return stagedPlane(R) * stagedRingDepth(R, St.Dims) * St.Params[X].Ty.bytes();
}

/// Why consumer \p C cannot read the arrays \p Recomputed of producer
/// \p P from shared memory (empty if it can).
std::string whyNotStageable(const ir::Module &M, const ir::Step &St,
                            unsigned P, unsigned C,
                            const std::vector<unsigned> &Recomputed) {
  if (St.Dims != 2 && St.Dims != 3)
    return "a " + std::to_string(St.Dims) + "-D step";
  for (unsigned X : Recomputed)
    for (unsigned Call : {P, C})
      for (unsigned A : St.Calls[Call].boundTo(X))
        if (ir::isLowerRank(M.Stencils[St.Calls[Call].Stencil].Params[A],
                            St.Dims))
          return "'" + St.Params[X].Name + "' is read or written with fewer "
                 "dimensions than the step";
  return {};
}

/// The fused loop nest: blocked if either is, vectorised if both are, the
/// larger halo, the cache rows of both.
CpuLoopPlan mergeCpu(const CpuLoopPlan &A, const CpuLoopPlan &B) {
  CpuLoopPlan M;
  M.Blocked = A.Blocked || B.Blocked;
  M.SimdRows = A.SimdRows && B.SimdRows;
  M.RowBytesPerPoint = A.RowBytesPerPoint + B.RowBytesPerPoint;
  M.HaloY = std::max(A.HaloY, B.HaloY);
  M.HaloZ = std::max(A.HaloZ, B.HaloZ);
  return M;
}

/// Every sum of an offset of \p A and one of \p B.
std::vector<ir::Offset> sums(const std::vector<ir::Offset> &A,
                             const std::vector<ir::Offset> &B) {
  std::vector<ir::Offset> Out;
  for (const ir::Offset &X : A)
    for (const ir::Offset &Y : B) {
      ir::Offset S = X;
      for (unsigned D = 0; D < ir::MaxDims; ++D)
        S[D] += Y[D];
      Out.push_back(S);
    }
  return Out;
}

/// The rounds of \p SP's groups over MPI ranks: what each reads of which
/// array, and which halos are exchanged before it (an array's halo is stale
/// when the step begins and after a round writes it, current after an
/// exchange).
void planRounds(StepPlan &SP, const ir::Module &M,
                const std::vector<analysis::StencilInfo> &Infos) {
  const ir::Step &St = *SP.Step;
  std::vector<bool> LowerRank(St.Params.size(), false);
  std::vector<unsigned> Axes(St.Params.size(), ir::allAxes(St.Dims));
  for (const ir::StepCall &C : St.Calls)
    for (unsigned A = 0; A < C.Args.size(); ++A)
      if (C.Args[A].From == ir::StepArg::Kind::Param) {
        const ir::Param &To = M.Stencils[C.Stencil].Params[A + 1];
        LowerRank[C.Args[A].Param] =
            LowerRank[C.Args[A].Param] || ir::isLowerRank(To, St.Dims);
        if (To.Kind == ir::ParamKind::Array)
          Axes[C.Args[A].Param] &= ir::arrayAxes(To, St.Dims);
      }
  std::vector<bool> Current(St.Params.size(), false);
  for (unsigned G = 0; G < SP.Groups.size(); ++G) {
    const StepGroup &Group = SP.Groups[G];
    auto UseOf = [&](unsigned Call, unsigned P) {
      return analysis::useOf(St.Calls[Call], Infos[St.Calls[Call].Stencil], P);
    };
    // A Together group reads what each of its parts reads.
    std::vector<const StepGroup *> Units;
    for (const StepGroup &Part : Group.Parts)
      Units.push_back(&Part);
    if (Units.empty())
      Units.push_back(&Group);
    StepRound R;
    R.Group = G;
    // Recomputed producers only: a stencil run together is not evaluated
    // in the halo.
    for (const StepGroup *U : Units)
      for (size_t I = 0; !U->Recomputed.empty() && I + 1 < U->Calls.size(); ++I)
        R.CoordinateDims |= Infos[St.Calls[U->Calls[I]].Stencil].CoordinateDims;
    std::vector<unsigned> Written;
    for (unsigned P = 1; P < St.Params.size(); ++P) {
      if (St.Params[P].Kind != ir::ParamKind::Array)
        continue;
      RoundHalo H;
      H.Param = P;
      for (const StepGroup *Unit : Units) {
        const unsigned Cons = Unit->Calls.back();
        const bool Recomputed = std::count(Unit->Recomputed.begin(),
                                           Unit->Recomputed.end(), P) != 0;
        for (unsigned Call : Unit->Calls) {
          std::optional<analysis::ArrayUse> U = UseOf(Call, P);
          if (!U)
            continue;
          if (U->Written)
            Written.push_back(P);
          if (!U->Read || (Call == Cons && Recomputed))
            continue;
          analysis::widenHalo(H.Halo, H.Diagonal, U->Offsets);
          if (Call == Cons)
            continue;
          // The consumer evaluates this producer around each offset it
          // reads the producer's arrays at.
          for (unsigned X : Unit->Recomputed) {
            std::optional<analysis::ArrayUse> Out = UseOf(Call, X);
            std::optional<analysis::ArrayUse> In = UseOf(Cons, X);
            if (Out && Out->Written && In)
              analysis::widenHalo(H.Halo, H.Diagonal,
                                  sums(In->Offsets, U->Offsets));
          }
        }
      }
      // An array of lower rank is read along the dimensions it spans only:
      // a recomputation at x + 1 reads a z profile where it reads it at x.
      for (unsigned D = 0; D < ir::MaxDims; ++D)
        if (!(Axes[P] >> D & 1))
          H.Halo[D] = {};
      bool OffCentre = false;
      for (unsigned D = 0; D < ir::MaxDims; ++D)
        OffCentre |= H.Halo[D].Lo > 0 || H.Halo[D].Hi > 0;
      if (!OffCentre)
        continue;
      if (LowerRank[P]) {
        // Each rank's piece, as wide as the fields: never exchanged, but
        // how far the round reads it (a recomputed producer, further out
        // than its call) sizes the fields (DomainStep::haloOf).
        H.Diagonal = false;
        R.Halos.push_back(H);
        continue;
      }
      if (Group.Strategy != StepStrategy::MultiKernel && St.Dims > 2 &&
          H.Halo[2].Lo + H.Halo[2].Hi > 0)
        R.ZPlaneBytes += St.Params[P].Ty.bytes() *
                         unsigned(FusedBlockZ + H.Halo[2].Lo + H.Halo[2].Hi);
      H.Exchange = !Current[P];
      Current[P] = true;
      for (unsigned D = 0; D < ir::MaxDims; ++D) {
        R.Reads[D].Lo = std::max(R.Reads[D].Lo, H.Halo[D].Lo);
        R.Reads[D].Hi = std::max(R.Reads[D].Hi, H.Halo[D].Hi);
      }
      R.Halos.push_back(H);
    }
    for (unsigned P : Written)
      Current[P] = false;
    SP.Rounds.push_back(std::move(R));
  }
  // An exchange fills what its round and the rounds up to the array's next
  // exchange read: nothing writes it in between.
  for (unsigned R = 0; R < SP.Rounds.size(); ++R)
    for (RoundHalo &H : SP.Rounds[R].Halos) {
      if (!H.Exchange)
        continue;
      H.Sends = H.Halo;
      H.SendsDiagonal = H.Diagonal;
      for (unsigned Later = R + 1; Later < SP.Rounds.size(); ++Later) {
        auto It = std::find_if(
            SP.Rounds[Later].Halos.begin(), SP.Rounds[Later].Halos.end(),
            [&](const RoundHalo &O) { return O.Param == H.Param; });
        if (It == SP.Rounds[Later].Halos.end())
          continue;
        if (It->Exchange)
          break;
        for (unsigned D = 0; D < ir::MaxDims; ++D) {
          H.Sends[D].Lo = std::max(H.Sends[D].Lo, It->Halo[D].Lo);
          H.Sends[D].Hi = std::max(H.Sends[D].Hi, It->Halo[D].Hi);
        }
        H.SendsDiagonal = H.SendsDiagonal || It->Diagonal;
      }
    }
}

/// The calls of a step in groups (StepPlan::Groups) and their cost by the
/// model, in seconds per point.
struct Grouping {
  std::vector<StepGroup> Groups;
  double Cost = 0;
};

/// Groups the calls of \p St: each consumer, in the order \p Consumers,
/// takes the earlier producers it may recompute (none already in a fused
/// group), one by one in call order, as long as the cost model predicts the
/// larger group faster fused than as one kernel per stencil.
Grouping groupCalls(const ModulePlan &Plan, const ir::Step &St,
                    const analysis::StepInfo &Info,
                    const std::vector<analysis::StencilInfo> &Infos,
                    StepStrategyChoice Choice,
                    const std::vector<unsigned> &Consumers) {
  const ir::Module &M = *Plan.Module;
  const DependencesFrom From(Info);
  auto Cost = [&](unsigned Call) {
    const ir::Stencil &S = M.Stencils[St.Calls[Call].Stencil];
    const analysis::StencilInfo &I = Infos[St.Calls[Call].Stencil];
    return kernelCost(I.BytesPerPoint, I.FlopsPerPoint, computesInDouble(S));
  };
  const unsigned N = St.Calls.size();
  std::vector<int> GroupOf(N, -1); ///< Index into Fused.
  std::vector<StepGroup> Fused;
  std::vector<std::string> Why(N);
  for (unsigned C : Consumers) {
    const ir::StepCall &Cons = St.Calls[C];
    if (GroupOf[C] >= 0) {
      // A producer of C left alone: C already runs in a later consumer's
      // group (as one of its producers), so nothing fuses into C.
      const unsigned Owner = Fused[GroupOf[C]].Calls.back();
      for (unsigned P = 0; P < C; ++P) {
        std::vector<unsigned> Recomputed;
        if (GroupOf[P] < 0 && Why[P].empty() &&
            whyNotFusible(M, St, From, Infos, P, C, Recomputed) !=
                "no flow dependence")
          Why[P] = "not fused with " + std::to_string(C) + " " +
                   M.Stencils[Cons.Stencil].qualifiedName() +
                   ": it is a producer in the fused group of " +
                   std::to_string(Owner) + " " +
                   M.Stencils[St.Calls[Owner].Stencil].qualifiedName();
      }
      continue;
    }
    const analysis::StencilInfo &CI = Infos[Cons.Stencil];
    double Multi = Cost(C), Bytes = CI.BytesPerPoint, Flops = CI.FlopsPerPoint;
    double StagedFlops = Flops;
    unsigned Shared = 0;
    bool Double = computesInDouble(M.Stencils[Cons.Stencil]);
    StepGroup G;
    G.Strategy = StepStrategy::Recompute;
    G.Cpu = Plan.Stencils[Cons.Stencil].Cpu;
    for (unsigned P = 0; P < C; ++P) {
      if (GroupOf[P] >= 0)
        continue;
      std::vector<unsigned> Recomputed;
      std::string Reason = whyNotFusible(M, St, From, Infos, P, C, Recomputed);
      if (Reason == "no flow dependence")
        continue;
      const ir::StepCall &Prod = St.Calls[P];
      const analysis::StencilInfo &PI = Infos[Prod.Stencil];
      const std::vector<unsigned> Unstored =
          unstoredArrays(M, St, Infos, P, C, Recomputed);
      double Saved = 0;
      for (unsigned X : Recomputed)
        Saved += St.Params[X].Ty.bytes();
      for (unsigned X : Unstored)
        Saved += St.Params[X].Ty.bytes();
      const double WithMulti = Multi + Cost(P);
      const double WithBytes = Bytes + PI.BytesPerPoint - Saved;
      const double WithFlops =
          Flops + PI.FlopsPerPoint * (1 + recomputations(From, P, C));
      const bool WithDouble =
          Double || computesInDouble(M.Stencils[Prod.Stencil]);
      // Staged: each array once per point of the tile and its ring, and
      // the producer's body again where it stores arrays not staged.
      std::vector<analysis::Halo> Reach;
      double Evaluations = 0;
      unsigned WithShared = Shared;
      for (unsigned X : Recomputed) {
        Reach.push_back(reachOf(From, P, C, X));
        Evaluations += stagedEvaluations(Reach.back(), St.Dims);
        WithShared += stagedBytes(St, X, Reach.back());
      }
      for (const analysis::ArrayInfo &A : PI.Arrays)
        if (A.Written && Prod.Args[A.Param - 1].From == ir::StepArg::Kind::Param &&
            !std::count(Recomputed.begin(), Recomputed.end(),
                        Prod.Args[A.Param - 1].Param)) {
          Evaluations += 1;
          break;
        }
      const double WithStagedFlops = StagedFlops + PI.FlopsPerPoint * Evaluations;
      std::string NotStaged = G.NotStaged;
      if (NotStaged.empty())
        NotStaged = whyNotStageable(M, St, P, C, Recomputed);
      if (NotStaged.empty() && WithShared > StageSharedBytes)
        NotStaged = "its tiles need " + std::to_string(WithShared) +
                    " bytes of shared memory, over " +
                    std::to_string(StageSharedBytes);
      const double WithRecompute = kernelCost(WithBytes, WithFlops, WithDouble);
      const double WithStaged =
          NotStaged.empty() ? kernelCost(WithBytes, WithStagedFlops, WithDouble)
                              : WithRecompute;
      const double WithFused = std::min(WithRecompute, WithStaged);
      if (Reason.empty() && Choice == StepStrategyChoice::Auto &&
          WithFused >= WithMulti) {
        char Buf[160];
        std::snprintf(Buf, sizeof(Buf),
                      "slower by the cost model (fused %.3g, multi-kernel "
                      "%.3g ns per million points)",
                      WithFused * 1e15, WithMulti * 1e15);
        Reason = Buf;
      }
      if (!Reason.empty()) {
        if (Why[P].empty())
          Why[P] = "not fused with " + std::to_string(C) + " " +
                   M.Stencils[Cons.Stencil].qualifiedName() + ": " + Reason;
        continue;
      }
      G.Calls.push_back(P);
      G.Recomputed.insert(G.Recomputed.end(), Recomputed.begin(),
                          Recomputed.end());
      G.Unstored.insert(G.Unstored.end(), Unstored.begin(), Unstored.end());
      G.Reach.insert(G.Reach.end(), Reach.begin(), Reach.end());
      G.Cpu = mergeCpu(G.Cpu, Plan.Stencils[Prod.Stencil].Cpu);
      Multi = WithMulti, Bytes = WithBytes, Flops = WithFlops;
      StagedFlops = WithStagedFlops, Shared = WithShared;
      Double = WithDouble;
      G.NotStaged = NotStaged;
      G.MultiKernelCost = Multi * 1e15;
      G.FusedCost = WithRecompute * 1e15;
      G.StagedCost = G.NotStaged.empty() ? WithStaged * 1e15 : 0;
    }
    // Staged where forced (and possible) or cheaper by the model; picked
    // by the model, the other way is compiled too: the model counts bytes
    // and flops, not the occupancy and latency that decide between them.
    if (G.NotStaged.empty() && !G.Calls.empty()) {
      if (Choice == StepStrategyChoice::Staged ||
          (Choice == StepStrategyChoice::Auto && G.StagedCost < G.FusedCost))
        G.Strategy = StepStrategy::Staged;
      if (Choice == StepStrategyChoice::Auto)
        G.Alternative = G.Strategy == StepStrategy::Staged
                            ? StepStrategy::Recompute
                            : StepStrategy::Staged;
    }
    if (G.Calls.empty())
      continue;
    G.Producers = G.Calls.size();
    G.Calls.push_back(C);
    G.Bytes = Bytes;
    G.Flops = G.Strategy == StepStrategy::Staged ? StagedFlops : Flops;
    G.Double = Double;
    G.ThreadsPerSM = FusedThreadsPerSM;
    for (unsigned Member : G.Calls)
      GroupOf[Member] = static_cast<int>(Fused.size());
    Fused.push_back(std::move(G));
  }
  // The groups in the order they run: a fused group at its consumer's place.
  Grouping Out;
  for (unsigned C = 0; C < N; ++C) {
    if (GroupOf[C] >= 0) {
      StepGroup &G = Fused[GroupOf[C]];
      if (G.Calls.back() == C) {
        Out.Cost += (G.Strategy == StepStrategy::Staged ? G.StagedCost
                                                         : G.FusedCost) /
                    1e15;
        Out.Groups.push_back(std::move(G));
      }
      continue;
    }
    StepGroup G;
    G.Calls = {C};
    G.MultiKernelCost = Cost(C) * 1e15;
    const ir::StepCall &Call = St.Calls[C];
    G.Bytes = Infos[Call.Stencil].BytesPerPoint;
    G.Flops = Infos[Call.Stencil].FlopsPerPoint;
    G.Double = computesInDouble(M.Stencils[Call.Stencil]);
    G.NotFused = Why[C];
    Out.Cost += Cost(C);
    Out.Groups.push_back(std::move(G));
  }
  return Out;
}

/// True if calls \p A and \p B of a step share a dependence (any kind,
/// any array).
bool dependent(const DependencesFrom &From, unsigned A, unsigned B) {
  auto Edge = [&](unsigned X, unsigned Y) {
    return std::any_of(
        From[X].begin(), From[X].end(),
        [&](const analysis::Dependence *D) { return D->To == Y; });
  };
  return Edge(A, B) || Edge(B, A);
}

/// True if calls \p A and \p B of a step both read one of its arrays.
bool sharesRead(const ir::Step &St,
                const std::vector<analysis::StencilInfo> &Infos, unsigned A,
                unsigned B) {
  for (unsigned P = 1; P < St.Params.size(); ++P) {
    std::optional<analysis::ArrayUse> UA =
        analysis::useOf(St.Calls[A], Infos[St.Calls[A].Stencil], P);
    std::optional<analysis::ArrayUse> UB =
        analysis::useOf(St.Calls[B], Infos[St.Calls[B].Stencil], P);
    if (UA && UB && UA->Read && UB->Read)
      return true;
  }
  return false;
}

/// The model's cost of \p G as planned, in ns per million points.
double plannedCost(const StepGroup &G) {
  switch (G.Strategy) {
  case StepStrategy::Staged:
    return G.StagedCost;
  case StepStrategy::Recompute:
  case StepStrategy::Together:
    return G.FusedCost;
  case StepStrategy::MultiKernel:
    break;
  }
  return G.MultiKernelCost;
}

/// True if \p G may be a part of a Together group: a call alone, a group
/// fused by recalculation where the plan is the model's, or a Together
/// group (its parts).
bool joinable(const StepGroup &G, StepStrategyChoice Choice) {
  switch (G.Strategy) {
  case StepStrategy::MultiKernel:
    return G.Calls.size() == 1;
  case StepStrategy::Together:
    return true;
  case StepStrategy::Recompute:
    return Choice == StepStrategyChoice::Auto;
  case StepStrategy::Staged:
    break;
  }
  return false;
}

/// \p Parts (calls alone and groups fused by recalculation, no dependence
/// between two) as one Together group: its calls, arrays, loop nest and
/// the model's bytes and flops, what the parts share read once (by the
/// first part that uses it).
StepGroup together(std::vector<StepGroup> Parts, const ir::Step &St,
                   const std::vector<analysis::StencilInfo> &Infos) {
  StepGroup T;
  T.Strategy = StepStrategy::Together;
  std::vector<bool> Used(St.Params.size(), false);
  std::vector<unsigned> Others;
  unsigned Fused = 0;
  for (size_t I = 0; I < Parts.size(); ++I) {
    const StepGroup &P = Parts[I];
    Fused += P.Strategy == StepStrategy::Recompute;
    T.Calls.insert(T.Calls.end(), P.Calls.begin(),
                   P.Calls.begin() + P.Producers);
    Others.insert(Others.end(), P.Calls.begin() + P.Producers, P.Calls.end());
    T.Recomputed.insert(T.Recomputed.end(), P.Recomputed.begin(),
                        P.Recomputed.end());
    T.Unstored.insert(T.Unstored.end(), P.Unstored.begin(), P.Unstored.end());
    T.MultiKernelCost += P.MultiKernelCost;
    T.Cpu = I == 0 ? P.Cpu : mergeCpu(T.Cpu, P.Cpu);
    if (!P.NotFused.empty())
      T.NotFused += (T.NotFused.empty() ? "" : "; ") + P.NotFused;
    T.Flops += P.Flops;
    T.Double |= P.Double;
    double Own = P.Bytes;
    std::vector<bool> Touched(St.Params.size(), false);
    for (unsigned C : P.Calls)
      for (const analysis::ArrayInfo &A : Infos[St.Calls[C].Stencil].Arrays) {
        const ir::StepArg &Arg = St.Calls[C].Args[A.Param - 1];
        if (Arg.From != ir::StepArg::Kind::Param || Touched[Arg.Param] ||
            std::count(P.Unstored.begin(), P.Unstored.end(), Arg.Param))
          continue;
        if (Used[Arg.Param] && A.Read)
          Own -= St.Params[Arg.Param].Ty.bytes(); // read by an earlier part
        Touched[Arg.Param] = true;
      }
    for (unsigned X = 0; X < St.Params.size(); ++X)
      Used[X] = Used[X] || Touched[X];
    T.Bytes += Own;
  }
  std::sort(T.Calls.begin(), T.Calls.end());
  std::sort(Others.begin(), Others.end());
  T.Producers = T.Calls.size();
  T.Calls.insert(T.Calls.end(), Others.begin(), Others.end());
  T.FusedCost = kernelCost(T.Bytes, T.Flops, T.Double) * 1e15;
  T.ThreadsPerSM = Fused >= 2 ? FusedPartsThreadsPerSM : FusedThreadsPerSM;
  // A part runs in T's kernel only: no alternative of its own to measure.
  for (StepGroup &P : Parts)
    P.Alternative = StepStrategy::MultiKernel;
  T.Parts = std::move(Parts);
  return T;
}

/// Joins consecutive groups of \p Groups that may be parts of one
/// (joinable), share no dependence and read an array in common into
/// Together groups, while the model predicts each join cheaper (the arrays
/// they share are read once) or the user forced fusion. Consecutive in the
/// order they run, so running them at once moves no call past another it
/// depends on.
void joinTogether(std::vector<StepGroup> &Groups, const ir::Step &St,
                  const analysis::StepInfo &Info,
                  const std::vector<analysis::StencilInfo> &Infos,
                  StepStrategyChoice Choice) {
  if (Choice == StepStrategyChoice::MultiKernel)
    return;
  auto PartsOf = [](const StepGroup &G) {
    return G.Strategy == StepStrategy::Together ? G.Parts
                                                : std::vector<StepGroup>{G};
  };
  const DependencesFrom From(Info);
  std::vector<StepGroup> Out;
  for (StepGroup &G : Groups) {
    StepGroup *Last = Out.empty() ? nullptr : &Out.back();
    bool Join = Last && joinable(*Last, Choice) && joinable(G, Choice);
    bool Shares = false;
    for (unsigned C : Join ? Last->Calls : std::vector<unsigned>())
      for (unsigned D : G.Calls) {
        Join &= !dependent(From, C, D);
        Shares |= sharesRead(St, Infos, C, D);
      }
    if (Join && Shares) {
      std::vector<StepGroup> Parts = PartsOf(*Last);
      for (StepGroup &P : PartsOf(G))
        Parts.push_back(std::move(P));
      StepGroup T = together(std::move(Parts), St, Infos);
      if (Choice != StepStrategyChoice::Auto ||
          T.FusedCost < plannedCost(*Last) + plannedCost(G)) {
        *Last = std::move(T);
        continue;
      }
    }
    Out.push_back(std::move(G));
  }
  Groups = std::move(Out);
}

StepPlan planStep(const ModulePlan &Plan, const ir::Step &St,
                  const analysis::StepInfo &Info, StepStrategyChoice Choice) {
  std::vector<analysis::StencilInfo> Infos;
  for (const StencilPlan &SP : Plan.Stencils)
    Infos.push_back(*SP.Info);
  StepPlan SP;
  SP.Step = &St;
  SP.Info = &Info;
  for (const ir::StepCall &C : St.Calls)
    for (unsigned D = 0; D < ir::MaxDims; ++D) {
      const analysis::HaloWidth &H = Infos[C.Stencil].Halo[D];
      SP.Halo[D].Lo = std::max(SP.Halo[D].Lo, H.Lo);
      SP.Halo[D].Hi = std::max(SP.Halo[D].Hi, H.Hi);
    }
  // Consumers first to last, and last to first (a late consumer keeps the
  // producers an early one would take): the cheaper by the model.
  std::vector<unsigned> Order;
  if (Choice != StepStrategyChoice::MultiKernel)
    for (unsigned C = 0; C < St.Calls.size(); ++C)
      Order.push_back(C);
  Grouping Forward = groupCalls(Plan, St, Info, Infos, Choice, Order);
  std::reverse(Order.begin(), Order.end());
  Grouping Backward = groupCalls(Plan, St, Info, Infos, Choice, Order);
  SP.Groups = std::move(Backward.Cost < Forward.Cost ? Backward : Forward).Groups;
  joinTogether(SP.Groups, St, Info, Infos, Choice);
  planRounds(SP, *Plan.Module, Infos);
  return SP;
}

} // namespace

void planning::planSteps(ModulePlan &Plan,
                         const std::vector<analysis::StepInfo> &StepInfos,
                         StepStrategyChoice Choice) {
  Plan.Steps.clear();
  for (size_t I = 0; I < Plan.Module->Steps.size(); ++I)
    Plan.Steps.push_back(
        planStep(Plan, Plan.Module->Steps[I], StepInfos[I], Choice));
}

/// One group's line of the plan: "recompute: 2 Flux 3 Update (cost ...);
/// recomputes f ...", its strategy named \p Name if given.
static std::string groupLine(const ir::Module &M, const ir::Step &St,
                             const StepGroup &G, const char *Name) {
  char Cost[96];
  if (G.Strategy == StepStrategy::Staged)
    std::snprintf(Cost, sizeof(Cost),
                  " (cost %.3g, recompute %.3g, multi-kernel %.3g)",
                  G.StagedCost, G.FusedCost, G.MultiKernelCost);
  else if (G.Strategy == StepStrategy::Recompute && G.StagedCost > 0)
    std::snprintf(Cost, sizeof(Cost),
                  " (cost %.3g, staged %.3g, multi-kernel %.3g)", G.FusedCost,
                  G.StagedCost, G.MultiKernelCost);
  else if (G.Strategy == StepStrategy::Recompute ||
           G.Strategy == StepStrategy::Together)
    std::snprintf(Cost, sizeof(Cost), " (cost %.3g, multi-kernel %.3g)",
                  G.FusedCost, G.MultiKernelCost);
  else
    std::snprintf(Cost, sizeof(Cost), " (cost %.3g)", G.MultiKernelCost);
  std::string Out =
      std::string(Name ? Name : stepStrategyName(G.Strategy)) + ":";
  for (unsigned C : G.Calls)
    Out += " " + std::to_string(C) + " " +
           M.Stencils[St.Calls[C].Stencil].qualifiedName();
  Out += Cost;
  // An array the consumer reads at its own point only is computed once a
  // point, in place: neither recomputed around it nor staged.
  std::string Around, AtPoint;
  for (size_t I = 0; I < G.Recomputed.size(); ++I) {
    const bool Centre =
        I < G.Reach.size() &&
        std::all_of(G.Reach[I].begin(), G.Reach[I].end(),
                    [](const analysis::HaloWidth &W) { return !W.Lo && !W.Hi; });
    (Centre ? AtPoint : Around) += " " + St.Params[G.Recomputed[I]].Name;
  }
  if (!Around.empty())
    Out += (G.Strategy == StepStrategy::Staged ? "; stages" : "; recomputes") +
           Around;
  if (!AtPoint.empty())
    Out += "; computes in place (read at the point only):" + AtPoint;
  if (!G.Unstored.empty()) {
    Out += "; scratch, not stored:";
    for (unsigned X : G.Unstored)
      Out += " " + St.Params[X].Name;
  }
  if (G.Strategy == StepStrategy::Recompute && !G.NotStaged.empty())
    Out += "; not staged: " + G.NotStaged;
  if (G.Alternative != StepStrategy::MultiKernel)
    Out += std::string("; also compiled ") + stepStrategyName(G.Alternative) +
           " (CUDA), for the runtime to measure";
  if (!G.NotFused.empty())
    Out += "; " + G.NotFused;
  return Out + "\n";
}

std::string planning::printStepPlans(const ModulePlan &Plan) {
  std::string Out;
  const ir::Module &M = *Plan.Module;
  for (const StepPlan &SP : Plan.Steps) {
    const ir::Step &St = *SP.Step;
    Out += "step " + St.qualifiedName() + " (" + St.Loc.File + ":" +
           std::to_string(St.Loc.Line) + "), " + std::to_string(St.Dims) +
           "-D, " + std::to_string(St.Calls.size()) + " stencils\n";
    for (const StepGroup &G : SP.Groups) {
      const bool FusedParts =
          std::any_of(G.Parts.begin(), G.Parts.end(), [](const StepGroup &P) {
            return P.Strategy != StepStrategy::MultiKernel;
          });
      if (FusedParts) {
        char Cost[96];
        double Apart = 0;
        for (const StepGroup &P : G.Parts)
          Apart += plannedCost(P);
        std::snprintf(Cost, sizeof(Cost),
                      " (cost %.3g, apart %.3g, multi-kernel %.3g)",
                      G.FusedCost, Apart, G.MultiKernelCost);
        Out += "  together: " + std::to_string(G.Parts.size()) +
               " parts in one kernel" + Cost + "\n";
        for (const StepGroup &P : G.Parts)
          Out += "    " + groupLine(M, St, P,
                                    P.Strategy == StepStrategy::MultiKernel
                                        ? "alone"
                                        : nullptr);
      } else {
        Out += "  " + groupLine(M, St, G, nullptr);
      }
      const bool OnePointPerThread = G.Strategy == StepStrategy::Recompute ||
                                     G.Strategy == StepStrategy::Together ||
                                     G.Alternative == StepStrategy::Recompute;
      if (unsigned Bytes = SP.Rounds[&G - SP.Groups.data()].ZPlaneBytes;
          Bytes && OnePointPerThread)
        Out += "    CUDA blocks: down the columns first where the planes read "
               "along z (" +
               std::to_string(Bytes) + " bytes a point of a plane) outgrow 1/" +
               std::to_string(FusedL2Share) + " of L2\n";
    }
    for (const StepRound &R : SP.Rounds) {
      if (R.Halos.empty())
        continue;
      Out += "  over ranks, before group " + std::to_string(R.Group) + ":";
      auto Reach = [&](const analysis::Halo &W, bool Diagonal) {
        static const char *const Axes[] = {"x", "y", "z", "w"};
        std::string Text;
        for (unsigned D = 0; D < St.Dims; ++D)
          if (W[D].Lo || W[D].Hi)
            Text += std::string(Text.empty() ? "" : " ") + Axes[D] + " -" +
                    std::to_string(W[D].Lo) + "..+" + std::to_string(W[D].Hi);
        return Text + (Diagonal ? ", diagonal" : "");
      };
      for (const RoundHalo &H : R.Halos) {
        Out += " " + St.Params[H.Param].Name +
               (H.Exchange ? " exchanged" : "") + " (" +
               Reach(H.Halo, H.Diagonal);
        // Later groups read more of it before it is written again.
        if (H.Exchange && (H.Sends != H.Halo || H.SendsDiagonal != H.Diagonal))
          Out += "; sends " + Reach(H.Sends, H.SendsDiagonal);
        Out += ")";
      }
      Out += "\n";
    }
  }
  return Out;
}
