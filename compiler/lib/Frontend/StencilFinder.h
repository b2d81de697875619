//===- StencilFinder.h - Find the stencils of a translation unit -*- C++
//-*-===//
#ifndef STENCILC_LIB_FRONTEND_STENCILFINDER_H
#define STENCILC_LIB_FRONTEND_STENCILFINDER_H

#include "clang/AST/Type.h"
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class Expr;
class FunctionDecl;
} // namespace clang

namespace stencilc::frontend {

/// Every declaration annotated with STENCIL_KERNEL outside system headers:
/// function definitions and functor struct definitions, in source order.
std::vector<const clang::Decl *> findAnnotatedStencils(clang::ASTContext &Ctx);

/// A stencil that the translation unit passes to a loop's run() (or to
/// DomainLoop's run/bind, tuneNow), annotated or not: the seed framework
/// has no annotation.
struct RunStencil {
  enum Kind {
    Resolved,         ///< Stencil is the functor or function to lower.
    Unresolved,       ///< The argument names no one function or functor.
    DefinedElsewhere, ///< Stencil is a function without a body here.
    Lambda,           ///< A closure type: generated engines cannot find it.
  };
  Kind K = Unresolved;
  const clang::Decl *Stencil = nullptr;
  const clang::Expr *Arg = nullptr; ///< The argument, for locations.
  /// Passed to a loop's repeat() (a time loop): gets temporal kernels.
  bool Repeated = false;
  /// A repeat() on the serial host engine: it calls the user's own code, so
  /// nothing is generated for it, but its marks are checked (the host
  /// engine cannot: a mark on a lower-rank array writes past its end).
  bool OnHost = false;
  /// repeat(): the arguments marked stencil::previousLevel and nextLevel,
  /// each with its place counted from the call's last argument (1: the
  /// last), which is the stencil's parameter counted from its last (an
  /// engine's own arguments, such as a tuner's info, come first).
  const clang::Expr *PreviousMark = nullptr, *NextMark = nullptr;
  unsigned PreviousFromEnd = 0, NextFromEnd = 0;
  /// How many arguments each mark marks (one each in a valid call).
  unsigned PreviousMarks = 0, NextMarks = 0;
};

/// Every stencil passed to a loop's run() or repeat() outside system headers
/// and the runtime (namespace stencil), in source order; of the serial host
/// engine's calls (it calls the user's code, which needs nothing generated)
/// only its repeat()s, marked OnHost.
std::vector<RunStencil> findRunStencils(clang::ASTContext &Ctx);

/// The types of a repeat()'s two levels (\p R's marks) where they cannot
/// trade places between steps: of two types, or pointers to const
/// elements. Else two null types.
std::pair<clang::QualType, clang::QualType>
wrongLevelTypes(const RunStencil &R);

/// What the stencil argument \p Arg of a run() names.
RunStencil resolveStencilArgument(clang::ASTContext &Ctx, const clang::Expr *Arg);

/// A function passed to a loop's runStep() or a DomainStep's run() (or
/// runWithoutOverlap()) outside the runtime: \p Step is null where the
/// argument names no one function. On a loop's host engine (which calls the
/// function) it is not listed.
struct RunStep {
  const clang::Expr *Arg = nullptr; ///< The argument, for locations.
  const clang::FunctionDecl *Step = nullptr;
  std::string Call; ///< "runStep()" or "DomainStep::run()".
};
std::vector<RunStep> findRunSteps(clang::ASTContext &Ctx);

/// Every function definition annotated with STENCIL_STEP outside system
/// headers, in source order.
std::vector<const clang::FunctionDecl *>
findAnnotatedSteps(clang::ASTContext &Ctx);

/// True if \p D or one of its redeclarations is annotated STENCIL_KERNEL.
bool isAnnotatedStencil(const clang::Decl *D);

/// The annotation STENCIL_KERNEL expands to while stencilc parses.
constexpr const char *StencilAnnotation = "stencilc.stencil";
/// The annotation STENCIL_STEP expands to while stencilc parses.
constexpr const char *StepAnnotation = "stencilc.step";
/// The annotation STENCIL_SCRATCH puts on a step's array parameter.
constexpr const char *ScratchAnnotation = "stencilc.scratch";

} // namespace stencilc::frontend

#endif // STENCILC_LIB_FRONTEND_STENCILFINDER_H
