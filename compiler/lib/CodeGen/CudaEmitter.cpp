//===- CudaEmitter.cpp - The CUDA backend ---------------------------------===//
///
/// \file
/// Per stencil and planned variant: a kernel, a host launcher with the
/// runtime's GeneratedLaunchFn signature that unpacks the arguments and
/// launches it on cfg.stream, and a registration.
///
/// "grid": one thread per point of the region box (x on blockIdx.x, y on
/// blockIdx.y, z on blockIdx.z; for 4-D, z and w share blockIdx.z).
///
/// "zmarch" and "smem" (2-D and 3-D): threads cover the plane below the
/// marching dimension M (z in 3-D, y in 2-D; the block is (bx, by) in 3-D and
/// (bx, 1) in 2-D) and each marches cfg.block[2] points along M. Arrays read
/// at column offsets (0, 0, dz) keep them in a queue of registers that
/// shifts by one each step, so each value is loaded once per point. "smem"
/// also stages each plane of the arrays read at in-plane neighbours, with
/// its halo, in a shared-memory tile between two barriers per step. "zmarch2"
/// is "zmarch" with two points per thread. Other loads are plain: a read-only
/// array is a const __restrict__ parameter, which nvcc already loads through
/// the read-only data path (ld.global.nc), and plain loads, unlike __ldg (an
/// asm volatile statement), may be scheduled early and merged. Block shape
/// and chunk are launch parameters: one kernel serves every candidate, and a
/// query function reports its registers and shared memory to the tuner.
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/CudaKernels.h"
#include "stencilc/CodeGen/Emitter.h"
#include "stencilc/CodeGen/RegistrationGlue.h"
#include "stencilc/CodeGen/StagedGroupPrinter.h"
#include "stencilc/CodeGen/StepPrinter.h"
#include "stencilc/Planning/StepPlan.h"
#include <algorithm>

using namespace stencilc;
using namespace stencilc::codegen;
using namespace stencilc::codegen::cuda;

namespace {

class CudaEmitter : public Emitter {
public:
  std::string emit(const planning::ModulePlan &Plan) const override;
  const char *fileSuffix() const override { return ".stencil.cu"; }

private:
  void emitGridKernel(CodeWriter &W, const ir::Stencil &S,
                      const std::string &Symbol) const;
  void emitGridLauncher(CodeWriter &W, const ir::Stencil &S,
                        const std::string &Symbol) const;
  void emitMarchLauncher(CodeWriter &W, const ir::Stencil &S,
                         const planning::KernelPlan &K,
                         const std::string &Symbol) const;
  void emitQuery(CodeWriter &W, const planning::StencilPlan &SP,
                 planning::VariantKind V, const std::string &Symbol) const;
  void emitStep(CodeWriter &W, const planning::ModulePlan &Plan,
                const planning::StepPlan &SP,
                const std::vector<std::string> &Symbols,
                const std::string &Symbol) const;
};

} // namespace

const char *const cuda::Positions[4] = {"i", "j", "k", "w"};
const char *const cuda::Axes[3] = {"x", "y", "z"};

std::string cuda::deviceMathCallee(ir::MathFunc F, ir::Type Ty) {
  if (F == ir::MathFunc::Abs && Ty.isInteger())
    return Ty.bytes() == 8 ? "llabs" : "abs";
  std::string Name = F == ir::MathFunc::Abs ? "fabs" : ir::mathFuncName(F);
  // CUDA's float functions carry the C suffix: sqrtf computes in float;
  // its classification functions are overloads (isnan(float)).
  if (Ty.kind() == ir::ScalarKind::Float32 && !ir::mathFuncClassifies(F))
    Name += 'f';
  return Name;
}

static std::string gridKernelName(const std::string &Symbol) {
  return "stencilc_" + Symbol + "_grid";
}

std::string cuda::kernelName(const std::string &Symbol,
                             planning::VariantKind V) {
  return "stencilc_" + Symbol + "_" + planning::variantName(V);
}

/// The launcher's name; the grid variant keeps the foundation's name.
static std::string launcherName(const std::string &Symbol,
                                planning::VariantKind V) {
  if (V == planning::VariantKind::Grid)
    return "stencilc_" + Symbol + "_cuda_launch";
  return kernelName(Symbol, V) + "_cuda_launch";
}

std::string cuda::elementType(const ir::Param &P) {
  return ir::valueTypeName(P);
}

std::string cuda::zeroOf(const std::string &Ty) {
  return "static_cast<" + Ty + ">(0)";
}

int cuda::tileWidth(const analysis::HaloWidth &H) {
  // Planning keeps each side within MaxTileHalo.
  return static_cast<int>(H.Lo + H.Hi);
}

std::string cuda::kernelParameters(const ir::Stencil &S,
                                   const BodyNames &Names) {
  std::string Params;
  for (unsigned P = 1; P < S.Params.size(); ++P) {
    const ir::Param &Param = S.Params[P];
    std::string Ty = argumentValueType(Param);
    // Arrays do not alias: each is read-only or written at the centre only.
    if (Param.Kind == ir::ParamKind::Array && Ty.back() == '*')
      Params += fmt::format(", {}__restrict__ {}", Ty, Names.param(P));
    else
      Params += fmt::format(", {} {}", Ty, Names.param(P));
  }
  return Params;
}

/// One thread per point of the region box: its position i, j, k (w), gone
/// when outside; then the strides and c. With \p ZFirst (3-D and 4-D), the
/// name of a flag: where it is true, blockIdx.y counts the blocks along z
/// (with w in 4-D) and blockIdx.z those in y, so that the blocks of a row
/// in x go down the columns before the next row.
static void printGridPoint(CodeWriter &W, unsigned Dims,
                           const char *ZFirst = nullptr) {
  // The block index of dimension D (z with w in 4-D).
  auto BlockOf = [&](unsigned D) {
    if (!ZFirst || Dims == 2 || D == 0)
      return std::string("blockIdx.") + Axes[D];
    return fmt::format("({} ? blockIdx.{} : blockIdx.{})", ZFirst,
                       D == 1 ? "z" : "y", Axes[D]);
  };
  for (unsigned D = 0; D < 2; ++D)
    W.line("const long long {0} = r.lo[{1}] + {3} * "
           "static_cast<long long>(blockDim.{2}) + threadIdx.{2};",
           Positions[D], D, Axes[D], BlockOf(D));
  if (Dims == 3) {
    W.line("const long long k = r.lo[2] + {} * "
           "static_cast<long long>(blockDim.z) + threadIdx.z;",
           BlockOf(2));
  } else if (Dims == 4) {
    W.line("// z and w share {}: zblocks blocks of z per w.", BlockOf(2));
    W.line("const long long zblocks = (r.hi[2] - r.lo[2] + blockDim.z - 1) / "
           "blockDim.z;");
    W.line("const long long k = r.lo[2] + ({} % zblocks) * "
           "static_cast<long long>(blockDim.z) + threadIdx.z;",
           BlockOf(2));
    W.line("const long long w = r.lo[3] + {} / zblocks;", BlockOf(2));
  }
  std::string Outside;
  for (unsigned D = 0; D < Dims; ++D)
    Outside +=
        fmt::format("{}{} >= r.hi[{}]", D ? " || " : "", Positions[D], D);
  W.line("if ({})", Outside);
  W.line("  return;");
  printPointIndex(W, Dims);
}

void CudaEmitter::emitGridKernel(CodeWriter &W, const ir::Stencil &S,
                                 const std::string &Symbol) const {
  BodyNames Names(S);
  std::string Params = "const stencil::Grid g, const stencil::Region r" +
                       kernelParameters(S, Names);
  W.open(
      fmt::format("__global__ void {}({}) {{", gridKernelName(Symbol), Params));
  printGridPoint(W, S.Dims);
  DeviceHooks Hooks;
  printBody(S, Names, Hooks, W);
  W.close();
}

/// nx, ny (nz, nw): the region's extents; nothing to do when one is empty.
static void printRegionExtents(CodeWriter &W, unsigned Dims) {
  static const char *const Extents[] = {"nx", "ny", "nz", "nw"};
  std::string Empty;
  for (unsigned D = 0; D < Dims; ++D) {
    W.line("const long long {} = r.hi[{}] - r.lo[{}];", Extents[D], D, D);
    Empty += fmt::format("{}{} <= 0", D ? " || " : "", Extents[D]);
  }
  W.line("if ({})", Empty);
  W.line("  return nullptr;");
}

/// A launcher's opening: its signature, the region's extents (nothing to
/// do when one is empty), the block check and the arguments unpacked.
static void printLauncherPrologue(CodeWriter &W, const ir::Stencil &S,
                                  const BodyNames &Names,
                                  const std::string &Name) {
  W.open(launcherSignature(Name, /*UsesConfig=*/true, S.Params.size() > 1) +
         " {");
  printRegionExtents(W, S.Dims);
  W.line("if (cfg.block[0] <= 0 || cfg.block[1] <= 0 || cfg.block[2] <= 0)");
  W.line("  return \"invalid CUDA block size\";");
  printArgumentUnpacking(W, S, Names, std::vector<bool>(S.Params.size(), true));
}

/// The block (\p X, \p Y, \p Z) and grid of a launch with one thread per
/// point of the region box nx * ny (* nz (* nw)); \p ZFirst as for
/// printGridPoint.
static void printGridShape(CodeWriter &W, unsigned Dims, const std::string &X,
                           const std::string &Y, const std::string &Z,
                           const char *ZFirst = nullptr) {
  // A 2-D kernel has no z: a deeper block would only repeat its threads.
  W.line("const dim3 block({}, {}, {});", X, Y, Dims == 2 ? "1" : Z);
  W.line("const long long gx = (nx + block.x - 1) / block.x;");
  W.line("const long long gy = (ny + block.y - 1) / block.y;");
  if (Dims == 2)
    W.line("const long long gz = 1;");
  else if (Dims == 3)
    W.line("const long long gz = (nz + block.z - 1) / block.z;");
  else
    W.line("const long long gz = (nz + block.z - 1) / block.z * nw;");
  W.line("if (gx > 2147483647LL || gy > 65535 || gz > 65535)");
  W.line("  return \"region too large for one launch of the grid variant\";");
  if (ZFirst && Dims > 2)
    W.line(
        "const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>({0} "
        "? gz : gy), static_cast<unsigned>({0} ? gy : gz));",
        ZFirst);
  else
    W.line("const dim3 grid(static_cast<unsigned>(gx), "
           "static_cast<unsigned>(gy), static_cast<unsigned>(gz));");
}

void CudaEmitter::emitGridLauncher(CodeWriter &W, const ir::Stencil &S,
                                   const std::string &Symbol) const {
  BodyNames Names(S);
  printLauncherPrologue(W, S, Names, "stencilc_" + Symbol + "_cuda_launch");
  printGridShape(W, S.Dims, "cfg.block[0]", "cfg.block[1]", "cfg.block[2]");
  std::string Args = "g, r";
  for (unsigned P = 1; P < S.Params.size(); ++P)
    Args += ", " + Names.param(P);
  W.line("{}<<<grid, block, 0, static_cast<cudaStream_t>(cfg.stream)>>>({});",
         gridKernelName(Symbol), Args);
  W.line("const cudaError_t err = cudaGetLastError();");
  W.line("return err == cudaSuccess ? nullptr : cudaGetErrorString(err);");
  W.close();
}

//===----------------------------------------------------------------------===//
// Marching variants
//===----------------------------------------------------------------------===//

void CudaEmitter::emitMarchLauncher(CodeWriter &W, const ir::Stencil &S,
                                    const planning::KernelPlan &K,
                                    const std::string &Symbol) const {
  const planning::VariantKind V = K.Variant;
  const unsigned M = K.Threads.MarchDim;
  BodyNames Names(S);
  printLauncherPrologue(W, S, Names, launcherName(Symbol, V));
  W.line("// cfg.block[2] is the chunk of {} each thread marches{}.", Axes[M],
         M == 1 ? "; a 2-D block is one row" : "");
  W.line("const long long stencilc_chunk = cfg.block[2];");
  W.line("const dim3 block(cfg.block[0], {}, 1);",
         M == 2 ? "cfg.block[1]" : "1");
  const unsigned Points = K.Threads.Points;
  if (Points > 1)
    W.line("// Each thread computes {} points in {}.", Points,
           M == 2 ? "y" : "x");
  if (Points > 1 && M == 1)
    W.line("const long long gx = (nx + {0}LL * block.x - 1) / ({0}LL * "
           "block.x);",
           Points);
  else
    W.line("const long long gx = (nx + block.x - 1) / block.x;");
  if (M == 2 && Points > 1) {
    W.line("const long long gy = (ny + {0}LL * block.y - 1) / ({0}LL * "
           "block.y);",
           Points);
    W.line("const long long gz = (nz + stencilc_chunk - 1) / stencilc_chunk;");
  } else if (M == 2) {
    W.line("const long long gy = (ny + block.y - 1) / block.y;");
    W.line("const long long gz = (nz + stencilc_chunk - 1) / stencilc_chunk;");
  } else {
    W.line("const long long gy = (ny + stencilc_chunk - 1) / stencilc_chunk;");
    W.line("const long long gz = 1;");
  }
  W.line("if (gx > 2147483647LL || gy > 65535 || gz > 65535)");
  W.line("  return \"region too large for one launch of the {} variant\";",
         planning::variantName(V));
  W.line(
      "const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy), "
      "static_cast<unsigned>(gz));");
  std::string Shared = "0";
  if (K.tiled()) {
    W.line("const unsigned long long stencilc_shared = "
           "stencilc_{}_smem_bytes(block.x, block.y);",
           Symbol);
    W.line("if (stencilc_shared > 48u * 1024u)");
    W.line("  return \"block too large for the smem variant's tile\";");
    Shared = "stencilc_shared";
  } else if (K.Stages) {
    const std::string Kernel = kernelName(Symbol, V);
    W.line("const unsigned long long stencilc_shared = "
           "{}_smem_bytes(block.x, block.y);",
           Kernel);
    W.line("if (stencilc_shared > {}u)", planning::MaxStageBytes);
    W.line("  return \"block too large for the zsum4 variant's stages\";");
    W.line("if ({}_copies(block.x, block.y) > {}u)", Kernel, K.Copies);
    W.line("  return \"block too small for the zsum4 variant's copies (more "
           "than {} elements a thread)\";",
           K.Copies);
    Shared = "stencilc_shared";
  }
  std::string Args = "g, r, stencilc_chunk";
  for (unsigned P = 1; P < S.Params.size(); ++P)
    Args += ", " + Names.param(P);
  W.line("{}<<<grid, block, {}, static_cast<cudaStream_t>(cfg.stream)>>>({});",
         kernelName(Symbol, V), Shared, Args);
  W.line("const cudaError_t err = cudaGetLastError();");
  W.line("return err == cudaSuccess ? nullptr : cudaGetErrorString(err);");
  W.close();
}

void CudaEmitter::emitQuery(CodeWriter &W, const planning::StencilPlan &SP,
                            planning::VariantKind V,
                            const std::string &Symbol) const {
  const bool Staged = V == planning::VariantKind::ZSum4;
  const bool Tile = V == planning::VariantKind::Smem || Staged;
  W.line(
      "// What the tuner needs to know before it launches a (bx, by) block.");
  W.open(fmt::format("static const char *{}_query(int {}, int {}, "
                     "stencil::KernelAttributes *out) {{",
                     kernelName(Symbol, V), Tile ? "bx" : "/*bx*/",
                     Tile ? "by" : "/*by*/"));
  W.line("cudaFuncAttributes a;");
  W.line("const cudaError_t err = cudaFuncGetAttributes(&a, {});",
         kernelName(Symbol, V));
  W.line("if (err != cudaSuccess)");
  W.line("  return cudaGetErrorString(err);");
  if (Staged) {
    // As the launcher refuses it: the tuner never times it.
    W.line(
        "if ({}_copies(static_cast<unsigned>(bx), static_cast<unsigned>(by)) "
        "> {}u)",
        kernelName(Symbol, V), planning::planKernel(SP, V).Copies);
    W.line("  return \"block too small for the zsum4 variant's copies\";");
  }
  W.line("out->registers = a.numRegs;");
  W.line("out->maxThreadsPerBlock = a.maxThreadsPerBlock;");
  if (Tile)
    W.line("out->sharedBytes = static_cast<long long>(a.sharedSizeBytes + "
           "{}_smem_bytes(static_cast<unsigned>(bx), "
           "static_cast<unsigned>(by)));",
           Staged ? kernelName(Symbol, V) : "stencilc_" + Symbol);
  else
    W.line("out->sharedBytes = static_cast<long long>(a.sharedSizeBytes);");
  W.line("return nullptr;");
  W.close();
}

/// A step: the recomputations and kernel of each fused group, then the
/// launcher that runs the groups in order on cfg.stream (a single stencil
/// through its default variant's launcher and block).
void CudaEmitter::emitStep(CodeWriter &W, const planning::ModulePlan &Plan,
                           const planning::StepPlan &SP,
                           const std::vector<std::string> &Symbols,
                           const std::string &Symbol) const {
  const ir::Step &St = *SP.Step;
  DeviceHooks Hooks;
  printRecomputeFunctions(W, Plan, SP, Symbol, "__device__ __forceinline__",
                          /*Restrict=*/true, Hooks);
  // Group G's kernel by strategy S: its plan's, or the alternative
  // compiled for the runtime to measure ("_alt").
  const unsigned N = SP.Groups.size();
  auto KernelOf = [&](unsigned G, planning::StepStrategy S) {
    return fmt::format("stencilc_{}_g{}{}", Symbol, G,
                       S == SP.Groups[G].Strategy ? "" : "_alt");
  };
  auto PrintKernel = [&](unsigned G, planning::StepStrategy S) {
    if (S == planning::StepStrategy::Staged) {
      printStagedGroupKernel(W, Plan, SP, G, Symbol, KernelOf(G, S), Hooks);
      W.blank();
      return;
    }
    const unsigned Threads = planning::fusedBlockThreads(St.Dims);
    W.open(fmt::format("__global__ void __launch_bounds__({}, {}) {}(const "
                       "stencil::Grid g, const stencil::Region r, const "
                       "stencil::Region v, const bool {}{}) {{",
                       Threads, SP.Groups[G].ThreadsPerSM / Threads,
                       KernelOf(G, S),
                       St.Dims == 2 ? "/*stencilc_zfirst*/" : "stencilc_zfirst",
                       stepParameters(St, /*Restrict=*/true)));
    printGridPoint(W, St.Dims, "stencilc_zfirst");
    printFusedBody(W, Plan, SP, G, Symbol, Hooks);
    W.close();
    W.blank();
  };
  for (unsigned G = 0; G < N; ++G)
    for (planning::StepStrategy S :
         {SP.Groups[G].Strategy, SP.Groups[G].Alternative})
      if (S != planning::StepStrategy::MultiKernel)
        PrintKernel(G, S);
  const std::string Launcher = "stencilc_" + Symbol + "_cuda_launch";
  W.open(launcherSignature(Launcher, /*UsesConfig=*/true,
                           St.Params.size() > 1) +
         " {");
  printRegionExtents(W, St.Dims);
  printStepArgumentUnpacking(W, St);
  const std::string Values = stepArguments(St);
  // A single stencil: its default variant's launcher and block.
  const CallPrinter Call = [&](CodeWriter &Out, unsigned C) {
    const unsigned Stencil = St.Calls[C].Stencil;
    const planning::DefaultLaunch &D = Plan.Stencils[Stencil].Default;
    const std::string Config = fmt::format("stencilc_cfg{}", C);
    Out.open("{");
    Out.line("stencil::LaunchConfig {} = cfg;", Config);
    for (unsigned B = 0; B < 3; ++B)
      Out.line("{}.block[{}] = {};", Config, B, D.Block[B]);
    printStencilLaunch(Out, Plan, SP, C,
                       launcherName(Symbols[Stencil], D.Variant), Config);
    Out.close();
  };
  // Group Id, or for Id >= N the alternative of group Id - N.
  const CallPrinter Fused = [&](CodeWriter &Out, unsigned Id) {
    const unsigned G = Id < N ? Id : Id - N;
    const planning::StepStrategy S =
        Id < N ? SP.Groups[G].Strategy : SP.Groups[G].Alternative;
    if (S == planning::StepStrategy::Staged) {
      printStagedGroupLaunch(Out, St.Dims, KernelOf(G, S), "g, r, v" + Values);
      return;
    }
    Out.open(fmt::format("{{ // {}, one thread per point",
                         S == planning::StepStrategy::Together
                             ? "stencils together"
                             : "fused by recomputation"));
    // A slab thinner than the block in x (an overlapped boundary piece) gets
    // a block as thin, as many threads deeper in y.
    Out.line("unsigned stencilc_bx = {};", planning::FusedBlockX);
    Out.line("while (stencilc_bx > {} && stencilc_bx / 2 >= nx)",
             planning::FusedBlockMinX);
    Out.line("  stencilc_bx /= 2;");
    const unsigned ZPlaneBytes = SP.Rounds[G].ZPlaneBytes;
    if (St.Dims == 2 || ZPlaneBytes == 0) {
      Out.line("const bool stencilc_zfirst = false;");
    } else {
      Out.line("// Down the columns first where the planes a pass plane by "
               "plane reads");
      Out.line("// ({} bytes a point) outgrow 1/{} of the L2 cache.",
               ZPlaneBytes, planning::FusedL2Share);
      Out.line("const long long stencilc_l2 = "
               "stencil::cuda_ops::l2CacheBytes();");
      Out.line("const bool stencilc_zfirst = stencilc_l2 > 0 && nx * ny > "
               "stencilc_l2 / {};",
               ZPlaneBytes * planning::FusedL2Share);
    }
    auto Rows = [&](unsigned Plane, unsigned Column) {
      return St.Dims == 2
                 ? std::to_string(Plane)
                 : fmt::format("(stencilc_zfirst ? {} : {})", Column, Plane);
    };
    printGridShape(
        Out, St.Dims, "stencilc_bx",
        fmt::format("{} * ({} / stencilc_bx)",
                    Rows(planning::FusedBlockY, planning::FusedColumnY),
                    planning::FusedBlockX),
        Rows(planning::FusedBlockZ, planning::FusedColumnZ), "stencilc_zfirst");
    Out.line("{}<<<grid, block, 0, static_cast<cudaStream_t>(cfg.stream)>>>("
             "g, r, v, stencilc_zfirst{});",
             KernelOf(G, S), Values);
    Out.line("const cudaError_t err = cudaGetLastError();");
    Out.line("if (err != cudaSuccess)");
    Out.line("  return cudaGetErrorString(err);");
    Out.close();
  };
  const bool AnyFused = hasFusedGroups(SP);
  if (AnyFused)
    W.line("[[maybe_unused]] const stencil::Region &v = r; // one domain: "
           "recomputed within it");
  printStepGroups(W, SP, Call, Fused);
  W.line("return nullptr;");
  W.close();
  W.blank();
  printStepCallLauncher(W, *Plan.Module, St, Launcher + "_call", Call);
  W.blank();
  if (AnyFused) {
    printStepGroupLauncher(W, SP, Launcher + "_group", /*Alternatives=*/true,
                           [&](CodeWriter &Out, unsigned G) {
                             Out.open("{");
                             printRegionExtents(Out, St.Dims);
                             Fused(Out, G);
                             Out.close();
                           });
    W.blank();
  }
  printStepRegistration(W, Plan, SP, Symbol, "stencil::Backend::Cuda",
                        Launcher, Launcher + "_call",
                        AnyFused ? Launcher + "_group" : "",
                        /*Alternatives=*/true);
}

std::string CudaEmitter::emit(const planning::ModulePlan &Plan) const {
  bool MinMax = false, ExactDivisions = false, CheckedProducts = false;
  for (const planning::StencilPlan &SP : Plan.Stencils) {
    const BodyUses Uses = scanBody(*SP.Stencil);
    MinMax |= Uses.MinMax;
    ExactDivisions |= Uses.ExactDivisions;
    CheckedProducts |=
        !SP.Temporal.Pairs.empty() && SP.Temporal.divisionsCheckedAPlane();
  }
  // nvcc declares the math functions itself.
  std::vector<std::string> Includes = {"<stencil/generated.hpp>",
                                       "<stencil/cuda/device_ops.cuh>"};
  if (needsFunctionDeclarations(Plan))
    Includes.push_back("<stencil/index.hpp>");
  if (!Plan.Steps.empty())
    Includes.push_back("<stencil/step.hpp>");
  // The asynchronous copies of zsum4, and those of the passes summed by
  // planes (a star's passes may be, with no zsum4).
  if (std::any_of(Plan.Stencils.begin(), Plan.Stencils.end(),
                  [](const planning::StencilPlan &SP) {
                    return std::count(SP.Variants.begin(), SP.Variants.end(),
                                      planning::VariantKind::ZSum4) > 0;
                  }))
    Includes.push_back("<cuda_pipeline.h>");
  if (std::any_of(Plan.Stencils.begin(), Plan.Stencils.end(),
                  [](const planning::StencilPlan &SP) {
                    return SP.Temporal.summedByPlanes();
                  }))
    Includes.push_back("<stencil/cuda/shared_copy.cuh>");

  CodeWriter W;
  if (Plan.LineDirectives)
    W.enableLineDirectives(Plan.GeneratedFile);
  printFileHeader(W, *Plan.Module, Includes);
  printUserFunctionDeclarations(W, Plan);
  printStepDeclarations(W, Plan);
  W.blank();
  W.line("namespace stencilc_generated {{");
  W.line("namespace {{");
  W.blank();
  W.line("// Engines find the CUDA device operations through the runtime.");
  W.line("[[maybe_unused]] static const bool stencilc_installed_device_ops = "
         "stencil::cuda_ops::install();");
  if (MinMax) {
    W.blank();
    printMinMaxHelpers(W, "__device__ __forceinline__");
  }
  if (ExactDivisions) {
    W.blank();
    printDivideHelper(W, CheckedProducts);
  }

  std::vector<std::string> Symbols = uniqueSymbolNames(Plan);
  for (size_t I = 0; I < Plan.Stencils.size(); ++I) {
    const planning::StencilPlan &SP = Plan.Stencils[I];
    for (planning::VariantKind V : SP.Variants) {
      W.blank();
      W.line("{}", stencilComment(*SP.Stencil, V));
      if (V == planning::VariantKind::Grid) {
        emitGridKernel(W, *SP.Stencil, Symbols[I]);
        W.blank();
        emitGridLauncher(W, *SP.Stencil, Symbols[I]);
      } else {
        const planning::KernelPlan K = planning::planKernel(SP, V);
        if (K.tiled()) {
          printTileHelpers(W, *SP.Stencil, K, Symbols[I]);
          W.blank();
        }
        if (K.Stages) {
          printStageHelpers(W, *SP.Stencil, K, Symbols[I]);
          W.blank();
        }
        if (V == planning::VariantKind::ZSum ||
            V == planning::VariantKind::ZSum4)
          printPlaneSumKernel(W, *SP.Stencil, K, Symbols[I]);
        else
          printMarchKernel(W, *SP.Stencil, K, Symbols[I]);
        W.blank();
        emitMarchLauncher(W, *SP.Stencil, K, Symbols[I]);
      }
      W.blank();
      emitQuery(W, SP, V, Symbols[I]);
      W.blank();
      RegistrationExtras Extras;
      Extras.Query = kernelName(Symbols[I], V) + "_query";
      Extras.MarchDim = planning::isMarching(V) ? int(SP.March.MarchDim) : -1;
      if (V == SP.Default.Variant)
        std::copy(std::begin(SP.Default.Block), std::end(SP.Default.Block),
                  std::begin(Extras.DefaultBlock));
      printRegistration(W, *SP.Stencil, *SP.Info, Symbols[I],
                        "stencil::Backend::Cuda", launcherName(Symbols[I], V),
                        V, Extras);
    }
    printTemporalCode(W, SP, Symbols[I]);
  }

  for (size_t I = 0; I < Plan.Steps.size(); ++I)
    emitStep(W, Plan, Plan.Steps[I], Symbols,
             Symbols[Plan.Stencils.size() + I]);

  W.blank();
  W.line("}} // namespace");
  W.line("}} // namespace stencilc_generated");
  return W.str();
}

std::unique_ptr<Emitter> codegen::createCudaEmitter() {
  return std::make_unique<CudaEmitter>();
}
