//===- Plan.cpp - The Planning stage --------------------------------------===//
#include "stencilc/Planning/Plan.h"
#include <cassert>

using namespace stencilc;
using namespace stencilc::planning;

const char *planning::variantName(VariantKind V) {
  switch (V) {
  case VariantKind::Grid:
    return "grid";
  }
  return "grid";
}

ModulePlan planning::planModule(const ir::Module &M,
                                const std::vector<analysis::StencilInfo> &Infos) {
  assert(Infos.size() == M.Stencils.size() && "one analysis per stencil");
  ModulePlan Plan;
  Plan.Module = &M;
  for (size_t I = 0; I < M.Stencils.size(); ++I)
    Plan.Stencils.push_back({&M.Stencils[I], &Infos[I], {VariantKind::Grid}});
  return Plan;
}
