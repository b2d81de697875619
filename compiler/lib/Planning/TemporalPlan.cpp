//===- TemporalPlan.cpp - Several time steps per pass ---------------------===//
#include "stencilc/Planning/TemporalPlan.h"
#include "stencilc/IR/Stmt.h"
#include <algorithm>

using namespace stencilc;
using namespace stencilc::planning;

/// The widest reach of \p R on any side of the first \p Dims dimensions.
static long long widest(const analysis::Halo &R, unsigned Dims) {
  long long W = 0;
  for (unsigned D = 0; D < Dims; ++D)
    W = std::max({W, R[D].Lo, R[D].Hi});
  return W;
}

/// The steps a pass from which every level reads its own column from the
/// ring: where the queues of levels 1 .. steps - 1 would take more than 8
/// registers. On an H100 (docs/performance.md, "Own columns from the ring")
/// reading them all from the ring made the best f64 star 1.30 times and the
/// best 2-D 5-point 1.09 times as fast (passes of 3 and 9 steps), and the
/// best f32 star of 3 steps, whose queues fit in 8 registers, 0.95 times.
static int ringColumnsFrom(unsigned RingDepth, const ir::Type &Ty) {
  const unsigned WordsALevel = RingDepth * ((Ty.bytes() + 3) / 4);
  return static_cast<int>(8 / WordsALevel) + 2;
}

/// The largest least dividend of the body's float divisions by constants
/// as exact products (ir::BinaryExpr::Reciprocal); 0 where none has one.
static float largestLeastDividend(const ir::Stencil &S) {
  float Largest = 0;
  if (S.Body)
    ir::walkStmt(
        *S.Body, [](const ir::Stmt &) {},
        [&Largest](const ir::Expr &Top) {
          ir::walkExpr(Top, [&Largest](const ir::Expr &E) {
            if (const auto *B = llvm::dyn_cast<ir::BinaryExpr>(&E))
              if (B->Reciprocal)
                Largest = std::max(Largest, B->Reciprocal->LeastDividend);
          });
        });
  return Largest;
}

/// Defaults, before any tuning. Steps: one, so a time loop runs the
/// single-step code: on an H200 (docs/performance.md, "Time loops") the best
/// passes of AN5D's five stencils ran at 0.66 to 1.03 times the untuned
/// single step and below the tuned one; the tuner measures whether they pay
/// (tuning.md, "Time loops"). The tile and chunk a pass takes when
/// the program asks for more steps: the fastest measured there, a square of
/// 1024 threads with chunks of 64 planes in 3-D (32 x 16 and 128 in f64), a
/// row of 256 with chunks of 128 rows in 2-D; the tiles compiled with
/// constant extents.
static void chooseDefaults(TemporalPlan &P, const ir::Stencil &S,
                           const ir::Type &Ty) {
  const unsigned Bytes = Ty.bytes();
  P.DefaultSteps = 1;
  if (S.Dims == 3) {
    P.DefaultBlock[0] = 32;
    P.DefaultBlock[1] = Bytes > 4 ? 16 : 32;
    P.DefaultBlock[2] = Bytes > 4 ? 128 : 64;
  } else {
    P.DefaultBlock[0] = 256;
    P.DefaultBlock[1] = 1;
    P.DefaultBlock[2] = 128;
  }
  // On an H200 (docs/performance.md, "Time loops") the 32-register build
  // was faster at 2 and 3 steps for all five of AN5D's stencils (1.1 to 1.8
  // times), at 4 steps for the four f32 ones (1.05 to 1.33) but not the f64
  // star (0.7), and slower for all at 6 or more, where it spills the
  // levels' queues.
  P.TwoBlocksUpTo = Bytes > 4 ? 3 : 4;
  // On an H200 (docs/performance.md, "Steady parts without a branch a
  // level") j2d5pt's tuned pass (7 steps, 256 threads) was 1.06 times as
  // fast at 48 registers as at 64, 1.03 at 40 (which spilled).
  P.RegistersAbove = S.Dims == 2 ? 48 : 0;
  // On an H100 (docs/performance.md, "Time loops") every thread computing
  // made the best f32 passes 3 to 8% faster, and the best f64 star's 9%
  // slower (at 32 registers it spilled more). Floating point only: the
  // values no point needs are arbitrary, and an integer division by one
  // of them is undefined.
  P.EveryThreadComputes = Bytes <= 4 && Ty.isFloat();
  // On an H200 (docs/performance.md, "Steady parts without a branch a
  // level") both made j2d5pt's tuned pass 1.14 times as fast; the steady
  // part printed again made the 3-D f32 and f64 stars' passes 0.72 and 0.70
  // times as fast: with no branch between them the compiler interleaves
  // the levels, which at 32 registers spills (76 to 112 bytes).
  P.InteriorSteadyPart = S.Dims == 2;
  // On an H200 (docs/performance.md, "The steady part from a chunk's first
  // plane") the 3-D f32 star's 3-step pass ran 1.03 to 1.05 times as fast
  // this way, the box's and the radius-2 star's 0.95 to 0.99 times: a level
  // of 27 or 13 points computed early costs more than the checked plane.
  P.SteadyFromChunkStart =
      P.EveryThreadComputes && S.Dims == 3 &&
      std::all_of(P.Pairs.begin(), P.Pairs.end(),
                  [](const TimePair &T) { return T.Points <= 7; });
  P.LeastDividend = S.Dims == 2 ? largestLeastDividend(S) : 0;
  // On an H200 (docs/performance.md, "A barrier a level, 2-D, generated")
  // j2d5pt's 8-step pass ran 1.33 times as fast this way as with rings, the
  // tuned pass 1.19 times; measured for f32 only. Held to 40 registers (six
  // blocks of 256 threads an SM), as the hand-written probe's best pass.
  P.LevelBarrier = S.Dims == 2 && Ty.isFloat() && Bytes == 4 &&
                   std::all_of(P.Pairs.begin(), P.Pairs.end(),
                               [](const TimePair &T) { return T.AlongRow; });
  if (P.LevelBarrier)
    P.RegistersAbove = 40;
  // The tiles the tuner tries: the default, one twice as wide (and half as
  // high), and in 3-D one twice as high where it stays a block of at most
  // 1024 threads: on an H100 the f64 star's best pass (3 steps) ran at
  // 258.0 GCells/s on 32 x 32 against 247.2 on 32 x 16, which recomputes
  // more of its tile (docs/performance.md, "Tiles twice as high").
  const int Bx = P.DefaultBlock[0], By = P.DefaultBlock[1];
  P.ConstantTiles = {{Bx, By}};
  if (S.Dims == 2)
    P.ConstantTiles.push_back({2 * Bx, 1});
  else if (By >= 2)
    P.ConstantTiles.push_back({2 * Bx, By / 2});
  if (S.Dims == 3 && Bx * 2 * By <= MaxTileThreads)
    P.ConstantTiles.push_back({Bx, 2 * By});
}

/// Where a 3-D ring pass takes its margin from the level below's centre
/// (TemporalPlan::CentreMarginUpTo). On an H200 (docs/performance.md,
/// "The margin from the centre") a probe of the 3-step passes with the
/// margin's loads gone ran the f32 star 1.11 and the f64 star 1.09 times as
/// fast; compiled only for the passes that fit two blocks an SM, the
/// fastest, as each is a second kernel to compile.
static void planCentreMargins(TemporalPlan &P, const ir::Stencil &S,
                              const analysis::StencilInfo &Info,
                              const ir::Type &Ty) {
  if (S.Dims != 3 || P.LevelBarrier)
    return;
  P.CentreMarginUpTo = P.TwoBlocksUpTo;
  // A thread of the margin computing its levels reads only the rings,
  // never memory off the arrays, where the time input is all it reads.
  P.MarginThreadsCompute =
      !P.EveryThreadComputes && Ty.isFloat() && P.Pairs.size() == 1 &&
      std::all_of(Info.Arrays.begin(), Info.Arrays.end(),
                  [&](const analysis::ArrayInfo &A) {
                    return !A.Read || A.Param == P.Pairs.front().In;
                  });
}

/// Whether a pass of \p P may be summed by planes (TemporalPlan::Sums), or
/// why not: a 3-D floating-point sum by planes whose one array read is a
/// time pair's input (the levels between are sums of it), the point's own
/// column and plane among those its terms span and some other column too; a
/// star (no column off the centre read at two planes) only of radius 1, an
/// 8-byte one at two points a thread and for passes of 2 steps.
static std::string planeSumPassWhyNot(TemporalPlan &P, const ir::Stencil &S,
                                      const PlaneSums &Sums) {
  if (S.Dims != 3)
    return "only 3-D stencils";
  if (!Sums.applies())
    return "no sum by planes: " + Sums.WhyNot;
  if (!Sums.staged())
    return "its planes are not staged in shared memory: " + Sums.StagesWhyNot;
  if (!Sums.Ty.isFloat() || !S.Params[Sums.Out].Ty.isFloat())
    return "the sum or the array it stores is not floating-point";
  if (Sums.Footprints.size() != 1)
    return "it reads more than one array";
  const PlaneFootprint &F = Sums.Footprints.front();
  const auto Pair =
      std::find_if(P.Pairs.begin(), P.Pairs.end(), [&](const TimePair &T) {
        return T.In == F.Param && T.Out == Sums.Out;
      });
  if (Pair == P.Pairs.end())
    return "the array it reads is not the previous time level";
  if (Sums.Lo > 0 || Sums.Hi < 0 || F.X[0] > 0 || F.X[1] < 0 || F.Y[0] > 0 ||
      F.Y[1] < 0)
    return "its terms do not span the point's own plane, row and column";
  // The border's bands are the footprint's sides (PlaneSumPassPrinter.cpp).
  if (F.X[0] == 0 && F.X[1] == 0 && F.Y[0] == 0 && F.Y[1] == 0)
    return "it reads no column but the point's own";
  // A star's (no column off the centre read at two planes): on an H200
  // (docs/performance.md, "The 3-D stars summed by planes") the f32 star's
  // best pass summed by planes ran 1.13 times as fast as its rings', the f64
  // star's at four points a thread 0.4 to 0.7 times (every instance
  // spilled), the f32 star of radius 2's 3- and 4-step passes at 98 and 27
  // GCells/s (the rings' 189 and 144 at another chunk): taken for stars of
  // radius 1, 8-byte ones at two points a thread and two steps.
  const bool Wide = Sums.Ty.bytes() > 4 || S.Params[Sums.Out].Ty.bytes() > 4;
  if (!Sums.OffCentreColumns && (Sums.Lo < -1 || Sums.Hi > 1 || F.X[0] < -1 ||
                                 F.X[1] > 1 || F.Y[0] < -1 || F.Y[1] > 1))
    return "a star (no column off the centre read at two planes) reaching "
           "further than 1: only radius 1 was measured faster so";
  if (Sums.Hi > PlaneSumPassMostAbove)
    return "its terms read more than " + std::to_string(PlaneSumPassMostAbove) +
           " planes above the point";
  P.PlaneSumPair = static_cast<unsigned>(Pair - P.Pairs.begin());
  P.Sums = Sums;
  if (!Sums.OffCentreColumns && Wide) {
    P.PlaneSumPoints = PlaneSumStarPoints8;
    P.PlaneSumMaxSteps = PlaneSumStarMaxSteps8;
  }
  auto Takes = [&](int Bx, int By) {
    return By % P.PlaneSumPoints == 0 &&
           Bx * (By / P.PlaneSumPoints) <= PlaneSumPassThreads;
  };
  // The default tile twice as wide, where only this pass takes it.
  const int TwiceX = 2 * P.DefaultBlock[0], Y = P.DefaultBlock[1];
  if (TwiceX * Y > MaxTileThreads && Takes(TwiceX, Y) &&
      P.ConstantTiles.size() < 4)
    P.PlanesOnlyTiles.push_back({TwiceX, Y});
  for (const auto &Tiles : {P.ConstantTiles, P.PlanesOnlyTiles})
    for (const auto &[Bx, By] : Tiles)
      if (Takes(Bx, By))
        P.PlaneSumConstantThreads.push_back({Bx, By / P.PlaneSumPoints});
  return "";
}

TemporalPlan planning::planTemporal(const ir::Stencil &S,
                                    const analysis::StencilInfo &Info,
                                    const PlaneSums &Sums) {
  TemporalPlan P;
  if (S.Dims != 2 && S.Dims != 3) {
    P.WhyNot = "only 2-D and 3-D stencils";
    return P;
  }
  const analysis::ArrayInfo *Out = nullptr;
  for (const analysis::ArrayInfo &A : Info.Arrays) {
    if (!A.Written)
      continue;
    if (Out) {
      P.WhyNot = "it writes more than one array";
      return P;
    }
    Out = &A;
  }
  if (!Out) {
    P.WhyNot = "it writes no array";
    return P;
  }
  const ir::Param &OutParam = S.Params[Out->Param];
  if (Out->Read) {
    P.WhyNot = "it reads the array it writes ('" + OutParam.Name + "')";
    return P;
  }
  if (!ir::storesOnEveryPath(S, Out->Param)) {
    // A point the body leaves alone keeps what the array held two levels
    // before, which a pass does not keep.
    P.WhyNot = "it does not store '" + OutParam.Name + "' on every path";
    return P;
  }
  if (ir::isLowerRank(OutParam, S.Dims)) {
    P.WhyNot = "the array it writes has a lower rank";
    return P;
  }
  for (const analysis::ArrayInfo &A : Info.Arrays) {
    const ir::Param &In = S.Params[A.Param];
    if (!A.Read || A.Written || In.Ty != OutParam.Ty ||
        ir::isLowerRank(In, S.Dims))
      continue;
    const long long W = widest(A.Halo, S.Dims);
    if (W > MaxTemporalReach)
      continue;
    TimePair T;
    T.In = A.Param;
    T.Out = Out->Param;
    T.Reach = A.Halo;
    const unsigned M = S.Dims - 1;
    T.RingDepth = static_cast<unsigned>(A.Halo[M].Lo + A.Halo[M].Hi + 2);
    T.RingColumnsFrom = ringColumnsFrom(T.RingDepth, OutParam.Ty);
    T.AlongRow = std::none_of(
        A.ReadOffsets.begin(), A.ReadOffsets.end(),
        [](const ir::Offset &O) { return O[0] != 0 && O[1] != 0; });
    T.Points = static_cast<unsigned>(A.ReadOffsets.size());
    P.Pairs.push_back(T);
  }
  if (P.Pairs.empty()) {
    P.WhyNot = "no array of the written one's type and rank is read within " +
               std::to_string(MaxTemporalReach) + " points";
    return P;
  }
  P.MaxSteps = maxTimeSteps(S.Dims);
  chooseDefaults(P, S, OutParam.Ty);
  planCentreMargins(P, S, Info, OutParam.Ty);
  P.PlaneSumPassWhyNot = planeSumPassWhyNot(P, S, Sums);
  return P;
}
