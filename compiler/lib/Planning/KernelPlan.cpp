//===- KernelPlan.cpp - What one marching CUDA kernel does ----------------===//
#include "stencilc/Planning/KernelPlan.h"
#include <cassert>

using namespace stencilc;
using namespace stencilc::planning;

namespace {

/// Where one array's queues are in KernelPlan::Queues.
struct ArrayQueues {
  const ArrayAccessPlan *Access = nullptr;
  const std::vector<QueueRegisters> *Registers = nullptr;
  /// Per queue of Access: its index in *Registers, -1 where it has none.
  std::vector<int> Index;

  int indexOf(const ColumnQueue *Q) const {
    return Q ? Index[static_cast<size_t>(Q - Access->Queues.data())] : -1;
  }
  /// The marching offset its register 0 holds (a queue's may start above
  /// the column's first offset: see queueRegisters).
  int lo(int Queue) const { return (*Registers)[size_t(Queue)].Lo; }
};

/// The registers of \p A's queues, appended to \p Out. In a tile's kernel a
/// column's own plane (marching offset 0) of a tiled array comes from the
/// tile (planLoad), so a queue beside the centre that starts at 0 starts at
/// 1 instead: nothing would read its register 0, which the shifts only
/// overwrite; one holding offset 0 alone has no registers at all.
ArrayQueues queueRegisters(const ArrayAccessPlan &A, unsigned MarchDim,
                           bool Tile, std::vector<QueueRegisters> &Out) {
  ArrayQueues AQ{&A, &Out, {}};
  for (const ColumnQueue &Q : A.Queues) {
    QueueRegisters R;
    R.Param = A.Param;
    R.Index = static_cast<unsigned>(&Q - A.Queues.data());
    R.Centre = &Q == centreQueue(A);
    R.Column[0] = Q.Plane[0];
    R.Column[1] = MarchDim == 2 ? Q.Plane[1] : 0;
    R.Lo = Q.Lo;
    R.Hi = Q.Hi;
    if (Tile && A.Tiled && !R.Centre && R.Lo == 0)
      R.Lo = 1;
    AQ.Index.push_back(R.Lo <= R.Hi ? static_cast<int>(Out.size()) : -1);
    if (R.Lo <= R.Hi)
      Out.push_back(R);
  }
  return AQ;
}

/// Where a load of \p Off from array \p A comes from (see LoadSource).
LoadSource planLoad(const ArrayQueues &AQ, const ir::Offset &Off,
                    const ThreadMapping &T, bool Tile) {
  const ArrayAccessPlan &A = *AQ.Access;
  const unsigned M = T.MarchDim;
  LoadSource L;
  const ColumnQueue *Q = findQueue(A, Off, M);
  auto FromQueue = [&](const ColumnQueue *From) {
    LoadSource S;
    if (const int Queue = AQ.indexOf(From); Queue >= 0) {
      S.From = LoadSource::Kind::Queue;
      S.Queue = Queue;
      S.Slot = Off[M] - AQ.lo(Queue);
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
    const int Sibling = AQ.indexOf(findQueue(A, Moved, M));
    if (Sibling < 0)
      return Fallback;
    L = Fallback;
    L.From = LoadSource::Kind::Sibling;
    L.Dy = Dy;
    L.SiblingQueue = Sibling;
    L.SiblingSlot = Off[M] - AQ.lo(Sibling);
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
    const ArrayQueues AQ = queueRegisters(A, P.MarchDim, Tile, K.Queues);
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
