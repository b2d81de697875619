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
  return S == StepStrategy::Recompute ? "recompute" : "multi-kernel";
}

namespace {

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

/// True if the top level of \p S's body stores array parameter \p Param:
/// every run of the body writes it.
bool storesOnEveryPath(const ir::Stencil &S, unsigned Param) {
  const auto *Body = llvm::dyn_cast_or_null<ir::BlockStmt>(S.Body.get());
  if (!Body)
    return false;
  return std::any_of(Body->Body.begin(), Body->Body.end(),
                     [&](const ir::StmtRef &St) {
                       const auto *Store = llvm::dyn_cast<ir::StoreStmt>(St.get());
                       return Store && Store->Param == Param;
                     });
}

/// The stencil parameters of call \p C bound to step array \p Param.
std::vector<unsigned> boundTo(const ir::StepCall &C, unsigned Param) {
  std::vector<unsigned> Out;
  for (unsigned A = 0; A < C.Args.size(); ++A)
    if (C.Args[A].From == ir::StepArg::Kind::Param && C.Args[A].Param == Param)
      Out.push_back(A + 1);
  return Out;
}

/// Why calls \p P and \p P + 1 cannot run as one recomputing kernel (empty
/// if they can), and the arrays the consumer would recompute.
std::string whyNotFusible(const ir::Module &M, const ir::Step &St,
                          const analysis::StepInfo &Info,
                          const std::vector<analysis::StencilInfo> &Infos,
                          unsigned P, std::vector<unsigned> &Recomputed) {
  const unsigned C = P + 1;
  for (const analysis::Dependence &D : Info.Dependences) {
    if (D.From != P || D.To != C)
      continue;
    if (D.Kind == analysis::DependenceKind::Flow)
      Recomputed.push_back(D.Param);
    else
      return std::string("the consumer writes an array the producer ") +
             (D.Kind == analysis::DependenceKind::Anti ? "reads" : "writes");
  }
  if (Recomputed.empty())
    return "no flow dependence";
  const ir::StepCall &Prod = St.Calls[P];
  const ir::Stencil &PS = M.Stencils[Prod.Stencil];
  for (const analysis::ArrayInfo &A : Infos[Prod.Stencil].Arrays)
    if (A.Read && A.Written)
      return "the producer reads an array it writes ('" +
             PS.Params[A.Param].Name + "')";
  for (unsigned X : Recomputed)
    for (unsigned SP : boundTo(Prod, X))
      if (!storesOnEveryPath(PS, SP))
        return "the producer does not store '" + St.Params[X].Name +
               "' on every path";
  return {};
}

/// The consumer's distinct offsets of the recomputed arrays.
size_t recomputations(const analysis::StepInfo &Info, unsigned P,
                      const std::vector<unsigned> &Recomputed) {
  size_t N = 0;
  for (const analysis::Dependence &D : Info.Dependences)
    if (D.Kind == analysis::DependenceKind::Flow && D.From == P &&
        D.To == P + 1 &&
        std::count(Recomputed.begin(), Recomputed.end(), D.Param))
      N += D.Offsets.size();
  return N;
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

StepPlan planStep(const ModulePlan &Plan, const ir::Step &St,
                  const analysis::StepInfo &Info, StepStrategyChoice Choice) {
  const ir::Module &M = *Plan.Module;
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
  auto Cost = [&](unsigned Call) {
    const ir::Stencil &S = M.Stencils[St.Calls[Call].Stencil];
    const analysis::StencilInfo &I = Infos[St.Calls[Call].Stencil];
    return kernelCost(I.BytesPerPoint, I.FlopsPerPoint, computesInDouble(S));
  };
  for (unsigned Call = 0; Call < St.Calls.size(); ++Call) {
    StepGroup G;
    G.Calls = {Call};
    G.MultiKernelCost = Cost(Call) * 1e15;
    if (Call + 1 < St.Calls.size() && Choice != StepStrategyChoice::MultiKernel) {
      std::vector<unsigned> Recomputed;
      std::string Why = whyNotFusible(M, St, Info, Infos, Call, Recomputed);
      const ir::StepCall &Prod = St.Calls[Call], &Cons = St.Calls[Call + 1];
      const analysis::StencilInfo &PI = Infos[Prod.Stencil],
                                  &CI = Infos[Cons.Stencil];
      const double Multi = Cost(Call) + Cost(Call + 1);
      double Saved = 0;
      for (unsigned X : Recomputed)
        Saved += St.Params[X].Ty.bytes();
      const double Fused = kernelCost(
          PI.BytesPerPoint + CI.BytesPerPoint - Saved,
          PI.FlopsPerPoint * (1 + recomputations(Info, Call, Recomputed)) +
              CI.FlopsPerPoint,
          computesInDouble(M.Stencils[Prod.Stencil]) ||
              computesInDouble(M.Stencils[Cons.Stencil]));
      const bool Pays = Fused < Multi;
      if (Why.empty() &&
          (Choice == StepStrategyChoice::Recompute || Pays)) {
        G.Strategy = StepStrategy::Recompute;
        G.Calls.push_back(Call + 1);
        G.Recomputed = Recomputed;
        G.MultiKernelCost = Multi * 1e15;
        G.FusedCost = Fused * 1e15;
        G.Cpu = mergeCpu(Plan.Stencils[Prod.Stencil].Cpu,
                         Plan.Stencils[Cons.Stencil].Cpu);
        SP.Groups.push_back(G);
        ++Call;
        continue;
      }
      if (!Recomputed.empty() || Why != "no flow dependence") {
        if (Why.empty()) {
          char Buf[160];
          std::snprintf(Buf, sizeof(Buf),
                        "slower by the cost model (fused %.3g, multi-kernel "
                        "%.3g ns per million points)",
                        Fused * 1e15, Multi * 1e15);
          Why = Buf;
        }
        G.NotFused = Why;
      }
    }
    SP.Groups.push_back(G);
  }
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

std::string planning::printStepPlans(const ModulePlan &Plan) {
  std::string Out;
  const ir::Module &M = *Plan.Module;
  for (const StepPlan &SP : Plan.Steps) {
    const ir::Step &St = *SP.Step;
    Out += "step " + St.qualifiedName() + " (" + St.Loc.File + ":" +
           std::to_string(St.Loc.Line) + "), " + std::to_string(St.Dims) +
           "-D, " + std::to_string(St.Calls.size()) + " stencils\n";
    for (const StepGroup &G : SP.Groups) {
      char Cost[96];
      if (G.Strategy == StepStrategy::Recompute)
        std::snprintf(Cost, sizeof(Cost), " (cost %.3g, multi-kernel %.3g)",
                      G.FusedCost, G.MultiKernelCost);
      else
        std::snprintf(Cost, sizeof(Cost), " (cost %.3g)", G.MultiKernelCost);
      Out += std::string("  ") + stepStrategyName(G.Strategy) + ":";
      for (unsigned C : G.Calls)
        Out += " " + std::to_string(C) + " " +
               M.Stencils[St.Calls[C].Stencil].qualifiedName();
      Out += Cost;
      if (!G.Recomputed.empty()) {
        Out += "; recomputes";
        for (unsigned X : G.Recomputed)
          Out += " " + St.Params[X].Name;
      }
      if (!G.NotFused.empty())
        Out += "; not fused with the next: " + G.NotFused;
      Out += "\n";
    }
  }
  return Out;
}
