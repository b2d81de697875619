//===- SignatureLowering.cpp - A stencil's parameters as IR ---------------===//
#include "SignatureLowering.h"
#include "ClangDiagnosticSink.h"
#include "StencilFinder.h"
#include "TypeMapping.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

using namespace clang;
using namespace stencilc;

/// True for the name of a CUDA vector type (int2, float4, dim3, ...), which
/// the CUDA headers declare at global scope: a free function of that name
/// there cannot be declared in the generated .cu file.
static bool isCudaVectorTypeName(llvm::StringRef Name) {
  if (Name == "dim3")
    return true;
  if (Name.size() < 2 || Name.back() < '1' || Name.back() > '4')
    return false;
  llvm::StringRef Base = Name.drop_back();
  if (Base == "float" || Base == "double")
    return true;
  Base.consume_front("u"); // the integer types' unsigned twins
  return Base == "char" || Base == "short" || Base == "int" || Base == "long" ||
         Base == "longlong";
}

std::string stencilc::frontend::parameterName(const ParmVarDecl *P) {
  if (!P->getName().empty())
    return P->getNameAsString();
  return "stencilc_unnamed" + std::to_string(P->getFunctionScopeIndex());
}

bool stencilc::frontend::lowerSignature(ASTContext &Ctx, const FunctionDecl *FD,
                                        ir::Stencil &S, DiagnosticSink &Diags) {
  if (!isa<CXXMethodDecl>(FD) &&
      FD->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
      FD->getIdentifier() && isCudaVectorTypeName(FD->getName())) {
    Diags.report(DiagId::err_stencil_cuda_name, toIRRange(FD->getLocation()),
                 {S.Name});
    return false;
  }
  if (FD->getNumParams() == 0 || !indexDims(FD->getParamDecl(0)->getType())) {
    stencilc::SourceRange R =
        FD->getNumParams() ? toIRRange(FD->getParamDecl(0)->getSourceRange())
                           : toIRRange(FD->getLocation());
    Diags.report(DiagId::err_first_param_not_index, R, {S.Name});
    return false;
  }
  const ParmVarDecl *IndexParam = FD->getParamDecl(0);
  QualType IndexType = IndexParam->getType();
  // By value or const reference: the stencil must not move the index.
  if (IndexType->isReferenceType() &&
      !IndexType.getNonReferenceType().isConstQualified()) {
    Diags.report(DiagId::err_first_param_not_index,
                 toIRRange(IndexParam->getSourceRange()), {S.Name});
    return false;
  }
  S.Dims = indexDims(IndexType);
  ir::Param Index;
  Index.Kind = ir::ParamKind::Index;
  Index.Name = parameterName(IndexParam);
  Index.Ty = ir::Type(ir::ScalarKind::Int64);
  Index.ByReference = IndexType->isReferenceType();
  Index.Range = toIRRange(IndexParam->getSourceRange());
  S.Params.push_back(Index);

  if (!lowerParameters(Ctx, FD, "stencil", S.Name, S.Params, Diags))
    return false;
  bool Ok = true;
  for (const ir::Param &P : S.Params)
    if (P.Scratch) {
      Diags.report(DiagId::err_scratch_stencil, P.Range, {P.Name, S.Name});
      Ok = false;
    }
  return Ok;
}

bool stencilc::frontend::lowerParameters(ASTContext &Ctx,
                                         const FunctionDecl *FD,
                                         const char *Kind,
                                         const std::string &Owner,
                                         std::vector<ir::Param> &Params,
                                         DiagnosticSink &Diags) {
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressTagKeyword = true;
  bool Ok = true;
  // C varargs: nothing to generate a parameter from, and the runtime's
  // signature checks cannot name the type.
  if (FD->isVariadic()) {
    const SourceLocation Ellipsis = FD->getEllipsisLoc();
    Diags.report(DiagId::err_param_variadic,
                 toIRRange(Ellipsis.isValid() ? Ellipsis : FD->getLocation()),
                 {Kind, Owner});
    Ok = false;
  }
  for (unsigned I = 1; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    QualType T = P->getType();
    stencilc::SourceRange R = toIRRange(P->getSourceRange());
    // Scalars and elements generated code could not declare or copy.
    QualType Value = T->isPointerType() ? T->getPointeeType() : T;
    if (Value.getNonReferenceType()->isEnumeralType()) {
      Diags.report(DiagId::err_param_enum, R,
                   {P->getNameAsString(), Kind, Owner, T.getAsString(Policy)});
      Ok = false;
      continue;
    }
    if (Value.getNonReferenceType().isVolatileQualified()) {
      Diags.report(DiagId::err_param_volatile, R,
                   {P->getNameAsString(), Kind, Owner, T.getAsString(Policy)});
      Ok = false;
      continue;
    }
    std::optional<ir::CppBuiltin> Builtin = parameterBuiltin(T);
    ir::Param Param;
    Param.Name = parameterName(P);
    Param.Range = R;
    for (const auto *A : P->specific_attrs<AnnotateAttr>())
      Param.Scratch |= A->getAnnotation() == ScratchAnnotation;
    if (std::optional<ir::Type> Scalar = toScalarType(T);
        Scalar && Builtin && !T->isReferenceType()) {
      Param.Kind = ir::ParamKind::Scalar;
      Param.Ty = *Scalar;
      Param.Builtin = *Builtin;
      Params.push_back(Param);
      continue;
    }
    if (std::optional<ir::Type> Elem = arrayElementType(T); Elem && Builtin) {
      Param.Kind = ir::ParamKind::Array;
      Param.Ty = *Elem;
      Param.Builtin = *Builtin;
      Param.ReadOnly = T->getPointeeType().isConstQualified();
      Params.push_back(Param);
      continue;
    }
    Diags.report(DiagId::err_param_type, R,
                 {P->getNameAsString(), Kind, Owner, T.getAsString(Policy)});
    Ok = false;
  }
  return Ok;
}
