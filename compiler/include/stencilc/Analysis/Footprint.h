//===- Footprint.h - Intents, offsets and halo of each array ---*- C++ -*-===//
#ifndef STENCILC_ANALYSIS_FOOTPRINT_H
#define STENCILC_ANALYSIS_FOOTPRINT_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/IR/Stencil.h"

namespace stencilc::analysis {

/// Fills Arrays (intent, read offsets, halo) and the stencil's union halo.
void inferFootprint(const ir::Stencil &S, StencilInfo &Info);

} // namespace stencilc::analysis

#endif // STENCILC_ANALYSIS_FOOTPRINT_H
