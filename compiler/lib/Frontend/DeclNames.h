//===- DeclNames.h - Where a declaration is and what encloses it -*- C++ -*-===//
#ifndef STENCILC_LIB_FRONTEND_DECLNAMES_H
#define STENCILC_LIB_FRONTEND_DECLNAMES_H

#include "stencilc/Basic/SourceLocation.h"
#include <string>
#include <vector>

namespace clang {
class Decl;
class SourceManager;
} // namespace clang

namespace stencilc::frontend {

/// The namespaces and classes around \p D, outermost first ("anonymous" for
/// an anonymous namespace): what qualifies its name.
std::vector<std::string> enclosingNames(const clang::Decl *D);

/// Where \p D is declared, as the user's #line directives name it (the line
/// a macro was expanded on).
PresumedLoc presumedLocOf(const clang::Decl *D, const clang::SourceManager &SM);

} // namespace stencilc::frontend

#endif // STENCILC_LIB_FRONTEND_DECLNAMES_H
