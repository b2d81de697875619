//===- StepPlan.h - How a step's stencils run together ---------*- C++ -*-===//
///
/// \file
/// Planning for steps: the calls of a step in groups, each run one kernel
/// per stencil (multi-kernel: the intermediates go through memory) or, for
/// a producer and the consumer right after it, one fused kernel in which the
/// consumer recomputes the producer's values at the offsets it reads them
/// (recalculation, seed 003) instead of loading them; the producer still
/// stores its outputs, which are the user's arrays. A fused group computes
/// what the sequence computes: a recomputed value is the producer's at that
/// point (its inputs are not written in the group), and where an offset
/// leaves the region the consumer reads the array, as in the sequence.
///
/// A pair is fused when that is legal (a flow dependence, no anti or output
/// dependence between the two, a producer that reads none of the arrays it
/// writes and stores every array the consumer reads on every path) and the
/// cost model predicts it faster: each kernel costs the larger of its bytes
/// over the memory bandwidth and its flops over the arithmetic rate (an
/// H100's, as a ratio of about 20 flops per byte in float, 10 in double);
/// fusion saves the consumer's loads of the intermediates and costs one
/// evaluation of the producer per offset read. The user can force either.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_PLANNING_STEPPLAN_H
#define STENCILC_PLANNING_STEPPLAN_H

#include "stencilc/Analysis/StepGraph.h"
#include "stencilc/Planning/CpuLoopPlan.h"
#include <string>
#include <vector>

namespace stencilc::planning {

struct ModulePlan;

enum class StepStrategy {
  MultiKernel, ///< One kernel per stencil, in order.
  Recompute,   ///< Producer and consumer in one kernel, by recalculation.
};
const char *stepStrategyName(StepStrategy S);

/// What the user asks for (--step-strategy).
enum class StepStrategyChoice { Auto, MultiKernel, Recompute };

struct StepGroup {
  StepStrategy Strategy = StepStrategy::MultiKernel;
  std::vector<unsigned> Calls; ///< One call, or producer then consumer.
  /// Recompute: the step's arrays the producer writes and the consumer
  /// reads (each recomputed at the consumer's offsets).
  std::vector<unsigned> Recomputed;
  /// The cost model's estimates per point, in nanoseconds per million
  /// points, of the calls run one kernel each and fused (0 when not fusible).
  double MultiKernelCost = 0, FusedCost = 0;
  /// Why a pair with a flow dependence was not fused (empty otherwise).
  std::string NotFused;
  /// Recompute: the OpenMP loop nest of the fused kernel.
  CpuLoopPlan Cpu;
};

struct StepPlan {
  const ir::Step *Step = nullptr;
  const analysis::StepInfo *Info = nullptr;
  std::vector<StepGroup> Groups; ///< In call order; every call in one.
  /// The union of the stencils' halos: the margin every launch needs.
  analysis::Halo Halo{};
};

/// Plans every step of \p Plan's module (StepInfos parallel to its steps)
/// into Plan.Steps.
void planSteps(ModulePlan &Plan,
               const std::vector<analysis::StepInfo> &StepInfos,
               StepStrategyChoice Choice);

/// The steps' plans as text (part of --emit=plan).
std::string printStepPlans(const ModulePlan &Plan);

} // namespace stencilc::planning

#endif // STENCILC_PLANNING_STEPPLAN_H
