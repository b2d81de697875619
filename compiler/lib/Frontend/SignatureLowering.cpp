//===- SignatureLowering.cpp - A stencil's parameters as IR ---------------===//
#include "SignatureLowering.h"
#include "ClangDiagnosticSink.h"
#include "TypeMapping.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

using namespace clang;
using namespace stencilc;

bool stencilc::frontend::lowerSignature(ASTContext &Ctx, const FunctionDecl *FD,
                                        ir::Stencil &S, DiagnosticSink &Diags) {
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressTagKeyword = true;
  auto CppType = [&](QualType T) {
    return T.getCanonicalType().getAsString(Policy);
  };

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
  S.Params.push_back({ir::ParamKind::Index, IndexParam->getNameAsString(),
                      ir::Type(ir::ScalarKind::Int64), false,
                      CppType(IndexType),
                      toIRRange(IndexParam->getSourceRange())});

  bool Ok = true;
  for (unsigned I = 1; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    QualType T = P->getType();
    stencilc::SourceRange R = toIRRange(P->getSourceRange());
    if (std::optional<ir::Type> Scalar = toScalarType(T);
        Scalar && !T->isReferenceType()) {
      S.Params.push_back({ir::ParamKind::Scalar, P->getNameAsString(), *Scalar,
                          false, CppType(T), R});
      continue;
    }
    if (std::optional<ir::Type> Elem = arrayElementType(T)) {
      bool ReadOnly = T->getPointeeType().isConstQualified();
      S.Params.push_back({ir::ParamKind::Array, P->getNameAsString(), *Elem,
                          ReadOnly, CppType(T), R});
      continue;
    }
    Diags.report(DiagId::err_param_type, R,
                 {P->getNameAsString(), S.Name, T.getAsString(Policy)});
    Ok = false;
  }
  return Ok;
}
