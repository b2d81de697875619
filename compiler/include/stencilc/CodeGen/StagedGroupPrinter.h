//===- StagedGroupPrinter.h - A staged fused group as CUDA -----*- C++ -*-===//
///
/// \file
/// The CUDA kernel of a fused group whose intermediates are staged on chip
/// (planning::StepStrategy::Staged). A block of StageTileX x StageTileY
/// threads owns a tile of (x, y) and marches StageChunk planes of z. For
/// each recomputed array it keeps a ring of z planes in shared memory, each
/// plane the tile and the consumer's reach around it: a point of the region
/// v gets the producer's value (its recomputation, evaluated once per
/// point), any other the array's memory (its margin), as the consumer would
/// read it call by call. The producers store their arrays at the tile's own
/// points from the ring, or run their bodies there where they also write
/// arrays the consumer does not read; the consumer then reads the rings.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_CODEGEN_STAGEDGROUPPRINTER_H
#define STENCILC_CODEGEN_STAGEDGROUPPRINTER_H

#include "stencilc/CodeGen/BodyPrinter.h"
#include "stencilc/CodeGen/CodeWriter.h"
#include "stencilc/Planning/Plan.h"
#include <string>

namespace stencilc::codegen {

/// `__global__ void <Kernel>(g, r, v, <step parameters>)` for staged group
/// \p G of \p SP; the recomputation functions are printed before it.
void printStagedGroupKernel(CodeWriter &W, const planning::ModulePlan &Plan,
                            const planning::StepPlan &SP, unsigned G,
                            const std::string &Symbol,
                            const std::string &Kernel,
                            const BodyPrinterHooks &Hooks);

/// The launch of a staged kernel over the region r (nx, ny (, nz) in
/// scope) on cfg.stream with arguments \p Args, returning a CUDA error's
/// text.
void printStagedGroupLaunch(CodeWriter &W, unsigned Dims,
                            const std::string &Kernel, const std::string &Args);

} // namespace stencilc::codegen

#endif // STENCILC_CODEGEN_STAGEDGROUPPRINTER_H
