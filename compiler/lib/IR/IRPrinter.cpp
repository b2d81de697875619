//===- IRPrinter.cpp - Textual form of the IR -----------------------------===//
#include "stencilc/IR/IRPrinter.h"
#include "llvm/Support/Casting.h"
#include <cstdio>

using namespace stencilc::ir;
using llvm::cast;

std::string stencilc::ir::printOffset(const Offset &Off, unsigned Dims) {
  std::string Out = "[";
  for (unsigned D = 0; D < Dims; ++D) {
    if (D)
      Out += ",";
    Out += std::to_string(Off[D]);
  }
  return Out + "]";
}

static std::string printConstant(const ConstantExpr &C) {
  Type Ty = C.type();
  if (Ty.isBool())
    return C.IntValue ? "true" : "false";
  if (Ty.isInteger())
    return std::to_string(C.IntValue);
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.17g", C.FloatValue);
  return std::string(Buf) + ":" + Ty.irName();
}

static const char *coordName(unsigned Dim) {
  static const char *Names[] = {"i", "j", "k", "w"};
  return Names[Dim];
}

std::string stencilc::ir::printExpr(const Stencil &S, const Expr &E) {
  switch (E.kind()) {
  case ExprKind::Constant:
    return printConstant(*cast<ConstantExpr>(&E));
  case ExprKind::ParamRef:
    return S.Params[cast<ParamRefExpr>(&E)->Param].Name;
  case ExprKind::LocalRef:
    return S.Locals[cast<LocalRefExpr>(&E)->Local].Name;
  case ExprKind::Load: {
    const auto *L = cast<LoadExpr>(&E);
    return S.Params[L->Param].Name + printOffset(L->Off, S.Dims);
  }
  case ExprKind::Coord:
    return std::string("idx.") + coordName(cast<CoordExpr>(&E)->Dim) + "()";
  case ExprKind::Unary: {
    const auto *U = cast<UnaryExpr>(&E);
    return std::string("(") + opSpelling(U->Op) + printExpr(S, *U->Operand) +
           ")";
  }
  case ExprKind::Binary: {
    const auto *B = cast<BinaryExpr>(&E);
    return "(" + printExpr(S, *B->LHS) + " " + opSpelling(B->Op) + " " +
           printExpr(S, *B->RHS) + ")";
  }
  case ExprKind::Select: {
    const auto *Sel = cast<SelectExpr>(&E);
    return "(" + printExpr(S, *Sel->Cond) + " ? " +
           printExpr(S, *Sel->TrueValue) + " : " +
           printExpr(S, *Sel->FalseValue) + ")";
  }
  case ExprKind::Call: {
    const auto *C = cast<CallExpr>(&E);
    std::string Out =
        std::string(mathFuncName(C->Func)) + ":" + C->type().irName() + "(";
    for (size_t I = 0; I < C->Args.size(); ++I)
      Out += (I ? ", " : "") + printExpr(S, *C->Args[I]);
    return Out + ")";
  }
  case ExprKind::Cast: {
    const auto *C = cast<CastExpr>(&E);
    return std::string(C->type().irName()) + "(" + printExpr(S, *C->Operand) +
           ")";
  }
  }
  return "?";
}

std::string stencilc::ir::printStmt(const Stencil &S, const Stmt &St,
                                    unsigned Indent) {
  std::string Pad(Indent, ' ');
  switch (St.kind()) {
  case StmtKind::Block: {
    std::string Out;
    for (const StmtRef &Child : cast<BlockStmt>(&St)->Body)
      Out += printStmt(S, *Child, Indent);
    return Out;
  }
  case StmtKind::LocalDecl: {
    const auto *D = cast<LocalDeclStmt>(&St);
    const Local &L = S.Locals[D->Local];
    std::string Out = Pad + "local " + L.Name + ": " + L.Ty.irName();
    if (D->Init)
      Out += " = " + printExpr(S, *D->Init);
    return Out + "\n";
  }
  case StmtKind::Assign: {
    const auto *A = cast<AssignStmt>(&St);
    return Pad + S.Locals[A->Local].Name + " = " + printExpr(S, *A->Value) +
           "\n";
  }
  case StmtKind::Store: {
    const auto *St2 = cast<StoreStmt>(&St);
    return Pad + S.Params[St2->Param].Name + printOffset({}, S.Dims) + " = " +
           printExpr(S, *St2->Value) + "\n";
  }
  case StmtKind::If: {
    const auto *If = cast<IfStmt>(&St);
    std::string Out = Pad + "if " + printExpr(S, *If->Cond) + "\n" +
                      printStmt(S, *If->Then, Indent + 2);
    if (If->Else)
      Out += Pad + "else\n" + printStmt(S, *If->Else, Indent + 2);
    return Out;
  }
  case StmtKind::For: {
    const auto *F = cast<ForStmt>(&St);
    return Pad + "for " + S.Locals[F->Var].Name + " = " +
           std::to_string(F->Begin) + " step " + std::to_string(F->Step) +
           " trips " + std::to_string(F->TripCount) + "\n" +
           printStmt(S, *F->Body, Indent + 2);
  }
  }
  return "";
}
