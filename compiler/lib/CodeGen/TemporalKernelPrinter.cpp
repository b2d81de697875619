//===- TemporalKernelPrinter.cpp - Passes of several time steps -----------===//
///
/// \file
/// The CUDA code of a stencil's temporal plan (Planning/TemporalPlan.h), one
/// set per time pair: a kernel template over the steps of a pass, a launcher
/// with the runtime's GeneratedTemporalFn signature that dispatches on the
/// steps, a query, and the GeneratedTemporal registration.
///
/// A block of (bx, by) threads (3-D; (bx, 1) in 2-D) covers a tile of the
/// plane below the marching dimension M, its useful points plus STEPS times
/// the reach on every side, and marches a chunk of M; the useful points and
/// the chunks cover the store region (stencilc_store), inside the region r
/// where the levels are computed (a rank's interior, or a boundary slab,
/// computed over a wider region while the halo is exchanged). Per plane p of
/// the pass's input (level 0, from memory) every level l runs the reach of M
/// behind level l - 1, at plane p - l * (reach_hi(M) + 1), reading level l - 1
/// from its ring in shared memory (its own column from a queue of registers
/// in short passes: TimePair::RingColumnsFrom); a point outside the region
/// takes level l's
/// margin value (the array that holds level l when the steps run one at a
/// time). Level STEPS goes to memory at the tile's useful points of the
/// chunk, those in the store region. Each level reads only planes written
/// before the barrier that ends every plane p: the one barrier a plane.
///
/// Most of a pass's instructions were its checks and ring arithmetic (an
/// H200's profile: issue-bound at 3.5 instructions a cycle), so: the next
/// plane of the input is loaded while the levels compute; where every level
/// works inside the chunk and the region (the steady part), ring-depth
/// planes are unrolled from ring slot 0, so slots and queue registers are
/// constants and only the column's tests remain (in f32 not even a test a
/// level: TemporalPlan::EveryThreadComputes); the tiles the tuner tries
/// are template instances with constant extents (TemporalPlan::
/// ConstantTiles), which make the ring offsets immediates; plane positions
/// are kept by adding; and short passes are compiled for two blocks of 1024
/// threads an SM (TemporalPlan::TwoBlocksUpTo). Where the plan says so the
/// steady part has no branch a level: a copy of it for the blocks with no
/// point of the margin (TemporalPlan::InteriorSteadyPart), and exact
/// divisions as products checked once a plane (TemporalPlan::
/// divisionsCheckedAPlane).
///
/// Passes planned with TemporalPlan::LevelBarrier (2-D f32 stars) share the
/// kernel's head, launcher, query and registration; their body and chunk
/// function come from LevelBarrierPassPrinter.cpp.
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/CudaKernels.h"
#include "stencilc/CodeGen/RegistrationGlue.h"

using namespace stencilc;
using namespace stencilc::codegen;
using namespace stencilc::codegen::cuda;
using planning::TemporalPlan;
using planning::TimePair;

namespace {

/// The names the kernel defines around the body.
constexpr const char *Ring = "stencilc_ring";   // level l - 1's ring
constexpr const char *Value = "stencilc_value"; // the body's store
constexpr const char *Cell = "stencilc_cell";   // this thread's in the plane

/// The ring slot of the plane \p Off planes from level l's (its slot is
/// stencilc_sk): |Off| is below the ring's depth \p Depth.
std::string slot(long long Off, unsigned Depth) {
  if (Off == 0)
    return "stencilc_sk";
  return fmt::format("((stencilc_sk + {}) % {})", Off + Depth, Depth);
}

/// "+ 2", "- 1", or nothing for 0.
std::string signedTerm(long long V, const std::string &Unit = "") {
  if (V == 0)
    return "";
  return fmt::format(" {} {}{}", V < 0 ? '-' : '+', V < 0 ? -V : V, Unit);
}

/// Where a level's work at one plane is printed: in the checked loop (any
/// plane of the pass; the ring slot and the queues move at run time) or in
/// the steady part (every level inside the chunk and the region), where
/// Depth planes are unrolled and plane U of them knows its ring slots and
/// its queue registers.
struct PlaneMode {
  bool Steady = false;
  unsigned U = 0; ///< The plane within the unrolled group (steady only).
  /// Steady only: every thread computes every level
  /// (TemporalPlan::EveryThreadComputes).
  bool EveryThread = false;
  /// Steady only: no thread of the block holds the margin
  /// (TemporalPlan::InteriorSteadyPart).
  bool Interior = false;
  /// Steady only: exact divisions take the product and lower
  /// stencilc_smallest (TemporalPlan::divisionsCheckedAPlane), tested
  /// against LeastDividend (TemporalPlan::LeastDividend).
  bool ProductsOnly = false;
  float LeastDividend = 0;
  /// Steady only: the steady part may start before the chunk's first plane
  /// (TemporalPlan::SteadyFromChunkStart), so the last level is stored only
  /// from there on.
  bool BeforeChunk = false;
  /// Steady only: the kernel's CENTRE_MARGIN chooses where a level's margin
  /// comes from (TemporalPlan::CentreMarginUpTo); with MarginComputes the
  /// threads of the margin compute the level first
  /// (TemporalPlan::MarginThreadsCompute).
  bool CentreMargin = false;
  bool MarginComputes = false;
};

/// Loads of the pair's input from level l - 1's ring; the rest from memory.
class RingLoads : public DeviceHooks {
public:
  RingLoads(const TimePair &P, unsigned Dims, PlaneMode Mode)
      : P(P), Dims(Dims), Mode(Mode) {}
  std::string printLoad(unsigned Param, const ir::Offset &Off,
                        const std::string &Memory) const override {
    // Where every thread computes, one that does not need level l (off the
    // arrays, too near the tile's edge) must not read memory: at an offset,
    // or off the arrays, the address may be outside them.
    if (Param != P.In)
      return Mode.EveryThread
                 ? fmt::format("(stencilc_l <= stencilc_work ? {} : 0)", Memory)
                 : Memory;
    const unsigned M = Dims - 1;
    std::string Index = fmt::format("{} * stencilc_plane + {}",
                                    slot(Off[M], P.RingDepth), Cell);
    // The thread's own column: level l - 1's queue of registers, which has
    // taken this plane's value already, or its ring (TimePair::
    // RingColumnsFrom: level 0's always, every level's in long passes).
    if (Off[0] == 0 && (M == 1 || Off[1] == 0))
      return fmt::format("(stencilc_l == 1 || STEPS >= {} ? {}[{}] : "
                         "stencilc_q[stencilc_l - 1][{}])",
                         P.RingColumnsFrom, Ring, Index,
                         queueSlot(P.Reach[M].Lo + Off[M]));
    Index += signedTerm(Off[0]);
    if (M == 2)
      Index += signedTerm(Off[1], " * stencilc_bx");
    return fmt::format("{}[{}]", Ring, Index);
  }
  std::string storeTarget(unsigned Param,
                          const std::string &Memory) const override {
    return Param == P.Out ? Value : Memory;
  }
  std::string smallestDividend() const override {
    return Mode.ProductsOnly ? "stencilc_smallest" : "";
  }

private:
  /// The register of the queue's entry \p Age (0: its oldest plane): the
  /// checked loop shifts its queues, the steady part rotates them.
  long long queueSlot(long long Age) const {
    return Mode.Steady ? (Age + Mode.U + 1) % P.RingDepth : Age;
  }

  const TimePair &P;
  unsigned Dims;
  PlaneMode Mode;
};

/// Level \p Level's queue takes stencilc_v as its newest plane: shifted in
/// the checked loop, in the register of the oldest in the steady part.
void printQueuePush(CodeWriter &W, const std::string &Level, unsigned Depth,
                    PlaneMode Mode) {
  if (Mode.Steady) {
    W.line("stencilc_q[{}][{}] = stencilc_v;", Level, Mode.U);
    return;
  }
  for (unsigned D = 0; D + 1 < Depth; ++D)
    W.line("stencilc_q[{0}][{1}] = stencilc_q[{0}][{2}];", Level, D, D + 1);
  W.line("stencilc_q[{}][{}] = stencilc_v;", Level, Depth - 1);
}

std::string kernelOf(const std::string &Symbol, unsigned Pair) {
  return fmt::format("stencilc_{}_temporal{}", Symbol, Pair);
}

/// "i >= lo && i < hi" over the in-plane dimensions, lo and hi from \p Lo and
/// \p Hi per dimension.
template <typename LoF, typename HiF>
std::string inPlane(unsigned M, LoF Lo, HiF Hi) {
  std::string Out;
  for (unsigned D = 0; D < M; ++D)
    Out += fmt::format("{0}{1} >= {2} && {1} < {3}", D ? " && " : "",
                       Positions[D], Lo(D), Hi(D));
  return Out;
}

/// Defines stencilc_deepest, the last level this thread of the tile
/// computes: level l needs l times the reach inside each edge.
void printDeepest(CodeWriter &W, const TimePair &P, unsigned M) {
  static const char *const Thread[] = {"stencilc_tx", "stencilc_ty"};
  static const char *const Extent[] = {"stencilc_bx", "stencilc_by"};
  W.line("int stencilc_deepest = STEPS;");
  for (unsigned D = 0; D < M; ++D) {
    if (P.Reach[D].Lo > 0)
      W.line("stencilc_deepest = min(stencilc_deepest, {} / {});", Thread[D],
             P.Reach[D].Lo);
    if (P.Reach[D].Hi > 0)
      W.line("stencilc_deepest = min(stencilc_deepest, ({} - 1 - {}) / {});",
             Extent[D], Thread[D], P.Reach[D].Hi);
  }
}

/// What every level does at one plane of the input: level 0 loads it,
/// level l computes the plane l lags behind. The checked loop tests every
/// plane against the array, the region and the part of the chunk a level
/// is wanted on; the steady part needs only the column's tests.
class PlanePrinter {
public:
  PlanePrinter(const ir::Stencil &S, const TimePair &P, int MaxSteps)
      : S(S), P(P), MaxSteps(MaxSteps), Names(S), M(S.Dims - 1),
        Ty(elementType(S.Params[P.Out])), Stride(M == 2 ? "sz" : "sy"),
        Centre(fmt::format("stencilc_c0 - static_cast<long long>(stencilc_l "
                           "* {}) * {}",
                           lag(), Stride)) {}

  /// Planes are one more than the marching reach apart between levels.
  long long lag() const { return P.Reach[M].Hi + 1; }
  /// The distance of two planes in memory.
  const char *stride() const { return Stride; }

  void print(CodeWriter &W, PlaneMode Mode) const {
    const std::string Plane =
        Mode.Steady ? fmt::format("stencilc_p + {}", Mode.U) : "stencilc_p";
    W.open("{ // level 0: the pass's input, or its margin");
    W.line("const int stencilc_k = {};", Plane);
    W.line("{} stencilc_v = stencilc_in;", Ty);
    // One load in flight a thread moves about half the copy bandwidth at a
    // full SM (the 2-D pass waited on it): two planes ahead, two.
    W.line("// The next two planes' loads are under way while the levels "
           "compute.");
    W.line("stencilc_in = stencilc_in2;");
    W.line("stencilc_in2 = stencilc_input(stencilc_k + 2, stencilc_c0 + 2 * "
           "{});",
           Stride);
    // Off the arrays the steady part stores the zero it loaded: no point
    // inside the region reads it.
    if (!Mode.Steady)
      W.line("if (stencilc_k >= 0 && stencilc_k < stencilc_planes)");
    W.line("{}stencilc_rings[{} * stencilc_plane + {}] = stencilc_v;",
           Mode.Steady ? "" : "  ",
           Mode.Steady ? std::to_string(Mode.U) : "stencilc_s", Cell);
    W.close();
    if (Mode.ProductsOnly) {
      W.open("{");
      printSmallestDividend(W);
      printLevels(W, Plane, Mode);
      W.line("// Where a product may not be the quotient: every level again, "
             "with the division.");
      W.open(fmt::format("if ({}) {{", dividendsMayDiffer(Mode.LeastDividend)));
      PlaneMode Exact = Mode;
      Exact.ProductsOnly = false;
      printLevels(W, Plane, Exact);
      W.close();
      W.close();
    } else {
      printLevels(W, Plane, Mode);
    }
    W.line("__syncthreads();");
    W.line("stencilc_c0 += {};", Stride);
  }

private:
  void printLevels(CodeWriter &W, const std::string &Plane,
                   PlaneMode Mode) const {
    const long long Lag = lag();
    const unsigned Depth = P.RingDepth;
    W.line("#pragma unroll");
    W.open("for (int stencilc_l = 1; stencilc_l <= STEPS; ++stencilc_l) {");
    W.line("const int stencilc_k = {} - stencilc_l * {};", Plane, Lag);
    // Positive before the remainder: a constant once the levels unroll in
    // the steady part.
    W.line("const int stencilc_sk = ({} + {} - stencilc_l * {}) % {};",
           Mode.Steady ? std::to_string(Mode.U) : "stencilc_s",
           static_cast<long long>(Depth) * (MaxSteps * Lag / Depth + 1), Lag,
           Depth);
    W.line("{} stencilc_v = {};", Ty, zeroOf(Ty));
    if (Mode.Steady)
      printSteadyLevel(W, Mode);
    else
      printCheckedLevel(W);
    W.line("if (stencilc_l < STEPS)");
    W.open("{");
    printQueuePush(W, "stencilc_l", Depth, Mode);
    W.close();
    W.close();
  }

  /// Level l at a plane inside the chunk and the region. With
  /// TemporalPlan::EveryThreadComputes every thread computes it, with no
  /// branch a level: where level l is not wanted (too near the tile's edge,
  /// off the arrays) its value is read by no point inside the region, and
  /// its reads stay in the rings' padding. Else a thread computes it where
  /// it is wanted and leaves zero elsewhere. A thread outside the region
  /// takes the margin; level STEPS goes to memory at the tile's useful
  /// points.
  void printSteadyLevel(CodeWriter &W, PlaneMode Mode) const {
    const std::string Store =
        Mode.BeforeChunk ? "if (stencilc_l == STEPS && stencilc_keep && "
                           "stencilc_k >= stencilc_first)"
                         : "if (stencilc_l == STEPS && stencilc_keep)";
    // Where the margin is the centre, a thread of the margin that computes
    // the level anyway takes the centre after it, with no branch.
    const bool CentreAfter =
        Mode.CentreMargin && (Mode.EveryThread || Mode.MarginComputes);
    W.open(Mode.EveryThread      ? "{"
           : Mode.MarginComputes ? "if (stencilc_l <= stencilc_computes) {"
                                 : "if (stencilc_l <= stencilc_work) {");
    printCompute(W, Mode, Store);
    if (CentreAfter) {
      W.line("if (CENTRE_MARGIN && stencilc_l < STEPS && stencilc_edge)");
      W.line("  stencilc_v = {};", centre(Mode));
    }
    W.close();
    if (!Mode.Interior) {
      W.open(fmt::format("{}if ({}stencilc_l < STEPS && stencilc_edge) {{",
                         Mode.EveryThread ? "" : "else ",
                         CentreAfter ? "!CENTRE_MARGIN && " : ""));
      if (Mode.CentreMargin && !CentreAfter) {
        W.open("if (CENTRE_MARGIN) {");
        printRingBelow(W);
        W.line("stencilc_v = {};", centre(Mode));
        W.close("} else {");
        W.indent();
        printMargin(W);
        W.close();
      } else {
        printMargin(W);
      }
      W.close();
    }
    W.line("if (stencilc_l < STEPS)");
    printRingStore(W, "  ");
  }

  void printCheckedLevel(CodeWriter &W) const {
    const long long Lo = P.Reach[M].Lo, Hi = P.Reach[M].Hi;
    W.line("// Level l is wanted on the chunk and (STEPS - l) times the "
           "reach around it.");
    W.open(fmt::format(
        "if (stencilc_k >= 0 && stencilc_k < stencilc_planes && stencilc_k "
        ">= stencilc_first - (STEPS - stencilc_l) * {0} && stencilc_k < "
        "stencilc_end + (STEPS - stencilc_l) * {1}) {{",
        Lo, Hi));
    W.open("if (!(stencilc_k >= stencilc_rlo && stencilc_k < stencilc_rhi)) {");
    W.line("if (stencilc_l < STEPS)");
    W.open("{");
    printMargin(W);
    W.close();
    W.close();
    W.line("// Nearer the tile's edge, level l is never read.");
    W.open("else if (stencilc_l <= stencilc_deepest) {");
    printCompute(W, PlaneMode{},
                 "if (stencilc_l == STEPS && stencilc_keep && stencilc_k >= "
                 "stencilc_first && stencilc_k < stencilc_end)");
    W.close();
    W.line("if (stencilc_l < STEPS)");
    printRingStore(W, "  ");
    W.close();
  }

  /// Level l's margin where both arrays hold the same: the centre of level
  /// l - 1, from its ring or its queue (as the body reads it).
  std::string centre(PlaneMode Mode) const {
    return RingLoads(P, S.Dims, Mode).printLoad(P.In, ir::Offset{}, "");
  }

  /// Defines stencilc_ring, level l - 1's ring, which level l reads.
  void printRingBelow(CodeWriter &W) const {
    W.line("{} *const {} = stencilc_rings + (stencilc_l - 1) * {} * "
           "stencilc_plane;",
           Ty, Ring, P.RingDepth);
  }

  /// The margin holds still: level l's is in the array holding it one step
  /// at a time.
  void printMargin(CodeWriter &W) const {
    printPlanePosition(W);
    W.line("const long long c = {};", Centre);
    W.line("stencilc_v = (stencilc_l & 1 ? stencilc_margin1 : "
           "stencilc_margin0)[c];");
  }

  /// The body at level l; the last level goes to memory where \p Store.
  void printCompute(CodeWriter &W, PlaneMode Mode,
                    const std::string &Store) const {
    printPlanePosition(W);
    W.line("const long long c = {};", Centre);
    printRingBelow(W);
    W.line("{} {};", Ty, Value);
    RingLoads Hooks(P, S.Dims, Mode);
    printBody(S, Names, Hooks, W);
    W.line("stencilc_v = {};", Value);
    W.line(Store);
    W.line("  {}[c] = stencilc_v;", Names.param(P.Out));
  }

  /// The marching position, which the body may not read (no coordinate, no
  /// lower-rank array): unused, not warned about.
  void printPlanePosition(CodeWriter &W) const {
    W.line("[[maybe_unused]] const long long {} = stencilc_k;", Positions[M]);
  }

  void printRingStore(CodeWriter &W, const char *Indent) const {
    W.line("{}stencilc_rings[(stencilc_l * {} + stencilc_sk) * stencilc_plane "
           "+ {}] = stencilc_v;",
           Indent, P.RingDepth, Cell);
  }

  const ir::Stencil &S;
  const TimePair &P;
  int MaxSteps;
  BodyNames Names;
  unsigned M;
  std::string Ty;
  const char *Stride;
  std::string Centre;
};

/// The rings' padding, in elements, before (\p Lo) or after them: the
/// farthest a read of the steady part reaches off a plane in the ring where
/// its threads all compute (bx: the tile's first extent); else none.
std::string ringPadding(const TemporalPlan &T, const TimePair &P, unsigned M,
                        bool Lo, const std::string &Bx) {
  if (!T.EveryThreadComputes)
    return "0";
  const auto Side = [&](unsigned D) {
    return Lo ? P.Reach[D].Lo : P.Reach[D].Hi;
  };
  if (M == 1)
    return std::to_string(Side(0));
  return fmt::format("({} + {} * {})", Side(0), Side(1), Bx);
}

/// Defines stencilc_rings past their padding, which it zeroes: the steady
/// part's reads there must be finite (a NaN or a denormal takes the
/// division's slow path). The first barrier comes before any read.
void printRings(CodeWriter &W, const TemporalPlan &T, const TimePair &P,
                unsigned M, const std::string &Ty) {
  W.line("const int stencilc_pad_lo = {}, stencilc_pad_hi = {};",
         ringPadding(T, P, M, true, "stencilc_bx"),
         ringPadding(T, P, M, false, "stencilc_bx"));
  W.line("{0} *const stencilc_rings = reinterpret_cast<{0} "
         "*>(stencilc_shared) + stencilc_pad_lo;",
         Ty);
  W.line("const int stencilc_ring_size = STEPS * {} * stencilc_plane;",
         P.RingDepth);
  W.open(fmt::format("for (int i = {}; i < stencilc_pad_lo + stencilc_pad_hi; "
                     "i += stencilc_plane) {{",
                     Cell));
  W.line("stencilc_rings[i < stencilc_pad_lo ? i - stencilc_pad_lo : "
         "stencilc_ring_size + i - stencilc_pad_lo] = {};",
         zeroOf(Ty));
  W.close();
}

/// Defines STENCILC_PASS_REGISTERS(TWO, MOST), a pass's bound on its
/// registers (TemporalPlan::RegistersAbove): 32 where TWO, else MOST.
void printRegisterBound(CodeWriter &W) {
  W.line("#ifndef STENCILC_PASS_REGISTERS");
  W.line("// __maxnreg__ from nvcc 12.4 on; before it, the most that one or "
         "two blocks of 1024 threads an SM leave.");
  W.line("#if __CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && "
         "__CUDACC_VER_MINOR__ >= 4)");
  W.line("#define STENCILC_PASS_REGISTERS(TWO, MOST) __maxnreg__((TWO) ? 32 "
         ": (MOST))");
  W.line("#else");
  W.line("#define STENCILC_PASS_REGISTERS(TWO, MOST) __launch_bounds__(1024, "
         "(TWO) ? 2 : 1)");
  W.line("#endif");
  W.line("#endif");
}

void printKernel(CodeWriter &W, const ir::Stencil &S, const TemporalPlan &T,
                 const TimePair &P, const std::string &Name) {
  const unsigned M = S.Dims - 1;
  const std::string Ty = elementType(S.Params[P.Out]);
  BodyNames Names(S);
  W.line("// BX, BY: the tile's extents where constant (0: blockDim's).");
  if (T.CentreMarginUpTo > 0) {
    W.line("// CENTRE_MARGIN: both arrays hold the same margin, so a level's "
           "is the level below's centre.");
    W.line("template <int STEPS, int BX, int BY, bool CENTRE_MARGIN = false>");
  } else {
    W.line("template <int STEPS, int BX, int BY>");
  }
  const std::string Bound =
      T.RegistersAbove
          ? fmt::format("STENCILC_PASS_REGISTERS(STEPS <= {}, {})",
                        T.TwoBlocksUpTo, T.RegistersAbove)
          : fmt::format("__launch_bounds__(1024, STEPS <= {} ? 2 : 1)",
                        T.TwoBlocksUpTo);
  W.open(fmt::format("__global__ void {} {}(const stencil::Grid g, const "
                     "stencil::Region r, const stencil::Region stencilc_store, "
                     "const long long stencilc_chunk, const "
                     "{} *stencilc_margin0, const {} *stencilc_margin1{}) {{",
                     Bound, Name, Ty, Ty, kernelParameters(S, Names)));
  W.line("extern __shared__ __align__(16) unsigned char stencilc_shared[];");
  W.line("const int stencilc_tx = threadIdx.x;");
  W.line("const int stencilc_bx = BX ? BX : blockDim.x;");
  if (T.LevelBarrier) {
    printLevelBarrierPass(W, S, T, P, Name);
    W.close();
    return;
  }
  if (M == 2) {
    W.line("const int stencilc_ty = threadIdx.y;");
    W.line("const int stencilc_by = BY ? BY : blockDim.y;");
  }
  W.line("const int stencilc_plane = {};",
         M == 2 ? "stencilc_bx * stencilc_by" : "stencilc_bx");
  W.line("const int {} = {};", Cell,
         M == 2 ? "stencilc_ty * stencilc_bx + stencilc_tx" : "stencilc_tx");
  printRings(W, T, P, M, Ty);
  W.line("// The tile: the block's useful points (in the store region) and "
         "STEPS times the reach around them.");
  static const char *const Block[] = {"x", "y"};
  static const char *const Thread[] = {"stencilc_tx", "stencilc_ty"};
  static const char *const Extent[] = {"stencilc_bx", "stencilc_by"};
  for (unsigned D = 0; D < M; ++D)
    W.line("const long long {0} = stencilc_store.lo[{1}] + blockIdx.{2} * "
           "static_cast<long long>({3} - STEPS * {4}) - STEPS * {5} + {6};",
           Positions[D], D, Block[D], Extent[D], P.Reach[D].Lo + P.Reach[D].Hi,
           P.Reach[D].Lo, Thread[D]);
  W.line("const bool stencilc_column = {};",
         inPlane(
             M, [](unsigned) { return std::string("0"); },
             [](unsigned D) { return fmt::format("g.extent[{}]", D); }));
  W.line("const bool stencilc_inside = {};",
         inPlane(
             M, [](unsigned D) { return fmt::format("r.lo[{}]", D); },
             [](unsigned D) { return fmt::format("r.hi[{}]", D); }));
  W.line("// Planes in 32 bits (a loop's extents are ints): the checks of "
         "every level and plane are most of the checked loop's "
         "instructions.");
  W.line("const int stencilc_first = static_cast<int>(stencilc_store.lo[{0}] + "
         "blockIdx.{1} "
         "* stencilc_chunk);",
         M, M == 2 ? "z" : "y");
  W.line("const int stencilc_end = static_cast<int>(min(stencilc_first + "
         "stencilc_chunk, stencilc_store.hi[{}]));",
         M);
  printPassInput(W, S, P);
  printStrides(W, S.Dims);
  W.line("const long long stencilc_column_c = {};",
         M == 2 ? "i + j * sy" : "i");
  const PlanePrinter Planes(S, P, T.MaxSteps);
  const long long Lo = P.Reach[M].Lo, Lag = Planes.lag();
  const unsigned Depth = P.RingDepth;
  // Level l runs a plane more than its reach behind level l - 1: it reads
  // only planes written before the last barrier, one barrier a plane.
  W.line("// The ring slot of plane p (level 0's); level l's lags l * {} "
         "behind.",
         Lag);
  W.line("int stencilc_s = (stencilc_first - STEPS * {} + {}) % {};", Lo,
         1024LL * Depth, Depth);
  W.line("// Level L's column of this thread, oldest plane first: the planes "
         "level L + 1 reads.");
  W.line("{} stencilc_q[STEPS + 1][{}] = {{}};", Ty, Depth);
  printDeepest(W, P, M);
  W.line("// Whether level STEPS goes to memory at this column: a useful "
         "point of the tile, in the store region.");
  W.line(
      "const bool stencilc_keep = stencilc_deepest == STEPS && {};",
      inPlane(
          M, [](unsigned D) { return fmt::format("stencilc_store.lo[{}]", D); },
          [](unsigned D) { return fmt::format("stencilc_store.hi[{}]", D); }));
  W.line("// In the steady part: the levels this thread computes, and whether "
         "it holds the margin.");
  // Where every thread computes, only a body with other arrays reads it.
  W.line("[[maybe_unused]] const int stencilc_work = stencilc_column && "
         "stencilc_inside ? stencilc_deepest : 0;");
  W.line("const bool stencilc_edge = stencilc_column && !stencilc_inside;");
  if (T.CentreMarginUpTo > 0 && T.MarginThreadsCompute)
    W.line("// Where the margin is the centre its threads compute too, then "
           "take it.");
  if (T.CentreMarginUpTo > 0 && T.MarginThreadsCompute)
    W.line("const int stencilc_computes = CENTRE_MARGIN && stencilc_column ? "
           "stencilc_deepest : stencilc_work;");
  if (T.InteriorSteadyPart) {
    W.line("// Whether a thread of the block holds the margin (every thread "
           "is here).");
    W.line("const bool stencilc_edge_block = __syncthreads_or(stencilc_edge);");
  }
  W.line("// From plane p of the input on, every level works inside the "
         "chunk.");
  // In a chunk whose every plane from the loop's first on is in the region
  // the steady part starts at once: the levels it computes before they are
  // wanted read only values no wanted one reads, and the last level is
  // stored from the chunk's first plane on.
  if (T.SteadyFromChunkStart)
    W.line("const int stencilc_steady = stencilc_first - STEPS * ({0} + {1}) "
           ">= r.lo[{2}] ? stencilc_first - STEPS * {0} : stencilc_first + "
           "STEPS * {1};",
           Lo, Lag, M);
  else
    W.line("const int stencilc_steady = stencilc_first + STEPS * {};", Lag);
  // Past the chunk's end level STEPS stays inside it (the loop ends STEPS
  // lags on), and the other levels compute planes no point of the chunk
  // reads: harmless where they are all in the region, so the steady part
  // runs to the loop's end there (those planes were most of the checked
  // ones of a chunk).
  W.line("// Up to plane p the steady part holds: to the loop's end where "
         "every plane a level computes is in the region.");
  W.line("const int stencilc_steady_end = stencilc_end + STEPS * {0} <= "
         "r.hi[{1}] ? stencilc_end + STEPS * {0} : stencilc_end;",
         Lag, M);
  const char *Stride = Planes.stride();
  W.line("// Where plane p of this column is: kept by adding, not "
         "multiplying.");
  W.line("long long stencilc_c0 = stencilc_column_c + static_cast<long "
         "long>(stencilc_first - STEPS * {}) * {};",
         Lo, Stride);
  W.line("{} stencilc_in = stencilc_input(stencilc_first - STEPS * {}, "
         "stencilc_c0);",
         Ty, Lo);
  W.line("{} stencilc_in2 = stencilc_input(stencilc_first - STEPS * {} + 1, "
         "stencilc_c0 + {});",
         Ty, Lo, Stride);
  W.line("// Plane p of the input; level l works on plane p - l * {}.", Lag);
  W.open(fmt::format("for (int stencilc_p = stencilc_first - STEPS * {0}; "
                     "stencilc_p < stencilc_end + STEPS * {1};) {{",
                     Lo, Lag));
  W.open(fmt::format("if (stencilc_p >= stencilc_steady && stencilc_s == 0 && "
                     "stencilc_p + {} <= stencilc_steady_end) {{",
                     Depth));
  W.line("// {} planes from ring slot 0: every slot and queue register is "
         "known.",
         Depth);
  auto SteadyPlanes = [&](bool Interior) {
    for (unsigned U = 0; U < Depth; ++U)
      Planes.print(W, PlaneMode{true, U, T.EveryThreadComputes, Interior,
                                T.divisionsCheckedAPlane(), T.LeastDividend,
                                T.SteadyFromChunkStart, T.CentreMarginUpTo > 0,
                                T.MarginThreadsCompute});
  };
  if (T.InteriorSteadyPart) {
    W.open("if (!stencilc_edge_block) {");
    SteadyPlanes(true);
    W.close();
    W.open("else {");
  }
  SteadyPlanes(false);
  if (T.InteriorSteadyPart)
    W.close();
  W.line("stencilc_p += {};", Depth);
  W.line("continue;");
  W.close();
  Planes.print(W, PlaneMode{});
  W.line("stencilc_s = stencilc_s + 1 == {} ? 0 : stencilc_s + 1;", Depth);
  W.line("++stencilc_p;");
  W.close();
  W.close();
}

} // namespace

void cuda::printPassInput(CodeWriter &W, const ir::Stencil &S,
                          const TimePair &P) {
  const unsigned M = S.Dims - 1;
  W.line("// The planes of this column in the arrays and in the region "
         "(none off them).");
  W.line("const int stencilc_planes = stencilc_column ? "
         "static_cast<int>(g.extent[{}]) : 0;",
         M);
  W.line(
      "const int stencilc_rlo = stencilc_inside ? static_cast<int>(r.lo[{0}]) "
      ": 0, stencilc_rhi = stencilc_inside ? static_cast<int>(r.hi[{0}]) : "
      "0;",
      M);
  W.line("// Plane k of the pass's input (level 0): the array inside the "
         "region, the margin outside, nothing off the arrays.");
  const std::string Ty = elementType(S.Params[P.Out]);
  W.open(fmt::format("auto stencilc_input = [&](const int stencilc_k, const "
                     "long long c) -> {} {{",
                     Ty));
  W.line("if (stencilc_k < 0 || stencilc_k >= stencilc_planes)");
  W.line("  return {};", zeroOf(Ty));
  W.line("return (stencilc_k >= stencilc_rlo && stencilc_k < stencilc_rhi ? "
         "{} : stencilc_margin0)[c];",
         BodyNames(S).param(P.In));
  W.close("};");
}

namespace {

/// The shared memory of a pass: the rings of levels 0 to steps - 1 and
/// their padding, or a level-barrier pass's two rows.
void printSharedBytes(CodeWriter &W, const ir::Stencil &S,
                      const TemporalPlan &T, const TimePair &P,
                      const std::string &Name) {
  const unsigned M = S.Dims - 1;
  W.open(fmt::format("static unsigned long long {}_shared(int steps, unsigned "
                     "bx, unsigned by) {{",
                     Name));
  if (T.LevelBarrier) {
    W.line("// Two rows of a level and their padding.");
    W.line("(void)steps;");
    W.line("(void)by;");
    W.line("return 2ULL * (bx + {}ULL) * sizeof({});",
           P.Reach[0].Lo + P.Reach[0].Hi, elementType(S.Params[P.Out]));
    W.close();
    return;
  }
  W.line("return (static_cast<unsigned long long>(steps) * {}ULL * bx * by + "
         "{} + {}) * sizeof({});",
         P.RingDepth, ringPadding(T, P, M, true, "bx"),
         ringPadding(T, P, M, false, "bx"), elementType(S.Params[P.Out]));
  W.close();
}

/// The kernel's instance for a tile: its extents constant where the plan
/// compiled it for them (TemporalPlan::ConstantTiles).
void printInstance(CodeWriter &W, const ir::Stencil &S, const TemporalPlan &T,
                   const std::string &Name) {
  const bool Centre = T.CentreMarginUpTo > 0;
  W.line("template <int STEPS>");
  W.open(fmt::format("static auto {0}_instance(const unsigned bx, const "
                     "unsigned by{1}) -> decltype(&{0}<STEPS, 0, 0>) {{",
                     Name, Centre ? ", const bool same" : ""));
  if (Centre)
    W.line("// same: both levels' margins one array (TemporalPlan::"
           "CentreMarginUpTo).");
  for (const auto &[Bx, By] : T.ConstantTiles) {
    const int Y = S.Dims == 2 ? 1 : By;
    if (!Centre) {
      W.line("if (bx == {}u && by == {}u)", Bx, Y);
      W.line("  return {}<STEPS, {}, {}>;", Name, Bx, Y);
      continue;
    }
    W.open(fmt::format("if (bx == {}u && by == {}u) {{", Bx, Y));
    W.line("if constexpr (STEPS <= {})", T.CentreMarginUpTo);
    W.line("  if (same)");
    W.line("    return {}<STEPS, {}, {}, true>;", Name, Bx, Y);
    W.line("return {}<STEPS, {}, {}>;", Name, Bx, Y);
    W.close();
  }
  W.line("return {}<STEPS, 0, 0>;", Name);
  W.close();
}

/// One instance of the kernel launched: the launcher's switch calls it.
void printRun(CodeWriter &W, const ir::Stencil &S, const TemporalPlan &T,
              const TimePair &P, const std::string &Name) {
  BodyNames Names(S);
  const std::string Ty = elementType(S.Params[P.Out]);
  W.line("template <int STEPS>");
  W.open(fmt::format(
      "static const char *{}_run(const dim3 grid, const dim3 block, const "
      "unsigned long long shared, const cudaStream_t stream, const "
      "stencil::Grid &g, const stencil::Region &r, const stencil::Region "
      "&stencilc_store, "
      "const long long chunk, const {} *m0, const {} *m1{}) {{",
      Name, Ty, Ty, kernelParameters(S, Names)));
  W.line("const auto kernel = {}_instance<STEPS>(block.x, block.y{});", Name,
         T.CentreMarginUpTo > 0 ? ", m0 == m1" : "");
  W.open("if (shared > 48u * 1024u) {");
  W.line("// Above 48 KiB a kernel asks for its shared memory.");
  W.line("const cudaError_t err = cudaFuncSetAttribute(kernel, "
         "cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>("
         "shared));");
  W.open("if (err != cudaSuccess) {");
  W.line("(void)cudaGetLastError(); // not left for the next launch to find");
  W.line("return cudaGetErrorString(err);");
  W.close();
  W.close();
  std::string Args;
  for (unsigned I = 1; I < S.Params.size(); ++I)
    Args += ", " + Names.param(I);
  W.line("kernel<<<grid, block, shared, stream>>>(g, r, stencilc_store, chunk, "
         "m0, m1{});",
         Args);
  W.line("const cudaError_t err = cudaGetLastError();");
  W.line("return err == cudaSuccess ? nullptr : cudaGetErrorString(err);");
  W.close();
}

void printLauncher(CodeWriter &W, const ir::Stencil &S, const TemporalPlan &T,
                   const TimePair &P, const std::string &Name, bool Planes) {
  BodyNames Names(S);
  const unsigned M = S.Dims - 1;
  const std::string Ty = elementType(S.Params[P.Out]);
  W.open(fmt::format("static const char *{}_cuda_launch(const stencil::Grid "
                     "&g, const stencil::Region &r, const stencil::Region "
                     "&stencilc_store, "
                     "const stencil::LaunchConfig &cfg, int steps, const void "
                     "*const *margins, void *const *args) {{",
                     Name));
  W.line("if (steps < 1 || steps > {})", T.MaxSteps);
  W.line("  return \"steps per pass out of range\";");
  std::string Empty, Outside;
  for (unsigned D = 0; D < S.Dims; ++D) {
    Empty += fmt::format("{0}stencilc_store.hi[{1}] <= stencilc_store.lo[{1}]",
                         D ? " || " : "", D);
    Outside += fmt::format("{0}stencilc_store.lo[{1}] < r.lo[{1}] || "
                           "stencilc_store.hi[{1}] > r.hi[{1}]",
                           D ? " || " : "", D);
  }
  W.line("if ({})", Empty);
  W.line("  return nullptr;");
  W.line("if ({})", Outside);
  W.line("  return \"the store region is not inside the region\";");
  W.line("if (cfg.block[0] <= 0 || cfg.block[1] <= 0 || cfg.block[2] <= 0)");
  W.line("  return \"invalid CUDA block size\";");
  printArgumentUnpacking(W, S, Names, std::vector<bool>(S.Params.size(), true));
  W.line("const {0} *const m0 = static_cast<const {0} *>(margins[0]);", Ty);
  W.line("const {0} *const m1 = static_cast<const {0} *>(margins[1]);", Ty);
  std::string Args;
  for (unsigned I = 1; I < S.Params.size(); ++I)
    Args += ", " + Names.param(I);
  if (Planes) {
    W.line("// Both levels' margins the input's: every level's margin is the "
           "input's, and the pass may be summed by planes (before the rings' "
           "checks: its tile is all stored, its border computed around it).");
    W.open(fmt::format("if (margins[0] == margins[1] && margins[0] == "
                       "static_cast<const void *>({})) {{",
                       Names.param(P.In)));
    W.line("bool stencilc_taken = false;");
    W.line("const char *const stencilc_error = {}_planes_launch(g, r, "
           "stencilc_store, cfg, steps, &stencilc_taken{});",
           Name, Args);
    W.line("if (stencilc_taken)");
    W.line("  return stencilc_error;");
    W.close();
  }
  W.line("long long stencilc_tile[2] = {{cfg.block[0], {}}};",
         M == 2 ? "cfg.block[1]" : "1");
  W.line("{}_rings_tile(stencilc_tile);", Name);
  W.line("// Each block computes its tile less steps times the reach on "
         "every side.");
  static const char *const Useful[] = {"stencilc_ux", "stencilc_uy"};
  for (unsigned D = 0; D < M; ++D)
    W.line("const long long {} = stencilc_tile[{}] - steps * {}LL;", Useful[D],
           D, P.Reach[D].Lo + P.Reach[D].Hi);
  W.line("if ({}{})", "stencilc_ux <= 0", M == 2 ? " || stencilc_uy <= 0" : "");
  W.line("  return \"tile too small for this many steps\";");
  W.line("// The tiles and chunks cover the store region.");
  W.line("const long long gx = (stencilc_store.hi[0] - stencilc_store.lo[0] + "
         "stencilc_ux - 1) / "
         "stencilc_ux;");
  if (M == 2)
    W.line("const long long gy = (stencilc_store.hi[1] - stencilc_store.lo[1] "
           "+ stencilc_uy - 1) / "
           "stencilc_uy;");
  else
    W.line("const long long gy = 1;");
  W.line("const long long gm = (stencilc_store.hi[{0}] - "
         "stencilc_store.lo[{0}] + cfg.block[2] - 1) / "
         "cfg.block[2];",
         M);
  W.line("if (gx > 2147483647LL || gy > 65535 || gm > 65535)");
  W.line("  return \"region too large for one temporal pass\";");
  W.line("const dim3 block(static_cast<unsigned>(stencilc_tile[0]), "
         "static_cast<unsigned>(stencilc_tile[1]), 1);");
  W.line("const dim3 grid(static_cast<unsigned>(gx), {});",
         M == 2 ? "static_cast<unsigned>(gy), static_cast<unsigned>(gm)"
                : "static_cast<unsigned>(gm), 1");
  W.line("const unsigned long long shared = {}_shared(steps, block.x, "
         "block.y);",
         Name);
  W.line("int stencilc_device = 0, stencilc_most = 0;");
  W.line("if (cudaGetDevice(&stencilc_device) == cudaSuccess && "
         "cudaDeviceGetAttribute(&stencilc_most, "
         "cudaDevAttrMaxSharedMemoryPerBlockOptin, stencilc_device) == "
         "cudaSuccess && shared > static_cast<unsigned long long>("
         "stencilc_most))");
  W.line("  return \"the rings of this many steps and this tile need more "
         "shared memory than a block of this GPU has\";");
  W.line("const cudaStream_t stream = static_cast<cudaStream_t>(cfg.stream);");
  W.open("switch (steps) {");
  for (int N = 1; N <= T.MaxSteps; ++N)
    W.line("case {0}: return {1}_run<{0}>(grid, block, shared, stream, g, r, "
           "stencilc_store, cfg.block[2], m0, m1{2});",
           N, Name, Args);
  W.close();
  W.line("return \"steps per pass out of range\";");
  W.close();
}

/// The rings' block: a thread a point of the tile, at most MaxTileThreads;
/// a tile of more points (which a pass summed by planes takes) is taken in
/// halves along its longer side.
void printRingsTile(CodeWriter &W, const std::string &Name) {
  W.line("// The rings' tile for a tile of (tile[0], tile[1]) points: at most "
         "{} points, one a thread; halved along its longer side until it is.",
         planning::MaxTileThreads);
  W.open(fmt::format("static void {}_rings_tile(long long (&tile)[2]) {{",
                     Name));
  W.line("while (tile[0] * tile[1] > {})", planning::MaxTileThreads);
  W.line("  tile[tile[1] > tile[0] ? 1 : 0] = (tile[tile[1] > tile[0] ? 1 : "
         "0] + 1) / 2;");
  W.close();
}

void printQuery(CodeWriter &W, const TemporalPlan &T, const std::string &Name,
                bool Planes) {
  W.line("// What the tuner needs to know before it launches a pass.");
  W.open(fmt::format("static const char *{}_query(int bx, int by, int steps, "
                     "stencil::KernelAttributes *out) {{",
                     Name));
  W.line("cudaFuncAttributes a;");
  W.line("cudaError_t err = cudaErrorInvalidValue;");
  if (Planes) {
    W.line("// A tile of more points than the rings' block has threads: the "
           "pass summed by planes, where it takes the steps and the tile.");
    W.line("const long long threads = by % {0}_planes_points == 0 ? "
           "static_cast<long long>(bx) * (by / {0}_planes_points) : 0;",
           Name);
    W.open(fmt::format("if (static_cast<long long>(bx) * by > {} && steps >= "
                       "2 && steps <= {} && threads > 0 && threads <= {}) {{",
                       planning::MaxTileThreads, T.PlaneSumMaxSteps,
                       planning::PlaneSumPassThreads));
    W.open("switch (steps) {");
    for (int N = 2; N <= T.PlaneSumMaxSteps; ++N)
      W.line("case {0}: err = cudaFuncGetAttributes(&a, {1}_planes<{0}, "
             "false>); break;",
             N, Name);
    W.line("default: break;");
    W.close();
    W.line("if (err != cudaSuccess)");
    W.line("  return cudaGetErrorString(err);");
    W.line("out->registers = a.numRegs;");
    W.line("out->maxThreadsPerBlock = a.maxThreadsPerBlock;");
    W.line("out->threads = static_cast<int>(threads);");
    W.line("out->sharedBytes = static_cast<long long>(a.sharedSizeBytes + "
           "{}_planes_shared(steps, bx, by / {}_planes_points, false));",
           Name, Name);
    W.line("return nullptr;");
    W.close();
  }
  W.line("// The rings' pass: threads left 0, one a point of the tile asked, "
         "so that the tuner does not try a tile the launch takes in halves.");
  W.line("long long tile[2] = {{bx, by}};");
  W.line("{}_rings_tile(tile);", Name);
  W.open("switch (steps) {");
  for (int N = 1; N <= T.MaxSteps; ++N)
    W.line("case {0}: err = cudaFuncGetAttributes(&a, {1}_instance<{0}>("
           "static_cast<unsigned>(tile[0]), static_cast<unsigned>(tile[1]){2})"
           "); break;",
           N, Name, T.CentreMarginUpTo > 0 ? ", false" : "");
  W.close();
  W.line("if (err != cudaSuccess)");
  W.line("  return cudaGetErrorString(err);");
  W.line("out->registers = a.numRegs;");
  W.line("out->maxThreadsPerBlock = a.maxThreadsPerBlock;");
  W.line("out->sharedBytes = static_cast<long long>(a.sharedSizeBytes + "
         "{}_shared(steps, static_cast<unsigned>(tile[0]), "
         "static_cast<unsigned>(tile[1])));",
         Name);
  W.line("return nullptr;");
  W.close();
}

} // namespace

void cuda::printTemporalCode(CodeWriter &W, const planning::StencilPlan &SP,
                             const std::string &Symbol) {
  const ir::Stencil &S = *SP.Stencil;
  const TemporalPlan &T = SP.Temporal;
  for (unsigned I = 0; I < T.Pairs.size(); ++I) {
    const TimePair &P = T.Pairs[I];
    const std::string Name = kernelOf(Symbol, I);
    W.blank();
    W.line("// Stencil '{}': up to {} steps per pass, {} -> {}.",
           commentText(S.qualifiedName()), T.MaxSteps,
           commentText(S.Params[P.In].Name), commentText(S.Params[P.Out].Name));
    if (T.RegistersAbove)
      printRegisterBound(W);
    if (T.LevelBarrier)
      printLevelBarrierChunk(W, S, T, P, Name);
    printKernel(W, S, T, P, Name);
    W.blank();
    printInstance(W, S, T, Name);
    W.blank();
    printSharedBytes(W, S, T, P, Name);
    W.blank();
    printRun(W, S, T, P, Name);
    W.blank();
    printRingsTile(W, Name);
    W.blank();
    const bool Planes = T.summedByPlanes() && T.PlaneSumPair == I;
    if (Planes) {
      printPlaneSumPass(W, S, T, Name);
      W.blank();
    }
    // Where some pass is faster when the two arrays hold the same margin,
    // the runtime compares them before a time loop's passes.
    const bool Compared = Planes || T.CentreMarginUpTo > 0;
    if (Compared) {
      printSameMargins(W, S, P, Name);
      W.blank();
    }
    printLauncher(W, S, T, P, Name, Planes);
    W.blank();
    printQuery(W, T, Name, Planes);
    W.blank();
    printTemporalRegistration(W, S, T, I, Name + "_cuda_launch",
                              Name + "_query",
                              Compared ? Name + "_same_margins" : "");
  }
}
