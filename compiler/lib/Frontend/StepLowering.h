//===- StepLowering.h - A step function as IR ------------------*- C++ -*-===//
///
/// \file
/// Lowers a function annotated STENCIL_STEP: `void f(stencil::Step3D &s,
/// params...)` whose body is a sequence of `s.run(Stencil(), args...)`. Each
/// argument is a parameter of the step or a constant; each stencil one the
/// module already holds (lowered before the steps).
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_LIB_FRONTEND_STEPLOWERING_H
#define STENCILC_LIB_FRONTEND_STEPLOWERING_H

#include "stencilc/Basic/Diagnostic.h"
#include "stencilc/IR/Module.h"
#include "llvm/ADT/DenseMap.h"

namespace clang {
class ASTContext;
class Decl;
class FunctionDecl;
} // namespace clang

namespace stencilc::frontend {

/// Appends the step \p FD to \p M, whose stencils \p StencilIndex maps from
/// their canonical declarations; returns false after reporting an error.
bool lowerStep(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
               const llvm::DenseMap<const clang::Decl *, unsigned> &StencilIndex,
               ir::Module &M, DiagnosticSink &Diags);

} // namespace stencilc::frontend

#endif // STENCILC_LIB_FRONTEND_STEPLOWERING_H
