//===- Plan.cpp - The Planning stage --------------------------------------===//
#include "stencilc/Planning/Plan.h"
#include "stencilc/Planning/KernelPlan.h"
#include <algorithm>
#include <cassert>

using namespace stencilc;
using namespace stencilc::planning;

const char *planning::variantName(VariantKind V) {
  switch (V) {
  case VariantKind::Grid:
    return "grid";
  case VariantKind::ZMarch:
    return "zmarch";
  case VariantKind::Smem:
    return "smem";
  case VariantKind::ZMarch2:
    return "zmarch2";
  case VariantKind::ZSum:
    return "zsum";
  case VariantKind::ZSum4:
    return "zsum4";
  }
  return "grid";
}

bool planning::isMarching(VariantKind V) { return V != VariantKind::Grid; }

unsigned planning::pointsPerThread(VariantKind V) {
  if (V == VariantKind::ZSum4)
    return 4;
  return V == VariantKind::ZMarch2 || V == VariantKind::ZSum ? 2 : 1;
}

const ArrayAccessPlan *planning::findArrayPlan(const MarchPlan &P,
                                               unsigned Param) {
  for (const ArrayAccessPlan &A : P.Arrays)
    if (A.Param == Param)
      return &A;
  return nullptr;
}

const ColumnQueue *planning::findQueue(const ArrayAccessPlan &A,
                                       const ir::Offset &Off,
                                       unsigned MarchDim) {
  for (const ColumnQueue &Q : A.Queues) {
    bool Same = true;
    for (unsigned D = 0; D < MarchDim; ++D)
      Same &= Q.Plane[D] == Off[D];
    if (Same && Q.Lo <= Off[MarchDim] && Off[MarchDim] <= Q.Hi)
      return &Q;
  }
  return nullptr;
}

const ColumnQueue *planning::centreQueue(const ArrayAccessPlan &A) {
  for (const ColumnQueue &Q : A.Queues)
    if (Q.Plane[0] == 0 && Q.Plane[1] == 0)
      return &Q;
  return nullptr;
}

/// True if \p Off is zero in every dimension of the plane (below \p March).
static bool inColumn(const ir::Offset &Off, unsigned March) {
  for (unsigned D = 0; D < March; ++D)
    if (Off[D] != 0)
      return false;
  return true;
}

/// Decides, per array read, where a marching variant takes its loads from.
/// Arrays the stencil also writes are read from memory as written: a
/// register or tile copy would miss the body's own stores. Spans and halos
/// are computed in 64 bits (an offset may be INT_MIN); \p Fits says whether
/// every queue and the tile stay within MaxQueueLength and MaxTileHalo.
static MarchPlan planMarch(const ir::Stencil &S,
                           const analysis::StencilInfo &Info,
                           MarchLimits &Fits) {
  MarchPlan P;
  long long TileHalo[2][2] = {{0, 0}, {0, 0}};
  P.MarchDim = S.Dims - 1;
  for (const analysis::ArrayInfo &A : Info.Arrays) {
    if (!A.Read)
      continue;
    ArrayAccessPlan AP;
    AP.Param = A.Param;
    const ir::Param &Param = S.Params[A.Param];
    const bool OnlyRead = !A.Written;
    AP.ReadOnlyPath =
        OnlyRead && Param.ReadOnly && Param.Ty.kind() != ir::ScalarKind::Bool;
    // The tile stages planes of arrays of every dimension only.
    const bool Tileable = !ir::isLowerRank(Param, S.Dims);
    if (!((ir::arrayAxes(Param, S.Dims) >> P.MarchDim) & 1)) {
      AP.Invariant = true;
    } else if (OnlyRead) {
      // Columns in order of first appearance, the centre first.
      std::vector<ColumnQueue> Columns(1);
      bool CentreRead = false;
      std::vector<int> Count(1, 0);
      for (const ir::Offset &Off : A.ReadOffsets) {
        size_t C = 0;
        while (C < Columns.size() &&
               !(Columns[C].Plane[0] == Off[0] &&
                 (P.MarchDim < 2 || Columns[C].Plane[1] == Off[1])))
          ++C;
        const int Dz = Off[P.MarchDim];
        if (C == Columns.size()) {
          ColumnQueue Q;
          Q.Plane[0] = Off[0];
          Q.Plane[1] = P.MarchDim == 2 ? Off[1] : 0;
          Q.Lo = Q.Hi = Dz;
          Columns.push_back(Q);
          Count.push_back(1);
        } else {
          const bool Fresh = C == 0 && !CentreRead;
          Columns[C].Lo = Fresh ? Dz : std::min(Columns[C].Lo, Dz);
          Columns[C].Hi = Fresh ? Dz : std::max(Columns[C].Hi, Dz);
          ++Count[C];
        }
        CentreRead |= C == 0;
        if (Tileable && !inColumn(Off, P.MarchDim) && Off[P.MarchDim] == 0) {
          AP.Tiled = true;
          for (unsigned D = 0; D < P.MarchDim; ++D) {
            TileHalo[D][0] = std::max(TileHalo[D][0], -(long long)Off[D]);
            TileHalo[D][1] = std::max(TileHalo[D][1], (long long)Off[D]);
          }
        }
      }
      // The centre column always (its registers also fill the tile and
      // serve the neighbouring points of zmarch2); another column only
      // when it is read at several marching offsets, else a queue would
      // just rename one load.
      for (size_t C = 0; C < Columns.size(); ++C)
        if (C == 0 ? CentreRead : Count[C] > 1) {
          const ColumnQueue &Q = Columns[C];
          if ((long long)Q.Hi - Q.Lo + 1 > MaxQueueLength)
            Fits.Queues = false;
          AP.Queues.push_back(Q);
        }
    }
    P.Arrays.push_back(AP);
  }
  for (unsigned D = 0; D < 2; ++D) {
    if (TileHalo[D][0] > MaxTileHalo || TileHalo[D][1] > MaxTileHalo) {
      Fits.Tile = false;
      continue;
    }
    P.TileHalo[D].Lo = static_cast<int>(TileHalo[D][0]);
    P.TileHalo[D].Hi = static_cast<int>(TileHalo[D][1]);
  }
  return P;
}

/// Whether zsum4's stages fit every block a default of (\p Bx, \p By) may
/// become where the runtime narrows it to a region (default_launch.hpp: as
/// many threads, 16 wide at the least, rows from By up; narrower regions
/// run the grid variant): 48 KiB of shared memory, the copies a thread may
/// make.
static bool stagesFitDefault(const StencilPlan &SP, long long Bx,
                             long long By) {
  const KernelPlan K = planKernel(SP, VariantKind::ZSum4);
  const long long Blocks[][2] = {{Bx, By}, {16, By}, {16, Bx * By / 16}};
  return std::all_of(std::begin(Blocks), std::end(Blocks), [&](auto &B) {
    return stageBytes(K.Sums, *SP.Stencil, K.Stages, K.Threads.Points, B[0],
                      B[1]) <= MaxStageBytes &&
           stageCopies(K.Sums, K.Threads.Points, B[0], B[1]) <=
               static_cast<long long>(K.Copies);
  });
}

/// The cost model's pick for launching without tuning, from what won on an
/// H100 in a sweep of variants, blocks and chunks (docs/performance.md):
/// - zsum4 at (256,2) with chunk 32 where the body is a sum by planes of
///   4-byte arrays whose stages fit (stagesFitDefault): on an H200 the
///   27-point box ran at 377.1 GCells/s there, zsum's best at 324.0
///   (docs/performance.md, "Planes staged in shared memory: zsum4");
/// - zsum4 at (128,2) with chunk 8 for 8-byte arrays whose stages fit: the
///   f64 box ran at 226.9 there, zsum's best at 202.0 and its default at
///   200.6 (chunk 32: 206.0);
/// - zsum at (128,4) with chunk 8 for other sums by planes: on an H200 the
///   27-point box ran there at 324.7 GCells/s, zmarch's default at 279.9
///   (docs/performance.md, "Running sums by plane");
/// - zmarch at (64,4) with chunk 16 where the queues are long (radius 3 and
///   more) or many (a box's off-centre columns), whose registers zmarch2
///   would double;
/// - zmarch at (128,4) with chunk 8 for 8-byte elements: zmarch2's twice the
///   registers cost more than its shared loads save once a plane no longer
///   fits in the L2 cache (star7 f64 at 1024x1024: 0.86 of the best with
///   zmarch2, 0.96 with this);
/// - zmarch2 at (128,2) for other narrow stars, with a chunk of twice the
///   marching radius (2 for radius 1, 4 for radius 2): short chunks keep
///   more threads in flight, and their warm-up loads hit the L2 cache;
/// - in 2-D zmarch2 at (256,1) with chunk 4; else the grid variant.
static DefaultLaunch chooseDefault(const StencilPlan &SP) {
  auto Has = [&SP](VariantKind V) {
    return std::find(SP.Variants.begin(), SP.Variants.end(), V) !=
           SP.Variants.end();
  };
  auto Make = [](VariantKind V, int X, int Y, int Z) {
    DefaultLaunch D;
    D.Variant = V;
    D.Block[0] = X;
    D.Block[1] = Y;
    D.Block[2] = Z;
    return D;
  };
  const ir::Stencil &S = *SP.Stencil;
  if (!Has(VariantKind::ZMarch) || !Has(VariantKind::ZMarch2))
    return S.Dims == 2 || S.Dims == 3 ? Make(VariantKind::Grid, 128, 2, 1)
                                      : DefaultLaunch();
  if (S.Dims == 2)
    return Make(VariantKind::ZMarch2, 256, 1, 4);
  // The copied arrays' element size, where they share one.
  unsigned Copied = 0;
  for (const PlaneFootprint &F : SP.March.Sums.Footprints) {
    const unsigned Bytes = S.Params[F.Param].Ty.bytes();
    Copied = Copied == 0 || Copied == Bytes ? Bytes : ~0u;
  }
  if (Has(VariantKind::ZSum4) && Copied == 4 && stagesFitDefault(SP, 256, 2))
    return Make(VariantKind::ZSum4, 256, 2, 32);
  if (Has(VariantKind::ZSum4) && Copied == 8 && stagesFitDefault(SP, 128, 2))
    return Make(VariantKind::ZSum4, 128, 2, 8);
  if (Has(VariantKind::ZSum))
    return Make(VariantKind::ZSum, 128, 4, 8);
  long long Longest = 0;
  size_t Columns = 0;
  unsigned Bytes = 0;
  for (const ArrayAccessPlan &A : SP.March.Arrays) {
    Columns = std::max(Columns, A.Queues.size());
    for (const ColumnQueue &Q : A.Queues)
      Longest = std::max(Longest, (long long)Q.Hi - Q.Lo + 1);
    Bytes = std::max(Bytes, S.Params[A.Param].Ty.bytes());
  }
  if (Longest > 5 || Columns > 1)
    return Make(VariantKind::ZMarch, 64, 4, 16);
  if (Bytes > 4)
    return Make(VariantKind::ZMarch, 128, 4, 8);
  // Longest is at most 5 here: a chunk of 2 or 4.
  return Make(VariantKind::ZMarch2, 128, 2, Longest > 3 ? 4 : 2);
}

/// The OpenMP loop nest's blocking (see CpuLoopPlan). Spans are capped so
/// that hostile offsets (up to 2^20 each way) cannot overflow the sums.
static CpuLoopPlan planCpuLoops(const ir::Stencil &S,
                                const analysis::StencilInfo &Info) {
  CpuLoopPlan P;
  for (const analysis::ArrayInfo &A : Info.Arrays)
    for (const ir::Offset &Off : A.ReadOffsets)
      if (A.Written && Off[0] != 0 &&
          std::all_of(Off.begin() + 1, Off.end(), [](int O) { return O == 0; }))
        P.SimdRows = false;
  P.Blocked = S.Dims >= 3;
  if (!P.Blocked)
    return P;
  constexpr long long MaxSpan = 1LL << 22;
  for (const analysis::ArrayInfo &A : Info.Arrays) {
    const long long Bytes = S.Params[A.Param].Ty.bytes();
    // A profile or surface field adds a few elements per row, not a row.
    if (ir::isLowerRank(S.Params[A.Param], S.Dims))
      continue;
    if (A.Read)
      P.RowBytesPerPoint +=
          Bytes * std::min(MaxSpan, A.Halo[2].Lo + A.Halo[2].Hi + 1);
    if (A.Written)
      P.RowBytesPerPoint += Bytes;
  }
  P.HaloY = std::min(MaxSpan, Info.Halo[1].Lo + Info.Halo[1].Hi);
  P.HaloZ = std::min(MaxSpan, Info.Halo[2].Lo + Info.Halo[2].Hi);
  return P;
}

ModulePlan
planning::planModule(const ir::Module &M,
                     const std::vector<analysis::StencilInfo> &Infos) {
  assert(Infos.size() == M.Stencils.size() && "one analysis per stencil");
  ModulePlan Plan;
  Plan.Module = &M;
  for (size_t I = 0; I < M.Stencils.size(); ++I) {
    StencilPlan SP{&M.Stencils[I], &Infos[I], {VariantKind::Grid}, {}};
    const ir::Stencil &S = M.Stencils[I];
    MarchLimits Fits;
    MarchPlan March;
    if (S.Dims == 2 || S.Dims == 3)
      March = planMarch(S, Infos[I], Fits);
    // A queue as long as the marching offsets are far apart would print one
    // register per slot: beyond the bound only the grid variant is emitted,
    // so the generated code stays linear in the size of the stencil.
    if ((S.Dims == 2 || S.Dims == 3) && Fits.Queues) {
      SP.March = std::move(March);
      SP.Variants.push_back(VariantKind::ZMarch);
      // Two points per thread: twice the independent loads in flight, and in
      // 3-D the loads the two points share are made once (the tuner decides
      // whether that beats the lower occupancy).
      SP.Variants.push_back(VariantKind::ZMarch2);
      bool AnyTiled =
          std::any_of(SP.March.Arrays.begin(), SP.March.Arrays.end(),
                      [](const ArrayAccessPlan &A) { return A.Tiled; });
      // Without in-plane neighbours the tile would only copy the centre.
      if (AnyTiled && Fits.Tile)
        SP.Variants.push_back(VariantKind::Smem);
      // A running sum a plane in place of a queue a column: on an H200 the
      // box ran 1.16 times as fast so as zmarch (docs/performance.md,
      // "Plane partial sums for the box"); the tuner decides.
      SP.March.Sums = planPlaneSums(S, SP.March);
      // The same sums from planes staged in shared memory: the loads of
      // several planes in flight without their registers (the box 1.21
      // times as fast as zsum in a probe, docs/performance.md).
      if (SP.March.Sums.replacesQueues())
        SP.Variants.push_back(VariantKind::ZSum);
      if (SP.March.Sums.replacesQueues() && SP.March.Sums.staged()) {
        // Footprints so wide that no block's copies fit: none.
        const KernelPlan K = planKernel(SP, VariantKind::ZSum4);
        if (stageBytes(K.Sums, S, K.Stages, K.Threads.Points,
                       SmallestStagedBlock[0],
                       SmallestStagedBlock[1]) > MaxStageBytes)
          SP.March.Sums.StagesWhyNot = "its copies of a plane take more than " +
                                       std::to_string(MaxStageBytes / 1024) +
                                       " KiB of shared memory for a block of " +
                                       std::to_string(SmallestStagedBlock[0]) +
                                       " x " +
                                       std::to_string(SmallestStagedBlock[1]);
        else
          SP.Variants.push_back(VariantKind::ZSum4);
      }
    } else if (S.Dims == 2 || S.Dims == 3) {
      // No plan along z, so none of its sums (planTemporal asks).
      SP.March.Sums.WhyNot = "no plan marching along z: a queue would span "
                             "more than " +
                             std::to_string(MaxQueueLength) + " planes";
    }
    SP.Default = chooseDefault(SP);
    SP.Cpu = planCpuLoops(S, Infos[I]);
    if (S.TimeLoop)
      SP.Temporal = planTemporal(S, Infos[I], SP.March.Sums);
    Plan.Stencils.push_back(std::move(SP));
  }
  return Plan;
}
