//===- StagedGroupPrinter.cpp - A staged fused group as CUDA --------------===//
#include "stencilc/CodeGen/StagedGroupPrinter.h"
#include "stencilc/CodeGen/StepPrinter.h"
#include "stencilc/Planning/StepPlan.h"
#include <algorithm>

using namespace stencilc;
using namespace stencilc::codegen;
using planning::StageChunk;
using planning::StageTileX;
using planning::StageTileY;

namespace {

/// One array staged in shared memory: a ring of Depth planes of EY x EX.
struct StagedArray {
  unsigned Param = 0; ///< The step's array.
  analysis::Halo Reach{};
  unsigned EX = 0, EY = 0, Depth = 1;
  std::string Tile; ///< The shared array.

  /// The ring's slot of plane k + \p Dz ("0" with one plane).
  std::string slot(long long Dz) const {
    if (Depth == 1)
      return "0";
    return fmt::format("static_cast<int>(k - stencilc_kb + {}) % {}",
                       Reach[2].Lo + Dz, Depth);
  }
  /// The element at offset \p Off from this thread's point.
  std::string at(const ir::Offset &Off) const {
    return fmt::format("{}[{}][threadIdx.y + {}][threadIdx.x + {}]", Tile,
                       slot(Off[2]), Reach[1].Lo + Off[1],
                       Reach[0].Lo + Off[0]);
  }
};

/// The consumer of a staged group: its loads of a staged array read the
/// ring.
class StagedLoads : public ForwardingHooks {
public:
  using ForwardingHooks::ForwardingHooks;
  std::string printLoad(unsigned Param, const ir::Offset &Off,
                        const std::string &Memory) const override {
    for (const auto &[P, A] : Reads)
      if (P == Param)
        return A->at(Off);
    return Base.printLoad(Param, Off, Memory);
  }
  /// The consumer's parameter and the array it reads through it.
  std::vector<std::pair<unsigned, const StagedArray *>> Reads;
};

} // namespace

/// True if every array call \p C writes is one of \p Staged: its stores are
/// copies from the rings.
static bool storesOnlyStaged(const planning::ModulePlan &Plan,
                             const ir::StepCall &C,
                             const std::vector<StagedArray> &Staged) {
  for (const analysis::ArrayInfo &A : Plan.Stencils[C.Stencil].Info->Arrays) {
    if (!A.Written)
      continue;
    const ir::StepArg &Arg = C.Args[A.Param - 1];
    if (std::none_of(Staged.begin(), Staged.end(), [&](const StagedArray &S) {
          return Arg.From == ir::StepArg::Kind::Param && Arg.Param == S.Param;
        }))
      return false;
  }
  return true;
}

/// `const auto stencilc_stage<X> = [&](sk) {...}`: plane sk of array \p A into
/// its ring, every point of the tile and its reach that some thread's consumer
/// reads.
static void printStageFunction(CodeWriter &W, const planning::ModulePlan &Plan,
                               const planning::StepPlan &SP, unsigned G,
                               const std::string &Symbol,
                               const StagedArray &A) {
  const ir::Step &St = *SP.Step;
  const bool HasZ = St.Dims == 3;
  const analysis::Halo &R = A.Reach;
  W.line("// '{}' at plane sk into its ring: the producer's value in v, the "
         "array's margin outside.",
         St.Params[A.Param].Name);
  W.open(fmt::format("const auto stencilc_stage{} = [&]({}) {{", A.Param,
                     HasZ ? "const long long sk" : ""));
  W.open(fmt::format("for (int s = stencilc_t; s < {}; s += {}) {{",
                     A.EX * A.EY, StageTileX * StageTileY));
  W.line("const long long si = stencilc_i0 - {} + s % {}, sj = stencilc_j0 - "
         "{} + s / {};",
         R[0].Lo, A.EX, R[1].Lo, A.EX);
  W.line("if (si >= r.hi[0] + {} || sj >= r.hi[1] + {})", R[0].Hi, R[1].Hi);
  W.line("  continue;");
  std::string In = "si >= v.lo[0] && si < v.hi[0] && sj >= v.lo[1] && "
                   "sj < v.hi[1]";
  if (HasZ)
    In += " && sk >= v.lo[2] && sk < v.hi[2]";
  W.line("{}[{}][s / {}][s % {}] =", A.Tile,
         A.Depth == 1
             ? std::string("0")
             : fmt::format("static_cast<int>(sk - stencilc_kb + {}) % {}",
                           R[2].Lo, A.Depth),
         A.EX, A.EX);
  W.line("    {} ? {}(g, si, sj{}{})", In, recomputeName(Symbol, G, A.Param),
         HasZ ? ", sk" : "", recomputeArguments(Plan, SP, G, A.Param));
  W.line("    : {}[si + sj * sy{}];", stepParamName(A.Param),
         HasZ ? " + sk * sz" : "");
  W.close();
  W.close("};");
}

void codegen::printStagedGroupKernel(CodeWriter &W,
                                     const planning::ModulePlan &Plan,
                                     const planning::StepPlan &SP, unsigned G,
                                     const std::string &Symbol,
                                     const std::string &Kernel,
                                     const BodyPrinterHooks &Hooks) {
  const ir::Step &St = *SP.Step;
  const planning::StepGroup &Group = SP.Groups[G];
  const bool HasZ = St.Dims == 3;
  std::vector<StagedArray> Staged;
  for (size_t I = 0; I < Group.Recomputed.size(); ++I) {
    StagedArray A;
    A.Param = Group.Recomputed[I];
    A.Reach = Group.Reach[I];
    A.EX = StageTileX + A.Reach[0].Lo + A.Reach[0].Hi;
    A.EY = StageTileY + A.Reach[1].Lo + A.Reach[1].Hi;
    A.Depth = planning::stagedRingDepth(A.Reach, St.Dims);
    A.Tile = "stencilc_ring" + std::to_string(A.Param);
    Staged.push_back(A);
  }
  W.line("// Staged on chip: {} stored to rings in shared memory, each point "
         "once, and read there by '{}'.",
         producerList(Plan, St, Group),
         Plan.Module->Stencils[St.Calls[Group.Calls.back()].Stencil]
             .qualifiedName());
  W.open(fmt::format("__global__ void __launch_bounds__({}, {}) {}(const "
                     "stencil::Grid g, const stencil::Region r, const "
                     "stencil::Region v{}) {{",
                     StageTileX * StageTileY, planning::StageMinBlocks, Kernel,
                     stepParameters(St, /*Restrict=*/true)));
  W.line("const long long stencilc_i0 = r.lo[0] + blockIdx.x * {}LL;",
         StageTileX);
  W.line("const long long stencilc_j0 = r.lo[1] + blockIdx.y * {}LL;",
         StageTileY);
  W.line("const long long i = stencilc_i0 + threadIdx.x, j = stencilc_j0 + "
         "threadIdx.y;");
  W.line("const bool stencilc_own = i < r.hi[0] && j < r.hi[1];");
  W.line("const int stencilc_t = static_cast<int>(threadIdx.y * {} + "
         "threadIdx.x);",
         StageTileX);
  printStrides(W, St.Dims);
  if (HasZ) {
    W.line("const long long stencilc_kb = r.lo[2] + blockIdx.z * {}LL;",
           StageChunk);
    W.line("const long long stencilc_ke = stencilc_kb + {0} < r.hi[2] ? "
           "stencilc_kb + {0} : r.hi[2];",
           StageChunk);
  }
  for (const StagedArray &A : Staged)
    W.line("__shared__ {} {}[{}][{}][{}];",
           ir::valueTypeName(St.Params[A.Param]), A.Tile, A.Depth, A.EY, A.EX);
  for (const StagedArray &A : Staged)
    printStageFunction(W, Plan, SP, G, Symbol, A);
  if (HasZ) {
    W.line("// The planes before the first: the ring's start.");
    for (const StagedArray &A : Staged)
      if (A.Reach[2].Lo + A.Reach[2].Hi > 0)
        W.line("for (long long sk = stencilc_kb - {}; sk < stencilc_kb + {}; "
               "++sk) "
               "stencilc_stage{}(sk);",
               A.Reach[2].Lo, A.Reach[2].Hi, A.Param);
    W.open("for (long long k = stencilc_kb; k < stencilc_ke; ++k) {");
    for (const StagedArray &A : Staged)
      W.line("stencilc_stage{}(k + {});", A.Param, A.Reach[2].Hi);
  } else {
    for (const StagedArray &A : Staged)
      W.line("stencilc_stage{}();", A.Param);
  }
  W.line("__syncthreads();");
  W.open("if (stencilc_own) {");
  W.line("const long long c = {};", centreIndex(St.Dims));
  printKeptVariables(W, St, Group);
  for (size_t I = 0; I + 1 < Group.Calls.size(); ++I) {
    const ir::StepCall &Prod = St.Calls[Group.Calls[I]];
    if (!storesOnlyStaged(Plan, Prod, Staged)) {
      printProducerAtPoint(W, Plan, Prod, Group.Unstored, Hooks);
      continue;
    }
    W.line("// '{}' stores what its ring holds here.",
           Plan.Module->Stencils[Prod.Stencil].qualifiedName());
    for (const StagedArray &A : Staged) {
      if (!writes(Plan, Prod, A.Param))
        continue;
      if (std::count(Group.Unstored.begin(), Group.Unstored.end(), A.Param))
        W.line("// '{}' is scratch: not stored.", St.Params[A.Param].Name);
      else
        W.line("{}[c] = {};", stepParamName(A.Param), A.at(ir::Offset{}));
    }
  }
  StagedLoads Loads(Hooks);
  std::vector<unsigned> FromRings;
  const ir::StepCall &Cons = St.Calls[Group.Calls.back()];
  for (const StagedArray &A : Staged)
    for (unsigned CP : Cons.boundTo(A.Param)) {
      Loads.Reads.push_back({CP, &A});
      FromRings.push_back(CP);
    }
  // The consumer only reads the staged arrays (it writes none a producer
  // does), all from the rings.
  printCallAtPoint(W, Plan, Cons,
                   ", reading what " + producerList(Plan, St, Group) +
                       " stores from the rings",
                   Loads, FromRings);
  W.close();
  if (HasZ)
    W.close(); // no barrier here: the ring has a slot to spare
  W.close();
}

void codegen::printStagedGroupLaunch(CodeWriter &W, unsigned Dims,
                                     const std::string &Kernel,
                                     const std::string &Args) {
  W.open(fmt::format("{{ // staged on chip: a tile of {} x {} per block{}",
                     StageTileX, StageTileY,
                     Dims == 3 ? fmt::format(", {} planes of z", StageChunk)
                               : std::string()));
  W.line("const dim3 block({}, {}, 1);", StageTileX, StageTileY);
  W.line("const long long gx = (nx + {}) / {};", StageTileX - 1, StageTileX);
  W.line("const long long gy = (ny + {}) / {};", StageTileY - 1, StageTileY);
  if (Dims == 3)
    W.line("const long long gz = (nz + {}) / {};", StageChunk - 1, StageChunk);
  else
    W.line("const long long gz = 1;");
  W.line("if (gx > 2147483647LL || gy > 65535 || gz > 65535)");
  W.line("  return \"region too large for one launch of a staged group\";");
  W.line(
      "const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy), "
      "static_cast<unsigned>(gz));");
  W.line("{}<<<grid, block, 0, static_cast<cudaStream_t>(cfg.stream)>>>({});",
         Kernel, Args);
  W.line("const cudaError_t err = cudaGetLastError();");
  W.line("if (err != cudaSuccess)");
  W.line("  return cudaGetErrorString(err);");
  W.close();
}
