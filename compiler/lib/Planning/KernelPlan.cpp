//===- KernelPlan.cpp - What one marching CUDA kernel does ----------------===//
#include "stencilc/Planning/KernelPlan.h"
#include <cassert>

using namespace stencilc;
using namespace stencilc::planning;

namespace {

/// The queue indices of one array's queues in KernelPlan::Queues.
struct ArrayQueues {
  const ArrayAccessPlan *Access = nullptr;
  int First = 0; ///< Index of the array's first queue.

  int indexOf(const ColumnQueue *Q) const {
    return Q ? First + static_cast<int>(Q - Access->Queues.data()) : -1;
  }
};

/// Where a load of \p Off from array \p A comes from (see LoadSource).
LoadSource planLoad(const ArrayQueues &AQ, const ir::Offset &Off,
                    const ThreadMapping &T, bool Tile) {
  const ArrayAccessPlan &A = *AQ.Access;
  const unsigned M = T.MarchDim;
  LoadSource L;
  const ColumnQueue *Q = findQueue(A, Off, M);
  auto FromQueue = [&](const ColumnQueue *From) {
    LoadSource S;
    if (From) {
      S.From = LoadSource::Kind::Queue;
      S.Queue = AQ.indexOf(From);
      S.Slot = Off[M] - From->Lo;
    }
    return S;
  };
  if (Q && Q == centreQueue(A))
    return FromQueue(Q);
  if (Tile && A.Tiled && Off[M] == 0) {
    L.From = LoadSource::Kind::Tile;
    return L;
  }
  if (T.adjacent() && Off[1] != 0) {
    // A load Dy rows from this point is the load at y offset 0 of the point
    // that many rows further, when this thread computes it: its queue then
    // holds the value, loaded one step ahead. (Not std::abs: Dy may be
    // INT_MIN.)
    LoadSource Fallback = FromQueue(Q);
    const int Dy = Off[1];
    if (Dy >= int(T.Points) || Dy <= -int(T.Points))
      return Fallback;
    ir::Offset Moved = Off;
    Moved[1] = 0;
    const ColumnQueue *Sibling = findQueue(A, Moved, M);
    if (!Sibling)
      return Fallback;
    L = Fallback;
    L.From = LoadSource::Kind::Sibling;
    L.Dy = Dy;
    L.SiblingQueue = AQ.indexOf(Sibling);
    L.SiblingSlot = Off[M] - Sibling->Lo;
    return L;
  }
  return FromQueue(Q);
}

} // namespace

KernelPlan planning::planKernel(const StencilPlan &SP, VariantKind V) {
  assert(isMarching(V) && "only marching variants have a kernel plan");
  const MarchPlan &P = SP.March;
  KernelPlan K;
  K.Variant = V;
  K.Threads.MarchDim = P.MarchDim;
  K.Threads.Points = pointsPerThread(V);
  K.Threads.PointDim = P.MarchDim == 2 ? 1 : 0;
  if (V == VariantKind::ZSum) {
    // Unrolled twice: two planes' loads in flight, the sums' shifts renames.
    K.Sums = P.Sums;
    K.Unroll = 2;
    return K;
  }
  if (V == VariantKind::ZSum4) {
    // Three stages: two planes copied while one is summed, one barrier a
    // plane (a probe on an H200: as fast as four, 1.06 times two).
    K.Sums = P.Sums;
    K.Stages = 3;
    // Each thread's elements are found once, in registers: 8 is enough for
    // blocks 32 wide or more of a box (6.4 a thread at 32x1).
    K.Copies = 8;
    return K;
  }
  const bool Tile = V == VariantKind::Smem;
  K.SplitQueueSteps = K.Threads.adjacent();
  // Unrolled, the queue's shifts become renames and the loads of several
  // steps are in flight together; the tile's barriers are not unrolled.
  K.Unroll = Tile ? 0 : 4 / K.Threads.Points;
  if (Tile) {
    K.TileHalo[0] = P.TileHalo[0];
    K.TileHalo[1] = P.TileHalo[1];
  }
  // Arrays in parameter order; those without an access plan (written by
  // the stencil, so read from memory as written) load from memory.
  for (const analysis::ArrayInfo &AI : SP.Info->Arrays) {
    const ArrayAccessPlan *Access = findArrayPlan(P, AI.Param);
    if (!Access) {
      for (const ir::Offset &Off : AI.ReadOffsets)
        K.Loads.push_back({AI.Param, Off, LoadSource()});
      continue;
    }
    const ArrayAccessPlan &A = *Access;
    if (A.Invariant) {
      for (const ir::Offset &Off : AI.ReadOffsets) {
        LoadSource L;
        L.From = LoadSource::Kind::Invariant;
        L.Slot = static_cast<int>(K.Invariants.size());
        K.Invariants.push_back({A.Param, Off});
        K.Loads.push_back({A.Param, Off, L});
      }
      continue;
    }
    ArrayQueues AQ{&A, static_cast<int>(K.Queues.size())};
    for (const ColumnQueue &Q : A.Queues) {
      QueueRegisters R;
      R.Param = A.Param;
      R.Index = static_cast<unsigned>(&Q - A.Queues.data());
      R.Centre = &Q == centreQueue(A);
      R.Column[0] = Q.Plane[0];
      R.Column[1] = P.MarchDim == 2 ? Q.Plane[1] : 0;
      R.Lo = Q.Lo;
      R.Hi = Q.Hi;
      K.Queues.push_back(R);
    }
    for (const ir::Offset &Off : AI.ReadOffsets)
      K.Loads.push_back({A.Param, Off, planLoad(AQ, Off, K.Threads, Tile)});
    if (Tile && A.Tiled) {
      TiledArray T;
      T.Param = A.Param;
      const ColumnQueue *Centre = centreQueue(A);
      if (Centre && Centre->Lo <= 0 && Centre->Hi >= 0) {
        T.CentreQueue = AQ.indexOf(Centre);
        T.CentreSlot = -Centre->Lo;
      }
      K.Tiles.push_back(T);
    }
  }
  return K;
}

const PlannedLoad *planning::findLoad(const KernelPlan &K, unsigned Param,
                                      const ir::Offset &Off) {
  for (const PlannedLoad &L : K.Loads)
    if (L.Param == Param && L.Off == Off)
      return &L;
  return nullptr;
}
