//===- CudaEmitter.cpp - The CUDA backend ---------------------------------===//
///
/// \file
/// Per stencil: a "grid" kernel with one thread per point of the region box
/// (x on blockIdx.x, y on blockIdx.y, z on blockIdx.z; for 4-D, z and w share
/// blockIdx.z) and a host launcher with the runtime's GeneratedLaunchFn
/// signature that unpacks the arguments and launches it on cfg.stream.
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/BodyPrinter.h"
#include "stencilc/CodeGen/CodeWriter.h"
#include "stencilc/CodeGen/Emitter.h"
#include "stencilc/CodeGen/RegistrationGlue.h"

using namespace stencilc;
using namespace stencilc::codegen;

namespace {

class DeviceHooks : public BodyPrinterHooks {
public:
  std::string mathCallee(ir::MathFunc F, ir::Type Ty) const override {
    if (F == ir::MathFunc::Abs && Ty.isInteger())
      return Ty.bytes() == 8 ? "llabs" : "abs";
    std::string Name = F == ir::MathFunc::Abs ? "fabs" : ir::mathFuncName(F);
    // CUDA's float functions carry the C suffix: sqrtf computes in float.
    if (Ty.kind() == ir::ScalarKind::Float32)
      Name += 'f';
    return Name;
  }
  std::string_view loopPragma() const override { return "#pragma unroll"; }
};

class CudaEmitter : public Emitter {
public:
  std::string emit(const planning::ModulePlan &Plan) const override;
  const char *fileSuffix() const override { return ".stencil.cu"; }

private:
  void emitGridKernel(CodeWriter &W, const ir::Stencil &S,
                      const std::string &Symbol) const;
  void emitGridLauncher(CodeWriter &W, const ir::Stencil &S,
                        const std::string &Symbol) const;
};

} // namespace

static const char *const Positions[] = {"i", "j", "k", "w"};
static const char *const Axes[] = {"x", "y", "z"};

static std::string gridKernelName(const std::string &Symbol) {
  return "stencilc_" + Symbol + "_grid";
}

void CudaEmitter::emitGridKernel(CodeWriter &W, const ir::Stencil &S,
                                 const std::string &Symbol) const {
  BodyNames Names(S);
  std::string Params = "const stencil::Grid g, const stencil::Region r";
  for (unsigned P = 1; P < S.Params.size(); ++P) {
    const ir::Param &Param = S.Params[P];
    std::string Ty = argumentValueType(Param);
    // Arrays do not alias: each is read-only or written at the centre only.
    if (Param.Kind == ir::ParamKind::Array && Ty.back() == '*')
      Params += fmt::format(", {}__restrict__ {}", Ty, Names.param(P));
    else
      Params += fmt::format(", {} {}", Ty, Names.param(P));
  }
  W.open(
      fmt::format("__global__ void {}({}) {{", gridKernelName(Symbol), Params));
  for (unsigned D = 0; D < 2; ++D)
    W.line("const long long {0} = r.lo[{1}] + blockIdx.{2} * "
           "static_cast<long long>(blockDim.{2}) + threadIdx.{2};",
           Positions[D], D, Axes[D]);
  if (S.Dims == 3) {
    W.line("const long long k = r.lo[2] + blockIdx.z * "
           "static_cast<long long>(blockDim.z) + threadIdx.z;");
  } else if (S.Dims == 4) {
    W.line("// z and w share blockIdx.z: zblocks blocks of z per w.");
    W.line("const long long zblocks = (r.hi[2] - r.lo[2] + blockDim.z - 1) / "
           "blockDim.z;");
    W.line("const long long k = r.lo[2] + (blockIdx.z % zblocks) * "
           "static_cast<long long>(blockDim.z) + threadIdx.z;");
    W.line("const long long w = r.lo[3] + blockIdx.z / zblocks;");
  }
  std::string Outside;
  for (unsigned D = 0; D < S.Dims; ++D)
    Outside +=
        fmt::format("{}{} >= r.hi[{}]", D ? " || " : "", Positions[D], D);
  W.line("if ({})", Outside);
  W.line("  return;");
  W.line("const long long sy = g.extent[0];");
  std::string Centre = "i + j * sy";
  if (S.Dims >= 3) {
    W.line("const long long sz = sy * g.extent[1];");
    Centre += " + k * sz";
  }
  if (S.Dims >= 4) {
    W.line("const long long sw = sz * g.extent[2];");
    Centre += " + w * sw";
  }
  W.line("const long long c = {};", Centre);
  DeviceHooks Hooks;
  printBody(S, Names, Hooks, W);
  W.close();
}

void CudaEmitter::emitGridLauncher(CodeWriter &W, const ir::Stencil &S,
                                   const std::string &Symbol) const {
  BodyNames Names(S);
  std::vector<bool> All(S.Params.size(), true);
  bool HasArgs = S.Params.size() > 1;
  W.open(launcherSignature("stencilc_" + Symbol + "_cuda_launch",
                           /*UsesConfig=*/true, HasArgs) +
         " {");
  static const char *const Extents[] = {"nx", "ny", "nz", "nw"};
  std::string Empty;
  for (unsigned D = 0; D < S.Dims; ++D) {
    W.line("const long long {} = r.hi[{}] - r.lo[{}];", Extents[D], D, D);
    Empty += fmt::format("{}{} <= 0", D ? " || " : "", Extents[D]);
  }
  W.line("if ({})", Empty);
  W.line("  return nullptr;");
  W.line("if (cfg.block[0] <= 0 || cfg.block[1] <= 0 || cfg.block[2] <= 0)");
  W.line("  return \"invalid CUDA block size\";");
  printArgumentUnpacking(W, S, Names, All);
  // A 2-D kernel has no z: a deeper block would only repeat its threads.
  W.line("const dim3 block(cfg.block[0], cfg.block[1], {});",
         S.Dims == 2 ? "1" : "cfg.block[2]");
  W.line("const long long gx = (nx + block.x - 1) / block.x;");
  W.line("const long long gy = (ny + block.y - 1) / block.y;");
  if (S.Dims == 2)
    W.line("const long long gz = 1;");
  else if (S.Dims == 3)
    W.line("const long long gz = (nz + block.z - 1) / block.z;");
  else
    W.line("const long long gz = (nz + block.z - 1) / block.z * nw;");
  W.line("if (gx > 2147483647LL || gy > 65535 || gz > 65535)");
  W.line("  return \"region too large for one launch of the grid variant\";");
  W.line(
      "const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy), "
      "static_cast<unsigned>(gz));");
  std::string Args = "g, r";
  for (unsigned P = 1; P < S.Params.size(); ++P)
    Args += ", " + Names.param(P);
  W.line("{}<<<grid, block, 0, static_cast<cudaStream_t>(cfg.stream)>>>({});",
         gridKernelName(Symbol), Args);
  W.line("const cudaError_t err = cudaGetLastError();");
  W.line("return err == cudaSuccess ? nullptr : cudaGetErrorString(err);");
  W.close();
}

std::string CudaEmitter::emit(const planning::ModulePlan &Plan) const {
  bool MinMax = false;
  for (const planning::StencilPlan &SP : Plan.Stencils)
    MinMax |= scanBody(*SP.Stencil).MinMax;
  // nvcc declares the math functions itself.
  std::vector<std::string> Includes = {"<stencil/generated.hpp>",
                                       "<stencil/cuda/device_ops.cuh>"};
  if (needsFunctionDeclarations(Plan))
    Includes.push_back("<stencil/index.hpp>");

  CodeWriter W;
  printFileHeader(W, *Plan.Module, Includes);
  printUserFunctionDeclarations(W, Plan);
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

  std::vector<std::string> Symbols = uniqueSymbolNames(Plan);
  for (size_t I = 0; I < Plan.Stencils.size(); ++I) {
    const planning::StencilPlan &SP = Plan.Stencils[I];
    for (planning::VariantKind V : SP.Variants) {
      switch (V) {
      case planning::VariantKind::Grid:
        W.blank();
        W.line("{}", stencilComment(*SP.Stencil, V));
        emitGridKernel(W, *SP.Stencil, Symbols[I]);
        W.blank();
        emitGridLauncher(W, *SP.Stencil, Symbols[I]);
        W.blank();
        printRegistration(W, *SP.Stencil, *SP.Info, Symbols[I], "stencil::Backend::Cuda",
                          "stencilc_" + Symbols[I] + "_cuda_launch", V);
        break;
      }
    }
  }

  W.blank();
  W.line("}} // namespace");
  W.line("}} // namespace stencilc_generated");
  return W.str();
}

std::unique_ptr<Emitter> codegen::createCudaEmitter() {
  return std::make_unique<CudaEmitter>();
}
