//===- CountCost.cpp - Flops and bytes per point --------------------------===//
#include "stencilc/Analysis/CountCost.h"
#include "llvm/Support/Casting.h"
#include <algorithm>

using namespace stencilc;
using namespace stencilc::analysis;
using namespace stencilc::ir;

static bool isArithmetic(BinaryOp Op) {
  return Op == BinaryOp::Add || Op == BinaryOp::Sub || Op == BinaryOp::Mul ||
         Op == BinaryOp::Div;
}

static double exprFlops(const Expr &E) {
  switch (E.kind()) {
  case ExprKind::Constant:
  case ExprKind::ParamRef:
  case ExprKind::LocalRef:
  case ExprKind::Load:
  case ExprKind::Coord:
    return 0;
  case ExprKind::Unary:
    // Negation is a sign flip, usually folded into the consumer: free.
    return exprFlops(*llvm::cast<UnaryExpr>(&E)->Operand);
  case ExprKind::Binary: {
    const auto *B = llvm::cast<BinaryExpr>(&E);
    double Own = E.type().isFloat() && isArithmetic(B->Op) ? 1 : 0;
    return Own + exprFlops(*B->LHS) + exprFlops(*B->RHS);
  }
  case ExprKind::Select: {
    const auto *S = llvm::cast<SelectExpr>(&E);
    return exprFlops(*S->Cond) +
           std::max(exprFlops(*S->TrueValue), exprFlops(*S->FalseValue));
  }
  case ExprKind::Call: {
    const auto *C = llvm::cast<CallExpr>(&E);
    double Sum = E.type().isFloat() ? 1 : 0;
    for (const ExprRef &Arg : C->Args)
      Sum += exprFlops(*Arg);
    return Sum;
  }
  case ExprKind::Cast:
    return exprFlops(*llvm::cast<CastExpr>(&E)->Operand);
  }
  return 0;
}

static double stmtFlops(const Stmt &St) {
  switch (St.kind()) {
  case StmtKind::Block: {
    double Sum = 0;
    for (const StmtRef &Child : llvm::cast<BlockStmt>(&St)->Body)
      Sum += stmtFlops(*Child);
    return Sum;
  }
  case StmtKind::LocalDecl: {
    const ExprRef &Init = llvm::cast<LocalDeclStmt>(&St)->Init;
    return Init ? exprFlops(*Init) : 0;
  }
  case StmtKind::Assign:
    return exprFlops(*llvm::cast<AssignStmt>(&St)->Value);
  case StmtKind::Store:
    return exprFlops(*llvm::cast<StoreStmt>(&St)->Value);
  case StmtKind::If: {
    const auto *If = llvm::cast<IfStmt>(&St);
    double Else = If->Else ? stmtFlops(*If->Else) : 0;
    return exprFlops(*If->Cond) + std::max(stmtFlops(*If->Then), Else);
  }
  case StmtKind::For: {
    const auto *F = llvm::cast<ForStmt>(&St);
    return static_cast<double>(F->TripCount) * stmtFlops(*F->Body);
  }
  }
  return 0;
}

void stencilc::analysis::countCost(const Stencil &S, StencilInfo &Info) {
  Info.FlopsPerPoint = S.Body ? stmtFlops(*S.Body) : 0;
  double Bytes = 0;
  for (const ArrayInfo &A : Info.Arrays) {
    unsigned Elem = S.Params[A.Param].Ty.bytes();
    // An array of lower rank (a profile, a surface field) is read once per
    // column or plane, not per point: nothing per point.
    if (isLowerRank(S.Params[A.Param], S.Dims))
      continue;
    if (A.Read)
      Bytes += Elem;
    if (A.Written)
      Bytes += Elem;
  }
  Info.BytesPerPoint = Bytes;
}
