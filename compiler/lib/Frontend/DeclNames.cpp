//===- DeclNames.cpp - Where a declaration is and what encloses it --------===//
#include "DeclNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

/// "Wrap<1, float>": \p Spec's name and template arguments, without the
/// scope around it (the other names give it).
static std::string
enclosingSpecialization(const ClassTemplateSpecializationDecl *Spec) {
  std::string Name = Spec->getNameAsString();
  llvm::raw_string_ostream OS(Name);
  // The arguments' own scopes stay (Wrap<a::T> and Wrap<b::T> differ).
  printTemplateArgumentList(
      OS, Spec->getTemplateArgs().asArray(),
      PrintingPolicy(Spec->getASTContext().getLangOpts()),
      Spec->getSpecializedTemplate()->getTemplateParameters());
  return OS.str();
}

std::vector<std::string> stencilc::frontend::enclosingNames(const Decl *D) {
  std::vector<std::string> Names;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Names.insert(Names.begin(), NS->isAnonymousNamespace()
                                      ? std::string("anonymous")
                                      : NS->getNameAsString());
    else if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(DC))
      // Its arguments too: each instance's functor is a stencil of its own
      // (in the profile, --list, messages), "Wrap<1, float>".
      Names.insert(Names.begin(), enclosingSpecialization(Spec));
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
