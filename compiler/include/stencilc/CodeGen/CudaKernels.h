//===- CudaKernels.h - Names and printers the CUDA backend shares -*- C++ -*-===//
///
/// \file
/// What CudaEmitter.cpp (grid kernels, launchers, queries, the file) and
/// MarchKernelPrinter.cpp (the marching kernels, printed from their kernel
/// plan) both use.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_CODEGEN_CUDAKERNELS_H
#define STENCILC_CODEGEN_CUDAKERNELS_H

#include "stencilc/CodeGen/BodyPrinter.h"
#include "stencilc/CodeGen/CodeWriter.h"
#include "stencilc/Planning/KernelPlan.h"
#include "stencilc/Planning/Plan.h"
#include <string>

namespace stencilc::codegen::cuda {

/// Index variables and CUDA axes per dimension.
extern const char *const Positions[4];
extern const char *const Axes[3];

/// CUDA's math function for \p F on \p Ty ("sqrtf" for float).
std::string deviceMathCallee(ir::MathFunc F, ir::Type Ty);

/// What every CUDA kernel's body prints alike: CUDA's math functions,
/// unrolled loops, divisions by constants as exact products. The kernels
/// that load from registers or shared memory override printLoad.
class DeviceHooks : public BodyPrinterHooks {
public:
  std::string mathCallee(ir::MathFunc F, ir::Type Ty) const override {
    return deviceMathCallee(F, Ty);
  }
  std::string_view loopPragma() const override { return "#pragma unroll"; }
  bool exactReciprocals() const override { return true; }
};

std::string kernelName(const std::string &Symbol, planning::VariantKind V);

/// The element type of an array parameter: "const float *" -> "float".
std::string elementType(const ir::Param &P);

/// Zero of the element type \p Ty, as an expression: a cast, as a type of
/// two words ("unsigned int", "long long") cannot be written `T()`.
std::string zeroOf(const std::string &Ty);

/// ", <type> <name>" per parameter after the index.
std::string kernelParameters(const ir::Stencil &S, const BodyNames &Names);

/// Points of tile halo along one plane dimension, both sides.
int tileWidth(const analysis::HaloWidth &H);

/// The smem variant's helpers: the tile's pitch and bytes, and the dynamic
/// shared memory of a (bx, by) block.
void printTileHelpers(CodeWriter &W, const ir::Stencil &S,
                      const planning::KernelPlan &K, const std::string &Symbol);

/// The __global__ kernel of marching plan \p K.
void printMarchKernel(CodeWriter &W, const ir::Stencil &S,
                      const planning::KernelPlan &K, const std::string &Symbol);

/// The zsum4 variant's helpers for its launcher and query: the dynamic
/// shared memory of a (bx, by) block, the most elements a thread copies.
void printStageHelpers(CodeWriter &W, const ir::Stencil &S,
                       const planning::KernelPlan &K,
                       const std::string &Symbol);

/// The __global__ kernel of the zsum or zsum4 variant's plan \p K
/// (PlaneSumKernelPrinter.cpp).
void printPlaneSumKernel(CodeWriter &W, const ir::Stencil &S,
                         const planning::KernelPlan &K,
                         const std::string &Symbol);

/// The kernels, launchers, queries and registrations of \p SP's temporal
/// plan (TemporalKernelPrinter.cpp): nothing when it has no time pair.
void printTemporalCode(CodeWriter &W, const planning::StencilPlan &SP,
                       const std::string &Symbol);

/// Defines, in a pass where stencilc_column and stencilc_inside say whether
/// the thread's column is in the arrays and in the region, the planes (rows
/// in 2-D) of the column in each (stencilc_planes; stencilc_rlo,
/// stencilc_rhi), and stencilc_input(k, c): plane k of the pass's input at
/// c, from the array, the margin or, off the arrays, zero.
void printPassInput(CodeWriter &W, const ir::Stencil &S,
                    const planning::TimePair &P);

/// A TemporalPlan::LevelBarrier pass (LevelBarrierPassPrinter.cpp): the
/// chunk function of kernel \p Kernel, printed before it, and the kernel's
/// body after the head printTemporalCode prints.
void printLevelBarrierChunk(CodeWriter &W, const ir::Stencil &S,
                            const planning::TemporalPlan &T,
                            const planning::TimePair &P,
                            const std::string &Kernel);
void printLevelBarrierPass(CodeWriter &W, const ir::Stencil &S,
                           const planning::TemporalPlan &T,
                           const planning::TimePair &P,
                           const std::string &Kernel);

/// A pass summed by planes (TemporalPlan::summedByPlanes,
/// PlaneSumPassPrinter.cpp): the kernel template \p Name_planes<STEPS,
/// BORDERED> (shrinking or bordered tiles), its shared bytes and \p
/// Name_planes_launch, which the pass's launcher calls where both levels'
/// margins are its input, and which picks the tiles.
void printPlaneSumPass(CodeWriter &W, const ir::Stencil &S,
                       const planning::TemporalPlan &T,
                       const std::string &Name);

/// \p Name_same_margins (GeneratedSameMarginsFn, SameMarginsPrinter.cpp):
/// whether time pair \p P's two arrays hold the same margin, the points
/// outside the region one step reads, compared bit for bit on the GPU.
void printSameMargins(CodeWriter &W, const ir::Stencil &S,
                      const planning::TimePair &P, const std::string &Name);

} // namespace stencilc::codegen::cuda

#endif // STENCILC_CODEGEN_CUDAKERNELS_H
