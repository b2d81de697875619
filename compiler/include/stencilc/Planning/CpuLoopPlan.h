//===- CpuLoopPlan.h - How an OpenMP loop nest walks a region --*- C++ -*-===//
#ifndef STENCILC_PLANNING_CPULOOPPLAN_H
#define STENCILC_PLANNING_CPULOOPPLAN_H

namespace stencilc::planning {

/// How the OpenMP loop nest walks the region. 2-D: rows shared among
/// threads. 3-D and 4-D (Blocked): the (y, z) extent is cut into y tiles and
/// z chunks, and each thread marches the z planes of its blocks tile by
/// tile, so that the planes a z step reads again are still in the cache.
/// The tile sizes depend on the region, the thread count and the cache, so
/// the runtime picks them (stencil/cpu_tiling.hpp) from what is here.
struct CpuLoopPlan {
  bool Blocked = false;
  /// The x loop is `#pragma omp simd`: no array the stencil writes is read
  /// at another point of the same row, where a lane would read before
  /// another lane's store.
  bool SimdRows = true;
  /// Bytes per x point of one y row that marching in z keeps in the cache:
  /// for each array read, one row per z offset from its lowest to its
  /// highest; for each array written, one.
  long long RowBytesPerPoint = 0;
  /// Rows (y) and planes (z) a tile reads beyond its own: the halo, both
  /// sides together.
  long long HaloY = 0, HaloZ = 0;
};

} // namespace stencilc::planning

#endif // STENCILC_PLANNING_CPULOOPPLAN_H
