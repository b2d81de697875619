//===- StmtWalk.h - Pre-order walk over statements -------------*- C++ -*-===//
#ifndef STENCILC_IR_STMTWALK_H
#define STENCILC_IR_STMTWALK_H

#include "llvm/Support/Casting.h"

namespace stencilc::ir {

template <typename StmtFn, typename ExprFn>
void walkStmt(const Stmt &S, StmtFn &&OnStmt, ExprFn &&OnExpr) {
  OnStmt(S);
  switch (S.kind()) {
  case StmtKind::Block:
    for (const StmtRef &Child : llvm::cast<BlockStmt>(&S)->Body)
      walkStmt(*Child, OnStmt, OnExpr);
    break;
  case StmtKind::LocalDecl:
    if (const auto &Init = llvm::cast<LocalDeclStmt>(&S)->Init)
      OnExpr(*Init);
    break;
  case StmtKind::Assign:
    OnExpr(*llvm::cast<AssignStmt>(&S)->Value);
    break;
  case StmtKind::Store:
    OnExpr(*llvm::cast<StoreStmt>(&S)->Value);
    break;
  case StmtKind::If: {
    const auto *If = llvm::cast<IfStmt>(&S);
    OnExpr(*If->Cond);
    walkStmt(*If->Then, OnStmt, OnExpr);
    if (If->Else)
      walkStmt(*If->Else, OnStmt, OnExpr);
    break;
  }
  case StmtKind::For:
    walkStmt(*llvm::cast<ForStmt>(&S)->Body, OnStmt, OnExpr);
    break;
  }
}

} // namespace stencilc::ir

#endif // STENCILC_IR_STMTWALK_H
