//===- SignatureLowering.h - A stencil's parameters as IR ------*- C++ -*-===//
#ifndef STENCILC_LIB_FRONTEND_SIGNATURELOWERING_H
#define STENCILC_LIB_FRONTEND_SIGNATURELOWERING_H

#include "stencilc/Basic/Diagnostic.h"
#include "stencilc/IR/Stencil.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace stencilc::frontend {

/// Fills S.Params and S.Dims from \p FD: the index first, then scalars by
/// value and pointers to scalars. Returns false after reporting an error.
bool lowerSignature(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
                    ir::Stencil &S, DiagnosticSink &Diags);

/// Appends to \p Params the parameters of \p FD after the first (scalars by
/// value, pointers to scalars), as a stencil's or a step's; \p Owner names
/// the stencil or step in messages, \p Kind says which ("stencil", "step").
/// Returns false after reporting an error.
bool lowerParameters(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
                     const char *Kind, const std::string &Owner,
                     std::vector<ir::Param> &Params, DiagnosticSink &Diags);

/// Parameter \p P's name, or for an unnamed one (`float,` in a signature)
/// one of its own: generated code declares and passes every parameter.
std::string parameterName(const clang::ParmVarDecl *P);

} // namespace stencilc::frontend

#endif // STENCILC_LIB_FRONTEND_SIGNATURELOWERING_H
