//===- LevelBarrierPassPrinter.cpp - 2-D passes, a barrier a level --------===//
///
/// \file
/// The body of a 2-D pass kernel planned with TemporalPlan::LevelBarrier,
/// after the head TemporalKernelPrinter.cpp prints (the signature, the
/// shared memory, stencilc_tx and stencilc_bx).
///
/// A block of bx threads is one row of its tile: the useful points and
/// STEPS times the reach along x on either side. It marches a chunk of rows.
/// Each thread keeps, for levels 0 to STEPS - 1, the rows of its column that
/// the next level reads, in a queue of registers (the reach along y and the
/// row itself); level l works YHi rows (its reach below) behind level l - 1.
/// To compute a row, a level puts the row of level l - 1 it reads at the
/// thread into one of two shared rows, meets the block at a barrier and
/// reads the neighbours along x from there: a barrier a level, where the
/// rings of TemporalKernelPrinter.cpp meet once a row but load every
/// neighbour from shared memory. The rows run in groups of the queues'
/// depth (twice that where it and STEPS are both odd, so that the shared
/// row alternates across groups too), unrolled, so that every queue
/// register and shared row is a constant.
///
/// A chunk runs one of two copies. Where every column of the tile and every
/// row a level computes or loads is inside the region, the kernel's own
/// copy tests nothing but the store, and every thread computes every level:
/// a thread near the tile's edge reads the shared rows' zeroed padding, its
/// values are read by no useful point. There exact float divisions by
/// constants take the product alone and keep the least dividend, below
/// which a product may differ from the quotient (stencilc_divide_or).
/// Elsewhere, and where any thread of the
/// block marked a product, the block runs the chunk function (not inlined,
/// so that its registers do not crowd the kernel's copy): every level tests
/// its row (off the arrays: zero; outside the region: the margin) and
/// divides. A pass reads only its input and writes only its output, so a
/// chunk computed again reads what it read the first time and stores the
/// same points.
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/CudaKernels.h"

using namespace stencilc;
using namespace stencilc::codegen;
using namespace stencilc::codegen::cuda;
using planning::TemporalPlan;
using planning::TimePair;

namespace {

/// How a copy of the chunk is printed.
struct ChunkMode {
  bool Checked = false;  ///< Every level tests its row and column.
  bool Products = false; ///< Exact divisions as products, marked.
};

/// The pair's shape, in the names of the printed code.
struct Shape {
  Shape(const TimePair &P, int MaxSteps)
      : XLo(P.Reach[0].Lo), XHi(P.Reach[0].Hi), YLo(P.Reach[1].Lo),
        YHi(P.Reach[1].Hi), Depth(P.RingDepth - 1),
        // A multiple of the depth that keeps every slot's dividend positive.
        Positive(Depth * ((MaxSteps * YHi + YLo) / Depth + 1)) {}

  /// The queue register of the row \p Dy rows from the one level l works
  /// on (in level l - 1's queue, or its own for Dy 0): rows by their
  /// position in the group of stencilc_u, modulo the depth.
  std::string slot(long long Dy) const {
    return fmt::format("(stencilc_u - stencilc_l * {} + {}) % {}", YHi,
                       Dy + Positive, Depth);
  }

  long long XLo, XHi, YLo, YHi;
  long long Depth;
  long long Positive;
};

/// Loads of the pair's input: along y from level l - 1's queue, along x
/// from the shared row; the rest from memory.
class QueueLoads : public DeviceHooks {
public:
  QueueLoads(const TimePair &P, const Shape &Sh, ChunkMode Mode)
      : P(P), Sh(Sh), Mode(Mode) {}
  std::string printLoad(unsigned Param, const ir::Offset &Off,
                        const std::string &Memory) const override {
    if (Param != P.In)
      return Memory;
    if (Off[0] == 0)
      return fmt::format("stencilc_q[stencilc_l - 1][{}]", Sh.slot(Off[1]));
    // TimePair::AlongRow: a read off the thread's column is on its row.
    return fmt::format("stencilc_row[stencilc_tx{}]",
                       Off[0] < 0 ? fmt::format(" - {}", -Off[0])
                                  : fmt::format(" + {}", Off[0]));
  }
  std::string storeTarget(unsigned Param,
                          const std::string &Memory) const override {
    return Param == P.Out ? "stencilc_value" : Memory;
  }
  std::string smallestDividend() const override {
    return Mode.Products ? "stencilc_smallest" : "";
  }

private:
  const TimePair &P;
  const Shape &Sh;
  ChunkMode Mode;
};

/// The body at level l and its row stencilc_k, into stencilc_v.
void printCompute(CodeWriter &W, const ir::Stencil &S, const TimePair &P,
                  const Shape &Sh, ChunkMode Mode, const std::string &Ty) {
  const BodyNames Names(S);
  W.line("{} stencilc_value;", Ty);
  QueueLoads Hooks(P, Sh, Mode);
  printBody(S, Names, Hooks, W);
  W.line("stencilc_v = stencilc_value;");
}

/// One copy of the chunk: every input row of it, every level.
void printChunk(CodeWriter &W, const ir::Stencil &S, const TimePair &P,
                const Shape &Sh, ChunkMode Mode, const std::string &Ty) {
  const BodyNames Names(S);
  W.line("// Level l works on row p - l * {} of input row p; level L's rows "
         "at this column, by row modulo {}.",
         Sh.YHi, Sh.Depth);
  W.line("{} stencilc_q[STEPS][{}] = {{}};", Ty, Sh.Depth);
  W.open("for (int stencilc_p = stencilc_base; stencilc_p < stencilc_stop; "
         "stencilc_p += stencilc_group) {");
  W.line("#pragma unroll");
  W.open("for (int stencilc_u = 0; stencilc_u < stencilc_group; "
         "++stencilc_u) {");
  W.line("const int stencilc_k0 = stencilc_p + stencilc_u;");
  W.line("stencilc_q[0][(stencilc_u + {}) % {}] = {};", Sh.Positive, Sh.Depth,
         Mode.Checked
             ? std::string("stencilc_input(stencilc_k0, i + stencilc_k0 * sy)")
             : Names.param(P.In) + "[i + stencilc_k0 * sy]");
  W.line("#pragma unroll");
  W.open("for (int stencilc_l = 1; stencilc_l <= STEPS; ++stencilc_l) {");
  W.line("const int stencilc_k = stencilc_k0 - stencilc_l * {};", Sh.YHi);
  W.line("// Levels alternate between the two shared rows.");
  W.line("{} *const stencilc_row = stencilc_rows + ((stencilc_u * STEPS + "
         "stencilc_l) & 1) * stencilc_row_size;",
         Ty);
  W.line("stencilc_row[stencilc_tx] = stencilc_q[stencilc_l - 1][{}];",
         Sh.slot(0));
  W.line("__syncthreads();");
  W.line("[[maybe_unused]] const long long j = stencilc_k;");
  W.line("const long long c = i + stencilc_k * sy;");
  W.line("{} stencilc_v;", Ty);
  if (Mode.Checked) {
    W.open("if (stencilc_k < 0 || stencilc_k >= stencilc_planes) {");
    W.line("stencilc_v = {};", zeroOf(Ty));
    W.close();
    W.open("else if (stencilc_k < stencilc_rlo || stencilc_k >= stencilc_rhi) "
           "{");
    W.line("// The margin holds still: level l's is in the array holding it "
           "one step at a time.");
    W.line("stencilc_v = (stencilc_l & 1 ? stencilc_margin1 : "
           "stencilc_margin0)[c];");
    W.close();
    W.open("else {");
    printCompute(W, S, P, Sh, Mode, Ty);
    W.close();
  } else {
    printCompute(W, S, P, Sh, Mode, Ty);
  }
  W.line("if (stencilc_l < STEPS)");
  W.line("  stencilc_q[stencilc_l][{}] = stencilc_v;", Sh.slot(0));
  W.line("else if (stencilc_keep && stencilc_k >= stencilc_first && "
         "stencilc_k < stencilc_end)");
  W.line("  {}[c] = stencilc_v;", Names.param(P.Out));
  W.close();
  W.close();
  W.close();
}

/// The name of a pass kernel's chunk function.
std::string chunkFunction(const std::string &Kernel) {
  return Kernel + "_chunk";
}

/// Defines the size of a shared row with its padding (stencilc_row_size)
/// and, in the kernel (\p Pointer), where the rows begin (stencilc_rows).
void printRows(CodeWriter &W, const std::string &Ty, const Shape &Sh,
               bool Pointer) {
  W.line("const int stencilc_row_size = stencilc_bx + {};", Sh.XLo + Sh.XHi);
  if (Pointer)
    W.line("{0} *const stencilc_rows = reinterpret_cast<{0} "
           "*>(stencilc_shared) + {1};",
           Ty, Sh.XLo);
}

/// The group of input rows (a constexpr of STEPS).
void printGroup(CodeWriter &W, const Shape &Sh) {
  W.line("// Input rows in groups of the queues' depth, twice that where it "
         "and STEPS are odd (the shared");
  W.line("// row alternates a level).");
  W.line("constexpr int stencilc_group = (STEPS * {0}) % 2 ? {1} : {0};",
         Sh.Depth, 2 * Sh.Depth);
}

} // namespace

void cuda::printLevelBarrierChunk(CodeWriter &W, const ir::Stencil &S,
                                  const TemporalPlan &T, const TimePair &P,
                                  const std::string &Kernel) {
  const std::string Ty = elementType(S.Params[P.Out]);
  const BodyNames Names(S);
  const Shape Sh(P, T.MaxSteps);
  W.line("// Pass {}'s chunk with every row tested and exact divisions: "
         "where a column of the tile or",
         Kernel);
  W.line("// a row a level works on is outside the region, and again where a "
         "product may differ.");
  W.line("template <int STEPS, int BX>");
  W.open(fmt::format(
      "__device__ __noinline__ void {}(const stencil::Grid g, const "
      "stencil::Region r, const long long i, const int stencilc_first, const "
      "int stencilc_end, const int stencilc_base, const int stencilc_stop, "
      "const bool stencilc_keep, {} *const stencilc_rows, const {} "
      "*stencilc_margin0, const {} *stencilc_margin1{}) {{",
      chunkFunction(Kernel), Ty, Ty, Ty, kernelParameters(S, Names)));
  W.line("const int stencilc_tx = threadIdx.x;");
  W.line("const int stencilc_bx = BX ? BX : blockDim.x;");
  printRows(W, Ty, Sh, false);
  W.line("const bool stencilc_column = i >= 0 && i < g.extent[0];");
  W.line("const bool stencilc_inside = i >= r.lo[0] && i < r.hi[0];");
  printPassInput(W, S, P);
  printStrides(W, S.Dims);
  printGroup(W, Sh);
  printChunk(W, S, P, Sh, ChunkMode{true, false}, Ty);
  W.close();
}

void cuda::printLevelBarrierPass(CodeWriter &W, const ir::Stencil &S,
                                 const TemporalPlan &T, const TimePair &P,
                                 const std::string &Kernel) {
  const std::string Ty = elementType(S.Params[P.Out]);
  const BodyNames Names(S);
  const Shape Sh(P, T.MaxSteps);
  W.line("// Two shared rows of a level's values, each with the reach along "
         "x on either side: zeroed, as");
  W.line("// the tile's edge threads read it (their values are never used).");
  printRows(W, Ty, Sh, true);
  W.open(fmt::format("for (int stencilc_e = stencilc_tx; stencilc_e < {}; "
                     "stencilc_e += stencilc_bx) {{",
                     Sh.XLo + Sh.XHi));
  W.line("const int stencilc_at = stencilc_e < {0} ? stencilc_e - {0} : "
         "stencilc_bx + stencilc_e - {0};",
         Sh.XLo);
  W.line("stencilc_rows[stencilc_at] = stencilc_rows[stencilc_row_size + "
         "stencilc_at] = {};",
         zeroOf(Ty));
  W.close();
  W.line("// The tile: the block's useful points (in the store region) and "
         "STEPS times the reach on either side.");
  W.line("const long long i = stencilc_store.lo[0] + blockIdx.x * "
         "static_cast<long long>(stencilc_bx - STEPS * {}) - STEPS * {} + "
         "stencilc_tx;",
         Sh.XLo + Sh.XHi, Sh.XLo);
  W.line("const long long stencilc_i0 = i - stencilc_tx;");
  W.line("const int stencilc_first = static_cast<int>(stencilc_store.lo[1] + "
         "blockIdx.y * stencilc_chunk);");
  W.line("const int stencilc_end = static_cast<int>(min(stencilc_first + "
         "stencilc_chunk, stencilc_store.hi[1]));");
  printStrides(W, S.Dims);
  W.line("// Whether level STEPS goes to memory at this column: a useful "
         "point of the tile, in the store region.");
  W.line("const bool stencilc_keep = stencilc_tx >= STEPS * {} && stencilc_tx "
         "< stencilc_bx - STEPS * {} && i >= stencilc_store.lo[0] && i < "
         "stencilc_store.hi[0];",
         Sh.XLo, Sh.XHi);
  printGroup(W, Sh);
  W.line("// From STEPS times the reach before the chunk to as far after it.");
  W.line("const int stencilc_from = stencilc_first - STEPS * {};", Sh.YLo);
  W.line("const int stencilc_base = stencilc_from - (stencilc_from + 1024 * "
         "stencilc_group) % stencilc_group;");
  W.line("const int stencilc_to = stencilc_end + STEPS * {};", Sh.YHi);
  W.line("const int stencilc_stop = stencilc_base + (stencilc_to - "
         "stencilc_base + stencilc_group - 1) / stencilc_group * "
         "stencilc_group;");
  W.line("// No test where every column of the tile, every row loaded and "
         "every row a level computes is");
  W.line("// inside the region.");
  W.line("const bool stencilc_clear = stencilc_i0 >= r.lo[0] && stencilc_i0 + "
         "stencilc_bx <= r.hi[0] && stencilc_base - STEPS * {} >= r.lo[1] && "
         "stencilc_stop <= r.hi[1];",
         Sh.YHi);
  W.line("bool stencilc_again = !stencilc_clear;");
  W.open("if (stencilc_clear) {");
  if (T.divisionsCheckedAPlane()) {
    printSmallestDividend(W);
    printChunk(W, S, P, Sh, ChunkMode{false, true}, Ty);
    W.line("// Where a product may not be the quotient: the chunk again, "
           "dividing.");
    W.line("stencilc_again = __syncthreads_or({});",
           dividendsMayDiffer(T.LeastDividend));
  } else {
    printChunk(W, S, P, Sh, ChunkMode{false, false}, Ty);
  }
  W.close();
  std::string Args;
  for (unsigned I = 1; I < S.Params.size(); ++I)
    Args += ", " + Names.param(I);
  W.line("if (stencilc_again)");
  W.line("  {}<STEPS, BX>(g, r, i, stencilc_first, stencilc_end, "
         "stencilc_base, stencilc_stop, stencilc_keep, stencilc_rows, "
         "stencilc_margin0, stencilc_margin1{});",
         chunkFunction(Kernel), Args);
}
