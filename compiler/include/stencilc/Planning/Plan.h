//===- Plan.h - The Planning stage -----------------------------*- C++ -*-===//
///
/// \file
/// Decides what to emit for each stencil: which CUDA variants, with which
/// template parameters. For now every stencil gets the region-box "grid"
/// variant (one thread per point); later variants (z-marching, shared-memory
/// tiles) and fusion decisions are made here.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_PLANNING_PLAN_H
#define STENCILC_PLANNING_PLAN_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/IR/Stencil.h"
#include <vector>

namespace stencilc::planning {

enum class VariantKind {
  Grid, ///< One thread (CUDA) or iteration (OpenMP) per point of a region box.
};
const char *variantName(VariantKind V);

struct StencilPlan {
  const ir::Stencil *Stencil = nullptr;
  const analysis::StencilInfo *Info = nullptr;
  std::vector<VariantKind> Variants;
};

struct ModulePlan {
  const ir::Module *Module = nullptr;
  std::vector<StencilPlan> Stencils;
};

/// \p Infos is parallel to \p M.Stencils; both must outlive the plan.
ModulePlan planModule(const ir::Module &M, const std::vector<analysis::StencilInfo> &Infos);

} // namespace stencilc::planning

#endif // STENCILC_PLANNING_PLAN_H
