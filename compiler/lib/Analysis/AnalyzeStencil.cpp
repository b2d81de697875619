//===- AnalyzeStencil.cpp - The Analysis stage ----------------------------===//
#include "stencilc/Analysis/AnalyzeStencil.h"
#include "stencilc/Analysis/CheckAccesses.h"
#include "stencilc/Analysis/CountCost.h"
#include "stencilc/Analysis/Footprint.h"

using namespace stencilc;
using namespace stencilc::analysis;

StencilInfo stencilc::analysis::analyzeStencil(const ir::Stencil &S,
                                               DiagnosticSink &Diags) {
  StencilInfo Info;
  inferFootprint(S, Info);
  checkAccesses(S, Info, Diags);
  countCost(S, Info);
  return Info;
}

std::vector<StencilInfo>
stencilc::analysis::analyzeModule(const ir::Module &M, DiagnosticSink &Diags) {
  std::vector<StencilInfo> Infos;
  Infos.reserve(M.Stencils.size());
  for (const ir::Stencil &S : M.Stencils)
    Infos.push_back(analyzeStencil(S, Diags));
  return Infos;
}
