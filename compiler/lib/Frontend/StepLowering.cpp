//===- StepLowering.cpp - A step function as IR ---------------------------===//
#include "StepLowering.h"
#include "ClangDiagnosticSink.h"
#include "DeclNames.h"
#include "SignatureLowering.h"
#include "StencilFinder.h"
#include "TypeMapping.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>

using namespace clang;
using namespace stencilc;

namespace {

class StepLowering {
public:
  StepLowering(ASTContext &Ctx,
               const llvm::DenseMap<const Decl *, unsigned> &StencilIndex,
               const ir::Module &M, DiagnosticSink &Diags)
      : Ctx(Ctx), StencilIndex(StencilIndex), M(M), Diags(Diags) {}

  bool lower(const FunctionDecl *FD, ir::Step &St);

private:
  bool lowerCall(const FunctionDecl *FD, const Stmt *S, ir::Step &St);
  bool doesNothing(const Stmt *S) const;
  std::optional<ir::StepArg> lowerArg(const ir::Step &St,
                                      const FunctionDecl *FD, const Expr *E,
                                      const ir::Param &To, unsigned Position,
                                      const ir::Stencil &Callee);

  ASTContext &Ctx;
  const llvm::DenseMap<const Decl *, unsigned> &StencilIndex;
  const ir::Module &M;
  DiagnosticSink &Diags;
};

} // namespace

/// The step object of \p FD (its first parameter) named by \p E, or null.
static bool isStepObject(const FunctionDecl *FD, const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && FD->getNumParams() > 0 &&
         DRE->getDecl() == FD->getParamDecl(0);
}

bool StepLowering::lower(const FunctionDecl *FD, ir::Step &St) {
  St.Range = toIRRange(clang::SourceRange(FD->getLocation()));
  const bool Member = isa<CXXMethodDecl>(FD);
  if (Member || FD->getDescribedFunctionTemplate() ||
      FD->isTemplateInstantiation() ||
      FD->getFormalLinkage() != ExternalLinkage || FD->isInlined()) {
    Diags.report(DiagId::err_step_form, St.Range, {St.Name});
    return false;
  }
  St.ExternC = FD->isExternC();
  if (FD->getNumParams() == 0 ||
      !frontend::stepDims(FD->getParamDecl(0)->getType()) ||
      !FD->getParamDecl(0)->getType()->isReferenceType()) {
    Diags.report(DiagId::err_step_first_param,
                 FD->getNumParams()
                     ? toIRRange(FD->getParamDecl(0)->getSourceRange())
                     : St.Range,
                 {St.Name});
    return false;
  }
  St.Dims = frontend::stepDims(FD->getParamDecl(0)->getType());
  ir::Param First;
  First.Kind = ir::ParamKind::Index;
  First.Name = frontend::parameterName(FD->getParamDecl(0));
  First.ByReference = true;
  // `const stencil::Step3D &` works as well (run() is const); the generated
  // declaration must say the same.
  First.ReadOnly =
      FD->getParamDecl(0)->getType().getNonReferenceType().isConstQualified();
  First.Range = toIRRange(FD->getParamDecl(0)->getSourceRange());
  for (const auto *A : FD->getParamDecl(0)->specific_attrs<AnnotateAttr>())
    First.Scratch |= A->getAnnotation() == frontend::ScratchAnnotation;
  St.Params.push_back(First);
  if (!frontend::lowerParameters(Ctx, FD, "step", St.Name, St.Params, Diags))
    return false;
  bool ScratchOk = true;
  for (const ir::Param &P : St.Params) {
    if (!P.Scratch)
      continue;
    if (P.Kind != ir::ParamKind::Array)
      Diags.report(DiagId::err_scratch_not_array, P.Range, {P.Name, St.Name});
    else if (P.ReadOnly)
      Diags.report(DiagId::err_scratch_read_only, P.Range, {P.Name, St.Name});
    else
      continue;
    ScratchOk = false;
  }
  if (!ScratchOk)
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body) {
    Diags.report(DiagId::err_step_statement,
                 toIRRange(FD->getSourceRange()), {St.Name});
    return false;
  }
  bool Ok = true;
  for (const Stmt *S : Body->body())
    if (!doesNothing(S))
      Ok &= lowerCall(FD, S, St);
  if (Ok && St.Calls.empty()) {
    Diags.report(DiagId::err_step_empty, St.Range, {St.Name});
    return false;
  }
  return Ok;
}

/// `;`, a discarded value without side effects (`(void)unused;`, an
/// assert() under NDEBUG) and declarations of no object (static_assert,
/// typedef, using) are steps' statements too: they do nothing at run time.
bool StepLowering::doesNothing(const Stmt *S) const {
  if (isa<NullStmt>(S))
    return true;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return std::all_of(DS->decl_begin(), DS->decl_end(), [](const Decl *D) {
      return isa<StaticAssertDecl, TypedefNameDecl, UsingDecl,
                 UsingDirectiveDecl>(D);
    });
  const auto *Cast = dyn_cast<ExplicitCastExpr>(S);
  if (const auto *E = dyn_cast<Expr>(S))
    Cast = dyn_cast<ExplicitCastExpr>(E->IgnoreParens());
  return Cast && Cast->getType()->isVoidType() &&
         !Cast->getSubExpr()->HasSideEffects(Ctx);
}

bool StepLowering::lowerCall(const FunctionDecl *FD, const Stmt *S,
                             ir::Step &St) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(S);
  if (const auto *E = dyn_cast<Expr>(S))
    Call = dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts());
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!Call || !Method || Method->getName() != "run" ||
      !isStepObject(FD, Call->getImplicitObjectArgument()) ||
      Call->getNumArgs() == 0) {
    Diags.report(DiagId::err_step_statement, toIRRange(S->getSourceRange()),
                 {St.Name});
    return false;
  }
  const Expr *StencilArg = Call->getArg(0);
  frontend::RunStencil R = frontend::resolveStencilArgument(Ctx, StencilArg);
  auto Found = R.Stencil ? StencilIndex.find(R.Stencil->getCanonicalDecl())
                         : StencilIndex.end();
  if (R.K != frontend::RunStencil::Resolved || Found == StencilIndex.end()) {
    // A stencil that failed to lower was reported already.
    if (R.K != frontend::RunStencil::Resolved)
      Diags.report(DiagId::err_step_stencil_unknown,
                   toIRRange(StencilArg->getSourceRange()), {St.Name});
    return false;
  }
  ir::StepCall C;
  C.Stencil = Found->second;
  C.Range = toIRRange(Call->getSourceRange());
  const ir::Stencil &Callee = M.Stencils[C.Stencil];
  if (Callee.Dims != St.Dims) {
    Diags.report(DiagId::err_step_dims, toIRRange(StencilArg->getSourceRange()),
                 {Callee.qualifiedName(), std::to_string(Callee.Dims),
                  St.Name, std::to_string(St.Dims)});
    return false;
  }
  const unsigned Given = Call->getNumArgs() - 1;
  const unsigned Wanted = static_cast<unsigned>(Callee.Params.size()) - 1;
  if (Given != Wanted) {
    Diags.report(DiagId::err_step_arg_count, C.Range,
                 {Callee.qualifiedName(), std::to_string(Given),
                  std::to_string(Wanted)});
    return false;
  }
  bool Ok = true;
  for (unsigned A = 0; A < Given; ++A) {
    std::optional<ir::StepArg> Arg = lowerArg(
        St, FD, Call->getArg(A + 1), Callee.Params[A + 1], A + 1, Callee);
    Ok &= Arg.has_value();
    if (Arg)
      C.Args.push_back(*Arg);
  }
  if (Ok)
    St.Calls.push_back(std::move(C));
  return Ok;
}

std::optional<ir::StepArg>
StepLowering::lowerArg(const ir::Step &St, const FunctionDecl *FD,
                       const Expr *E, const ir::Param &To, unsigned Position,
                       const ir::Stencil &Callee) {
  ir::StepArg Arg;
  Arg.Range = toIRRange(E->getSourceRange());
  auto Mismatch = [&](const std::string &What) {
    Diags.report(DiagId::err_step_argument, Arg.Range,
                 {std::to_string(Position), Callee.qualifiedName(), To.Name,
                  What});
    return std::nullopt;
  };
  // A parameter of the step: arrays to arrays of the same element type,
  // scalars to scalars (converted as C++ converts them).
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *PVD = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      for (unsigned P = 1; P < FD->getNumParams(); ++P) {
        if (FD->getParamDecl(P) != PVD)
          continue;
        // lowerParameters keeps parameter order.
        const ir::Param &From = St.Params[P];
        if (From.Kind != To.Kind)
          return Mismatch(From.Kind == ir::ParamKind::Array
                              ? "an array, where the stencil takes a scalar"
                              : "a scalar, where the stencil takes an array");
        if (To.Kind == ir::ParamKind::Array &&
            (From.Ty != To.Ty || From.Builtin != To.Builtin))
          return Mismatch("an array of '" +
                          std::string(ir::cppBuiltinName(From.Builtin)) +
                          "', where the stencil takes one of '" +
                          ir::cppBuiltinName(To.Builtin) + "'");
        if (To.Kind == ir::ParamKind::Array && From.ReadOnly && !To.ReadOnly)
          return Mismatch("a read-only array, where the stencil writes one");
        Arg.From = ir::StepArg::Kind::Param;
        Arg.Param = P;
        return Arg;
      }
  if (To.Kind == ir::ParamKind::Array)
    return Mismatch("not one of the step's array parameters");
  // A constant scalar: the literal's value in its own type.
  Expr::EvalResult Result;
  std::optional<ir::Type> Ty = frontend::toScalarType(E->getType());
  if (E->isValueDependent() || !E->EvaluateAsRValue(Result, Ctx) ||
      Result.HasSideEffects)
    return Mismatch("neither a parameter of the step nor a constant");
  if (!Ty) // a char or an enumerator, say
    return Mismatch("a constant of type '" + E->getType().getAsString() +
                    "', which no scalar of a stencil has; convert it to the "
                    "parameter's type");
  const APValue &V = Result.Val;
  if (V.isInt()) {
    const llvm::APSInt &I = V.getInt();
    Arg.Value = std::make_shared<ir::ConstantExpr>(
        *Ty,
        I.isSigned() ? I.getSExtValue()
                     : static_cast<std::int64_t>(I.getZExtValue()),
        0.0, Arg.Range);
  } else if (V.isFloat()) {
    // Exact: a float or double value widened to double.
    llvm::APFloat F = V.getFloat();
    bool Lost = false;
    F.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &Lost);
    Arg.Value = std::make_shared<ir::ConstantExpr>(*Ty, 0, F.convertToDouble(),
                                                   Arg.Range);
  } else
    return Mismatch("neither a parameter of the step nor a constant");
  Arg.From = ir::StepArg::Kind::Constant;
  return Arg;
}

bool frontend::lowerStep(
    ASTContext &Ctx, const FunctionDecl *FD,
    const llvm::DenseMap<const Decl *, unsigned> &StencilIndex, ir::Module &M,
    DiagnosticSink &Diags) {
  ir::Step St;
  St.Name = FD->getNameAsString();
  St.Namespaces = enclosingNames(FD);
  St.Loc = presumedLocOf(FD, Ctx.getSourceManager());
  if (!StepLowering(Ctx, StencilIndex, M, Diags).lower(FD, St))
    return false;
  M.Steps.push_back(std::move(St));
  return true;
}
