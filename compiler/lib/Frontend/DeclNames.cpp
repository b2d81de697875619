//===- DeclNames.cpp - Where a declaration is and what encloses it --------===//
#include "DeclNames.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

std::vector<std::string> stencilc::frontend::enclosingNames(const Decl *D) {
  std::vector<std::string> Names;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Names.insert(Names.begin(), NS->isAnonymousNamespace()
                                      ? std::string("anonymous")
                                      : NS->getNameAsString());
    else if (const auto *RD = dyn_cast<RecordDecl>(DC))
      Names.insert(Names.begin(), RD->getNameAsString());
  }
  return Names;
}

stencilc::PresumedLoc
stencilc::frontend::presumedLocOf(const Decl *D, const SourceManager &SM) {
  clang::PresumedLoc P =
      SM.getPresumedLoc(SM.getExpansionLoc(D->getLocation()));
  if (!P.isValid())
    return {};
  return {P.getFilename(), P.getLine(), P.getColumn()};
}
