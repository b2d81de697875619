//===- Plan.h - The Planning stage -----------------------------*- C++ -*-===//
///
/// \file
/// Decides what to emit for each stencil: which variants, and for the
/// marching variants which arrays keep a register queue along the marching
/// dimension and which are staged in a shared-memory tile. CodeGen only
/// prints what the plan says.
///
/// Arrays of lower rank (ir::Param::Axes) are never tiled: one that spans the
/// marching dimension (a profile along z) keeps a queue like any other, one
/// that does not is read once per point before the march.
///
/// Every stencil gets the region-box "grid" variant (one thread per point; the
/// only one the OpenMP backend emits). 2-D and 3-D stencils also get
/// "zmarch" (each thread marches a chunk of the outermost dimension), "zmarch2"
/// (zmarch with two points per thread) and, when some array is read at an
/// in-plane neighbour, "smem" (zmarch plus a shared-memory tile of the plane);
/// 3-D stencils whose body is a sum in the order of the planes it reads,
/// "zsum" (PlaneSums.h).
/// Queues longer than MaxQueueLength leave only "grid"; a tile halo wider
/// than MaxTileHalo leaves out "smem".
/// Block shape and chunk length are launch parameters, so one kernel per
/// variant serves every candidate the tuner tries.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_PLANNING_PLAN_H
#define STENCILC_PLANNING_PLAN_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/IR/Module.h"
#include "stencilc/Planning/CpuLoopPlan.h"
#include "stencilc/Planning/PlaneSums.h"
#include "stencilc/Planning/StepPlan.h"
#include "stencilc/Planning/TemporalPlan.h"
#include <vector>

namespace stencilc::planning {

enum class VariantKind {
  Grid, ///< One thread (CUDA) or iteration (OpenMP) per point of a region box.
  ZMarch,  ///< Threads over the plane, each marching a chunk of the outermost
           ///< dimension.
  Smem,    ///< ZMarch with in-plane neighbours read from a shared-memory tile.
  ZMarch2, ///< ZMarch with two points per thread, adjacent in y (in x, a
           ///< block apart, in 2-D): twice the independent loads in flight,
           ///< and loads the two points share are made once.
  ZSum,    ///< 3-D, two points per thread adjacent in y: the body's sum split
           ///< by the planes it reads, running sums marched up z in place of
           ///< the queues (PlaneSums.h).
  ZSum4,   ///< ZSum with four points per thread adjacent in y, the planes the
           ///< block reads copied into shared memory asynchronously, several
           ///< in flight (PlaneSums.h).
};
const char *variantName(VariantKind V);
bool isMarching(VariantKind V);
/// Points each thread of \p V computes (1 but for ZMarch2, ZSum, ZSum4).
unsigned pointsPerThread(VariantKind V);

/// A register queue of one column of an array: the loads at one in-plane
/// offset (x, y in 3-D; x in 2-D), holding the marching-dimension offsets
/// [Lo, Hi]. Each step loads one value (at Hi) and shifts the rest by one.
struct ColumnQueue {
  int Plane[2] = {0, 0};
  int Lo = 0, Hi = 0;
};

/// How a marching variant reads one array.
struct ArrayAccessPlan {
  unsigned Param = 0;
  /// Columns read through a register queue: the centre column whenever it
  /// is read, and every other column read at two or more marching offsets
  /// (a box stencil's nine columns), so each value is loaded once per point.
  std::vector<ColumnQueue> Queues;
  /// Loads at offsets with a zero marching component come from the tile
  /// (smem variant only).
  bool Tiled = false;
  /// An array of lower rank that does not span the marching dimension (a
  /// surface field, a profile along x): each of its loads is the same at
  /// every step, so it is made once, before the march, into a register.
  bool Invariant = false;
  /// Other loads may take the read-only data path: the array is a const
  /// __restrict__ kernel parameter (nvcc loads it with ld.global.nc).
  bool ReadOnlyPath = false;
};

/// The part of the plan the marching variants share.
struct MarchPlan {
  unsigned MarchDim = 0; ///< Dims - 1: z in 3-D, y in 2-D.
  std::vector<ArrayAccessPlan>
      Arrays; ///< Arrays that are read, in parameter order.
  /// Tile halo per plane dimension (x, y), union over tiled arrays.
  analysis::HaloWidth TileHalo[2];
  /// The zsum variant's sum by planes, or why it has none.
  PlaneSums Sums;
};

/// Bounds on what a marching variant keeps on chip. A queue holds one
/// register per marching offset between its lowest and highest, and the
/// tile one row or column per point of halo: a stencil beyond either bound
/// gets no marching variant (queues) or no smem variant (tile), whatever its
/// offsets (even INT_MIN).
constexpr long long MaxQueueLength = 32;
constexpr long long MaxTileHalo = 16;

/// Whether a stencil's queues and tile stay within the bounds above.
struct MarchLimits {
  bool Queues = true;
  bool Tile = true;
};

/// What a CUDA engine launches without tuning (DeviceLoopEngine): one of the
/// plan's variants and its block (for a marching variant, block[2] is the
/// chunk). The runtime narrows it to thin regions.
struct DefaultLaunch {
  VariantKind Variant = VariantKind::Grid;
  int Block[3] = {64, 4, 1};
};

struct StencilPlan {
  const ir::Stencil *Stencil = nullptr;
  const analysis::StencilInfo *Info = nullptr;
  std::vector<VariantKind> Variants;
  MarchPlan March; ///< Meaningful when Variants has a marching variant.
  DefaultLaunch Default;
  CpuLoopPlan Cpu;
  /// CUDA's passes of several time steps; planned for a stencil a time loop
  /// repeats (ir::Stencil::TimeLoop).
  TemporalPlan Temporal;
};

struct ModulePlan {
  const ir::Module *Module = nullptr;
  std::vector<StencilPlan> Stencils;
  /// Parallel to Module->Steps once planSteps (StepPlan.h) has run.
  std::vector<StepPlan> Steps;
  /// When set, each statement of a body is preceded by `#line N "source"`
  /// (Stencil::StmtLines), and the generated lines after a body by
  /// `#line N "GeneratedFile"`, their own position: compiler errors,
  /// debuggers and profilers point at the user's line for the body's code
  /// and at the generated file for the code around it.
  bool LineDirectives = false;
  std::string GeneratedFile; ///< The name the generated file is compiled as.
};

/// \p Infos is parallel to \p M.Stencils; both must outlive the plan.
ModulePlan planModule(const ir::Module &M,
                      const std::vector<analysis::StencilInfo> &Infos);

/// The access plan of array parameter \p Param, or null if it is not read.
const ArrayAccessPlan *findArrayPlan(const MarchPlan &P, unsigned Param);

/// The queue of \p A that holds offset \p Off (marching along \p MarchDim),
/// or null if that load is not queued.
const ColumnQueue *findQueue(const ArrayAccessPlan &A, const ir::Offset &Off,
                             unsigned MarchDim);

/// The queue of \p A's centre column, or null if it has none.
const ColumnQueue *centreQueue(const ArrayAccessPlan &A);

} // namespace stencilc::planning

#endif // STENCILC_PLANNING_PLAN_H
