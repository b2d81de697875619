//===- FrontendAction.cpp - Clang AST to stencil IR -----------------------===//
#include "stencilc/Frontend/FrontendAction.h"
#include "BodyLowering.h"
#include "ClangDiagnosticSink.h"
#include "DeclNames.h"
#include "SignatureLowering.h"
#include "StencilFinder.h"
#include "StepLowering.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace clang;
using namespace stencilc;

/// Records where each statement of \p S's body begins, for the generated
/// code's #line directives: the line a macro was expanded on, in the file
/// as the user's #line directives name it, as an absolute path (the
/// generated file is compiled from another directory).
static void recordStatementLines(const SourceManager &SM, ir::Stencil &S) {
  if (!S.Body)
    return;
  auto OnStmt = [&](const ir::Stmt &St) {
    unsigned Begin = St.range().Begin;
    if (Begin == 0 || S.StmtLines.count(Begin))
      return;
    clang::PresumedLoc P = SM.getPresumedLoc(
        SM.getExpansionLoc(toClangRange(St.range()).getBegin()));
    if (P.isInvalid())
      return;
    llvm::SmallString<256> Path(P.getFilename());
    SM.getFileManager().makeAbsolutePath(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    S.StmtLines[Begin] = {std::string(Path), P.getLine(), P.getColumn()};
  };
  ir::walkStmt(*S.Body, OnStmt, [](const ir::Expr &) {});
}

namespace {

/// Lowers one annotated declaration into the module.
class StencilLowering {
public:
  StencilLowering(ASTContext &Ctx, DiagnosticSink &Diags, ir::Module &Out)
      : Ctx(Ctx), Diags(Diags), Out(Out),
        Mangler(ItaniumMangleContext::create(Ctx, Ctx.getDiagnostics())) {}

  /// \p FromRun: \p D is passed to a loop's run(), not annotated, so an
  /// instance of a template is reported here (there is no pattern to report
  /// on).
  void lower(const Decl *D, bool FromRun = false);

  /// The module's index of each stencil lowered, by canonical declaration.
  const llvm::DenseMap<const Decl *, unsigned> &index() const { return Index; }

  /// \p D's stencil as lowered, or null.
  const ir::Stencil *lowered(const Decl *D) const {
    auto It = Index.find(D->getCanonicalDecl());
    return It == Index.end() ? nullptr : &Out.Stencils[It->second];
  }

  /// Marks \p D's stencil, if lowered, as one a time loop repeats.
  void markTimeLoop(const Decl *D) {
    auto It = Index.find(D->getCanonicalDecl());
    if (It != Index.end())
      Out.Stencils[It->second].TimeLoop = true;
  }

private:
  const FunctionDecl *callOperator(const CXXRecordDecl *RD, ir::Stencil &S,
                                   bool FromRun);
  void describe(const Decl *D, ir::Stencil &S);

  ASTContext &Ctx;
  DiagnosticSink &Diags;
  ir::Module &Out;
  std::unique_ptr<MangleContext> Mangler;
  llvm::DenseMap<const Decl *, unsigned> Index;
};

} // namespace

void StencilLowering::describe(const Decl *D, ir::Stencil &S) {
  S.Name = cast<NamedDecl>(D)->getNameAsString();
  S.Namespaces = stencilc::frontend::enclosingNames(D);
  S.Loc = stencilc::frontend::presumedLocOf(D, Ctx.getSourceManager());
  S.Range = toIRRange(clang::SourceRange(D->getLocation()));
}

/// The operator() declarations a call of an \p RD object finds: \p RD's
/// own, else its bases' (a functor that inherits its operator(), CRTP
/// included); several are refused by the caller, as C++ finds them
/// ambiguous.
static void collectCallOperators(const CXXRecordDecl *RD,
                                 std::vector<const FunctionDecl *> &Calls,
                                 bool &Template) {
  const std::size_t Before = Calls.size();
  for (const Decl *Member : RD->decls()) {
    const auto *FTD = dyn_cast<FunctionTemplateDecl>(Member);
    const auto *FD =
        FTD ? FTD->getTemplatedDecl() : dyn_cast<FunctionDecl>(Member);
    if (FD && FD->getOverloadedOperator() == OO_Call) {
      Calls.push_back(FD);
      Template |= FTD != nullptr;
    }
  }
  if (Calls.size() != Before)
    return; // (hides the bases')
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
      if (const CXXRecordDecl *Def = Base->getDefinition())
        collectCallOperators(Def, Calls, Template);
}

const FunctionDecl *StencilLowering::callOperator(const CXXRecordDecl *RD,
                                                  ir::Stencil &S,
                                                  bool FromRun) {
  std::vector<const FunctionDecl *> Calls;
  bool Template = false;
  collectCallOperators(RD, Calls, Template);
  if (Calls.size() != 1 || Template) {
    Diags.report(DiagId::err_functor_operator, S.Range, {S.Name});
    return nullptr;
  }
  const FunctionDecl *Def = Calls.front()->getDefinition();
  if (Def)
    return Def;
  // (A CRTP base run only by generated engines: nothing called it.)
  const auto *Owner = dyn_cast<ClassTemplateSpecializationDecl>(
      Calls.front()->getDeclContext());
  const bool Base = Owner && Owner != RD;
  // (A functor nested in a class template: its instance's members too.)
  const bool Member = !Base && RD->getInstantiatedFromMemberClass();
  if (!Base && !Member) {
    // Defined in another file (a header declares it): an annotated functor
    // is generated there, as an annotated function declared here is.
    if (FromRun)
      Diags.report(DiagId::warn_run_stencil_defined_elsewhere, S.Range,
                   {S.qualifiedName(), "run()"});
    return nullptr;
  }
  Diags.report(DiagId::err_call_no_definition,
               toIRRange(Calls.front()->getSourceRange()),
               {S.Name + "::operator()"});
  if (Base)
    Diags.report(DiagId::note_instantiate_call_operator, S.Range,
                 {S.Name, QualType(Owner->getTypeForDecl(), 0)
                              .getAsString(Ctx.getPrintingPolicy())});
  else
    Diags.report(DiagId::note_instantiate_member_class, S.Range,
                 {QualType(RD->getTypeForDecl(), 0)
                      .getAsString(Ctx.getPrintingPolicy())});
  return nullptr;
}

void StencilLowering::lower(const Decl *D, bool FromRun) {
  ir::Stencil S;
  describe(D, S);
  const FunctionDecl *FD = nullptr;
  if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
    if (isa<ClassTemplateSpecializationDecl>(RD)) {
      // An annotated template was already reported on its pattern.
      if (FromRun)
        Diags.report(DiagId::err_stencil_template, S.Range, {S.Name});
      return;
    }
    if (RD->getDescribedClassTemplate()) {
      Diags.report(DiagId::err_stencil_template, S.Range, {S.Name});
      return;
    }
    // A functor declared in a class template: each instance of that template
    // has its own, lowered as a stencil of its own (annotated too).
    if (RD->isDependentContext())
      return;
    S.Form = ir::StencilForm::Functor;
    // Engines find a functor by its type name, which a type of internal
    // linkage shares with its namesakes in other translation units, and the
    // generated file could not name it anyway.
    if (RD->getFormalLinkage() != ExternalLinkage) {
      Diags.report(DiagId::err_functor_stencil_linkage, S.Range, {S.Name});
      return;
    }
    llvm::raw_string_ostream OS(S.TypeKey);
    Mangler->mangleCXXRTTIName(QualType(RD->getTypeForDecl(), 0), OS);
    OS.flush();
    // typeid(T).name() is the RTTI name without the "_ZTS" symbol prefix.
    if (llvm::StringRef(S.TypeKey).startswith("_ZTS"))
      S.TypeKey.erase(0, 4);
    FD = callOperator(RD, S, FromRun);
  } else if (const auto *Fn = dyn_cast<FunctionDecl>(D)) {
    if (Fn->isTemplateInstantiation()) {
      if (FromRun)
        Diags.report(DiagId::err_stencil_template, S.Range, {S.Name});
      return;
    }
    S.Form = ir::StencilForm::Function;
    if (Fn->getDescribedFunctionTemplate()) {
      Diags.report(DiagId::err_stencil_template, S.Range, {S.Name});
      return;
    }
    if (isa<CXXMethodDecl>(Fn)) {
      Diags.report(DiagId::err_stencil_member_function, S.Range, {S.Name});
      return;
    }
    // Generated code finds a free function by its address, so it must link.
    if (Fn->getFormalLinkage() != ExternalLinkage || Fn->isInlined()) {
      Diags.report(DiagId::err_free_stencil_linkage, S.Range, {S.Name});
      return;
    }
    S.ExternC = Fn->isExternC();
    FD = Fn;
  }
  if (!FD || !stencilc::frontend::lowerSignature(Ctx, FD, S, Diags))
    return;
  // A body the parser skipped, or none at all, cannot be lowered.
  if (FD->hasSkippedBody() || !FD->getBody()) {
    Diags.report(DiagId::err_stencil_body_unavailable,
                 toIRRange(FD->getSourceRange()), {S.Name});
    return;
  }
  if (!stencilc::frontend::lowerBody(Ctx, FD, S, Diags))
    return;
  recordStatementLines(Ctx.getSourceManager(), S);
  Index[D->getCanonicalDecl()] = static_cast<unsigned>(Out.Stencils.size());
  Out.Stencils.push_back(std::move(S));
}

namespace {

/// The runtime's own headers in this translation unit: the file `#include
/// <stencil/dsl.hpp>` resolved to, and every file it includes from its own
/// folder, transitively. A user's header is never one, even in a folder
/// named `stencil` or next to the runtime's (it is included by the user).
struct RuntimeHeaders {
  const DirectoryEntry *Dir = nullptr; ///< dsl.hpp's folder, once included.
  llvm::DenseSet<const FileEntry *> Files;
};

/// Fills RuntimeHeaders as the preprocessor resolves #include directives.
class RuntimeHeaderFinder : public PPCallbacks {
public:
  RuntimeHeaderFinder(const SourceManager &SM,
                      std::shared_ptr<RuntimeHeaders> Runtime)
      : SM(SM), Runtime(std::move(Runtime)) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &,
                          StringRef FileName, bool, CharSourceRange,
                          OptionalFileEntryRef File, StringRef, StringRef,
                          const clang::Module *,
                          SrcMgr::CharacteristicKind) override {
    if (!File)
      return;
    const DirectoryEntry *Dir = &File->getDir().getDirEntry();
    // seed_compat.hpp includes dsl.hpp and the auto-tuning engine.
    if (!Runtime->Dir && (FileName == "stencil/dsl.hpp" ||
                          FileName == "stencil/seed_compat.hpp")) {
      Runtime->Dir = Dir;
      Runtime->Files.insert(&File->getFileEntry());
      return;
    }
    const FileEntry *Includer = SM.getFileEntryForID(SM.getFileID(HashLoc));
    if (Runtime->Dir == Dir && Includer && Runtime->Files.count(Includer))
      Runtime->Files.insert(&File->getFileEntry());
  }

private:
  const SourceManager &SM;
  std::shared_ptr<RuntimeHeaders> Runtime;
};

/// True if function \p D (any of its declarations) is annotated
/// STENCIL_STEP.
static bool isAnnotatedStep(const Decl *D) {
  for (const Decl *R : D->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == stencilc::frontend::StepAnnotation)
        return true;
  return false;
}

/// True if \p D is annotated as a stencil or a step, or is a member of a
/// functor that is: its body is always parsed, wherever it is.
static bool isStencilOrMember(const Decl *D) {
  // Steps too: a step's body is its calls.
  auto Annotated = [](const Decl *X) {
    for (const auto *A : X->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == stencilc::frontend::StencilAnnotation ||
          A->getAnnotation() == stencilc::frontend::StepAnnotation)
        return true;
    return false;
  };
  if (Annotated(D))
    return true;
  const auto *RD = dyn_cast<CXXRecordDecl>(D->getDeclContext());
  return RD && Annotated(RD);
}

class StencilConsumer : public ASTConsumer {
public:
  StencilConsumer(const TranslationUnitHook &OnTranslationUnit,
                  std::shared_ptr<DependencyCollector> Deps,
                  std::shared_ptr<const RuntimeHeaders> Runtime)
      : OnTranslationUnit(OnTranslationUnit), Deps(std::move(Deps)),
        Runtime(std::move(Runtime)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    FrontendResult Result;
    const SourceManager &SM = Ctx.getSourceManager();
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      Result.Module.InputFile = Main->getName().str();
    ClangDiagnosticSink Sink(Ctx.getDiagnostics());
    // C++ errors were already reported; stencils of a broken TU are not
    // lowered.
    if (!Ctx.getDiagnostics().hasErrorOccurred()) {
      StencilLowering Lowering(Ctx, Sink, Result.Module);
      lowerAll(Ctx, Sink, Lowering);
      // Steps after every stencil: a step names the stencils it runs.
      for (const FunctionDecl *FD : stencilc::frontend::findAnnotatedSteps(Ctx))
        // A template's instantiation is refused with the template, once.
        if (!FD->isTemplateInstantiation())
          stencilc::frontend::lowerStep(Ctx, FD, Lowering.index(),
                                        Result.Module, Sink);
      // A step without the mark runs, unplanned: say so where it is run.
      for (const stencilc::frontend::RunStep &R :
           stencilc::frontend::findRunSteps(Ctx))
        if (R.Step && !isAnnotatedStep(R.Step))
          Sink.report(DiagId::warn_run_step_unannotated,
                      toIRRange(R.Arg->getSourceRange()),
                      {R.Step->getNameAsString(), R.Call});
    }
    Result.HadErrors = Ctx.getDiagnostics().hasErrorOccurred();
    Result.Dependencies = Deps->getDependencies();
    // Here, not after the action: -verify checks the diagnostics when the
    // source file ends, and the IR's ranges mean nothing after that.
    OnTranslationUnit(std::move(Result), Sink);
  }

  /// True if \p Todo holds an annotated function of the type \p Arg (a
  /// function or function pointer) points to.
  static bool
  hasAnnotatedOfType(ASTContext &Ctx,
                     const std::vector<std::pair<const Decl *, bool>> &Todo,
                     const Expr *Arg) {
    QualType T = Arg->getType().getNonReferenceType();
    if (const auto *P = T->getAs<PointerType>())
      T = P->getPointeeType();
    if (!T->isFunctionType())
      return false;
    for (const auto &[D, FromRun] : Todo)
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        if (!FromRun && Ctx.hasSameType(FD->getType(), T))
          return true;
    return false;
  }

  /// The functions \p E names through conditional operators (`c ? f : &g`),
  /// appended to \p Out; false if some branch names no function.
  static bool conditionalFunctions(const Expr *E,
                                   std::vector<const FunctionDecl *> &Out) {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(E))
      return conditionalFunctions(C->getTrueExpr(), Out) &&
             conditionalFunctions(C->getFalseExpr(), Out);
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenImpCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *F = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
    if (F)
      Out.push_back(F);
    return F != nullptr;
  }

  /// Lowers the annotated stencils and those passed to a loop's run(), each
  /// once, in source order; warns where a run() argument names no stencil
  /// stencilc can generate here.
  static void lowerAll(ASTContext &Ctx, DiagnosticSink &Sink,
                       StencilLowering &Lowering) {
    using stencilc::frontend::RunStencil;
    std::vector<std::pair<const Decl *, bool>> Todo; // stencil, from run()
    for (const Decl *D : stencilc::frontend::findAnnotatedStencils(Ctx))
      Todo.push_back({D, false});
    llvm::DenseSet<const Decl *> Warned;
    std::vector<const Decl *> Repeated;
    const std::vector<RunStencil> Runs =
        stencilc::frontend::findRunStencils(Ctx);
    for (const RunStencil &R : Runs) {
      // The runtime refuses these at compile time too, in bodies stencilc
      // skips (shouldSkipFunctionBody).
      if (R.Repeated && (R.PreviousMarks != 1 || R.NextMarks != 1))
        Sink.report(
            DiagId::err_repeat_marks, toIRRange(R.Arg->getSourceRange()),
            {std::to_string(R.PreviousMarks), std::to_string(R.NextMarks)});
      // The runtime's static_asserts refuse these too, in bodies stencilc
      // skips: the levels trade places.
      if (R.Repeated) {
        const auto [Previous, Next] = stencilc::frontend::wrongLevelTypes(R);
        if (!Previous.isNull())
          Sink.report(DiagId::err_repeat_level_types,
                      toIRRange(R.Arg->getSourceRange()),
                      {Previous.getAsString(), Next.getAsString()});
      }
      if (R.OnHost)
        continue; // its marks only, below
      if (R.Repeated && R.K == RunStencil::Resolved)
        Repeated.push_back(R.Stencil);
      auto Where = toIRRange(R.Arg->getSourceRange());
      std::string Name =
          R.Stencil ? cast<NamedDecl>(R.Stencil)->getNameAsString() : "";
      const std::string Call = R.Repeated ? "repeat()" : "run()";
      switch (R.K) {
      case RunStencil::Resolved:
        // A step passed where a stencil goes (repeat(), a step's run()):
        // its first parameter is the Step, not an index.
        if (isAnnotatedStep(R.Stencil)) {
          Sink.report(DiagId::err_run_step, Where, {Name, Call});
          break;
        }
        // Annotated stencils are lowered as such (a template's pattern).
        if (!stencilc::frontend::isAnnotatedStencil(R.Stencil))
          Todo.push_back({R.Stencil, true});
        break;
      case RunStencil::Unresolved: {
        // `c ? f : g`: each function it may name is this call's stencil.
        std::vector<const FunctionDecl *> Chosen;
        if (isa<AbstractConditionalOperator>(R.Arg->IgnoreParenImpCasts()) &&
            conditionalFunctions(R.Arg, Chosen)) {
          for (const FunctionDecl *F : Chosen) {
            const std::string FName = F->getNameAsString();
            if (isAnnotatedStep(F))
              Sink.report(DiagId::err_run_step, Where, {FName, Call});
            else if (!F->getDefinition())
              Sink.report(DiagId::warn_run_stencil_defined_elsewhere, Where,
                          {FName, Call});
            else {
              if (!stencilc::frontend::isAnnotatedStencil(F))
                Todo.push_back({F->getDefinition(), true});
              if (R.Repeated)
                Repeated.push_back(F->getDefinition());
            }
          }
          break;
        }
        // An annotated function of the argument's type is probably what it
        // holds (e.g. a stencil passed on through a template's parameter).
        if (!hasAnnotatedOfType(Ctx, Todo, R.Arg))
          Sink.report(DiagId::warn_run_stencil_unresolved, Where, {Call});
        break;
      }
      case RunStencil::DefinedElsewhere:
        if (!stencilc::frontend::isAnnotatedStencil(R.Stencil) &&
            Warned.insert(R.Stencil->getCanonicalDecl()).second)
          Sink.report(DiagId::warn_run_stencil_defined_elsewhere, Where,
                      {Name, Call});
        break;
      case RunStencil::Lambda:
        Sink.report(DiagId::err_run_stencil_lambda, Where, {Call});
        break;
      }
    }
    // Each declaration once, in source order.
    const SourceManager &SM = Ctx.getSourceManager();
    std::stable_sort(Todo.begin(), Todo.end(), [&](auto &A, auto &B) {
      return SM.isBeforeInTranslationUnit(A.first->getLocation(),
                                          B.first->getLocation());
    });
    llvm::DenseSet<const Decl *> Done;
    for (auto &[D, FromRun] : Todo)
      if (Done.insert(D->getCanonicalDecl()).second)
        Lowering.lower(D, FromRun);
    for (const Decl *D : Repeated)
      Lowering.markTimeLoop(D);
    // The host engine's repeat()s too, where their stencil is lowered
    // anyway (annotated).
    for (const RunStencil &R : Runs)
      if (R.Repeated && R.K == RunStencil::Resolved && R.PreviousMarks == 1 &&
          R.NextMarks == 1)
        if (const ir::Stencil *S = Lowering.lowered(R.Stencil))
          checkLevelMarks(*S, R, Sink);
  }

  /// A repeat() call's marks against what its stencil does: the previous
  /// level is the array a step reads, so the stencil must not write it,
  /// and the next level the array it writes. Swapped, the steps one by one
  /// still agree on one rank, but a DomainLoop would exchange the array
  /// the steps write instead of the one they read.
  static void checkLevelMarks(const ir::Stencil &S,
                              const stencilc::frontend::RunStencil &R,
                              DiagnosticSink &Sink) {
    const unsigned Params = static_cast<unsigned>(S.Params.size());
    auto ParamOf = [&](unsigned FromEnd) -> int {
      if (FromEnd == 0 || FromEnd >= Params)
        return -1; // not one of the stencil's parameters
      return static_cast<int>(Params - FromEnd);
    };
    const int Previous = ParamOf(R.PreviousFromEnd),
              Next = ParamOf(R.NextFromEnd);
    // A scalar or an array of lower rank cannot trade places with an array
    // of the stencil's rank: the steps would write past its end.
    auto NotField = [&](int P, const Expr *Mark, const char *Which) {
      if (P <= 0)
        return false;
      const ir::Param &Q = S.Params[P];
      const bool Scalar = Q.Kind != ir::ParamKind::Array;
      if (!Scalar && !ir::isLowerRank(Q, S.Dims))
        return false;
      Sink.report(DiagId::err_repeat_level_not_field,
                  toIRRange(Mark->getSourceRange()),
                  {Which, Q.Name, S.qualifiedName(),
                   Scalar ? "a scalar" : "an array of lower rank"});
      return true;
    };
    if (NotField(Previous, R.PreviousMark, "previousLevel") |
        NotField(Next, R.NextMark, "nextLevel"))
      return;
    if (Previous > 0 && S.Params[Previous].Kind == ir::ParamKind::Array &&
        ir::storesSomewhere(S, static_cast<unsigned>(Previous)))
      Sink.report(DiagId::err_repeat_previous_written,
                  toIRRange(R.PreviousMark->getSourceRange()),
                  {S.Params[Previous].Name, S.qualifiedName()});
    if (Next > 0 && S.Params[Next].Kind == ir::ParamKind::Array &&
        !ir::storesSomewhere(S, static_cast<unsigned>(Next)))
      Sink.report(DiagId::err_repeat_next_not_written,
                  toIRRange(R.NextMark->getSourceRange()),
                  {S.Params[Next].Name, S.qualifiedName()});
  }

  /// Bodies in system headers are never stencils or helpers (math functions
  /// are recognised by name), and neither are those in the stencil
  /// runtime's own headers, so the parser may skip them: most of a run's
  /// time goes into <vector>, <random>, <mpi.h> and the runtime otherwise.
  /// Sema still parses constexpr bodies and those with deduced return types.
  /// A stencil's own body is never skipped.
  bool shouldSkipFunctionBody(Decl *D) override {
    const SourceManager &SM = D->getASTContext().getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
    if (!SM.isInSystemHeader(Loc) && !isRuntimeHeader(SM, SM.getFileID(Loc)))
      return false;
    return !isStencilOrMember(D);
  }

private:
  /// True for one of the runtime's own headers (see RuntimeHeaders).
  bool isRuntimeHeader(const SourceManager &SM, FileID File) {
    const FileEntry *Entry = SM.getFileEntryForID(File);
    return Entry && Runtime->Files.count(Entry);
  }

  const TranslationUnitHook &OnTranslationUnit;
  std::shared_ptr<DependencyCollector> Deps;
  std::shared_ptr<const RuntimeHeaders> Runtime;
};

/// Every file the translation unit reads, system headers too (as the
/// compiler's -MD lists them): a header reached through -isystem may hold a
/// stencil, or a macro one expands, and the build must run stencilc again
/// when it changes.
class EveryDependency : public DependencyCollector {
  bool needSystemDependencies() override { return true; }
};

class StencilAction : public ASTFrontendAction {
public:
  explicit StencilAction(const TranslationUnitHook &OnTranslationUnit)
      : OnTranslationUnit(OnTranslationUnit) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    // The preprocessor exists by now; attach directly so every #include counts.
    Deps->attachToPreprocessor(CI.getPreprocessor());
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<RuntimeHeaderFinder>(CI.getSourceManager(), Runtime));
    CI.getFrontendOpts().SkipFunctionBodies =
        true; // see shouldSkipFunctionBody
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<StencilConsumer>(OnTranslationUnit, Deps, Runtime);
  }

private:
  const TranslationUnitHook &OnTranslationUnit;
  std::shared_ptr<DependencyCollector> Deps =
      std::make_shared<EveryDependency>();
  std::shared_ptr<RuntimeHeaders> Runtime = std::make_shared<RuntimeHeaders>();
};

class StencilActionFactory : public tooling::FrontendActionFactory {
public:
  explicit StencilActionFactory(TranslationUnitHook OnTranslationUnit)
      : OnTranslationUnit(std::move(OnTranslationUnit)) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<StencilAction>(OnTranslationUnit);
  }

private:
  TranslationUnitHook OnTranslationUnit;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
stencilc::createStencilActionFactory(TranslationUnitHook OnTranslationUnit) {
  assert(OnTranslationUnit && "the Frontend's result goes to the hook");
  return std::make_unique<StencilActionFactory>(std::move(OnTranslationUnit));
}
