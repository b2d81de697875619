//===- MarchKernelPrinter.cpp - Prints a marching kernel's plan -----------===//
///
/// \file
/// The CUDA kernel of a marching variant, printed from its kernel plan
/// (planning::KernelPlan): the thread mapping, the tile's setup (smem), the
/// register queues, and the marching loop with the queue loads, the tile's
/// staging between its barriers, the body (each load from where the plan
/// says) and the queue shifts. Nothing here decides: every choice is the
/// plan's.
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/CudaKernels.h"
#include "stencilc/CodeGen/RegistrationGlue.h"
#include <algorithm>
#include <cassert>

using namespace stencilc;
using namespace stencilc::codegen;
using namespace stencilc::codegen::cuda;
using planning::KernelPlan;
using planning::LoadSource;
using planning::QueueRegisters;

namespace {

/// The register of queue \p Q at slot \p Slot: "stencilc_q3_1" for the
/// centre column, "stencilc_q3c2_0" for the array's third queue; \p Point
/// indexes a thread's points.
std::string queueRegister(const QueueRegisters &Q, int Slot,
                          const std::string &Point) {
  return fmt::format("stencilc_q{}{}_{}{}", Q.Param,
                     Q.Centre ? "" : fmt::format("c{}", Q.Index), Slot, Point);
}

/// The register of invariant load \p Slot (KernelPlan::Invariants).
std::string invariantRegister(int Slot, const std::string &Point) {
  return fmt::format("stencilc_v{}{}", Slot, Point);
}

/// The tile element at in-plane offset \p Off from this thread's.
std::string tileIndex(const ir::Offset &Off, unsigned M) {
  // Magnitudes in 64 bits: -INT_MIN does not fit an int.
  auto Magnitude = [](int O) { return O < 0 ? -(long long)O : (long long)O; };
  std::string Index = "stencilc_tc";
  if (Off[0])
    Index += fmt::format(" {} {}", Off[0] < 0 ? '-' : '+', Magnitude(Off[0]));
  if (M == 2 && Off[1])
    Index += fmt::format(" {} {} * stencilc_pitch", Off[1] < 0 ? '-' : '+',
                         Magnitude(Off[1]));
  return Index;
}

const char *marchStride(unsigned M) { return M == 2 ? "sz" : "sy"; }

/// "f[c + 2 * sz]".
std::string memoryLoad(const std::string &Array, const std::string &Index) {
  return fmt::format("{}[{}]", Array, Index);
}

/// Prints each load of the body from the source its plan gives.
class PlannedLoads : public DeviceHooks {
public:
  explicit PlannedLoads(const KernelPlan &K) : K(K) {}
  std::string printLoad(unsigned Param, const ir::Offset &Off,
                        const std::string &Memory) const override {
    const planning::PlannedLoad *L = planning::findLoad(K, Param, Off);
    if (!L)
      return Memory;
    const LoadSource &S = L->Source;
    const unsigned Points = K.Threads.Points;
    const std::string Point = Points > 1 ? "[stencilc_p]" : "";
    std::string Own = S.Queue >= 0 ? queueRegister(K.Queues[S.Queue], S.Slot, Point)
                                   : Memory;
    switch (S.From) {
    case LoadSource::Kind::Memory:
    case LoadSource::Kind::Queue:
      return Own;
    case LoadSource::Kind::Tile:
      return fmt::format("stencilc_t{}[{}]", Param,
                         tileIndex(Off, K.Threads.MarchDim));
    case LoadSource::Kind::Invariant:
      return invariantRegister(S.Slot, Point);
    case LoadSource::Kind::Sibling: {
      // The index stays in range in every unrolled copy; the condition
      // picks the copies where the sibling exists.
      std::string Sibling = queueRegister(
          K.Queues[S.SiblingQueue], S.SiblingSlot,
          fmt::format("[(stencilc_p + {}) % {}]", int(Points) + S.Dy, Points));
      std::string Exists =
          S.Dy > 0 ? fmt::format("stencilc_p + {} < stencilc_n", S.Dy)
                   : fmt::format("stencilc_p >= {}", -S.Dy);
      return fmt::format("({} ? {} : {})", Exists, Sibling, Own);
    }
    }
    return Memory;
  }

private:
  const KernelPlan &K;
};

/// The lines that fill, advance and shift the queues (see QueueRegisters).
struct QueueSteps {
  /// Before the loop: all but the last of each queue, and the invariants.
  std::vector<std::string> Preload;
  std::vector<std::string> Leading; ///< Each step: the register at Hi.
  std::vector<std::string> Shifts;  ///< After each step.
};

class MarchKernelPrinter {
public:
  MarchKernelPrinter(CodeWriter &W, const ir::Stencil &S, const KernelPlan &K,
                     const std::string &Symbol)
      : W(W), S(S), K(K), Names(S), Stem("stencilc_" + Symbol),
        M(K.Threads.MarchDim), Points(K.Threads.Points), Multi(Points > 1),
        PD(K.Threads.PointDim),
        First(fmt::format("stencilc_{}0", Positions[PD])),
        C(Multi ? "stencilc_c" : "c"), Tile(K.tiled()) {}

  void print(const std::string &Kernel) {
    W.open(fmt::format("__global__ void {}(const stencil::Grid g, const "
                       "stencil::Region r, const long long stencilc_chunk{}) {{",
                       Kernel, kernelParameters(S, Names)));
    printThreadMapping();
    if (Tile)
      printTileSetup();
    QueueSteps Q = printQueues();
    printInvariants(Q);
    if (!Q.Preload.empty()) {
      openPoints();
      printGuarded(Q.Preload);
      closePoints();
    }
    printMarchLoop(Q);
    W.close();
  }

private:
  std::string name(unsigned D) const {
    return Multi && D == PD ? First : std::string(Positions[D]);
  }

  void printThreadMapping();
  void printTileSetup();
  QueueSteps printQueues();
  void printInvariants(QueueSteps &Steps);
  void printTileStaging();
  void printMarchLoop(const QueueSteps &Q);

  void printGuarded(const std::vector<std::string> &Lines) {
    if (Lines.empty())
      return;
    if (Tile)
      W.open("if (stencilc_active) {");
    for (const std::string &L : Lines)
      W.line("{}", L);
    if (Tile)
      W.close();
  }

  /// With several points: a loop over them, unrolled so that the register
  /// arrays are indexed by constants; c and the point's position are the
  /// point's.
  void openPoints() {
    if (!Multi)
      return;
    W.line("#pragma unroll");
    W.open(fmt::format("for (int stencilc_p = 0; stencilc_p < {}; "
                       "++stencilc_p) {{",
                       Points));
    W.open("if (stencilc_p < stencilc_n) {");
    // Loads of arrays of lower rank use the position rather than c.
    W.line("[[maybe_unused]] const long long c = stencilc_c + stencilc_p * "
           "stencilc_dp{};",
           PD == 1 ? " * sy" : "");
    W.line("[[maybe_unused]] const long long {} = {} + stencilc_p * "
           "stencilc_dp;",
           Positions[PD], First);
  }
  void closePoints() {
    if (!Multi)
      return;
    W.close();
    W.close();
  }

  CodeWriter &W;
  const ir::Stencil &S;
  const KernelPlan &K;
  BodyNames Names;
  const std::string Stem;
  const unsigned M, Points;
  const bool Multi;
  const unsigned PD;
  const std::string First;
  const char *const C;
  const bool Tile;
};

} // namespace

void MarchKernelPrinter::printThreadMapping() {
  if (Multi)
    W.line("// This thread computes {} points, {}.", Points,
           PD == 1 ? "adjacent in y" : "blockDim.x apart in x");
  if (Multi && PD == 0)
    W.line("const long long {} = r.lo[0] + blockIdx.x * {}LL * blockDim.x + "
           "threadIdx.x;",
           First, Points);
  else
    W.line("const long long i = r.lo[0] + blockIdx.x * "
           "static_cast<long long>(blockDim.x) + threadIdx.x;");
  if (M == 2 && Multi)
    W.line("const long long {} = r.lo[1] + (blockIdx.y * "
           "static_cast<long long>(blockDim.y) + threadIdx.y) * {};",
           First, Points);
  else if (M == 2)
    W.line("const long long j = r.lo[1] + blockIdx.y * "
           "static_cast<long long>(blockDim.y) + threadIdx.y;");
  W.line("// This block marches [stencilc_m0, stencilc_m1) of {}.", Axes[M]);
  // Chunks on the slowest block index: blocks of one plane run together and
  // share their in-plane halo through L2 (chunks first was slower).
  W.line("const long long stencilc_m0 = r.lo[{}] + blockIdx.{} * "
         "stencilc_chunk;",
         M, Axes[M]);
  W.line("const long long stencilc_m1 = stencilc_m0 + stencilc_chunk < "
         "r.hi[{0}] ? stencilc_m0 + stencilc_chunk : r.hi[{0}];",
         M);
  std::string Outside =
      M == 2 ? fmt::format("{} >= r.hi[0] || {} >= r.hi[1]", name(0), name(1))
             : fmt::format("{} >= r.hi[0]", name(0));
  if (Tile) {
    W.line("// Threads outside the region still stage the tile and meet the "
           "barriers.");
    W.line("const bool stencilc_active = !({});", Outside);
  } else {
    W.line("if ({})", Outside);
    W.line("  return;");
  }
  W.line("const long long sy = g.extent[0];");
  if (M == 2)
    W.line("const long long sz = sy * g.extent[1];");
  W.line("long long {} = {} + {};", C, name(0),
         M == 2 ? fmt::format("{} * sy + stencilc_m0 * sz", name(1))
                : "stencilc_m0 * sy");
  // Point p lies p * stencilc_dp from the first along PD; the points from
  // stencilc_n on are past the region. The distance is the same for every
  // thread, so the compiler sees which loads of the points coincide and
  // makes them once.
  if (Multi) {
    W.line("const long long stencilc_dp = {};", PD == 1 ? "1" : "blockDim.x");
    W.line("int stencilc_n = 1;");
    W.line("while (stencilc_n < {0} && {1} + stencilc_n * stencilc_dp < "
           "r.hi[{2}])",
           Points, First, PD);
    W.line("  ++stencilc_n;");
  }
}

void MarchKernelPrinter::printTileSetup() {
  const analysis::HaloWidth &X = K.TileHalo[0], &Y = K.TileHalo[1];
  W.line("extern __shared__ __align__(16) unsigned char stencilc_smem[];");
  W.line("const long long stencilc_i0 = r.lo[0] + blockIdx.x * "
         "static_cast<long long>(blockDim.x) - {};",
         X.Lo);
  W.line("const long long stencilc_ie = r.hi[0] + {};", X.Hi);
  if (M == 2) {
    W.line("const unsigned stencilc_tw = blockDim.x + {}u;", tileWidth(X));
    W.line("const int stencilc_pitch = "
           "static_cast<int>({}_tile_pitch(blockDim.x));",
           Stem);
    W.line("const long long stencilc_j0 = r.lo[1] + blockIdx.y * "
           "static_cast<long long>(blockDim.y) - {};",
           Y.Lo);
    W.line("const long long stencilc_je = r.hi[1] + {};", Y.Hi);
    W.line("const int stencilc_tc = (threadIdx.y + {}) * stencilc_pitch + "
           "threadIdx.x + {};",
           Y.Lo, X.Lo);
  } else {
    W.line("const int stencilc_tc = threadIdx.x + {};", X.Lo);
  }
  std::string Offset;
  for (const planning::TiledArray &T : K.Tiles) {
    std::string Ty = elementType(S.Params[T.Param]);
    W.line("{0} *const stencilc_t{1} = reinterpret_cast<{0} *>(stencilc_smem"
           "{2});",
           Ty, T.Param, Offset.empty() ? "" : " + " + Offset);
    Offset += fmt::format("{}{}_tile_bytes(blockDim.x, blockDim.y, "
                          "sizeof({}))",
                          Offset.empty() ? "" : " + ", Stem, Ty);
  }
}

QueueSteps MarchKernelPrinter::printQueues() {
  QueueSteps Steps;
  const std::string Point = Multi ? "[stencilc_p]" : "";
  for (const QueueRegisters &Q : K.Queues) {
    // Planning keeps queues within MaxQueueLength; this only prints them.
    assert(Q.length() <= planning::MaxQueueLength &&
           "queue longer than Planning allows");
    const int Len = Q.length();
    ir::Offset Off = Q.Column;
    if (!Q.Centre) {
      std::string Column = printLinearIndex(Off, S.Dims).substr(1);
      W.line("// A queue of {} at {}{}, {} offsets {:+d} .. {:+d}.",
             Names.param(Q.Param), Column.empty() ? "the centre" : "c", Column,
             Axes[M], Q.Lo, Q.Hi);
    }
    std::string Regs;
    for (int N = 0; N < Len; ++N)
      Regs += fmt::format("{}{}{{}}", N ? ", " : "",
                          queueRegister(Q, N,
                                        Multi ? fmt::format("[{}]", Points)
                                              : ""));
    W.line("{} {};", elementType(S.Params[Q.Param]), Regs);
    // Before the loop the point is at the chunk's first step.
    PositionNames BeforeLoop = PointPositions;
    BeforeLoop[M] = "stencilc_m0";
    for (int N = 0; N < Len; ++N) {
      Off[M] = Q.Lo + N;
      std::string Load = fmt::format(
          "{} = {};", queueRegister(Q, N, Point),
          memoryLoad(
              Names.param(Q.Param),
              printArrayIndex(S.Params[Q.Param], Off, S.Dims,
                              N + 1 < Len ? BeforeLoop : PointPositions)));
      (N + 1 < Len ? Steps.Preload : Steps.Leading).push_back(Load);
      if (N + 1 < Len)
        Steps.Shifts.push_back(fmt::format("{} = {};",
                                           queueRegister(Q, N, Point),
                                           queueRegister(Q, N + 1, Point)));
    }
  }
  return Steps;
}

/// The registers of the loads that are the same at every step (arrays of
/// lower rank not spanning the marching dimension), loaded before the loop.
void MarchKernelPrinter::printInvariants(QueueSteps &Steps) {
  if (K.Invariants.empty())
    return;
  const std::string Point = Multi ? "[stencilc_p]" : "";
  W.line("// Loads that are the same at every step of the march.");
  for (size_t N = 0; N < K.Invariants.size(); ++N) {
    const planning::InvariantRegister &R = K.Invariants[N];
    const ir::Param &P = S.Params[R.Param];
    W.line("{} {}{{}};", elementType(P),
           invariantRegister(int(N), Multi ? fmt::format("[{}]", Points) : ""));
    Steps.Preload.push_back(fmt::format(
        "{} = {};", invariantRegister(int(N), Point),
        memoryLoad(Names.param(R.Param), printArrayIndex(P, R.Off, S.Dims))));
  }
}

/// Between two barriers: each thread writes its own cell of each tile (the
/// centre from the queue where it holds it; threads outside the region fill
/// the cells of the tile's halo), then the threads share the halo: whole
/// rows above and below, then the side columns.
void MarchKernelPrinter::printTileStaging() {
  W.line("__syncthreads(); // the previous step has read the tile");
  const analysis::HaloWidth &X = K.TileHalo[0], &Y = K.TileHalo[1];
  const int WX = tileWidth(X), WY = tileWidth(Y);
  std::string InTile =
      M == 2 ? "i < stencilc_ie && j < stencilc_je" : "i < stencilc_ie";
  for (const planning::TiledArray &T : K.Tiles) {
    std::string Memory = memoryLoad(Names.param(T.Param), "c");
    if (T.CentreQueue >= 0) {
      W.line("if (stencilc_active)");
      W.line("  stencilc_t{}[stencilc_tc] = {};", T.Param,
             queueRegister(K.Queues[T.CentreQueue], T.CentreSlot, ""));
      W.line("else if ({})", InTile);
    } else {
      W.line("if ({})", InTile);
    }
    W.line("  stencilc_t{}[stencilc_tc] = {};", T.Param, Memory);
  }
  std::string Count =
      M == 2 ? fmt::format("stencilc_tw * {}u + blockDim.y * {}u", WY, WX)
             : fmt::format("{}u", WX);
  W.open(fmt::format(
      "for (unsigned stencilc_e = {}; stencilc_e < {}; "
      "stencilc_e += {}) {{",
      M == 2 ? "threadIdx.y * blockDim.x + threadIdx.x" : "threadIdx.x", Count,
      M == 2 ? "blockDim.x * blockDim.y" : "blockDim.x"));
  std::string Slot, Global;
  if (M == 2) {
    W.line("unsigned stencilc_ti, stencilc_tj;");
    W.open(fmt::format("if (stencilc_e < stencilc_tw * {}u) {{", WY));
    W.line("const unsigned stencilc_row = stencilc_e / stencilc_tw;");
    W.line("stencilc_ti = stencilc_e - stencilc_row * stencilc_tw;");
    if (Y.Lo)
      W.line("stencilc_tj = stencilc_row < {0}u ? stencilc_row : "
             "stencilc_row + blockDim.y;",
             Y.Lo);
    else
      W.line("stencilc_tj = stencilc_row + blockDim.y;");
    W.dedent();
    W.open("} else {");
    W.line("const unsigned stencilc_side = stencilc_e - stencilc_tw * {}u;",
           WY);
    W.line("const unsigned stencilc_row = stencilc_side / {}u;",
           std::max(1, WX));
    W.line("const unsigned stencilc_col = stencilc_side - stencilc_row * {}u;",
           WX);
    W.line("stencilc_tj = {}u + stencilc_row;", Y.Lo);
    if (X.Lo)
      W.line("stencilc_ti = stencilc_col < {}u ? stencilc_col : "
             "stencilc_col + blockDim.x;",
             X.Lo);
    else
      W.line("stencilc_ti = stencilc_col + blockDim.x;");
    W.close();
    W.line("if (stencilc_i0 + stencilc_ti >= stencilc_ie || stencilc_j0 + "
           "stencilc_tj >= stencilc_je)");
    W.line("  continue;");
    Slot = "stencilc_tj * stencilc_pitch + stencilc_ti";
    Global = "stencilc_i0 + stencilc_ti + (stencilc_j0 + stencilc_tj) * sy "
             "+ k * sz";
  } else {
    if (X.Lo)
      W.line("const unsigned stencilc_ti = stencilc_e < {}u ? stencilc_e : "
             "stencilc_e + blockDim.x;",
             X.Lo);
    else
      W.line("const unsigned stencilc_ti = stencilc_e + blockDim.x;");
    W.line("if (stencilc_i0 + stencilc_ti >= stencilc_ie)");
    W.line("  continue;");
    Slot = "stencilc_ti";
    Global = "stencilc_i0 + stencilc_ti + j * sy";
  }
  W.line("const long long stencilc_g = {};", Global);
  for (const planning::TiledArray &T : K.Tiles)
    W.line("stencilc_t{}[{}] = {};", T.Param, Slot,
           memoryLoad(Names.param(T.Param), "stencilc_g"));
  W.close();
  W.line("__syncthreads(); // the tile holds this step's plane");
}

void MarchKernelPrinter::printMarchLoop(const QueueSteps &Q) {
  if (K.Unroll)
    W.line("#pragma unroll {}", K.Unroll);
  W.open(fmt::format("for (long long {0} = stencilc_m0; {0} < stencilc_m1; "
                     "++{0}, {1} += {2}) {{",
                     Positions[M], C, marchStride(M)));
  const bool Split = K.SplitQueueSteps;
  if (Split && !Q.Leading.empty()) {
    openPoints();
    printGuarded(Q.Leading);
    closePoints();
  }
  openPoints();
  if (!Split)
    printGuarded(Q.Leading);
  if (Tile) {
    printTileStaging();
    W.open("if (stencilc_active) {");
  }
  PlannedLoads Hooks(K);
  printBody(S, Names, Hooks, W);
  if (Tile)
    W.close();
  if (!Split)
    for (const std::string &L : Q.Shifts)
      W.line("{}", L);
  closePoints();
  if (Split && !Q.Shifts.empty()) {
    W.line("#pragma unroll");
    W.open(fmt::format("for (int stencilc_p = 0; stencilc_p < {}; "
                       "++stencilc_p) {{",
                       Points));
    for (const std::string &L : Q.Shifts)
      W.line("{}", L);
    W.close();
  }
  W.close();
}

void cuda::printMarchKernel(CodeWriter &W, const ir::Stencil &S,
                            const KernelPlan &K, const std::string &Symbol) {
  MarchKernelPrinter(W, S, K, Symbol).print(kernelName(Symbol, K.Variant));
}

void cuda::printTileHelpers(CodeWriter &W, const ir::Stencil &S,
                            const KernelPlan &K, const std::string &Symbol) {
  const std::string Stem = "stencilc_" + Symbol;
  const int WX = tileWidth(K.TileHalo[0]);
  W.line(
      "// The tile's row pitch in elements: a warp of a block narrower than");
  W.line("// 32 spans several rows, and a pitch congruent to the width modulo");
  W.line("// 32 puts them in different banks.");
  W.line("__host__ __device__ __forceinline__ unsigned {}_tile_pitch(unsigned "
         "bx) {{",
         Stem);
  W.line("  return bx < 32u ? bx + 32u * (({}u + 31u) / 32u) : bx + {}u;", WX,
         WX);
  W.line("}}");
  W.line("__host__ __device__ __forceinline__ unsigned long long "
         "{0}_tile_bytes(unsigned bx, unsigned by, unsigned long long elem) {{",
         Stem);
  W.line("  return ({}_tile_pitch(bx) * static_cast<unsigned long long>(by + "
         "{}u) * elem + 15u) / 16u * 16u;",
         Stem, K.Threads.MarchDim == 2 ? tileWidth(K.TileHalo[1]) : 0);
  W.line("}}");
  std::string Sum;
  for (const planning::TiledArray &T : K.Tiles)
    Sum += fmt::format("{}{}_tile_bytes(bx, by, sizeof({}))",
                       Sum.empty() ? "" : " + ", Stem,
                       elementType(S.Params[T.Param]));
  W.line("// Dynamic shared memory of a (bx, by) block: one tile per array.");
  W.line("__host__ __device__ __forceinline__ unsigned long long "
         "{}_smem_bytes(unsigned bx, unsigned by) {{",
         Stem);
  W.line("  return {};", Sum);
  W.line("}}");
}
