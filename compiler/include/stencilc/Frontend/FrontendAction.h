//===- FrontendAction.h - Clang AST to stencil IR --------------*- C++ -*-===//
///
/// \file
/// The Frontend stage: a clang FrontendAction that finds every stencil
/// annotated with STENCIL_KERNEL in a translation unit, checks the DSL's
/// rules, and lowers each body to stencilc's IR. It runs no later stage: it
/// hands each translation unit's IR to the caller's TranslationUnitHook while
/// the AST and clang's diagnostics engine are still alive, so that what the
/// hook reports (the Analysis) also points into the user's source.
///
/// Guarantees: the hook is called exactly once per translation unit, after
/// lowering, with Module holding one ir::Stencil per stencil lowered without
/// error (source order); on any error a diagnostic has been emitted through
/// clang's DiagnosticsEngine (honouring -verify).
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_FRONTEND_FRONTENDACTION_H
#define STENCILC_FRONTEND_FRONTENDACTION_H

#include "stencilc/Basic/Diagnostic.h"
#include "stencilc/IR/Module.h"
#include <functional>
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

/// What the Frontend produced for one translation unit.
struct FrontendResult {
  ir::Module Module;
  std::vector<std::string> Dependencies; ///< Every file the TU read.
  /// An error was reported while parsing or lowering; the errors the hook
  /// reports, its DiagnosticSink counts (hadError).
  bool HadErrors = false;
};

/// What the caller does with each translation unit once the Frontend is done
/// with it, while clang's diagnostics engine is alive: it owns \p Result, and
/// what it reports through \p Diags points into the source and is checked
/// by -Xclang -verify like the Frontend's own diagnostics.
using TranslationUnitHook =
    std::function<void(FrontendResult Result, DiagnosticSink &Diags)>;

/// A factory for ClangTool::run whose actions lower each translation unit
/// and pass the result to \p OnTranslationUnit.
std::unique_ptr<clang::tooling::FrontendActionFactory>
createStencilActionFactory(TranslationUnitHook OnTranslationUnit);

} // namespace stencilc

#endif // STENCILC_FRONTEND_FRONTENDACTION_H
