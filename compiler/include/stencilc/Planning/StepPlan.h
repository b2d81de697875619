//===- StepPlan.h - How a step's stencils run together ---------*- C++ -*-===//
///
/// \file
/// Planning for steps: the calls of a step in groups, each run one kernel
/// per stencil (multi-kernel: the intermediates go through memory) or one
/// fused kernel for a consumer and producers before it, in which the
/// consumer recomputes each producer's values at the offsets it reads them
/// (recalculation, seed 003) instead of loading them; the producers still
/// store their outputs, which are the user's arrays. A fused group runs at
/// its consumer's place and computes what the sequence computes: a
/// recomputed value is the producer's at that point (no call between the
/// two touches what the producer reads or writes), and where an offset
/// leaves the region the consumer reads the array, as in the sequence.
///
/// A producer joins its consumer when that is legal (a flow dependence, no
/// anti or output dependence between the two, no dependence between the
/// producer and a call between them, a producer that reads none of the
/// arrays it writes and stores every array the consumer reads on every path)
/// and the cost model predicts the group faster with it: each kernel costs
/// the larger of its bytes over the memory bandwidth and its flops over the
/// arithmetic rate (an H100's, as a ratio of about 20 flops per byte in
/// float, 10 in double); fusion saves the consumer's loads of the
/// intermediates (and the producer's stores of scratch intermediates nothing
/// else reads) and costs one evaluation of the producer per offset read.
/// Producers join in call order, each call in at most one group.
///
/// Groups that run one after another and share no dependence (no call of
/// one reads or writes what a call of another writes) run **together**: one
/// kernel runs each at every point in turn, so what they both read is read
/// once. A part is a stencil left alone or a group fused by recalculation;
/// consecutive parts join when the model predicts it cheaper (the bytes
/// they share). Stencils alone join unless the user forces multi-kernel;
/// fused groups only where the plan is the model's (a forced strategy
/// keeps each fused group a kernel of its own, to measure one against
/// another).
///
/// A fused group may instead stage its intermediates on chip (CUDA): a
/// block of threads marches along z over a tile of (x, y), computes each
/// recomputed array once per point of the tile and the consumer's reach
/// around it into shared memory (a ring of z planes), and the consumer
/// reads them there. It evaluates a producer once per point plus the ring
/// around the tile, where recalculation evaluates it once per offset read;
/// the model picks it when that is cheaper, within 48 KiB of shared memory.
/// The OpenMP backend runs a staged group by recalculation (the same values:
/// a CPU's caches hold the producer's inputs). The user can force any
/// strategy.
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
  Staged,      ///< One kernel, the intermediates staged in shared memory.
  /// Stencils with no dependence between them, one after the other at each
  /// point of one kernel: the arrays they share are read once.
  Together,
};
const char *stepStrategyName(StepStrategy S);

/// What the user asks for (--step-strategy).
enum class StepStrategyChoice { Auto, MultiKernel, Recompute, Staged };

struct StepGroup {
  StepStrategy Strategy = StepStrategy::MultiKernel;
  /// One call, the producers then the consumer, or (Together) the calls of
  /// its parts: the producers of its fused parts, then the other calls, each
  /// in call order.
  std::vector<unsigned> Calls;
  /// How many of Calls are producers (the rest are consumers, or stencils
  /// alone): what runs first when the runtime runs the group call by call.
  unsigned Producers = 0;
  /// Together: its parts in call order, each a call alone (MultiKernel) or
  /// a group fused by recalculation; its Recomputed and Unstored are theirs.
  std::vector<StepGroup> Parts;
  /// Fused: the step's arrays a producer writes and the consumer reads
  /// (each recomputed at the consumer's offsets, or staged).
  std::vector<unsigned> Recomputed;
  /// Fused: the arrays of Recomputed the producers do not store: scratch
  /// arrays (STENCIL_SCRATCH) no call outside the group reads before a call
  /// writes them again on every path or the step ends. The consumer reads
  /// a producer's value at its own point from a variable.
  std::vector<unsigned> Unstored;
  /// Staged: parallel to Recomputed, how far around a point the consumer
  /// reads each array (the ring staged around the tile).
  std::vector<analysis::Halo> Reach;
  /// The cost model's estimates per point, in nanoseconds per million
  /// points, of the calls run one kernel each, fused by recalculation and
  /// staged (0 when not fusible; staged 0 when it cannot be staged).
  double MultiKernelCost = 0, FusedCost = 0, StagedCost = 0;
  /// Why a fused group is not staged (empty when it is, or could be).
  std::string NotStaged;
  /// A fused group the model could not tell apart for sure: the other
  /// fused strategy, compiled too for the runtime to measure (CUDA, when
  /// the model picks and the group can be staged); else MultiKernel.
  StepStrategy Alternative = StepStrategy::MultiKernel;
  /// A producer not fused: with which consumer it was not, and why.
  std::string NotFused;
  /// Bytes and flops per point of the group's kernel by the model, as
  /// planned (the staged flops where it is staged), and whether it computes
  /// in double: what a Together group that joins it sums.
  double Bytes = 0, Flops = 0;
  bool Double = false;
  /// Recompute, Together: threads on each SM its CUDA kernel is compiled
  /// for (__launch_bounds__; FusedThreadsPerSM or FusedPartsThreadsPerSM).
  unsigned ThreadsPerSM = 0;
  /// Recompute: the OpenMP loop nest of the fused kernel.
  CpuLoopPlan Cpu;
};

/// The block of a CUDA kernel fused by recalculation (or of stencils
/// together), one thread per point: two planes of z, so that a
/// recomputation at k - 1 or k + 1 finds its inputs in the cache another
/// thread of the block just filled; a 2-D step's block is FusedBlockY rows
/// of one plane. On an H100 the dycore's step took 16.36 ms with
/// (32, 4, 2), 16.55 with (64, 2, 2), 17.34 with (64, 4, 1), 17.70 with
/// (128, 2, 1) and 18.26 with (256, 1, 1).
constexpr unsigned FusedBlockX = 32, FusedBlockY = 4, FusedBlockZ = 2;
/// The block of a fused kernel whose blocks go down the columns first
/// (StepRound::ZPlaneBytes): (FusedBlockX, FusedColumnY, FusedColumnZ).
/// Blocks in x, then along z, then in y: the planes a block reads above
/// and below its own are still in L2 when the next block of the column
/// reads them. Plane by plane, they are read again from DRAM once the
/// planes a pass reads outgrow L2: each fused group of the dycore's stage
/// read 1.2 to 1.7 times its arrays from DRAM (L2 hit rate 45-57%, ncu on
/// an H200), down the columns once. In one run on an H200 the dycore's
/// step took 10.56 ms plane by plane and 9.51 ms with every group down the
/// columns; in another, with x after z (blocks of a whole column first),
/// 9.43 ms with (32, 2, 4), 9.56 with (32, 4, 2), 9.94 with (32, 8, 1).
/// Where the planes fit, plane by plane is faster: step_benchmark's f32
/// steps at 512x512x256 took 0.323 and 0.543 ms plane by plane, 0.370 and
/// 0.593 down the columns (0.421 and 0.647 with x after z). A thread
/// marching 4 to 16 points of a column instead took twice as long.
constexpr unsigned FusedColumnY = 2, FusedColumnZ = 4;
/// The share of the device's L2 cache the planes a pass of a fused kernel
/// reads, plane by plane, may take before its blocks go down the columns
/// first: half (the H100's and H200's L2 is two halves).
constexpr unsigned FusedL2Share = 2;
/// The narrowest block in x a fused kernel is launched with: a region
/// thinner than FusedBlockX in x (a boundary slab of an overlapped run)
/// gets a block of the next power of two at least as wide, down to this,
/// with FusedBlockX / width times as many rows.
constexpr unsigned FusedBlockMinX = 2;
/// Threads of a \p Dims-D step's fused block (one plane in 2-D); the same
/// down the columns.
constexpr unsigned fusedBlockThreads(unsigned Dims) {
  return FusedBlockX * FusedBlockY * (Dims == 2 ? 1 : FusedBlockZ);
}
static_assert(FusedColumnY * FusedColumnZ == FusedBlockY * FusedBlockZ);
/// Threads a kernel fused by recalculation should have on each SM at once
/// (__launch_bounds__: its registers are capped to fit them). Such a kernel
/// waits on its loads more than it computes, and only more warps hide that:
/// on an H200 the dycore's step took 13.14 ms uncapped (the scalar group's
/// kernel at 74 registers, three blocks an SM, 33% of the warps achieved),
/// 12.06 ms with four blocks an SM, 11.47 ms with five, 12.33 with six.
constexpr unsigned FusedThreadsPerSM = 1280;
/// Threads on each SM for a kernel that runs several fused groups together:
/// four blocks an SM, more registers for a longer body. On an H100 the
/// dycore's four fused groups in one kernel took 2.72 ms a stage at five
/// blocks an SM (48 registers, 156 bytes spilled), 2.30 at four (64), 2.41
/// at three; the three momentum groups 1.37 at five, 1.28 at four, against
/// 1.75 as three kernels.
constexpr unsigned FusedPartsThreadsPerSM = 1024;

/// The tile of a staged group's CUDA kernel: one thread per point of
/// StageTileX * StageTileY, marching StageChunk planes of z.
constexpr unsigned StageTileX = 32, StageTileY = 8, StageChunk = 16;
/// The shared memory a staged group may use (static, no opt-in).
constexpr unsigned StageSharedBytes = 48 * 1024;
/// Blocks of a staged kernel each SM should hold (__launch_bounds__): the
/// registers are capped to fit them, since a block waits at a barrier per
/// plane and only other blocks hide that.
constexpr unsigned StageMinBlocks = 4;

/// The planes of a staged array's ring with reach \p Reach in a \p Dims-D
/// step: in 3-D the consumer's reach in z and one plane more, so that a
/// block stages the next plane while a slower thread still reads the last
/// (one barrier per plane); one plane in 2-D.
inline unsigned stagedRingDepth(const analysis::Halo &Reach, unsigned Dims) {
  return Dims == 3 ? unsigned(Reach[2].Lo + Reach[2].Hi) + 2 : 1;
}

/// What one round of a step over MPI ranks needs of one array's halo.
struct RoundHalo {
  unsigned Param = 0;    ///< The step's array.
  analysis::Halo Halo{}; ///< How far around a point the round reads it.
  bool Diagonal = false; ///< Edges and corners are read.
  /// Written since its halo was last exchanged (or the step began): the
  /// exchange comes before the round.
  bool Exchange = false;
  /// With Exchange: what the exchange fills, the widths and sides this round
  /// and the later ones read before the array is written again (its halo
  /// stays current until then), with edges and corners only if one of them
  /// reads them.
  analysis::Halo Sends{};
  bool SendsDiagonal = false;
};

/// One group as the distributed runtime runs it: the halos it reads, then
/// its calls. A fused group reads its producers' inputs further out than
/// any of its calls (a recomputation at the consumer's offset reads the
/// producer's offsets around it); arrays of lower rank need no exchange.
struct StepRound {
  unsigned Group = 0;
  std::vector<RoundHalo> Halos; ///< By Param: the arrays read off the centre.
  analysis::Halo Reads{};       ///< The union of Halos.
  /// A fused group: the dimensions whose coordinate (idx.i() ...) a producer
  /// uses (bit d: dimension d). Recomputed in a periodic halo it would see
  /// the coordinate unwrapped, so the runtime runs such a group call by call
  /// where one of these dimensions is periodic.
  unsigned CoordinateDims = 0;
  /// A fused group's kernel in 3-D or 4-D: bytes per point of a plane that
  /// a pass of its blocks plane by plane reads for the planes after (each
  /// array of full rank it reads above or below a point: its element size
  /// times the planes a block of FusedBlockZ planes reads). The launch
  /// sends the blocks down the columns first where this many bytes for
  /// every point of the launch's plane outgrow the L2 share FusedL2Share.
  unsigned ZPlaneBytes = 0;
};

struct StepPlan {
  const ir::Step *Step = nullptr;
  const analysis::StepInfo *Info = nullptr;
  /// In the order they run (a fused group at its consumer's place); every
  /// call in one.
  std::vector<StepGroup> Groups;
  std::vector<StepRound> Rounds; ///< One per group, in the same order.
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
