//===- TemporalPlan.h - Several time steps per pass ------------*- C++ -*-===//
///
/// \file
/// Whether a stencil can be temporally blocked, and how: a stencil whose
/// steps read one array (its previous time level) and write another of the
/// same type and rank, the two trading places between steps (Loop::repeat),
/// gets a CUDA kernel that advances T steps per pass. Each block owns a tile
/// of the plane below the marching dimension plus T times the one-step reach
/// around it (recomputed: overlapped tiles), marches a chunk of planes (rows
/// in 2-D), and keeps the pass's input and the T - 1 levels after it in
/// shared memory, one ring of planes per level; level l runs the reach of
/// the marching dimension and one plane behind level l - 1. The tile and the
/// chunk are launch parameters, T a template parameter the launcher dispatches
/// on (so the level loop unrolls); the plan fixes what the code needs: the time
/// pairs, each one's reach and ring depth, the most steps, the defaults. 2-D
/// f32 stars keep their levels' rows in registers instead, and meet once a
/// level (TemporalPlan::LevelBarrier).
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_PLANNING_TEMPORALPLAN_H
#define STENCILC_PLANNING_TEMPORALPLAN_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/IR/Stencil.h"
#include "stencilc/Planning/PlaneSums.h"
#include <array>
#include <string>
#include <vector>

namespace stencilc::planning {

/// The most steps one pass takes: a 2-D row ring is small, a 3-D level's
/// ring of planes is not (eight levels of 32 x 32 f32 planes, three deep,
/// already fill 96 KiB).
constexpr int maxTimeSteps(unsigned Dims) { return Dims == 2 ? 16 : 8; }
/// Reach per side beyond which no temporal kernel is planned: T steps
/// recompute T times the reach around each tile, so a wide stencil leaves a
/// tile of recomputation only.
constexpr long long MaxTemporalReach = 4;

/// The most threads a block of a pass has (one a point of its tile).
constexpr int MaxTileThreads = 1024;

/// A pass summed by planes (PlaneSumPassPrinter.cpp): zsum4's running sums
/// kept for every level, the input's planes staged in shared memory with the
/// reach around the tile, each level's completed plane written to one of two
/// planes in shared memory that the next level sums from after the next
/// barrier. A thread computes TemporalPlan::PlaneSumPoints points adjacent
/// in y, so a tile (bx, by) of points takes bx x by / that many threads. A
/// tile either shrinks, each level computed on it less what the next one
/// loses, or is bordered: all of it stored, the border each level below the
/// last adds around it (the points the next level reads) spread over the
/// threads, at most PlaneSumPassBorder points a thread and level. Every
/// level's margin is the input's there, so the runtime launches it only where
/// the two arrays hold the same margin (GeneratedTemporal::sameMargins);
/// elsewhere, and for tiles or steps it cannot take, the rings' pass runs.
/// The points a thread computes, but for 8-byte stars (PlaneSumStarPoints8).
constexpr int PlaneSumPassPoints = 4;
/// An 8-byte star's: four, each value two registers, spilled in every
/// instance of the f64 star's passes at 64 registers (docs/performance.md,
/// "The 3-D stars summed by planes").
constexpr int PlaneSumStarPoints8 = 2;
/// The most steps of an 8-byte star's: on an H200 its 2-step pass at two
/// points a thread ran 1.17 times as fast as the rings' best, its 3- and
/// 4-step ones 0.80 to 0.93 and 0.36 to 0.42 times the rings' (at 64
/// registers some instances spill; docs/performance.md, "The f64 star
/// summed by planes").
constexpr int PlaneSumStarMaxSteps8 = 2;
constexpr int PlaneSumPassStages = 3;
/// The most elements of a plane of the input a thread copies.
constexpr int PlaneSumPassCopies = 6;
/// The most points of a level's border a thread computes.
constexpr int PlaneSumPassBorder = 2;
/// What a point of a border costs against one of the tile's, which share
/// their loads four ways and meet no imbalance of warps: the launcher takes
/// bordered tiles where their blocks' points so weighed are fewer (measured
/// on an H200 from the box's 2-step passes at 510 and 768 points a side,
/// where both ways ran about as fast; docs/performance.md, "Bordered tiles").
constexpr double PlaneSumBorderWeight = 2.7;
/// The most threads of its block: two blocks an SM at 64 registers.
constexpr int PlaneSumPassThreads = 512;
/// The most steps it takes: each level keeps its running sums and the
/// centres its margin takes in registers (on an H200 at 64 registers, see
/// docs/performance.md, "The box's pass summed by planes").
constexpr int PlaneSumPassMaxSteps = 4;
/// The most planes above a point its terms read (the centres a level keeps).
constexpr int PlaneSumPassMostAbove = 4;

/// One way the stencil's arrays can trade places between steps: In is read
/// as the previous level, Out written as the next.
struct TimePair {
  unsigned In = 0;        ///< Index into Stencil::Params.
  unsigned Out = 0;       ///< Index into Stencil::Params.
  analysis::Halo Reach{}; ///< How far one step reads In.
  /// Planes (rows in 2-D) of each level's ring (and of its queue of
  /// registers): the marching reach, the plane itself, and the plane the
  /// level writes while the next reads the ones before it (one barrier a
  /// plane).
  unsigned RingDepth = 0;
  /// From this many steps a pass up, every level reads its own column of
  /// the level below from that level's ring, not from a queue of registers;
  /// in shorter passes only level 1 does (level 0's queue would cost a
  /// register a plane for a load a plane).
  int RingColumnsFrom = 0;
  /// Whether no read of In moves along both x and y: in 2-D, off the
  /// centre row only at the thread's own column, so the neighbours along x
  /// can come from one shared row (TemporalPlan::LevelBarrier).
  bool AlongRow = false;
  /// How many points of In one step reads (distinct offsets).
  unsigned Points = 0;
};

struct TemporalPlan {
  std::vector<TimePair> Pairs; ///< Empty: no temporal kernel.
  std::string WhyNot;          ///< Why, when Pairs is empty.
  int MaxSteps = 1;            ///< maxTimeSteps(Dims).
  /// What a pass launches untuned: steps, and (bx, by, chunk).
  int DefaultSteps = 1;
  int DefaultBlock[3] = {0, 0, 0};
  /// Tiles (bx, by) the kernel is also compiled for with constant extents,
  /// so that its ring offsets are immediates: the ones the tuner tries
  /// (GeneratedTemporal::tiles; the default tile, one twice as wide and half
  /// as high, in 3-D one twice as high of at most MaxTileThreads). Other
  /// tiles run the kernel with runtime extents. At most four.
  std::vector<std::array<int, 2>> ConstantTiles;
  /// Tiles (bx, by) of more points than a block of the rings' pass has
  /// threads, which only the pass summed by planes takes (several points a
  /// thread), tried by the tuner after ConstantTiles (GeneratedTemporal::tiles
  /// holds four in all); the rings' pass takes such a tile in halves. On an
  /// H200 the f32 star's 2-step pass summed by planes on 64 x 32 points ran
  /// 1.10 to 1.19 times as fast as on 32 x 32, the box's 3-step 1.08 times
  /// (docs/performance.md, "Tiles only the planes take").
  std::vector<std::array<int, 2>> PlanesOnlyTiles;
  /// Passes of up to this many steps are compiled to fit two blocks of 1024
  /// threads on an SM (32 registers a thread); longer ones may take 64.
  int TwoBlocksUpTo = 0;
  /// Longer passes are held to this many registers a thread (__maxnreg__,
  /// where nvcc has it); 0: to 64, what one block of 1024 threads an SM
  /// leaves.
  int RegistersAbove = 0;
  /// Whether every thread computes every level in the steady part (no
  /// branch a level; the values no point needs are never read), or only
  /// where a level is wanted (f64 passes, which spilled more at 32
  /// registers that way and were slower; integer ones, whose unneeded
  /// values could divide by zero).
  bool EveryThreadComputes = false;
  /// Whether the steady part is printed twice: for the blocks with a thread
  /// that holds the margin, and for the others with no branch a level for
  /// it (a branch ends what the compiler may interleave of the levels).
  bool InteriorSteadyPart = false;
  /// Whether a chunk whose every plane from its loop's first on is in the
  /// region starts the steady part there, not where every level is wanted:
  /// the levels computed before they are wanted read only values no wanted
  /// one reads, and the last level is stored from the chunk's first plane
  /// on. Needs EveryThreadComputes (the values no point needs are never a
  /// divisor's). Those checked planes cost more than the levels computed
  /// early only where a level is cheap (3-D stars of radius 1).
  bool SteadyFromChunkStart = false;
  /// Passes of up to this many steps are also compiled, for the tiles with
  /// constant extents, to take each level's margin in the steady part from
  /// the level below's centre (the thread's own column, which the body
  /// reads anyway) instead of from memory: right where the two arrays hold
  /// the same margin, which the launcher sees as its two margins being one
  /// array (GeneratedTemporal::sameMargins compares them before a time
  /// loop's passes). 3-D ring passes; 0: none.
  int CentreMarginUpTo = 0;
  /// With CentreMarginUpTo, in passes where a thread computes only the
  /// levels wanted (not EveryThreadComputes): the threads of the margin
  /// compute their levels too, then take the centre, so that no branch a
  /// level parts them from the others. Floating-point bodies reading no
  /// array but the time input (an off-array neighbour is never read).
  bool MarginThreadsCompute = false;
  /// The largest least dividend of the body's exact float divisions by
  /// constants (ir::ExactReciprocal::LeastDividend), below which a product
  /// may differ from the quotient: one test for them all. 0: no division
  /// checked so (none, or none whose split has a least dividend).
  float LeastDividend = 0;
  /// Whether the steady part's exact float divisions by constants take the
  /// product alone and check it once a plane: where one may differ from the
  /// quotient, every level of that plane is computed again with the
  /// division (a level's inputs are all from planes before it). In
  /// LevelBarrier passes: once a chunk, the whole chunk computed again.
  /// Only where a division's split has a least dividend; the others test
  /// where they divide.
  bool divisionsCheckedAPlane() const { return LeastDividend > 0; }
  /// 2-D f32 passes whose every pair reads its input off the centre row
  /// only along the row (a star along x): each level keeps the rows the
  /// next reads in a queue of registers, puts the row it reads into one of
  /// two shared rows for the neighbours along x and meets the block once a
  /// level, not once a row (LevelBarrierPassPrinter.cpp). The rings' flags
  /// above (EveryThreadComputes, InteriorSteadyPart) do not apply: a chunk
  /// whose tile and rows are all inside the region runs a copy with no
  /// test, every thread computing.
  bool LevelBarrier = false;
  /// The body's sum by planes where passes of 2 to PlaneSumMaxSteps steps
  /// may be summed by planes (PlaneSumPoints points a thread), for the time
  /// pair PlaneSumPair; PlaneSumPassWhyNot says why not otherwise.
  PlaneSums Sums;
  unsigned PlaneSumPair = 0;
  /// The points adjacent in y a thread of such a pass computes, and the
  /// most steps the launcher takes it for (the rings' pass beyond).
  int PlaneSumPoints = PlaneSumPassPoints;
  int PlaneSumMaxSteps = PlaneSumPassMaxSteps;
  /// The threads (x, y) of the tiles the pass summed by planes is also
  /// compiled for with constant extents, its planes' offsets immediates: the
  /// tuner's tiles (ConstantTiles, PlanesOnlyTiles) that it takes. On an H200 a probe of it
  /// (the substitution by hand) ran the box's 2-step pass on 32 x 32 points
  /// 1.11 times as fast, the 3-step 1.15
  /// (docs/performance.md, "Constant extents for the passes summed by
  /// planes"). Each is six more kernels to compile.
  std::vector<std::array<int, 2>> PlaneSumConstantThreads;
  std::string PlaneSumPassWhyNot = "not planned";
  bool summedByPlanes() const { return PlaneSumPassWhyNot.empty(); }
};

/// The temporal plan of \p S (2-D and 3-D stencils only); \p Sums: its
/// body's sum by planes (planPlaneSums), which passes may take.
TemporalPlan planTemporal(const ir::Stencil &S,
                          const analysis::StencilInfo &Info,
                          const PlaneSums &Sums);

} // namespace stencilc::planning

#endif // STENCILC_PLANNING_TEMPORALPLAN_H
