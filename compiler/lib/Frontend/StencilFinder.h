//===- StencilFinder.h - Find the stencils of a translation unit -*- C++
//-*-===//
#ifndef STENCILC_LIB_FRONTEND_STENCILFINDER_H
#define STENCILC_LIB_FRONTEND_STENCILFINDER_H

#include <vector>

namespace clang {
class ASTContext;
class Decl;
} // namespace clang

namespace stencilc::frontend {

/// Every declaration annotated with STENCIL_KERNEL outside system headers:
/// function definitions and functor struct definitions, in source order.
std::vector<const clang::Decl *> findAnnotatedStencils(clang::ASTContext &Ctx);

/// The annotation STENCIL_KERNEL expands to while stencilc parses.
constexpr const char *StencilAnnotation = "stencilc.stencil";

} // namespace stencilc::frontend

#endif // STENCILC_LIB_FRONTEND_STENCILFINDER_H
