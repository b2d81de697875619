//===- CountCost.h - Flops and bytes per point -----------------*- C++ -*-===//
#ifndef STENCILC_ANALYSIS_COUNTCOST_H
#define STENCILC_ANALYSIS_COUNTCOST_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/IR/Stencil.h"

namespace stencilc::analysis {

/// Fills FlopsPerPoint and BytesPerPoint (see StencilInfo) from the body and
/// the footprint, which must already be in \p Info.
///
/// Flops: one per + - * / whose result type is floating, one per math call of
/// floating type (fma and pow included: one each); negation, casts,
/// comparisons, logical and integer operations are free. A loop counts its
/// body TripCount times; if/else and ?: count the condition plus the costlier
/// side, so the figure is an upper bound on the path a point takes.
/// Bytes: the element size once per array read and once per array written
/// (an inout array counts twice); arrays never accessed count nothing.
void countCost(const ir::Stencil &S, StencilInfo &Info);

} // namespace stencilc::analysis

#endif // STENCILC_ANALYSIS_COUNTCOST_H
