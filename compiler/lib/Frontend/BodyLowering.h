//===- BodyLowering.h - A stencil's body as IR -----------------*- C++ -*-===//
///
/// \file
/// Lowers the body of a stencil (and every helper it calls, inlined) into
/// IR statements. Expects S.Params filled by lowerSignature. Every construct
/// the IR cannot express is reported; lowering goes on after an error so one
/// run reports as many as it can.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_LIB_FRONTEND_BODYLOWERING_H
#define STENCILC_LIB_FRONTEND_BODYLOWERING_H

#include "stencilc/Basic/Diagnostic.h"
#include "stencilc/IR/Stencil.h"

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace stencilc::frontend {

/// Fills S.Body and S.Locals from \p FD's body. Returns false after
/// reporting at least one error.
bool lowerBody(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
               ir::Stencil &S, DiagnosticSink &Diags);

} // namespace stencilc::frontend

#endif // STENCILC_LIB_FRONTEND_BODYLOWERING_H
