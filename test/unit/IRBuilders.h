//===- IRBuilders.h - Short hands for building IR in unit tests -*- C++ -*-===//
///
/// \file
/// What the Frontend would build, written by hand: the unit tests of the IR,
/// the analysis, the JSON dump and the emitters share these builders.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_TEST_UNIT_IRBUILDERS_H
#define STENCILC_TEST_UNIT_IRBUILDERS_H

#include "stencilc/IR/Stencil.h"
#include <string>
#include <vector>

namespace stencilc::ir::build {

inline const Type F32(ScalarKind::Float32);
inline const Type F64(ScalarKind::Float64);
inline const Type I32(ScalarKind::Int32);
inline const Type Bool(ScalarKind::Bool);

/// Distinct, recognisable source ranges, so diagnostics can be checked.
inline SourceRange at(unsigned Begin) { return {Begin, Begin + 1}; }

inline ExprRef load(unsigned Param, Offset Off, Type Ty = F32,
                    SourceRange R = {}) {
  return std::make_shared<LoadExpr>(Ty, Param, Off, R);
}
inline ExprRef param(unsigned Param, Type Ty = F32) {
  return std::make_shared<ParamRefExpr>(Ty, Param, SourceRange{});
}
inline ExprRef local(unsigned Local, Type Ty = F32) {
  return std::make_shared<LocalRefExpr>(Ty, Local, SourceRange{});
}
inline ExprRef fconst(double V, Type Ty = F32) {
  return std::make_shared<ConstantExpr>(Ty, 0, V, SourceRange{});
}
inline ExprRef iconst(std::int64_t V, Type Ty = I32) {
  return std::make_shared<ConstantExpr>(Ty, V, 0.0, SourceRange{});
}
inline ExprRef coord(unsigned Dim) {
  return std::make_shared<CoordExpr>(I32, Dim, SourceRange{});
}
/// Comparisons and logical operators are bool; the rest take the left type.
inline ExprRef binary(BinaryOp Op, ExprRef L, ExprRef R) {
  Type Ty = isComparisonOrLogical(Op) ? Bool : L->type();
  return std::make_shared<BinaryExpr>(Ty, Op, std::move(L), std::move(R),
                                      SourceRange{});
}
inline ExprRef add(ExprRef L, ExprRef R) {
  return binary(BinaryOp::Add, std::move(L), std::move(R));
}
inline ExprRef mul(ExprRef L, ExprRef R) {
  return binary(BinaryOp::Mul, std::move(L), std::move(R));
}
inline ExprRef call(MathFunc F, Type Ty, std::vector<ExprRef> Args) {
  return std::make_shared<CallExpr>(Ty, F, std::move(Args), SourceRange{});
}
inline ExprRef neg(ExprRef E) {
  Type Ty = E->type();
  return std::make_shared<UnaryExpr>(Ty, UnaryOp::Neg, std::move(E),
                                     SourceRange{});
}
inline ExprRef select(ExprRef C, ExprRef T, ExprRef F) {
  Type Ty = T->type();
  return std::make_shared<SelectExpr>(Ty, std::move(C), std::move(T),
                                      std::move(F), SourceRange{});
}

inline StmtRef store(unsigned Param, ExprRef V, SourceRange R = {}) {
  return std::make_shared<StoreStmt>(Param, std::move(V), R);
}
inline StmtRef assign(unsigned Local, ExprRef V) {
  return std::make_shared<AssignStmt>(Local, std::move(V), SourceRange{});
}
inline StmtRef decl(unsigned Local, ExprRef Init) {
  return std::make_shared<LocalDeclStmt>(Local, std::move(Init), SourceRange{});
}
inline StmtRef block(std::vector<StmtRef> Body) {
  return std::make_shared<BlockStmt>(std::move(Body), SourceRange{});
}
inline StmtRef ifElse(ExprRef C, StmtRef Then, StmtRef Else) {
  return std::make_shared<IfStmt>(std::move(C), std::move(Then),
                                  std::move(Else), SourceRange{});
}
/// for (Var = 0; Var < Trips; ++Var) Body
inline StmtRef loop(unsigned Var, std::int64_t Trips, StmtRef Body) {
  return std::make_shared<ForStmt>(Var, 0, 1, Trips, std::move(Body),
                                   SourceRange{});
}

inline Param indexParam(unsigned /*Dims*/) { return makeIndexParam(); }
inline Param scalarParam(std::string Name, Type Ty = F32) {
  return makeParam(std::move(Name), Ty, /*Array=*/false);
}
inline Param arrayParam(std::string Name, bool ReadOnly, Type Ty = F32) {
  return makeParam(std::move(Name), Ty, /*Array=*/true, ReadOnly);
}

} // namespace stencilc::ir::build

#endif // STENCILC_TEST_UNIT_IRBUILDERS_H
