//===- KernelPlan.h - What one marching CUDA kernel does -------*- C++ -*-===//
///
/// \file
/// The kernel plan of a marching variant (zmarch, zmarch2, smem): how threads
/// map onto the region, which register queues exist, where every load of the
/// body comes from (memory, a queue register, a shared-memory tile cell, or
/// the queue of a sibling point the same thread computes), how the queues
/// are filled and shifted, how the tile is staged between its barriers, and
/// how the marching loop is unrolled. Planning makes one per variant
/// (planKernel); the CUDA emitter prints it and decides nothing; later
/// passes (fusion, temporal blocking) transform it. --emit=plan prints it
/// as text (printKernelPlan).
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_PLANNING_KERNELPLAN_H
#define STENCILC_PLANNING_KERNELPLAN_H

#include "stencilc/Planning/Plan.h"
#include <string>
#include <vector>

namespace stencilc::planning {

/// How a marching kernel's threads cover the region. The block shape and
/// the chunk are launch parameters (one kernel serves every candidate).
struct ThreadMapping {
  unsigned MarchDim = 0; ///< z in 3-D, y in 2-D: each thread marches a chunk.
  unsigned Points = 1;   ///< Points each thread computes per step.
  /// The dimension a thread's points lie along: y in 3-D (adjacent rows,
  /// whose shared loads are made once), x in 2-D (blockDim.x apart).
  unsigned PointDim = 0;
  bool adjacent() const { return Points > 1 && PointDim == 1; }
};

/// One register queue: the values of one column of an array at the marching
/// offsets [Lo, Hi] of the current point; register n holds Lo + n. Each step
/// loads the register at Hi and shifts the others down by one.
struct QueueRegisters {
  unsigned Param = 0;
  unsigned Index = 0; ///< Its position among the array's queues.
  bool Centre = false; ///< The column at in-plane offset 0.
  ir::Offset Column{}; ///< In-plane offset; the marching component is 0.
  int Lo = 0, Hi = 0;
  int length() const { return Hi - Lo + 1; }
};

/// Where one load of the body comes from.
struct LoadSource {
  enum class Kind {
    Memory,    ///< A global-memory load at the offset.
    Queue,     ///< Register Slot of Queues[Queue].
    Tile,      ///< The shared-memory tile cell at the in-plane offset.
    Sibling,   ///< The point Dy rows away, when this thread computes it: its
               ///< register SiblingSlot of Queues[SiblingQueue]; else the
               ///< fallback (register Slot of Queues[Queue] if Queue >= 0,
               ///< else memory).
    Invariant, ///< Register Invariants[Slot], loaded before the march.
  };
  Kind From = Kind::Memory;
  int Queue = -1;
  int Slot = 0;
  int Dy = 0;
  int SiblingQueue = -1;
  int SiblingSlot = 0;
};

struct PlannedLoad {
  unsigned Param = 0;
  ir::Offset Off{};
  LoadSource Source;
};

/// A load that is the same at every step of the march (an array of lower
/// rank that does not span the marching dimension): each point loads it
/// once, before the marching loop, into a register.
struct InvariantRegister {
  unsigned Param = 0;
  ir::Offset Off{};
};

/// An array staged in the shared-memory tile (smem): each step, every thread
/// writes its own cell (from the centre queue's register at offset 0 when
/// there is one, else from memory) and the threads share the halo cells.
struct TiledArray {
  unsigned Param = 0;
  int CentreQueue = -1; ///< Queue whose offset-0 register fills the cell.
  int CentreSlot = 0;
};

struct KernelPlan {
  VariantKind Variant = VariantKind::ZMarch;
  ThreadMapping Threads;
  std::vector<QueueRegisters> Queues; ///< Arrays in parameter order.
  std::vector<PlannedLoad> Loads; ///< Every load of arrays read, by offset.
  std::vector<TiledArray> Tiles;  ///< smem only.
  std::vector<InvariantRegister> Invariants;
  analysis::HaloWidth TileHalo[2]; ///< x, y halo of the tile (smem).
  /// All points of a thread load their queues before any body runs, and
  /// shift them after the last (points adjacent in y read each other's
  /// queues); otherwise each point loads, computes and shifts in turn.
  bool SplitQueueSteps = false;
  /// `#pragma unroll Unroll` on the marching loop; 0: not unrolled (smem:
  /// the barriers of each step).
  unsigned Unroll = 0;
  /// zsum and zsum4 only: the body's sum by planes (no queues, no planned
  /// loads).
  PlaneSums Sums;
  /// zsum4 only: planes of the block's footprint in shared memory, copied
  /// Stages - 1 planes ahead of the one summed.
  unsigned Stages = 0;
  /// zsum4 only: the most elements of a plane one thread copies (the
  /// launcher refuses blocks that would need more).
  unsigned Copies = 0;

  bool tiled() const { return !Tiles.empty(); }
};

/// The kernel plan of marching variant \p V of \p SP.
KernelPlan planKernel(const StencilPlan &SP, VariantKind V);

/// The planned load of \p Param at \p Off, or null (a load from memory).
const PlannedLoad *findLoad(const KernelPlan &K, unsigned Param,
                            const ir::Offset &Off);

/// The module's plan as readable text (--emit=plan): per stencil, each
/// variant's thread mapping, queues, tile and every load's source, the
/// default launch and the OpenMP loop blocking. Stable: tests compare it.
std::string printModulePlan(const ModulePlan &Plan);

} // namespace stencilc::planning

#endif // STENCILC_PLANNING_KERNELPLAN_H
