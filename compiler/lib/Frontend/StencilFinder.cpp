//===- StencilFinder.cpp - Find the stencils of a translation unit --------===//
//
// The only file that includes the AST matchers (they are slow to compile).
//
//===----------------------------------------------------------------------===//
#include "StencilFinder.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>

using namespace clang;
using namespace clang::ast_matchers;

namespace {
AST_MATCHER(Decl, hasStencilAnnotation) {
  for (const auto *A : Node.specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == stencilc::frontend::StencilAnnotation)
      return true;
  return false;
}

class Collector : public MatchFinder::MatchCallback {
public:
  void run(const MatchFinder::MatchResult &Result) override {
    if (const auto *D = Result.Nodes.getNodeAs<Decl>("stencil"))
      Found.push_back(D);
  }
  std::vector<const Decl *> Found;
};
} // namespace

std::vector<const Decl *>
stencilc::frontend::findAnnotatedStencils(ASTContext &Ctx) {
  Collector C;
  MatchFinder Finder;
  auto Annotated =
      allOf(hasStencilAnnotation(), unless(isExpansionInSystemHeader()));
  Finder.addMatcher(functionDecl(Annotated, isDefinition()).bind("stencil"),
                    &C);
  Finder.addMatcher(cxxRecordDecl(Annotated, isDefinition()).bind("stencil"),
                    &C);
  Finder.matchAST(Ctx);
  // Source order, each declaration once (templates can match per instance).
  const SourceManager &SM = Ctx.getSourceManager();
  std::sort(C.Found.begin(), C.Found.end(), [&](const Decl *A, const Decl *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });
  C.Found.erase(std::unique(C.Found.begin(), C.Found.end()), C.Found.end());
  return C.Found;
}
