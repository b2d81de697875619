//===- PlaneSumPassPrinter.cpp - Passes summed by planes ------------------===//
///
/// \file
/// A pass of several time steps summed by planes (TemporalPlan::Sums,
/// summedByPlanes): zsum4's running sums (PlaneSumKernelPrinter.cpp) for
/// every level. A block of bx x by threads computes a tile of bx x by *
/// TemporalPlan::PlaneSumPoints points at every level, each thread a column
/// of that many points adjacent in y. A shrinking tile stores its points less
/// STEPS - 1 times the footprint a side (level l right on the tile less
/// l - 1 times it); a bordered one (BORDERED) stores all of them, and level
/// l < STEPS is also computed on a border of STEPS - l times the footprint
/// around the tile (what level l + 1 reads there), its points spread over
/// the threads, at most PlaneSumPassBorder a thread: the tile's rows stay
/// whole warps and fewer blocks cover a region that tiles less the halo fit
/// badly (the launcher picks the way, TemporalPlan::PlaneSumBorderWeight).
/// The input's planes, with the footprint around what level 1 computes, are
/// copied asynchronously into PlaneSumPassStages stages; level 1 sums each
/// staged plane into its running sums, and the plane it completes goes to
/// one of level 1's two planes in shared memory, which level 2 sums from
/// after the next barrier, and so on: one barrier a plane for all levels,
/// level l a plane and its terms' lag behind level l - 1. Level STEPS is
/// stored at the tile's points in the store region. A point outside the
/// region keeps its value (the margin) at every
/// level: the level below's centre there, the input's, which the launcher
/// makes sure is also the other array's (it takes this kernel only where the
/// runtime passes one array as both levels' margin).
///
/// Values no stored point needs (past the arrays, before the chunk's planes
/// are complete, a shrinking tile's edges at the upper levels) are computed
/// too and never reach one: copies off the arrays are clamped to them, and
/// the levels' planes start as zeros.
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/CudaKernels.h"
#include "stencilc/CodeGen/PlaneTerms.h"
#include <cassert>

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
      : W(W), S(S), P(T.Sums), F(P.Footprints.front()),
        Constant(T.PlaneSumConstantThreads), Points(T.PlaneSumPoints),
        MaxSteps(T.PlaneSumMaxSteps), Names(S), Name(Name), Ty(P.Ty.cppName()),
        ElemTy(elementType(S.Params[P.Out])), Values(planeValues(P, Points)),
        BorderValues(planeValues(P, 1)) {}

  void printKernel() {
    W.line("template <int STEPS, bool BORDERED, int BX = 0, int BY = 0>");
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
    W.line("// The points adjacent in y a thread of the pass computes.");
    W.line("static constexpr int {}_planes_points = {};", Name, Points);
    W.line("// Dynamic shared memory of a pass of steps over a tile of (bx, "
           "by) threads, bordered or not: the input's stages and two planes "
           "a level below the last.");
    W.open(fmt::format("static unsigned long long {}_planes_shared(int steps, "
                       "long long bx, long long by, bool bordered) {{",
                       Name));
    W.line("const long long reach = bordered ? steps : 1, w = bordered ? (bx "
           "+ steps * {0}) | 1 : bx + {0};",
           fx());
    W.line("return ({}ULL + 2ULL * (steps - 1)) * static_cast<unsigned long "
           "long>((by * {} + reach * {}) * w) * sizeof({});",
           planning::PlaneSumPassStages, Points, fy(), ElemTy);
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
    W.line("if (steps < 2 || steps > {} || cfg.block[1] % {}_planes_points "
           "!= 0)",
           MaxSteps, Name);
    W.line("  return nullptr;");
    W.line("const long long bx = cfg.block[0], by = cfg.block[1] / "
           "{0}_planes_points, nt = bx * by, uy = by * {0}_planes_points;",
           Name);
    W.line("if (nt > {})", planning::PlaneSumPassThreads);
    W.line("  return nullptr;");
    W.line("// A plane's offsets are ints.");
    W.line("if (g.extent[0] * g.extent[1] > 2147483647LL)");
    W.line("  return nullptr;");
    W.line("// Two ways to cover the store region. Shrinking tiles: level l "
           "on the tile less l - 1 footprints a side, so a tile stores (bx - "
           "e * fx) x (uy - e * fy) points. Bordered tiles: all stored, each "
           "level l below the last also on a border of steps - l footprints "
           "around the tile, at most {} of its points a thread. A thread "
           "copies at most {} elements of a plane either way.",
           planning::PlaneSumPassBorder, planning::PlaneSumPassCopies);
    W.line("// Each way within the shared memory a block of this GPU may "
           "have (a bordered tile's planes are wider).");
    W.line("int device = 0, most = 0;");
    W.line("if (cudaGetDevice(&device) != cudaSuccess || "
           "cudaDeviceGetAttribute(&most, "
           "cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) "
           "{{");
    W.line("  (void)cudaGetLastError();");
    W.line("  return nullptr;");
    W.line("}}");
    W.line("const unsigned long long fits = static_cast<unsigned long "
           "long>(most);");
    W.line("const long long e = steps - 1, ux0 = bx - e * {}, uy0 = uy - e * "
           "{};",
           fx(), fy());
    W.line("const bool shrinking = ux0 > 0 && uy0 > 0 && (uy + {}) * (bx + "
           "{}) <= {} * nt && {}_planes_shared(steps, bx, by, false) <= fits;",
           fy(), fx(), planning::PlaneSumPassCopies, Name);
    W.line("long long ring = 0, widest = 0; // the borders' points, level 1's");
    W.open("for (long long l = 1; l < steps; ++l) {");
    W.line("const long long d = steps - l, p = d * {} * (bx + d * {}) + d * "
           "{} * uy;",
           fy(), fx(), fx());
    W.line("ring += p;");
    W.line("widest = p > widest ? p : widest;");
    W.close();
    W.line("bool bordered = widest <= {} * nt && (uy + steps * {}) * ((bx + "
           "steps * {}) | 1) <= {} * nt && {}_planes_shared(steps, bx, by, "
           "true) <= fits;",
           planning::PlaneSumPassBorder, fy(), fx(),
           planning::PlaneSumPassCopies, Name);
    W.line("if (!shrinking && !bordered)");
    W.line("  return nullptr;");
    W.line("const long long sx = stencilc_store.hi[0] - stencilc_store.lo[0], "
           "sy = stencilc_store.hi[1] - stencilc_store.lo[1];");
    W.open("if (shrinking && bordered) {");
    W.line("// The cheaper by the points their blocks compute, a border's "
           "point weighing {} of the tile's (measured).",
           planning::PlaneSumBorderWeight);
    W.line("const double blocks0 = static_cast<double>((sx + ux0 - 1) / ux0) "
           "* ((sy + uy0 - 1) / uy0), blocks1 = static_cast<double>((sx + bx "
           "- 1) / bx) * ((sy + uy - 1) / uy);");
    W.line("bordered = blocks1 * (steps * nt * {} + {} * ring) < blocks0 * "
           "steps * nt * {};",
           Points, planning::PlaneSumBorderWeight, Points);
    W.close();
    W.line("const long long ux = bordered ? bx : ux0, uys = bordered ? uy : "
           "uy0;");
    W.line("const long long gx = (sx + ux - 1) / ux, gy = (sy + uys - 1) / "
           "uys;");
    W.line("const long long gm = (stencilc_store.hi[2] - "
           "stencilc_store.lo[2] + cfg.block[2] - 1) / cfg.block[2];");
    W.line("if (gx > 2147483647LL || gy > 65535 || gm > 65535)");
    W.line("  return nullptr;");
    W.line("const unsigned long long shared = {}_planes_shared(steps, bx, "
           "by, bordered);",
           Name);
    W.line("*stencilc_taken = true;");
    W.line("const dim3 grid(static_cast<unsigned>(gx), "
           "static_cast<unsigned>(gy), static_cast<unsigned>(gm));");
    W.line("const dim3 block(static_cast<unsigned>(bx), "
           "static_cast<unsigned>(by), 1);");
    W.line("const cudaStream_t stream = "
           "static_cast<cudaStream_t>(cfg.stream);");
    printKernelChoice("auto kernel = ", "");
    for (const auto &[X, Y] : Constant) {
      W.line("// A plan's tile: the kernel compiled for its extents.");
      W.open(fmt::format("if (bx == {} && by == {}) {{", X, Y));
      printKernelChoice("kernel = ", fmt::format(", {}, {}", X, Y));
      W.close();
    }
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
  /// The launcher's choice of the kernel's instance by steps and tiling
  /// (`bordered`), assigned by \p Assign; \p Extents: its constant extents'
  /// template arguments, if any.
  void printKernelChoice(const std::string &Assign,
                         const std::string &Extents) {
    W.line("{0}bordered ? {1}_planes<2, true{2}> : {1}_planes<2, false{2}>;",
           Assign, Name, Extents);
    if (MaxSteps < 3)
      return;
    W.open("switch (steps) {");
    for (int N = 3; N <= MaxSteps; ++N)
      W.line("case {0}: kernel = bordered ? {1}_planes<{0}, true{2}> : "
             "{1}_planes<{0}, false{2}>; break;",
             N, Name, Extents);
    W.line("default: break;");
    W.close();
  }

  /// A point a thread computes at level L: one of its own column's (Row
  /// from its first point) or one of the border's (Slot).
  struct Point {
    int L = 1;
    std::string Slot; ///< Empty for the thread's own points.
    int Row = 0;
  };

  static constexpr int Stages = planning::PlaneSumPassStages;

  /// The tile, its planes in shared memory, the chunk.
  void printTile() {
    W.line("extern __shared__ __align__(16) unsigned char stencilc_shared[];");
    W.line("// The tile's threads: BX x BY where compiled for the plan's tile "
           "(the planes' offsets then immediates), else the block's.");
    W.line("const unsigned stencilc_bx = BX ? BX : blockDim.x, stencilc_by = "
           "BY ? BY : blockDim.y;");
    W.line("// Footprints the input's planes reach around the tile (level 1's "
           "reads): STEPS where the tile is bordered, one where each level "
           "loses one; the footprints the stored points lose a side.");
    W.line("constexpr int stencilc_reach = BORDERED ? STEPS : 1, "
           "stencilc_lost = BORDERED ? 0 : STEPS - 1;");
    W.line("// A plane in shared memory: the tile's {} rows a thread row and "
           "its columns, the reach around them; bordered, rows of an odd "
           "count of elements, so that a border's column (a point a row) "
           "meets no bank twice.",
           Points);
    W.line("const int stencilc_w = BORDERED ? (stencilc_bx + STEPS * {0}) | 1 "
           ": stencilc_bx + {0};",
           fx());
    W.line("const int stencilc_n = (stencilc_by * {} + stencilc_reach * {}) * "
           "stencilc_w;",
           Points, fy());
    W.line("// The input's {} stages, then two planes a level below the "
           "last.",
           Stages);
    W.line("{0} *const stencilc_tile = reinterpret_cast<{0} "
           "*>(stencilc_shared);",
           ElemTy);
    W.line("{} *const stencilc_lev = stencilc_tile + {} * stencilc_n;", ElemTy,
           Stages);
    W.line("const unsigned stencilc_tile_at = "
           "stencil::cuda::sharedAddress(stencilc_tile);");
    W.line("const long long sy = g.extent[0], sz = sy * g.extent[1];");
    W.line("// The tile's first point: the store region's less what it loses, "
           "then the points a tile stores a block.");
    W.line("const long long stencilc_x1 = stencilc_store.lo[0] - "
           "stencilc_lost * {}LL + blockIdx.x * (static_cast<long "
           "long>(stencilc_bx) - stencilc_lost * {}LL);",
           -F.X[0], fx());
    W.line("const long long stencilc_y1 = stencilc_store.lo[1] - "
           "stencilc_lost * {}LL + blockIdx.y * (static_cast<long "
           "long>(stencilc_by) * {} - stencilc_lost * {}LL);",
           -F.Y[0], Points, fy());
    W.line("// This block stores [stencilc_m0, stencilc_m1) of z.");
    W.line("const long long stencilc_m0 = stencilc_store.lo[2] + blockIdx.z * "
           "stencilc_chunk;");
    W.line("const long long stencilc_m1 = stencilc_m0 + stencilc_chunk < "
           "stencilc_store.hi[2] ? stencilc_m0 + stencilc_chunk : "
           "stencilc_store.hi[2];");
    W.line("const int stencilc_tid = threadIdx.x + threadIdx.y * stencilc_bx;");
    W.line("const int stencilc_nt = stencilc_bx * stencilc_by;");
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
    W.line("long long stencilc_y = stencilc_y1 + stencilc_reach * ({}) + "
           "stencilc_row, stencilc_x = stencilc_x1 + stencilc_reach * ({}) + "
           "stencilc_col;",
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
    W.line("const unsigned stencilc_dst = stencilc_tile_at + "
           "static_cast<unsigned>(stencilc_fill * stencilc_n + stencilc_tid) "
           "* sizeof({});",
           ElemTy);
    W.line("#pragma unroll");
    W.open(fmt::format("for (int stencilc_k = 0; stencilc_k < {}; "
                       "++stencilc_k) {{",
                       planning::PlaneSumPassCopies));
    W.line("// A constant tile: no copy past the plane's elements, and none "
           "tested where the slot is full.");
    W.line("if (BX && stencilc_k * stencilc_nt >= stencilc_n)");
    W.line("  continue;");
    W.line("if ((BX && (stencilc_k + 1) * stencilc_nt <= stencilc_n) || "
           "stencilc_tid + stencilc_k * stencilc_nt < stencilc_n)");
    W.line("  stencil::cuda::copyToShared(stencilc_dst + "
           "static_cast<unsigned>(stencilc_k * stencilc_nt) * sizeof({}), "
           "stencilc_src + stencilc_o[stencilc_k]);",
           ElemTy);
    W.close();
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
    W.line("// Where in a plane its first point's reads start (the "
           "footprint's first row and column), and where it writes.");
    W.line("const int stencilc_rd = (threadIdx.y * {} + (stencilc_reach - 1) "
           "* {}) * stencilc_w + threadIdx.x + (stencilc_reach - 1) * {};",
           Points, -F.Y[0], -F.X[0]);
    W.line("const int stencilc_wr = stencilc_rd + {};", write());
    W.line("bool stencilc_in[{0}], stencilc_out[{0}];", Points);
    W.line("#pragma unroll");
    W.open(fmt::format(
        "for (int stencilc_p = 0; stencilc_p < {}; ++stencilc_p) {{", Points));
    W.line("const long long stencilc_y = stencilc_py + stencilc_p;");
    W.line("stencilc_in[stencilc_p] = stencilc_px >= r.lo[0] && stencilc_px < "
           "r.hi[0] && stencilc_y >= r.lo[1] && stencilc_y < r.hi[1];");
    W.line("const int stencilc_row = threadIdx.y * {} + stencilc_p;", Points);
    W.line("const int stencilc_col = threadIdx.x;");
    W.line(
        "stencilc_out[stencilc_p] = stencilc_px < stencilc_store.hi[0] && "
        "stencilc_y < stencilc_store.hi[1] && stencilc_col >= "
        "stencilc_lost * {0} && stencilc_col < static_cast<int>(stencilc_bx) "
        "- stencilc_lost * {1} && stencilc_row >= stencilc_lost * {2} && "
        "stencilc_row < static_cast<int>(stencilc_by) * {4} - stencilc_lost "
        "* {3};",
        -F.X[0], F.X[1], -F.Y[0], F.Y[1], Points);
    W.close();
    for (int L = 1; L <= planning::PlaneSumPassMaxSteps; ++L) {
      std::vector<Point> Own;
      for (int Row = 0; Row < Points; ++Row)
        Own.push_back({L, "", Row});
      printRegisters(Own, L < planning::PlaneSumPassMaxSteps);
    }
    W.line("long long stencilc_c = stencilc_px + stencilc_py * sy + "
           "stencilc_m0 * sz; // point 0's, stored next");
    printBorder();
  }

  /// \p Points' running sums and held terms and, with \p Centres, the
  /// centres their margin takes.
  void printRegisters(const std::vector<Point> &Pts, bool Centres) {
    std::string Line;
    for (const Point &X : Pts)
      for (int N = 0; N < P.runningSums(); ++N)
        Line += fmt::format("{}{} = {}", Line.empty() ? "" : ", ", sum(X, N),
                            zeroOf(Ty));
    for (const Point &X : Pts)
      for (size_t T = 0; T < P.Terms.size(); ++T)
        for (int K = 0; K < P.Terms[T].held(); ++K)
          Line += fmt::format("{}{} = {}", Line.empty() ? "" : ", ",
                              held(X, T, K), zeroOf(Ty));
    if (!Line.empty())
      W.line("{} {};", Ty, Line);
    if (!Centres || P.Hi == 0)
      return;
    Line.clear();
    for (const Point &X : Pts)
      for (int H = 0; H < P.Hi; ++H)
        Line += fmt::format("{}{} = {}", Line.empty() ? "" : ", ", centre(X, H),
                            zeroOf(ElemTy));
    W.line("{} {};", ElemTy, Line);
  }

  /// The border of each level below the last: which of its points this
  /// thread computes (where in a plane their reads start, -1 for none) and
  /// whether each is in the region.
  void printBorder() {
    W.line("// Point k of the border e times the footprint wide around the "
           "tile: where in a plane its reads start (stays -1 past the "
           "border's points), whether it is in the region.");
    W.open("auto stencilc_border = [&](int e, int k, int *rd, bool *in) {");
    // The bands' extents, each only where some band below takes it (an
    // unused one is a compiler warning): bw the bands above and below, bh the
    // columns left and right and the band below (its first row).
    std::string Extents;
    if (F.Y[0] < 0 || F.Y[1] > 0)
      Extents = fmt::format("bw = stencilc_bx + e * {}", fx());
    if (F.X[0] < 0 || F.X[1] > 0 || F.Y[1] > 0)
      Extents += fmt::format("{}bh = stencilc_by * {}",
                             Extents.empty() ? "" : ", ", Points);
    W.line("const int {};", Extents);
    W.line("int x = 0, y = 0;");
    // The bands above and below the tile, the border's whole width; then
    // the columns left and right of it, the tile's height. A band of no
    // depth (the footprint not reaching that side) is left out.
    struct Band {
      int Depth;
      std::string Count, Y, X;
    };
    const Band Bands[] = {
        {-F.Y[0], "bw", fmt::format("e * ({}) + k / bw", F.Y[0]),
         fmt::format("e * ({}) + k % bw", F.X[0])},
        {F.Y[1], "bw", "bh + k / bw", fmt::format("e * ({}) + k % bw", F.X[0])},
        {-F.X[0], "bh", fmt::format("k / (e * {})", -F.X[0]),
         fmt::format("e * ({0}) + k % (e * {1})", F.X[0], -F.X[0])},
        {F.X[1], "bh", fmt::format("k / (e * {})", F.X[1]),
         fmt::format("stencilc_bx + k % (e * {})", F.X[1])}};
    std::string Before; // the bands before's points
    for (const Band &B : Bands) {
      if (B.Depth == 0)
        continue;
      const std::string Count = fmt::format("e * {} * {}", B.Depth, B.Count);
      if (Before.empty())
        W.line("if (k < {}) {{", Count);
      else
        W.line("}} else if ((k -= {}) < {}) {{", Before, Count);
      W.line("  y = {};", B.Y);
      W.line("  x = {};", B.X);
      Before = Count;
    }
    // The plan takes only footprints reaching a side (TemporalPlan.cpp), so
    // some band is printed.
    assert(!Before.empty() && "a border with no band");
    W.line("}} else {{");
    W.line("  return;");
    W.line("}}");
    W.line("*rd = (y + (STEPS - 1) * {}) * stencilc_w + x + (STEPS - 1) * "
           "{};",
           -F.Y[0], -F.X[0]);
    W.line("const long long gx = stencilc_x1 + x, gy = stencilc_y1 + y;");
    W.line("*in = gx >= r.lo[0] && gx < r.hi[0] && gy >= r.lo[1] && gy < "
           "r.hi[1];");
    W.close("};");
    for (int L = 1; L < planning::PlaneSumPassMaxSteps; ++L) {
      std::vector<Point> Border;
      for (int Slot = 0; Slot < planning::PlaneSumPassBorder; ++Slot) {
        const Point X{L, "b" + std::to_string(Slot), 0};
        Border.push_back(X);
        W.line("int {} = -1;", borderRead(X));
        W.line("bool {} = false;", borderIn(X));
        W.line("if constexpr (BORDERED && STEPS > {})", L);
        W.line("  stencilc_border(STEPS - {}, stencilc_tid + {} * stencilc_nt, "
               "&{}, &{});",
               L, Slot, borderRead(X), borderIn(X));
      }
      printRegisters(Border, true);
    }
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
      W.line("const {} *const stencilc_plane = stencilc_tile + stencilc_use * "
             "stencilc_n;",
             ElemTy);
      W.line("stencilc_use = stencilc_use + 1 == {} ? 0 : stencilc_use + 1;",
             Stages);
    } else {
      W.line("const {} *const stencilc_plane = stencilc_lev + ({} + ((t - 1) "
             "& 1)) * stencilc_n;",
             ElemTy, 2 * (L - 2));
    }
    W.line("const long long stencilc_done = stencilc_q0 + t - {};",
           L * P.Hi + L - 1);
    const bool Below = L < planning::PlaneSumPassMaxSteps;
    if (Below) {
      W.open(fmt::format("if constexpr (BORDERED && STEPS > {}) {{", L));
      W.line("// The border this level adds around the tile.");
      printZin();
      W.line("{} *const stencilc_dst = stencilc_lev + ({} + (t & 1)) * "
             "stencilc_n;",
             ElemTy, 2 * (L - 1));
      for (int Slot = 0; Slot < planning::PlaneSumPassBorder; ++Slot) {
        const Point X{L, "b" + std::to_string(Slot), 0};
        W.open(fmt::format("if ({} >= 0) {{", borderRead(X)));
        W.line("const {} *const stencilc_src = stencilc_plane + {};", ElemTy,
               borderRead(X));
        printSums({X}, BorderValues);
        printMargin(X, borderRead(X) + " + " + write(), borderIn(X));
        W.close();
      }
      W.close();
    }
    W.line("const {} *const stencilc_src = stencilc_plane + stencilc_rd;",
           ElemTy);
    std::vector<Point> Own;
    for (int Row = 0; Row < Points; ++Row)
      Own.push_back({L, "", Row});
    printSums(Own, Values);
    W.open(fmt::format("if constexpr (STEPS == {}) {{", L));
    W.open("if (stencilc_done >= stencilc_m0) {");
    for (int Row = 0; Row < Points; ++Row) {
      W.line("if (stencilc_out[{}])", Row);
      W.line("  {}[stencilc_c{}] = {};", Names.param(P.Out),
             Row ? fmt::format(" + {} * sy", Row) : "", value(Row));
    }
    W.line("stencilc_c += sz;");
    W.close();
    if (Below) {
      W.close("} else {");
      W.indent();
      W.line("// Outside the region the level below's value, the margin.");
      printZin();
      W.line("{} *const stencilc_dst = stencilc_lev + ({} + (t & 1)) * "
             "stencilc_n + stencilc_wr;",
             ElemTy, 2 * (L - 1));
      for (const Point &X : Own)
        printMargin(X, X.Row ? fmt::format("{} * stencilc_w", X.Row) : "0",
                    fmt::format("stencilc_in[{}]", X.Row));
    }
    W.close();
    W.close();
    if (L > 1)
      W.close();
  }

  void printZin() {
    W.line("const bool stencilc_zin = stencilc_done >= r.lo[2] && "
           "stencilc_done < r.hi[2];");
  }

  /// \p Pts' loads from stencilc_src (\p Vals, theirs) and sums: each
  /// point's value, stencilc_oN for the Nth, and its running sums and held
  /// terms moved on.
  void printSums(const std::vector<Point> &Pts,
                 const std::vector<PlaneValue> &Vals) {
    const int Count = static_cast<int>(Pts.size());
    std::vector<int> Planes;
    for (int Q = P.Lo; Q <= P.Hi; ++Q)
      Planes.push_back(Q);
    const std::vector<bool> Used = usedPlaneValues(P, Vals, Count, Planes);
    for (size_t N = 0; N < Vals.size(); ++N)
      if (Used[N])
        W.line("const {} stencilc_v{} = stencilc_src[{}];", ElemTy, N,
               offset(Vals[N].X, Vals[N].Y));
    const int Sums = P.runningSums();
    for (int I = 0; I < Count; ++I) {
      const Point &X = Pts[I];
      // A held term's value computed as many planes ago as it is held.
      const auto Held = [&](size_t T) {
        return held(X, T, P.Terms[T].held() - 1);
      };
      // zsum's order: sum 0 and plane Hi's terms complete the point.
      W.line("const {} stencilc_o{} = {}{};", Ty, I, Sums ? sum(X, 0) : "",
             planeTerms(S, Names, P, Vals, P.Hi, I, Held));
      for (int N = 1; N < Sums; ++N)
        W.line("{} = {}{};", sum(X, N - 1), sum(X, N),
               planeTerms(S, Names, P, Vals, P.Hi - N, I, Held));
      if (Sums)
        W.line("{} = {};", sum(X, Sums - 1),
               planeTerms(S, Names, P, Vals, P.First, I, Held));
      for (size_t T = 0; T < P.Terms.size(); ++T) {
        for (int K = P.Terms[T].held() - 1; K > 0; --K)
          W.line("{} = {};", held(X, T, K), held(X, T, K - 1));
        if (P.Terms[T].held())
          W.line("{} = {};", held(X, T, 0), planeTerm(S, Names, P, Vals, T, I));
      }
    }
  }

  /// Point \p X's value written to stencilc_dst[\p Dst] for the next level
  /// where it and the plane are in the region (\p In), else its centre.
  void printMargin(const Point &X, const std::string &Dst,
                   const std::string &In) {
    const int Row = X.Slot.empty() ? X.Row : 0;
    const std::string Centre =
        P.Hi ? centre(X, P.Hi - 1) : "stencilc_src[" + offset(0, Row) + "]";
    W.line("stencilc_dst[{}] = stencilc_zin && {} ? {} : {};", Dst, In,
           value(Row), Centre);
    for (int H = P.Hi - 1; H > 0; --H)
      W.line("{} = {};", centre(X, H), centre(X, H - 1));
    if (P.Hi)
      W.line("{} = stencilc_src[{}];", centre(X, 0), offset(0, Row));
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

  /// From a point's reads' start to the point, in a plane.
  std::string write() const {
    return fmt::format("{} * stencilc_w + {}", -F.Y[0], -F.X[0]);
  }
  int fx() const { return F.X[1] - F.X[0]; }
  int fy() const { return F.Y[1] - F.Y[0]; }

  /// Point \p X's running sum \p N.
  static std::string sum(const Point &X, int N) {
    return fmt::format("stencilc_s{}_{}_{}", X.L,
                       X.Slot.empty() ? std::to_string(X.Row) : X.Slot, N);
  }
  /// Point \p X's term \p T (PlaneSumTerm::held), computed \p K planes ago.
  static std::string held(const Point &X, size_t T, int K) {
    return fmt::format("stencilc_h{}_{}_{}_{}", X.L,
                       X.Slot.empty() ? std::to_string(X.Row) : X.Slot, T, K);
  }
  /// Level L - 1's centre at point \p X, read \p H + 1 planes ago.
  static std::string centre(const Point &X, int H) {
    return fmt::format("stencilc_c{}_{}_{}", X.L,
                       X.Slot.empty() ? std::to_string(X.Row) : X.Slot, H);
  }
  /// A border point's reads' start in a plane, -1 for none; whether it is in
  /// the region.
  static std::string borderRead(const Point &X) {
    return fmt::format("stencilc_xr{}_{}", X.L, X.Slot);
  }
  static std::string borderIn(const Point &X) {
    return fmt::format("stencilc_xi{}_{}", X.L, X.Slot);
  }

  CodeWriter &W;
  const ir::Stencil &S;
  const PlaneSums &P;
  const PlaneFootprint &F;
  /// TemporalPlan::PlaneSumConstantThreads
  const std::vector<std::array<int, 2>> Constant;
  const int Points;                  ///< TemporalPlan::PlaneSumPoints
  const int MaxSteps;                ///< TemporalPlan::PlaneSumMaxSteps
  BodyNames Names;
  const std::string Name;
  const std::string Ty, ElemTy; ///< The sum's type, the arrays'.
  const std::vector<PlaneValue> Values;
  /// A border point's loads: one point's.
  const std::vector<PlaneValue> BorderValues;
};

} // namespace

void cuda::printPlaneSumPass(CodeWriter &W, const ir::Stencil &S,
                             const TemporalPlan &T, const std::string &Name) {
  PlaneSumPassPrinter Printer(W, S, T, Name);
  Printer.printKernel();
  W.blank();
  Printer.printLauncher();
}
