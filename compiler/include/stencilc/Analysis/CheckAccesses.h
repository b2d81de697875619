//===- CheckAccesses.h - Rules on how arrays are accessed ------*- C++ -*-===//
#ifndef STENCILC_ANALYSIS_CHECKACCESSES_H
#define STENCILC_ANALYSIS_CHECKACCESSES_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/Basic/Diagnostic.h"
#include "stencilc/IR/Stencil.h"

namespace stencilc::analysis {

/// Reports arrays that are written and read off the centre (a race between
/// neighbouring points) and stencils that write nothing. Needs the footprint.
void checkAccesses(const ir::Stencil &S, const StencilInfo &Info,
                   DiagnosticSink &Diags);

} // namespace stencilc::analysis

#endif // STENCILC_ANALYSIS_CHECKACCESSES_H
