//===- PlaneSumPassPrinter.cpp - Passes summed by planes ------------------===//
///
/// \file
/// A pass of several time steps summed by planes (TemporalPlan::Sums,
/// summedByPlanes): zsum4's running sums (PlaneSumKernelPrinter.cpp) for
/// every level. A block of bx x by threads computes a tile of bx x by *
/// PlaneSumPassPoints points, each thread a column of that many points
/// adjacent in y. The input's planes, with the footprint around the tile,
/// are copied asynchronously into PlaneSumPassStages stages; level 1 sums
/// each staged plane into its running sums, and the plane it completes goes
/// to one of level 1's two planes in shared memory, which level 2 sums from
/// after the next barrier, and so on: one barrier a plane for all levels,
/// level l a plane and its terms' lag behind level l - 1. Level l is right
/// on the tile less l - 1 times the footprint on each side; level STEPS is
/// stored on the tile less STEPS - 1 times it, the points in the store
/// region. A point outside the region keeps its value (the margin) at every
/// level: the level below's centre there, the input's, which the launcher
/// makes sure is also the other array's (it takes this kernel only where the
/// runtime passes one array as both levels' margin).
///
/// Values no stored point needs (past the arrays, before the chunk's planes
/// are complete, the tile's edges at the upper levels) are computed too and
/// never reach one: copies off the arrays are clamped to them, and the
/// levels' planes start as zeros.
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/CudaKernels.h"
#include "stencilc/CodeGen/PlaneTerms.h"

using namespace stencilc;
using namespace stencilc::codegen;
using namespace stencilc::codegen::cuda;
using planning::PlaneFootprint;
using planning::PlaneSums;
using planning::TemporalPlan;

namespace {

class PlaneSumPassPrinter {
public:
  PlaneSumPassPrinter(CodeWriter &W, const ir::Stencil &S,
                      const TemporalPlan &T, const std::string &Name)
      : W(W), S(S), P(T.Sums), F(P.Footprints.front()), Names(S), Name(Name),
        Ty(P.Ty.cppName()), ElemTy(elementType(S.Params[P.Out])),
        Values(planeValues(P, Points)) {}

  void printKernel() {
    W.line("template <int STEPS>");
    // Held to 64 registers (two blocks of PlaneSumPassThreads an SM) at
    // every steps: see PlaneSumPassMaxSteps.
    W.open(fmt::format(
        "__global__ void __launch_bounds__({}, 2) "
        "{}_planes(const stencil::Grid g, const stencil::Region r, const "
        "stencil::Region stencilc_store, const long long stencilc_chunk{}) {{",
        planning::PlaneSumPassThreads, Name, kernelParameters(S, Names)));
    printTile();
    printCopies();
    printPoints();
    printLoop();
    W.close();
  }

  void printLauncher() {
    W.line("// Dynamic shared memory of a pass of steps over a tile of (bx, "
           "by) threads: the input's stages and two planes a level below the "
           "last.");
    W.open(fmt::format("static unsigned long long {}_planes_shared(int steps, "
                       "long long bx, long long by) {{",
                       Name));
    W.line("return ({}ULL + 2ULL * (steps - 1)) * static_cast<unsigned long "
           "long>((by * {} + {}) * (bx + {})) * sizeof({});",
           planning::PlaneSumPassStages, Points, F.Y[1] - F.Y[0],
           F.X[1] - F.X[0], ElemTy);
    W.close();
    W.blank();
    std::string Args;
    for (unsigned I = 1; I < S.Params.size(); ++I)
      Args += ", " + Names.param(I);
    W.line("// Launches the pass summed by planes where it takes the steps "
           "and the tile (cfg.block: bx x by points); *stencilc_taken says "
           "whether it did.");
    W.open(fmt::format(
        "static const char *{}_planes_launch(const stencil::Grid &g, const "
        "stencil::Region &r, const stencil::Region &stencilc_store, const "
        "stencil::LaunchConfig &cfg, int steps, bool *stencilc_taken{}) {{",
        Name, kernelParameters(S, Names)));
    W.line("*stencilc_taken = false;");
    W.line("if (steps < 2 || steps > {} || cfg.block[1] % {} != 0)",
           planning::PlaneSumPassMaxSteps, Points);
    W.line("  return nullptr;");
    W.line("const long long bx = cfg.block[0], by = cfg.block[1] / {};",
           Points);
    W.line("if (bx * by > {})", planning::PlaneSumPassThreads);
    W.line("  return nullptr;");
    W.line("// The tile's useful points; its planes' elements a thread "
           "copies.");
    W.line("const long long ux = bx - (steps - 1) * {}LL, uy = by * {} - "
           "(steps - 1) * {}LL;",
           F.X[1] - F.X[0], Points, F.Y[1] - F.Y[0]);
    W.line("const long long n = (by * {} + {}) * (bx + {});", Points,
           F.Y[1] - F.Y[0], F.X[1] - F.X[0]);
    W.line("if (ux <= 0 || uy <= 0 || (n + bx * by - 1) / (bx * by) > {})",
           planning::PlaneSumPassCopies);
    W.line("  return nullptr;");
    W.line("// A plane's offsets are ints.");
    W.line("if (g.extent[0] * g.extent[1] > 2147483647LL)");
    W.line("  return nullptr;");
    W.line("const long long gx = (stencilc_store.hi[0] - "
           "stencilc_store.lo[0] + ux - 1) / ux;");
    W.line("const long long gy = (stencilc_store.hi[1] - "
           "stencilc_store.lo[1] + uy - 1) / uy;");
    W.line("const long long gm = (stencilc_store.hi[2] - "
           "stencilc_store.lo[2] + cfg.block[2] - 1) / cfg.block[2];");
    W.line("if (gx > 2147483647LL || gy > 65535 || gm > 65535)");
    W.line("  return nullptr;");
    W.line("const unsigned long long shared = {}_planes_shared(steps, bx, "
           "by);",
           Name);
    W.line("int device = 0, most = 0;");
    W.line("if (cudaGetDevice(&device) != cudaSuccess || "
           "cudaDeviceGetAttribute(&most, "
           "cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess "
           "|| shared > static_cast<unsigned long long>(most)) {{");
    W.line("  (void)cudaGetLastError();");
    W.line("  return nullptr;");
    W.line("}}");
    W.line("*stencilc_taken = true;");
    W.line("const dim3 grid(static_cast<unsigned>(gx), "
           "static_cast<unsigned>(gy), static_cast<unsigned>(gm));");
    W.line("const dim3 block(static_cast<unsigned>(bx), "
           "static_cast<unsigned>(by), 1);");
    W.line("const cudaStream_t stream = "
           "static_cast<cudaStream_t>(cfg.stream);");
    W.line("auto kernel = {}_planes<{}>;", Name, 2);
    W.open("switch (steps) {");
    for (int N = 3; N <= planning::PlaneSumPassMaxSteps; ++N)
      W.line("case {0}: kernel = {1}_planes<{0}>; break;", N, Name);
    W.line("default: break;");
    W.close();
    W.open("if (shared > 48u * 1024u) {");
    W.line("const cudaError_t err = cudaFuncSetAttribute(kernel, "
           "cudaFuncAttributeMaxDynamicSharedMemorySize, "
           "static_cast<int>(shared));");
    W.open("if (err != cudaSuccess) {");
    W.line("(void)cudaGetLastError();");
    W.line("return cudaGetErrorString(err);");
    W.close();
    W.close();
    W.line("kernel<<<grid, block, shared, stream>>>(g, r, stencilc_store, "
           "cfg.block[2]{});",
           Args);
    W.line("const cudaError_t err = cudaGetLastError();");
    W.line("return err == cudaSuccess ? nullptr : cudaGetErrorString(err);");
    W.close();
  }

private:
  static constexpr int Points = planning::PlaneSumPassPoints;
  static constexpr int Stages = planning::PlaneSumPassStages;

  /// The tile, its planes in shared memory, the chunk.
  void printTile() {
    W.line("extern __shared__ __align__(16) unsigned char stencilc_shared[];");
    W.line("// A plane in shared memory: the tile's {} rows a thread row and "
           "its columns, the footprint around them.",
           Points);
    W.line("const int stencilc_w = blockDim.x + {};", F.X[1] - F.X[0]);
    W.line("const int stencilc_n = (blockDim.y * {} + {}) * stencilc_w;",
           Points, F.Y[1] - F.Y[0]);
    W.line("// The input's {} stages, then two planes a level below the "
           "last.",
           Stages);
    W.line("{0} *const stencilc_tile = reinterpret_cast<{0} "
           "*>(stencilc_shared);",
           ElemTy);
    W.line("{} *const stencilc_lev = stencilc_tile + {} * stencilc_n;", ElemTy,
           Stages);
    W.line("const long long sy = g.extent[0], sz = sy * g.extent[1];");
    W.line("// The tile's first point: the store region's, less STEPS - 1 "
           "times the footprint, then a tile's useful points a block.");
    W.line("const long long stencilc_x1 = stencilc_store.lo[0] - (STEPS - 1) "
           "* {}LL + blockIdx.x * (static_cast<long long>(blockDim.x) - "
           "(STEPS - 1) * {}LL);",
           -F.X[0], F.X[1] - F.X[0]);
    W.line("const long long stencilc_y1 = stencilc_store.lo[1] - (STEPS - 1) "
           "* {}LL + blockIdx.y * (static_cast<long long>(blockDim.y) * {} - "
           "(STEPS - 1) * {}LL);",
           -F.Y[0], Points, F.Y[1] - F.Y[0]);
    W.line("// This block stores [stencilc_m0, stencilc_m1) of z.");
    W.line("const long long stencilc_m0 = stencilc_store.lo[2] + blockIdx.z * "
           "stencilc_chunk;");
    W.line("const long long stencilc_m1 = stencilc_m0 + stencilc_chunk < "
           "stencilc_store.hi[2] ? stencilc_m0 + stencilc_chunk : "
           "stencilc_store.hi[2];");
    W.line("const int stencilc_tid = threadIdx.x + threadIdx.y * blockDim.x;");
    W.line("const int stencilc_nt = blockDim.x * blockDim.y;");
    W.line("for (int stencilc_e = stencilc_tid; stencilc_e < 2 * (STEPS - 1) "
           "* stencilc_n; stencilc_e += stencilc_nt)");
    W.line("  stencilc_lev[stencilc_e] = {};", zeroOf(ElemTy));
  }

  /// The input's copies: the same elements of every plane, clamped to the
  /// arrays; the planes from STEPS times the terms' lowest below the chunk
  /// to STEPS times their highest above it.
  void printCopies() {
    const std::string In = Names.param(F.Param);
    W.line("// This thread's elements of a plane of the input's tile.");
    W.line("int stencilc_o[{}];", planning::PlaneSumPassCopies);
    W.line("#pragma unroll");
    W.open(fmt::format("for (int stencilc_k = 0; stencilc_k < {}; "
                       "++stencilc_k) {{",
                       planning::PlaneSumPassCopies));
    W.line("const int stencilc_e = stencilc_tid + stencilc_k * stencilc_nt < "
           "stencilc_n ? stencilc_tid + stencilc_k * stencilc_nt : stencilc_n "
           "- 1;");
    W.line("const int stencilc_row = stencilc_e / stencilc_w, stencilc_col = "
           "stencilc_e - stencilc_row * stencilc_w;");
    W.line("long long stencilc_y = stencilc_y1 + ({}) + stencilc_row, "
           "stencilc_x = stencilc_x1 + ({}) + stencilc_col;",
           F.Y[0], F.X[0]);
    W.line("stencilc_y = stencilc_y < 0 ? 0 : stencilc_y >= g.extent[1] ? "
           "g.extent[1] - 1 : stencilc_y;");
    W.line("stencilc_x = stencilc_x < 0 ? 0 : stencilc_x >= g.extent[0] ? "
           "g.extent[0] - 1 : stencilc_x;");
    W.line("stencilc_o[stencilc_k] = static_cast<int>(stencilc_y * sy + "
           "stencilc_x);");
    W.close();
    W.line("// The input's plane copied next, and its last.");
    W.line("long long stencilc_q = stencilc_m0 + STEPS * ({});", P.Lo);
    W.line("const long long stencilc_qn = stencilc_m1 - 1 + STEPS * ({});",
           P.Hi);
    W.line("int stencilc_fill = 0, stencilc_use = 0;");
    W.open("auto stencilc_copy = [&] {");
    W.open("if (stencilc_q <= stencilc_qn) {");
    W.line("const long long stencilc_k = stencilc_q < 0 ? 0 : stencilc_q >= "
           "g.extent[2] ? g.extent[2] - 1 : stencilc_q;");
    W.line("const {} *const stencilc_src = {} + stencilc_k * sz;", ElemTy, In);
    W.line("{} *const stencilc_dst = stencilc_tile + stencilc_fill * "
           "stencilc_n + stencilc_tid;",
           ElemTy);
    W.line("#pragma unroll");
    W.line("for (int stencilc_k = 0; stencilc_k < {}; ++stencilc_k)",
           planning::PlaneSumPassCopies);
    W.line("  if (stencilc_tid + stencilc_k * stencilc_nt < stencilc_n)");
    W.line("    __pipeline_memcpy_async(stencilc_dst + stencilc_k * "
           "stencilc_nt, stencilc_src + stencilc_o[stencilc_k], sizeof({}));",
           ElemTy);
    W.line("stencilc_fill = stencilc_fill + 1 == {} ? 0 : stencilc_fill + 1;",
           Stages);
    W.line("++stencilc_q;");
    W.close();
    W.line("__pipeline_commit();");
    W.close("};");
    for (int Stage = 0; Stage + 1 < Stages; ++Stage)
      W.line("stencilc_copy();");
  }

  /// The thread's points: where they are in a plane, which are in the
  /// region (computed) and which are stored; each level's running sums and
  /// the centres its margin takes.
  void printPoints() {
    W.line("// This thread's points: column x, rows y .. y + {} of the tile.",
           Points - 1);
    W.line("const long long stencilc_px = stencilc_x1 + threadIdx.x, "
           "stencilc_py = stencilc_y1 + threadIdx.y * {};",
           Points);
    W.line("const int stencilc_rd = threadIdx.y * {} * stencilc_w + "
           "threadIdx.x;",
           Points);
    W.line("const int stencilc_wr = stencilc_rd + {} * stencilc_w + {};",
           -F.Y[0], -F.X[0]);
    W.line("bool stencilc_in[{0}], stencilc_out[{0}];", Points);
    W.line("#pragma unroll");
    W.open(fmt::format(
        "for (int stencilc_p = 0; stencilc_p < {}; ++stencilc_p) {{", Points));
    W.line("const long long stencilc_y = stencilc_py + stencilc_p;");
    W.line("stencilc_in[stencilc_p] = stencilc_px >= r.lo[0] && stencilc_px < "
           "r.hi[0] && stencilc_y >= r.lo[1] && stencilc_y < r.hi[1];");
    W.line("const int stencilc_row = threadIdx.y * {} + stencilc_p;", Points);
    W.line("stencilc_out[stencilc_p] = stencilc_px < stencilc_store.hi[0] && "
           "stencilc_y < stencilc_store.hi[1] && threadIdx.x >= (STEPS - 1) * "
           "{0} && threadIdx.x < blockDim.x - (STEPS - 1) * {1} && "
           "stencilc_row >= (STEPS - 1) * {2} && stencilc_row < "
           "static_cast<int>(blockDim.y) * {4} - (STEPS - 1) * {3};",
           -F.X[0], F.X[1], -F.Y[0], F.Y[1], Points);
    W.close();
    const int Sums = P.runningSums();
    for (int L = 1; L <= planning::PlaneSumPassMaxSteps; ++L) {
      std::string Line;
      for (int Point = 0; Point < Points; ++Point)
        for (int N = 0; N < Sums; ++N)
          Line += fmt::format("{}{} = {}", Line.empty() ? "" : ", ",
                              sum(L, Point, N), zeroOf(Ty));
      if (!Line.empty())
        W.line("{} {};", Ty, Line);
      if (L == planning::PlaneSumPassMaxSteps || P.Hi == 0)
        continue;
      Line.clear();
      for (int Point = 0; Point < Points; ++Point)
        for (int H = 0; H < P.Hi; ++H)
          Line += fmt::format("{}{} = {}", Line.empty() ? "" : ", ",
                              centre(L, Point, H), zeroOf(ElemTy));
      W.line("{} {};", ElemTy, Line);
    }
    W.line("long long stencilc_c = stencilc_px + stencilc_py * sy + "
           "stencilc_m0 * sz; // point 0's, stored next");
  }

  void printLoop() {
    W.line("// The input's planes and STEPS - 1 more: level l completes "
           "plane stencilc_q0 + t - l * {} - (l - 1) at t.",
           P.Hi);
    W.line("const long long stencilc_q0 = stencilc_m0 + STEPS * ({});", P.Lo);
    W.line("const int stencilc_iters = static_cast<int>(stencilc_m1 - "
           "stencilc_m0) + STEPS * {} + STEPS - 1;",
           P.Hi - P.Lo);
    W.open("for (int t = 0; t < stencilc_iters; ++t) {");
    W.line("__pipeline_wait_prior({});", Stages - 2);
    W.line("__syncthreads();");
    W.line("stencilc_copy();");
    for (int L = 1; L <= planning::PlaneSumPassMaxSteps; ++L)
      printLevel(L);
    W.close();
  }

  /// Level \p L at iteration t: the plane of level L - 1 completed at t - 1
  /// (the input's staged plane for level 1) added to its sums.
  void printLevel(int L) {
    if (L > 1)
      W.open(fmt::format("if constexpr (STEPS >= {}) {{", L));
    W.open(fmt::format("if (t >= {} && t < stencilc_iters - STEPS + {}) {{",
                       L - 1, L));
    if (L == 1) {
      W.line("const {} *const stencilc_src = stencilc_tile + stencilc_use * "
             "stencilc_n + stencilc_rd;",
             ElemTy);
      W.line("stencilc_use = stencilc_use + 1 == {} ? 0 : stencilc_use + 1;",
             Stages);
    } else {
      W.line("const {} *const stencilc_src = stencilc_lev + ({} + ((t - 1) & "
             "1)) * stencilc_n + stencilc_rd;",
             ElemTy, 2 * (L - 2));
    }
    std::vector<int> Planes;
    for (int Q = P.Lo; Q <= P.Hi; ++Q)
      Planes.push_back(Q);
    const std::vector<bool> Used = usedPlaneValues(P, Values, Points, Planes);
    for (size_t N = 0; N < Values.size(); ++N)
      if (Used[N])
        W.line("const {} stencilc_v{} = stencilc_src[{}];", ElemTy, N,
               offset(Values[N].X, Values[N].Y));
    const int Sums = P.runningSums();
    for (int Point = 0; Point < Points; ++Point) {
      // zsum's order: sum 0 and plane Hi's terms complete the point.
      W.line("const {} stencilc_o{} = {}{};", Ty, Point,
             Sums ? sum(L, Point, 0) : "",
             planeTerms(S, Names, P, Values, P.Hi, Point));
      for (int N = 1; N < Sums; ++N)
        W.line("{} = {}{};", sum(L, Point, N - 1), sum(L, Point, N),
               planeTerms(S, Names, P, Values, P.Hi - N, Point));
      if (Sums)
        W.line("{} = {};", sum(L, Point, Sums - 1),
               planeTerms(S, Names, P, Values, P.Lo, Point));
    }
    W.line("const long long stencilc_done = stencilc_q0 + t - {};",
           L * P.Hi + L - 1);
    W.open(fmt::format("if constexpr (STEPS == {}) {{", L));
    W.open("if (stencilc_done >= stencilc_m0) {");
    for (int Point = 0; Point < Points; ++Point) {
      W.line("if (stencilc_out[{}])", Point);
      W.line("  {}[stencilc_c{}] = {};", Names.param(P.Out),
             Point ? fmt::format(" + {} * sy", Point) : "", value(Point));
    }
    W.line("stencilc_c += sz;");
    W.close();
    if (L < planning::PlaneSumPassMaxSteps) {
      W.close("} else {");
      W.indent();
      W.line("// Outside the region the level below's value, the margin.");
      W.line("const bool stencilc_zin = stencilc_done >= r.lo[2] && "
             "stencilc_done < r.hi[2];");
      W.line("{} *const stencilc_dst = stencilc_lev + ({} + (t & 1)) * "
             "stencilc_n + stencilc_wr;",
             ElemTy, 2 * (L - 1));
      for (int Point = 0; Point < Points; ++Point) {
        const std::string Centre =
            P.Hi ? centre(L, Point, P.Hi - 1)
                 : "stencilc_src[" + offset(0, Point) + "]";
        W.line("stencilc_dst[{}] = stencilc_zin && stencilc_in[{}] ? {} : {};",
               Point ? fmt::format("{} * stencilc_w", Point) : "0", Point,
               value(Point), Centre);
        for (int H = P.Hi - 1; H > 0; --H)
          W.line("{} = {};", centre(L, Point, H), centre(L, Point, H - 1));
        if (P.Hi)
          W.line("{} = stencilc_src[{}];", centre(L, Point, 0),
                 offset(0, Point));
      }
    }
    W.close();
    W.close();
    if (L > 1)
      W.close();
  }

  /// Where the value at (X, Y) from the thread's first point is in a plane,
  /// from stencilc_src.
  std::string offset(int X, int Y) const {
    const int Row = Y - F.Y[0], Col = X - F.X[0];
    if (Row == 0)
      return std::to_string(Col);
    return fmt::format("{} * stencilc_w + {}", Row, Col);
  }

  /// Point \p Point's sum, as the array's type.
  std::string value(int Point) const {
    const std::string Sum = "stencilc_o" + std::to_string(Point);
    return Ty == ElemTy ? Sum : "static_cast<" + ElemTy + ">(" + Sum + ")";
  }

  static std::string sum(int L, int Point, int N) {
    return fmt::format("stencilc_s{}_{}_{}", L, Point, N);
  }
  /// Level L - 1's centre at point \p Point, read \p H + 1 planes ago.
  static std::string centre(int L, int Point, int H) {
    return fmt::format("stencilc_c{}_{}_{}", L, Point, H);
  }

  CodeWriter &W;
  const ir::Stencil &S;
  const PlaneSums &P;
  const PlaneFootprint &F;
  BodyNames Names;
  const std::string Name;
  const std::string Ty, ElemTy; ///< The sum's type, the arrays'.
  const std::vector<PlaneValue> Values;
};

} // namespace

void cuda::printPlaneSumPass(CodeWriter &W, const ir::Stencil &S,
                             const TemporalPlan &T, const std::string &Name) {
  PlaneSumPassPrinter Printer(W, S, T, Name);
  Printer.printKernel();
  W.blank();
  Printer.printLauncher();
}
