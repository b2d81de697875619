//===- AnalyzeStencil.h - The Analysis stage -------------------*- C++ -*-===//
///
/// \file
/// Runs every analysis of one stencil in order: footprint (intents, offsets,
/// halo), access checks on it (races, stencils that write nothing) and cost.
/// Expects well-formed IR from the Frontend; reports user errors through
/// \p Diags and still returns what it could compute.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_ANALYSIS_ANALYZESTENCIL_H
#define STENCILC_ANALYSIS_ANALYZESTENCIL_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/Basic/Diagnostic.h"
#include "stencilc/IR/Module.h"
#include <vector>

namespace stencilc::analysis {

StencilInfo analyzeStencil(const ir::Stencil &S, DiagnosticSink &Diags);

/// Analyses each stencil of \p M in order (so its diagnostics come stencil
/// by stencil, in source order); the result is parallel to M.Stencils.
std::vector<StencilInfo> analyzeModule(const ir::Module &M,
                                       DiagnosticSink &Diags);

} // namespace stencilc::analysis

#endif // STENCILC_ANALYSIS_ANALYZESTENCIL_H
