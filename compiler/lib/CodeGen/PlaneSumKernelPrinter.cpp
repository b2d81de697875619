//===- PlaneSumKernelPrinter.cpp - Prints the zsum variant's kernel -------===//
///
/// \file
/// The CUDA kernel of the zsum variant (planning::PlaneSums): each thread
/// marches two points adjacent in y up a chunk of z; at each plane it loads
/// the plane's values both points read, once, and adds each term of the
/// body's sum to the running sum of the point the term belongs to. Running
/// sum n of a point holds, after plane q, the terms so far of the point at
/// q - Hi + 1 + n; the point at q - Hi is complete and stored. Nothing here
/// decides: the terms, their planes and the loads are the plan's.
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/CudaKernels.h"
#include "stencilc/CodeGen/PlaneTerms.h"
#include <algorithm>
#include <cassert>

using namespace stencilc;
using namespace stencilc::codegen;
using namespace stencilc::codegen::cuda;
using planning::PlaneFootprint;
using planning::PlaneLoad;
using planning::PlaneSums;
using planning::PlaneSumTerm;

namespace {

class PlaneSumKernelPrinter {
public:
  PlaneSumKernelPrinter(CodeWriter &W, const ir::Stencil &S,
                        const planning::KernelPlan &K)
      : W(W), S(S), K(K), P(K.Sums), Names(S), Ty(P.Ty.cppName()),
        OutTy(elementType(S.Params[P.Out])), Points(int(K.Threads.Points)),
        Values(planeValues(P, Points)) {
    assert(P.heldValues() == 0 && "zsum holds no term (replacesQueues)");
  }

  void print(const std::string &Kernel) {
    W.open(
        fmt::format("__global__ void {}(const stencil::Grid g, const "
                    "stencil::Region r, const long long stencilc_chunk{}) {{",
                    Kernel, kernelParameters(S, Names)));
    if (K.Stages)
      printStagedMapping();
    else
      printThreadMapping();
    const int Sums = P.runningSums();
    if (!K.Stages) {
      // Loads of each array into registers of its element type.
      W.line("// The plane's values the two points read, loaded once.");
      for (size_t N = 0; N < Values.size(); ++N)
        W.line("{} stencilc_v{};", elementType(S.Params[Values[N].Param]), N);
    }
    W.line("// Each point's running sums: after plane q, sum n holds the "
           "terms so far of the point at q {:+d} + n.",
           1 - P.Hi);
    for (int Point = 0; Point < Points; ++Point) {
      std::string Line;
      for (int N = 0; N < Sums; ++N)
        Line +=
            fmt::format("{}{} = {}", N ? ", " : "", sum(Point, N), zeroOf(Ty));
      W.line("{} {};", Ty, Line);
    }
    W.line("// Planes m0 {:+d} .. m0 {:+d}: the terms of the chunk's first "
           "points.",
           P.Lo, P.Hi - 1);
    for (int Warm = 0; Warm < Sums; ++Warm) {
      W.open("{");
      printPlane(Sums - Warm, /*Store=*/false);
      W.close();
    }
    if (K.Unroll)
      W.line("#pragma unroll {}", K.Unroll);
    W.open("for (long long k = stencilc_m0; k < stencilc_m1; ++k) {");
    printPlane(0, /*Store=*/true);
    W.close();
    W.close();
  }

private:
  std::string sum(int Point, int N) const {
    return fmt::format("stencilc_s{}_{}", Point, N);
  }

  void printChunk() {
    W.line("// This block marches [stencilc_m0, stencilc_m1) of z.");
    W.line("const long long stencilc_m0 = r.lo[2] + blockIdx.z * "
           "stencilc_chunk;");
    W.line("const long long stencilc_m1 = stencilc_m0 + stencilc_chunk < "
           "r.hi[2] ? stencilc_m0 + stencilc_chunk : r.hi[2];");
  }

  void printThreadMapping() {
    W.line("// This thread computes 2 points, adjacent in y.");
    W.line("const long long i = r.lo[0] + blockIdx.x * "
           "static_cast<long long>(blockDim.x) + threadIdx.x;");
    W.line("const long long j = r.lo[1] + (blockIdx.y * "
           "static_cast<long long>(blockDim.y) + threadIdx.y) * 2;");
    printChunk();
    W.line("if (i >= r.hi[0] || j >= r.hi[1])");
    W.line("  return;");
    W.line("const long long sy = g.extent[0];");
    W.line("const long long sz = sy * g.extent[1];");
    W.line("// Whether the second point is in the region; where it is not, "
           "the rows only it reads are loaded from the row below.");
    W.line("const bool stencilc_two = j + 1 < r.hi[1];");
    W.line("const long long stencilc_up = stencilc_two ? sy : 0;");
    W.line("// The first point's column in the plane loaded next.");
    W.line("long long c = i + j * sy + (stencilc_m0 {} {}) * sz;",
           P.Lo < 0 ? '-' : '+',
           P.Lo < 0 ? -static_cast<long long>(P.Lo) : P.Lo);
  }

  /// zsum4: every thread of the block copies and meets at the barriers, so
  /// none returns early; each array's copies, their stages and the
  /// elements of a plane this thread copies (the same ones every plane).
  void printStagedMapping() {
    W.line("extern __shared__ __align__(16) unsigned char stencilc_smem[];");
    W.line("// This thread computes {} points, adjacent in y, from copies of "
           "the block's planes in shared memory, {} stages.",
           Points, K.Stages);
    W.line("const long long stencilc_x0 = r.lo[0] + blockIdx.x * "
           "static_cast<long long>(blockDim.x);");
    W.line("const long long stencilc_y0 = r.lo[1] + blockIdx.y * "
           "static_cast<long long>(blockDim.y) * {};",
           Points);
    W.line("const long long i = stencilc_x0 + threadIdx.x;");
    W.line("const long long j = stencilc_y0 + threadIdx.y * {};", Points);
    printChunk();
    W.line("const long long sy = g.extent[0];");
    W.line("const long long sz = sy * g.extent[1];");
    W.line("const int stencilc_tid = threadIdx.x + threadIdx.y * blockDim.x;");
    W.line("const int stencilc_nt = blockDim.x * blockDim.y;");
    W.line("// The thread's points in the region: none past it in x, fewer "
           "than {0} at its end in y.",
           Points);
    W.line("const int stencilc_mine = i < r.hi[0] && j < r.hi[1] ? (r.hi[1] - "
           "j < {0} ? static_cast<int>(r.hi[1] - j) : {0}) : 0;",
           Points);
    W.line("unsigned long long stencilc_at = 0;");
    for (size_t F = 0; F < P.Footprints.size(); ++F) {
      const PlaneFootprint &Fp = P.Footprints[F];
      const std::string T = elementType(S.Params[Fp.Param]);
      W.line("// {}'s copies: x {:+d} .. {:+d}, y {:+d} .. {:+d} of the "
             "block's points; past the region's, the last it reads again.",
             Names.param(Fp.Param), Fp.X[0], Fp.X[1], Fp.Y[0], Fp.Y[1]);
      W.line("const int stencilc_w{} = blockDim.x + {};", F, Fp.X[1] - Fp.X[0]);
      W.line("const int stencilc_n{0} = (blockDim.y * {1} + {2}) * "
             "stencilc_w{0};",
             F, Points, Fp.Y[1] - Fp.Y[0]);
      W.line("{0} *const stencilc_t{1} = reinterpret_cast<{0} *>(stencilc_smem "
             "+ stencilc_at);",
             T, F);
      W.line("stencilc_at += ({}ull * stencilc_n{} * sizeof({}) + 15) / 16 * "
             "16;",
             K.Stages, F, T);
      W.line("long long stencilc_o{}[{}];", F, K.Copies);
      W.line("#pragma unroll");
      W.open(fmt::format("for (int stencilc_k = 0; stencilc_k < {}; "
                         "++stencilc_k) {{",
                         K.Copies));
      W.line("const int stencilc_e = stencilc_tid + stencilc_k * stencilc_nt "
             "< stencilc_n{0} ? stencilc_tid + stencilc_k * stencilc_nt : "
             "stencilc_n{0} - 1;",
             F);
      W.line("const int stencilc_row = stencilc_e / stencilc_w{0}, "
             "stencilc_col = stencilc_e - stencilc_row * stencilc_w{0};",
             F);
      W.line("const long long stencilc_y = stencilc_y0 + ({0}) + stencilc_row "
             "< r.hi[1] + ({1}) ? stencilc_y0 + ({0}) + stencilc_row : "
             "r.hi[1] + ({1});",
             Fp.Y[0], Fp.Y[1] - 1);
      W.line("const long long stencilc_x = stencilc_x0 + ({0}) + stencilc_col "
             "< r.hi[0] + ({1}) ? stencilc_x0 + ({0}) + stencilc_col : "
             "r.hi[0] + ({1});",
             Fp.X[0], Fp.X[1] - 1);
      W.line("stencilc_o{}[stencilc_k] = (stencilc_y - stencilc_y0 - ({})) * "
             "sy + stencilc_x - stencilc_x0 - ({});",
             F, Fp.Y[0], Fp.X[0]);
      W.close();
      W.line("const {} *stencilc_g{} = {} + (stencilc_m0 + ({})) * sz + "
             "(stencilc_y0 + ({})) * sy + stencilc_x0 + ({});",
             T, F, Names.param(Fp.Param), P.Lo, Fp.Y[0], Fp.X[0]);
    }
    W.line("// The stage copied next and the one read next; the planes left "
           "to copy.");
    W.line("int stencilc_fill = 0, stencilc_use = 0;");
    W.line("long long stencilc_left = stencilc_m1 - stencilc_m0 + {};",
           P.Hi - P.Lo);
    W.open("auto stencilc_copy = [&] {");
    W.open("if (stencilc_left > 0) {");
    for (size_t F = 0; F < P.Footprints.size(); ++F) {
      W.line("#pragma unroll");
      W.line("for (int stencilc_k = 0; stencilc_k < {}; ++stencilc_k)",
             K.Copies);
      W.line("  if (stencilc_tid + stencilc_k * stencilc_nt < stencilc_n{0})",
             F);
      W.line("    __pipeline_memcpy_async(stencilc_t{0} + stencilc_fill * "
             "stencilc_n{0} + stencilc_tid + stencilc_k * stencilc_nt, "
             "stencilc_g{0} + stencilc_o{0}[stencilc_k], sizeof({1}));",
             F, elementType(S.Params[P.Footprints[F].Param]));
      W.line("stencilc_g{} += sz;", F);
    }
    W.line("stencilc_fill = stencilc_fill + 1 == {} ? 0 : stencilc_fill + 1;",
           K.Stages);
    W.line("--stencilc_left;");
    W.close();
    W.line("__pipeline_commit();");
    W.close("};");
    for (unsigned Stage = 0; Stage + 1 < K.Stages; ++Stage)
      W.line("stencilc_copy();");
    W.line("// The first point's position in the plane stored next.");
    W.line("long long c = i + j * sy + stencilc_m0 * sz;");
  }

  /// zsum4: waits for the next plane's copy (the barrier also frees the
  /// stage read last for the next copy), starts a copy and reads the
  /// plane's values that the terms of \p Planes use.
  void printStagedReads(const std::vector<int> &Planes) {
    W.line("__pipeline_wait_prior({});", K.Stages - 2);
    W.line("__syncthreads();");
    W.line("stencilc_copy();");
    for (size_t F = 0; F < P.Footprints.size(); ++F)
      W.line("const {0} *const stencilc_r{1} = stencilc_t{1} + stencilc_use * "
             "stencilc_n{1} + threadIdx.y * {2} * stencilc_w{1} + threadIdx.x;",
             elementType(S.Params[P.Footprints[F].Param]), F, Points);
    W.line("stencilc_use = stencilc_use + 1 == {} ? 0 : stencilc_use + 1;",
           K.Stages);
    const std::vector<bool> Used = usedValues(Planes);
    for (size_t N = 0; N < Values.size(); ++N) {
      if (!Used[N])
        continue;
      const PlaneValue &V = Values[N];
      const auto F = std::find_if(
          P.Footprints.begin(), P.Footprints.end(),
          [&](const PlaneFootprint &Fp) { return Fp.Param == V.Param; });
      assert(F != P.Footprints.end() && "a value of no footprint");
      const size_t Fi = F - P.Footprints.begin();
      W.line("const {} stencilc_v{} = stencilc_r{}[{} * stencilc_w{} + {}];",
             elementType(S.Params[V.Param]), N, Fi, V.Y - F->Y[0], Fi,
             V.X - F->X[0]);
    }
  }

  std::vector<bool> usedValues(const std::vector<int> &Planes) const {
    return usedPlaneValues(P, Values, Points, Planes);
  }

  std::string groupTerms(int Plane, int Point) const {
    return planeTerms(S, Names, P, Values, Plane, Point);
  }

  /// Loads (zsum) or reads (zsum4) a plane and adds its terms; the running
  /// sums from \p From on (and the point stored, below them) are the
  /// chunk's (during the warm-up the others belong to points below it and
  /// are left as they are).
  void printPlane(int From, bool Store) {
    const int Sums = P.runningSums();
    if (K.Stages) {
      // The planes whose terms this plane's code adds.
      std::vector<int> Planes = {P.Lo};
      if (Store)
        Planes.push_back(P.Hi);
      for (int N = std::max(1, From); N < Sums; ++N)
        Planes.push_back(P.Hi - N);
      printStagedReads(Planes);
    } else {
      for (size_t N = 0; N < P.Loads.size(); ++N) {
        const PlaneLoad &L = P.Loads[N];
        ir::Offset Off{};
        Off[0] = L.X;
        Off[1] = L.SecondOnly ? L.Y - 1 : L.Y;
        std::string Index = printLinearIndex(Off, S.Dims);
        if (L.SecondOnly)
          Index += " + stencilc_up";
        W.line("stencilc_v{} = {}[{}];", N, Names.param(L.Param), Index);
      }
    }
    for (int Point = 0; Point < Points; ++Point) {
      if (Store)
        W.line("const {} stencilc_out{} = {}{};", Ty, Point, sum(Point, 0),
               groupTerms(P.Hi, Point));
      // Sum n - 1 takes sum n and the terms of plane Hi - n.
      for (int N = 1; N < Sums; ++N)
        if (N >= From)
          W.line("{} = {}{};", sum(Point, N - 1), sum(Point, N),
                 groupTerms(P.Hi - N, Point));
      W.line("{} = {};", sum(Point, Sums - 1), groupTerms(P.Lo, Point));
    }
    if (Store)
      printStores();
    if (!K.Stages || Store)
      W.line("c += sz;");
  }

  void printStores() {
    // The sum converted to the array's type, as the body's store does.
    auto Out = [&](int Point) {
      const std::string Sum = "stencilc_out" + std::to_string(Point);
      return Ty == OutTy ? Sum : "static_cast<" + OutTy + ">(" + Sum + ")";
    };
    const std::string Array = Names.param(P.Out);
    if (K.Stages) {
      for (int Point = 0; Point < Points; ++Point) {
        W.line("if ({} < stencilc_mine)", Point);
        W.line("  {}[c{}] = {};", Array,
               Point ? fmt::format(" + {} * sy", Point) : "", Out(Point));
      }
      return;
    }
    ir::Offset Below{};
    Below[2] = -P.Hi;
    W.line("{}[{}] = {};", Array, printLinearIndex(Below, S.Dims), Out(0));
    W.line("if (stencilc_two)");
    W.line("  {}[{} + sy] = {};", Array, printLinearIndex(Below, S.Dims),
           Out(1));
  }

  CodeWriter &W;
  const ir::Stencil &S;
  const planning::KernelPlan &K;
  const PlaneSums &P;
  BodyNames Names;
  const std::string Ty, OutTy; ///< The sum's type, the array's.
  const int Points;
  const std::vector<PlaneValue> Values;
};

} // namespace

void cuda::printPlaneSumKernel(CodeWriter &W, const ir::Stencil &S,
                               const planning::KernelPlan &K,
                               const std::string &Symbol) {
  PlaneSumKernelPrinter(W, S, K).print(kernelName(Symbol, K.Variant));
}

void cuda::printStageHelpers(CodeWriter &W, const ir::Stencil &S,
                             const planning::KernelPlan &K,
                             const std::string &Symbol) {
  const std::string Kernel = kernelName(Symbol, K.Variant);
  const unsigned Points = K.Threads.Points;
  std::string Bytes, Copies;
  for (const PlaneFootprint &F : K.Sums.Footprints) {
    const std::string Rows =
        fmt::format("(by * {}ull + {})", Points, F.Y[1] - F.Y[0]);
    const std::string Columns = fmt::format("(bx + {}ull)", F.X[1] - F.X[0]);
    Bytes += fmt::format("{}({}ull * {} * {} * sizeof({}) + 15) / 16 * 16",
                         Bytes.empty() ? "" : " + ", K.Stages, Rows, Columns,
                         elementType(S.Params[F.Param]));
    const std::string Elements = Rows + " * " + Columns;
    Copies += fmt::format("  n = ({} + threads - 1) / threads;\n  most = n > "
                          "most ? n : most;\n",
                          Elements);
  }
  auto Helper = [&](const std::string &Name, const std::string &Params,
                    const std::string &Body) {
    W.line("__host__ __device__ __forceinline__ unsigned long long {}_{}({}) "
           "{{",
           Kernel, Name, Params);
    std::string_view Lines = Body;
    if (!Lines.empty() && Lines.back() == '\n')
      Lines.remove_suffix(1);
    W.text(Lines);
    W.line("}}");
  };
  W.line("// Dynamic shared memory of a (bx, by) block: each array's stages.");
  Helper("smem_bytes", "unsigned bx, unsigned by",
         fmt::format("  return {};\n", Bytes));
  W.line("// The most elements of a plane one thread of a (bx, by) block "
         "copies.");
  Helper("copies", "unsigned bx, unsigned by",
         "  const unsigned long long threads = static_cast<unsigned long "
         "long>(bx) * by;\n  unsigned long long n = 0, most = 0;\n" +
             Copies + "  return most;\n");
}
