//===- ExprWalk.h - Pre-order walk over an expression tree -----*- C++ -*-===//
#ifndef STENCILC_IR_EXPRWALK_H
#define STENCILC_IR_EXPRWALK_H

#include "llvm/Support/Casting.h"

namespace stencilc::ir {

template <typename Fn> void walkExpr(const Expr &E, Fn &&Callback) {
  Callback(E);
  switch (E.kind()) {
  case ExprKind::Unary:
    walkExpr(*llvm::cast<UnaryExpr>(&E)->Operand, Callback);
    break;
  case ExprKind::Binary: {
    const auto *B = llvm::cast<BinaryExpr>(&E);
    walkExpr(*B->LHS, Callback);
    walkExpr(*B->RHS, Callback);
    break;
  }
  case ExprKind::Select: {
    const auto *S = llvm::cast<SelectExpr>(&E);
    walkExpr(*S->Cond, Callback);
    walkExpr(*S->TrueValue, Callback);
    walkExpr(*S->FalseValue, Callback);
    break;
  }
  case ExprKind::Call:
    for (const ExprRef &A : llvm::cast<CallExpr>(&E)->Args)
      walkExpr(*A, Callback);
    break;
  case ExprKind::Cast:
    walkExpr(*llvm::cast<CastExpr>(&E)->Operand, Callback);
    break;
  default:
    break;
  }
}

} // namespace stencilc::ir

#endif // STENCILC_IR_EXPRWALK_H
