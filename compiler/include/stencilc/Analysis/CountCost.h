//===- CountCost.h - Flops and bytes per point -----------------*- C++ -*-===//
#ifndef STENCILC_ANALYSIS_COUNTCOST_H
#define STENCILC_ANALYSIS_COUNTCOST_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/IR/Stencil.h"

namespace stencilc::analysis {

/// Fills FlopsPerPoint and BytesPerPoint (see StencilInfo). Needs the footprint.
void countCost(const ir::Stencil &S, StencilInfo &Info);

} // namespace stencilc::analysis

#endif // STENCILC_ANALYSIS_COUNTCOST_H
