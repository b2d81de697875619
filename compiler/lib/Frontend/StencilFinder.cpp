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
AST_MATCHER_P(Decl, hasAnnotation, std::string, Annotation) {
  for (const auto *A : Node.specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == Annotation)
      return true;
  return false;
}

/// \p Found in source order, each declaration once (templates can match per
/// instance).
std::vector<const Decl *> inSourceOrder(ASTContext &Ctx,
                                        std::vector<const Decl *> Found) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::sort(Found.begin(), Found.end(), [&](const Decl *A, const Decl *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });
  Found.erase(std::unique(Found.begin(), Found.end()), Found.end());
  return Found;
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
  // In system headers too: a project's headers reached through -isystem
  // (CMake gives imported targets' include directories so) are its own.
  auto Annotated = hasAnnotation(StencilAnnotation);
  Finder.addMatcher(functionDecl(Annotated, isDefinition()).bind("stencil"),
                    &C);
  Finder.addMatcher(cxxRecordDecl(Annotated, isDefinition()).bind("stencil"),
                    &C);
  Finder.matchAST(Ctx);
  return inSourceOrder(Ctx, std::move(C.Found));
}

std::vector<const FunctionDecl *>
stencilc::frontend::findAnnotatedSteps(ASTContext &Ctx) {
  Collector C;
  MatchFinder Finder;
  Finder.addMatcher(functionDecl(hasAnnotation(StepAnnotation), isDefinition())
                        .bind("stencil"),
                    &C);
  Finder.matchAST(Ctx);
  std::vector<const FunctionDecl *> Steps;
  for (const Decl *D : inSourceOrder(Ctx, std::move(C.Found)))
    Steps.push_back(cast<FunctionDecl>(D));
  return Steps;
}

bool stencilc::frontend::isAnnotatedStencil(const Decl *D) {
  for (const Decl *R : D->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == StencilAnnotation)
        return true;
  return false;
}

namespace {
using stencilc::frontend::RunStencil;

/// True if \p VD may hold another value than its initialiser: it is
/// assigned, or its address or a non-const reference to it is taken.
bool mayChange(ASTContext &Ctx, const VarDecl *VD) {
  if (VD->getType().isConstQualified())
    return false;
  auto Ref = ignoringParenImpCasts(declRefExpr(to(varDecl(equalsNode(VD)))));
  auto NonConstRef = lValueReferenceType(pointee(unless(isConstQualified())));
  auto Change = stmt(
      anyOf(binaryOperator(isAssignmentOperator(), hasLHS(Ref)),
            unaryOperator(hasOperatorName("&"), hasUnaryOperand(Ref)),
            // Bound to a non-const reference, or passed to a T & parameter.
            declStmt(has(varDecl(hasType(NonConstRef), hasInitializer(Ref)))),
            callExpr(forEachArgumentWithParam(
                Ref, parmVarDecl(hasType(NonConstRef))))));
  // A local changes only in its function; a global anywhere.
  const Decl *Scope = Ctx.getTranslationUnitDecl();
  if (const auto *Fn = dyn_cast_or_null<Decl>(VD->getParentFunctionOrMethod()))
    Scope = Fn;
  return !match(decl(forEachDescendant(Change)), *Scope, Ctx).empty();
}

/// The function an argument of function or function-pointer type names:
/// `f`, `&f`, or a variable initialised from one and never changed.
const FunctionDecl *namedFunction(ASTContext &Ctx, const Expr *E,
                                  int Depth = 0) {
  if (!E || Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
    return FD;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || isa<ParmVarDecl>(VD) || !VD->getInit() || mayChange(Ctx, VD))
    return nullptr;
  return namedFunction(Ctx, VD->getInit(), Depth + 1);
}

/// True if \p Loop (a stencil::Loop specialization) runs on the serial host
/// engine, which calls the user's own code.
bool onHostEngine(const CXXRecordDecl *Loop) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Loop);
  if (!Spec || Spec->getTemplateArgs().size() < 2)
    return false;
  QualType Engine = Spec->getTemplateArgs()[1].getAsType();
  const auto *ERD = Engine.isNull() ? nullptr : Engine->getAsCXXRecordDecl();
  return ERD && ERD->getQualifiedNameAsString() == "stencil::HostLoopEngine";
}

class RunCollector : public MatchFinder::MatchCallback {
public:
  void run(const MatchFinder::MatchResult &Result) override {
    // haloOf(backend, stencils...) and the like: each argument from the
    // first stencil's on.
    if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("stencils")) {
      const auto *First = Result.Nodes.getNodeAs<Expr>("stencil");
      bool From = false;
      for (const Expr *A : Call->arguments())
        // As hasArgument sees it.
        if ((From = From || (A = A->IgnoreParenImpCasts()) == First))
          Found.push_back(
              stencilc::frontend::resolveStencilArgument(*Result.Context, A));
      return;
    }
    const auto *Arg = Result.Nodes.getNodeAs<Expr>("stencil");
    const auto *Method = Result.Nodes.getNodeAs<CXXMethodDecl>("method");
    const bool Repeat = Method && Method->getName() == "repeat";
    const bool OnHost = Method && onHostEngine(Method->getParent());
    if (OnHost && !Repeat)
      return;
    Found.push_back(
        stencilc::frontend::resolveStencilArgument(*Result.Context, Arg));
    Found.back().Repeated = Repeat;
    Found.back().OnHost = OnHost;
    if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call"))
      if (Found.back().Repeated)
        findLevelMarks(Call, Found.back());
  }
  std::vector<RunStencil> Found;

private:
  /// The arguments after repeat()'s stencil of type stencil::PreviousLevel
  /// or NextLevel (the marks), with their places from the end.
  static void findLevelMarks(const CallExpr *Call, RunStencil &R) {
    const unsigned N = Call->getNumArgs();
    for (unsigned I = 2; I < N; ++I) {
      const Expr *E = Call->getArg(I);
      const auto *RD = E->getType().getNonReferenceType()->getAsCXXRecordDecl();
      if (!RD)
        continue;
      const std::string Name = RD->getQualifiedNameAsString();
      if (Name == "stencil::PreviousLevel") {
        R.PreviousMark = E;
        R.PreviousFromEnd = N - I;
        ++R.PreviousMarks;
      } else if (Name == "stencil::NextLevel") {
        R.NextMark = E;
        R.NextFromEnd = N - I;
        ++R.NextMarks;
      }
    }
  }
};
} // namespace

RunStencil stencilc::frontend::resolveStencilArgument(ASTContext &Ctx,
                                                      const Expr *Arg) {
  RunStencil R;
  R.Arg = Arg;
  QualType T = Arg->getType().getNonReferenceType();
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl()) {
    R.Stencil = RD->getDefinition() ? RD->getDefinition() : RD;
    R.K = RD->isLambda() ? RunStencil::Lambda : RunStencil::Resolved;
  } else if (const FunctionDecl *FD = namedFunction(Ctx, Arg)) {
    const FunctionDecl *Def = FD->getDefinition();
    R.Stencil = Def ? Def : FD;
    R.K = Def ? RunStencil::Resolved : RunStencil::DefinedElsewhere;
  }
  return R;
}

std::pair<QualType, QualType>
stencilc::frontend::wrongLevelTypes(const RunStencil &R) {
  if (R.PreviousMarks != 1 || R.NextMarks != 1)
    return {};
  // PreviousLevel<V> and NextLevel<V>: V is T * or Field<T>.
  auto Held = [](const Expr *Mark) {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        Mark->getType().getNonReferenceType()->getAsCXXRecordDecl());
    return Spec && Spec->getTemplateArgs().size() == 1 &&
                   Spec->getTemplateArgs()[0].getKind() ==
                       TemplateArgument::Type
               ? Spec->getTemplateArgs()[0].getAsType()
               : QualType();
  };
  const QualType Previous = Held(R.PreviousMark), Next = Held(R.NextMark);
  if (Previous.isNull() || Next.isNull())
    return {};
  auto ConstElements = [](QualType T) {
    return T.isConstQualified() ||
           (T->isPointerType() && T->getPointeeType().isConstQualified());
  };
  if (Previous.getCanonicalType() == Next.getCanonicalType() &&
      !ConstElements(Previous))
    return {};
  return {Previous, Next};
}

namespace {
class StepRunCollector : public MatchFinder::MatchCallback {
public:
  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Method = Result.Nodes.getNodeAs<CXXMethodDecl>("method");
    if (onHostEngine(Method->getParent()))
      return;
    const auto *Arg = Result.Nodes.getNodeAs<Expr>("step");
    const bool Loop = Method->getName() == "runStep";
    Found.push_back({Arg, namedFunction(*Result.Context, Arg),
                     Loop ? "runStep()"
                          : "DomainStep::" + Method->getNameAsString() + "()"});
  }
  std::vector<stencilc::frontend::RunStep> Found;
};
} // namespace

std::vector<stencilc::frontend::RunStep>
stencilc::frontend::findRunSteps(ASTContext &Ctx) {
  StepRunCollector C;
  MatchFinder Finder;
  auto Method = cxxMethodDecl(
      anyOf(allOf(hasName("runStep"), ofClass(hasName("::stencil::Loop"))),
            allOf(hasAnyName("run", "runWithoutOverlap"),
                  ofClass(hasName("::stencil::DomainStep")))));
  Finder.addMatcher(
      cxxMemberCallExpr(
          callee(Method.bind("method")), hasArgument(0, expr().bind("step")),
          unless(isExpansionInSystemHeader()),
          unless(hasAncestor(namespaceDecl(hasName("::stencil"))))),
      &C);
  Finder.matchAST(Ctx);
  // One entry per argument: a template's instances share their call.
  std::vector<RunStep> Steps;
  for (const RunStep &R : C.Found)
    if (std::none_of(Steps.begin(), Steps.end(), [&](const RunStep &S) {
          return S.Arg->getBeginLoc() == R.Arg->getBeginLoc();
        }))
      Steps.push_back(R);
  return Steps;
}

std::vector<RunStencil> stencilc::frontend::findRunStencils(ASTContext &Ctx) {
  RunCollector C;
  MatchFinder Finder;
  auto NotRuntime =
      allOf(unless(isExpansionInSystemHeader()),
            unless(hasAncestor(namespaceDecl(hasName("::stencil")))));
  // Loop<Dims, Engine>::run(stencil, args...), a step's run (Step<Dims>) and
  // DomainLoop's run/bind; repeat(steps, stencil, args...) of a Loop, an
  // engine or a DomainLoop is a time loop, its stencil the second argument.
  auto LoopMethod = cxxMethodDecl(
      anyOf(allOf(hasName("run"), ofClass(hasAnyName("::stencil::Loop",
                                                     "::stencil::Step"))),
            allOf(hasAnyName("run", "bind"),
                  ofClass(hasName("::stencil::DomainLoop")))));
  // The callee is tested before NotRuntime: hasAncestor walks up the tree,
  // and every idx.ix<...>() of a deep expression is a member call too.
  Finder.addMatcher(cxxMemberCallExpr(callee(LoopMethod.bind("method")),
                                      hasArgument(0, expr().bind("stencil")),
                                      NotRuntime),
                    &C);
  auto Repeat =
      cxxMethodDecl(hasName("repeat"),
                    ofClass(hasAnyName(
                        "::stencil::Loop", "::stencil::GeneratedLoopEngine",
                        "::stencil::AutoLoopEngine", "::stencil::DomainLoop")));
  Finder.addMatcher(cxxMemberCallExpr(callee(Repeat.bind("method")),
                                      hasArgument(1, expr().bind("stencil")),
                                      NotRuntime)
                        .bind("call"),
                    &C);
  // tuneNow(loop, stencil, info, args...).
  Finder.addMatcher(
      callExpr(callee(functionDecl(hasName("::stencil::tuneNow"))),
               hasArgument(1, expr().bind("stencil")), NotRuntime),
      &C);
  // CompCommBinder's set_post_func/set_pre_func(stencil, args...): bound to
  // a DomainLoop inside the runtime, where the matchers above do not look.
  Finder.addMatcher(
      cxxMemberCallExpr(
          callee(cxxMethodDecl(hasAnyName("set_post_func", "set_pre_func"),
                               ofClass(hasName("::stencil::CompCommBinder")))),
          hasArgument(0, expr().bind("stencil")), NotRuntime),
      &C);
  // What asks for a stencil's generated code without running it:
  // haloOf(backend, stencils...), deepHaloOf(backend, steps, stencils...),
  // generatedFor(backend, stencil).
  Finder.addMatcher(
      callExpr(callee(functionDecl(
                   hasAnyName("::stencil::haloOf", "::stencil::generatedFor"))),
               hasArgument(1, expr().bind("stencil")), NotRuntime)
          .bind("stencils"),
      &C);
  Finder.addMatcher(
      callExpr(callee(functionDecl(hasName("::stencil::deepHaloOf"))),
               hasArgument(2, expr().bind("stencil")), NotRuntime)
          .bind("stencils"),
      &C);
  Finder.matchAST(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  std::stable_sort(C.Found.begin(), C.Found.end(),
                   [&](const RunStencil &A, const RunStencil &B) {
                     return SM.isBeforeInTranslationUnit(A.Arg->getBeginLoc(),
                                                         B.Arg->getBeginLoc());
                   });
  // One entry per argument (a template's instances share their call), on
  // the host only if every instance is: a generic lambda called with the
  // host engine and a generated one needs the generated code.
  std::vector<RunStencil> Calls;
  for (const RunStencil &R : C.Found) {
    auto Same = [&](const RunStencil &A) {
      return A.Arg->getBeginLoc() == R.Arg->getBeginLoc() &&
             A.Stencil == R.Stencil && A.K == R.K && A.Repeated == R.Repeated;
    };
    // Equal entries are adjacent but for their engine: look back over them.
    auto It = std::find_if(Calls.rbegin(), Calls.rend(), [&](auto &A) {
      return A.Arg->getBeginLoc() != R.Arg->getBeginLoc() || Same(A);
    });
    if (It != Calls.rend() && Same(*It)) {
      It->OnHost = It->OnHost && R.OnHost;
      // An instance whose levels cannot trade places is the one to report.
      if (wrongLevelTypes(*It).first.isNull() &&
          !wrongLevelTypes(R).first.isNull()) {
        It->PreviousMark = R.PreviousMark;
        It->NextMark = R.NextMark;
      }
    } else
      Calls.push_back(R);
  }
  return Calls;
}
