//===- MathFunctions.cpp - Which calls are math functions -----------------===//
#include "MathFunctions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

using namespace clang;
using namespace stencilc;

/// True for the global namespace (also through extern "C") and std.
static bool isMathContext(const DeclContext *DC) {
  DC = DC->getRedeclContext();
  if (DC->isTranslationUnit())
    return true;
  while (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
    if (!NS->isInline())
      return NS->getName() == "std" &&
             NS->getDeclContext()->getRedeclContext()->isTranslationUnit();
    DC = NS->getDeclContext()->getRedeclContext();
  }
  return false;
}

static std::optional<ir::MathFunc> lookupName(llvm::StringRef Name) {
  for (unsigned I = 0; I <= static_cast<unsigned>(ir::MathFunc::Max); ++I) {
    auto F = static_cast<ir::MathFunc>(I);
    if (Name == ir::mathFuncName(F))
      return F;
  }
  return std::nullopt;
}

/// True when \p FD is the library's: declared without a body or defined in
/// a system header. A function the user defined is a helper to inline,
/// whatever its name.
static bool isLibraryFunction(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return true;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation()));
}

bool frontend::isStdClamp(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() && FD->getName() == "clamp" &&
         FD->getNumParams() == 3 && FD->getDeclContext()->isStdNamespace() &&
         isLibraryFunction(FD);
}

std::optional<ir::MathFunc>
frontend::recognizeMathFunction(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || !isMathContext(FD->getDeclContext()) ||
      !isLibraryFunction(FD))
    return std::nullopt;
  llvm::StringRef Name = FD->getName();
  std::optional<ir::MathFunc> F = lookupName(Name);
  // C's float versions: sqrtf, fabsf, ... (min/max/abs have none).
  if (!F && Name.size() > 1 && Name.back() == 'f') {
    F = lookupName(Name.drop_back());
    if (F && (*F == ir::MathFunc::Min || *F == ir::MathFunc::Max ||
              *F == ir::MathFunc::Abs))
      F.reset();
  }
  if (!F || FD->getNumParams() != ir::mathFuncArity(*F))
    return std::nullopt;
  return F;
}
