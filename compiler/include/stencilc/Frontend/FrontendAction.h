//===- FrontendAction.h - Clang AST to stencil IR --------------*- C++ -*-===//
///
/// \file
/// The Frontend stage: a clang FrontendAction that finds every stencil
/// annotated with STENCIL_KERNEL in a translation unit, checks the DSL's
/// rules, and lowers each body to stencilc's IR. It also runs the Analysis
/// stage while the AST (and so the source locations) are alive, so that
/// every diagnostic points into the user's source.
///
/// Guarantees: on success, Module holds one ir::Stencil per annotated stencil
/// (source order) and Infos the matching analysis; on any error a diagnostic
/// has been emitted through clang's DiagnosticsEngine (honouring -verify).
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_FRONTEND_FRONTENDACTION_H
#define STENCILC_FRONTEND_FRONTENDACTION_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/IR/Stencil.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class FrontendAction;
namespace tooling {
class FrontendActionFactory;
}
} // namespace clang

namespace stencilc {

/// What the Frontend (plus Analysis) produced for one translation unit.
struct FrontendResult {
  ir::Module Module;
  std::vector<analysis::StencilInfo> Infos; ///< Parallel to Module.Stencils.
  std::vector<std::string> Dependencies;    ///< Every file the TU read.
  bool HadErrors = false;
};

/// A factory for ClangTool::run whose actions append one FrontendResult per
/// translation unit to \p Results.
std::unique_ptr<clang::tooling::FrontendActionFactory>
createStencilActionFactory(std::vector<FrontendResult> &Results);

} // namespace stencilc

#endif // STENCILC_FRONTEND_FRONTENDACTION_H
