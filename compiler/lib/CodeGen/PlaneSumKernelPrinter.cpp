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
#include <algorithm>
#include <cassert>

using namespace stencilc;
using namespace stencilc::codegen;
using namespace stencilc::codegen::cuda;
using planning::PlaneLoad;
using planning::PlaneSums;
using planning::PlaneSumTerm;

namespace {

/// Loads of the body from the plane's registers, for the thread's point
/// \p Point (the second is a row up).
class PlaneRegisters : public DeviceHooks {
public:
  PlaneRegisters(const PlaneSums &P, int Point) : P(P), Point(Point) {}
  std::string printLoad(unsigned Param, const ir::Offset &Off,
                        const std::string &Memory) const override {
    const auto It =
        std::find_if(P.Loads.begin(), P.Loads.end(), [&](const PlaneLoad &L) {
          return L.Param == Param && L.X == Off[0] && L.Y == Off[1] + Point;
        });
    assert(It != P.Loads.end() && "a load the plan does not make");
    if (It == P.Loads.end())
      return Memory;
    return fmt::format("stencilc_v{}", It - P.Loads.begin());
  }

private:
  const PlaneSums &P;
  const int Point;
};

class PlaneSumKernelPrinter {
public:
  PlaneSumKernelPrinter(CodeWriter &W, const ir::Stencil &S,
                        const planning::KernelPlan &K)
      : W(W), S(S), K(K), P(K.Sums), Names(S), Ty(P.Ty.cppName()),
        OutTy(elementType(S.Params[P.Out])) {}

  void print(const std::string &Kernel) {
    W.open(
        fmt::format("__global__ void {}(const stencil::Grid g, const "
                    "stencil::Region r, const long long stencilc_chunk{}) {{",
                    Kernel, kernelParameters(S, Names)));
    printThreadMapping();
    const int Sums = P.runningSums();
    // Loads of each array into registers of its element type.
    W.line("// The plane's values the two points read, loaded once.");
    for (size_t N = 0; N < P.Loads.size(); ++N)
      W.line("{} stencilc_v{};", elementType(S.Params[P.Loads[N].Param]), N);
    W.line("// Each point's running sums: after plane q, sum n holds the "
           "terms so far of the point at q {:+d} + n.",
           1 - P.Hi);
    for (int Point = 0; Point < 2; ++Point) {
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

  void printThreadMapping() {
    W.line("// This thread computes 2 points, adjacent in y.");
    W.line("const long long i = r.lo[0] + blockIdx.x * "
           "static_cast<long long>(blockDim.x) + threadIdx.x;");
    W.line("const long long j = r.lo[1] + (blockIdx.y * "
           "static_cast<long long>(blockDim.y) + threadIdx.y) * 2;");
    W.line("// This block marches [stencilc_m0, stencilc_m1) of z.");
    W.line("const long long stencilc_m0 = r.lo[2] + blockIdx.z * "
           "stencilc_chunk;");
    W.line("const long long stencilc_m1 = stencilc_m0 + stencilc_chunk < "
           "r.hi[2] ? stencilc_m0 + stencilc_chunk : r.hi[2];");
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

  /// The terms of plane \p Plane for point \p Point, each after an operator
  /// (the chain's first without).
  std::string groupTerms(int Plane, int Point) const {
    PlaneRegisters Hooks(P, Point);
    std::string Text;
    for (const PlaneSumTerm &T : P.Terms) {
      if (T.Plane != Plane)
        continue;
      const std::string Term =
          "(" + printExpression(S, Names, Hooks, *T.Value) + ")";
      Text +=
          &T == &P.Terms.front() ? Term : (T.Subtract ? " - " : " + ") + Term;
    }
    return Text;
  }

  /// Loads a plane and adds its terms; the running sums from \p From on
  /// (and the point stored, below them) are the chunk's (during the warm-up
  /// the others belong to points below it and are left as they are).
  void printPlane(int From, bool Store) {
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
    const int Sums = P.runningSums();
    for (int Point = 0; Point < 2; ++Point) {
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
    ir::Offset Below{};
    Below[2] = -P.Hi;
    if (Store) {
      // The sum converted to the array's type, as the body's store does.
      auto Out = [&](int Point) {
        const std::string Sum = "stencilc_out" + std::to_string(Point);
        return Ty == OutTy ? Sum : "static_cast<" + OutTy + ">(" + Sum + ")";
      };
      W.line("{}[{}] = {};", Names.param(P.Out),
             printLinearIndex(Below, S.Dims), Out(0));
      W.line("if (stencilc_two)");
      W.line("  {}[{} + sy] = {};", Names.param(P.Out),
             printLinearIndex(Below, S.Dims), Out(1));
    }
    W.line("c += sz;");
  }

  CodeWriter &W;
  const ir::Stencil &S;
  const planning::KernelPlan &K;
  const PlaneSums &P;
  BodyNames Names;
  const std::string Ty, OutTy; ///< The sum's type, the array's.
};

} // namespace

void cuda::printPlaneSumKernel(CodeWriter &W, const ir::Stencil &S,
                               const planning::KernelPlan &K,
                               const std::string &Symbol) {
  PlaneSumKernelPrinter(W, S, K).print(kernelName(Symbol, K.Variant));
}
