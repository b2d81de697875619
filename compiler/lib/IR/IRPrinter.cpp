//===- IRPrinter.cpp - Textual form of the IR -----------------------------===//
#include "stencilc/IR/IRPrinter.h"
#include "llvm/Support/Casting.h"
#include <cstdint>
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

std::string stencilc::ir::printArrayOffset(const Param &P, const Offset &Off,
                                           unsigned Dims) {
  if (!isLowerRank(P, Dims))
    return printOffset(Off, Dims);
  const unsigned Axes = arrayAxes(P, Dims);
  std::string Out = "[" + axesName(Axes) + ":";
  bool First = true;
  for (unsigned D = 0; D < Dims; ++D)
    if ((Axes >> D) & 1) {
      Out += (First ? "" : ",") + std::to_string(Off[D]);
      First = false;
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

// The printers append to one string: returning and concatenating strings
// copies every subtree once per level above it, which is quadratic or worse
// on deep expressions and long else-if chains.
static void appendExpr(std::string &Out, const Stencil &S, const Expr &E) {
  switch (E.kind()) {
  case ExprKind::Constant:
    Out += printConstant(*cast<ConstantExpr>(&E));
    return;
  case ExprKind::ParamRef:
    Out += S.Params[cast<ParamRefExpr>(&E)->Param].Name;
    return;
  case ExprKind::LocalRef:
    Out += S.Locals[cast<LocalRefExpr>(&E)->Local].Name;
    return;
  case ExprKind::Load: {
    const auto *L = cast<LoadExpr>(&E);
    const Param &P = S.Params[L->Param];
    Out += P.Name;
    Out += printArrayOffset(P, L->Off, S.Dims);
    return;
  }
  case ExprKind::Coord:
    Out += "idx.";
    Out += coordName(cast<CoordExpr>(&E)->Dim);
    Out += "()";
    return;
  case ExprKind::Unary: {
    const auto *U = cast<UnaryExpr>(&E);
    Out += "(";
    Out += opSpelling(U->Op);
    appendExpr(Out, S, *U->Operand);
    Out += ")";
    return;
  }
  case ExprKind::Binary: {
    const auto *B = cast<BinaryExpr>(&E);
    Out += "(";
    appendExpr(Out, S, *B->LHS);
    Out += " ";
    Out += opSpelling(B->Op);
    Out += " ";
    appendExpr(Out, S, *B->RHS);
    Out += ")";
    return;
  }
  case ExprKind::Select: {
    const auto *Sel = cast<SelectExpr>(&E);
    Out += "(";
    appendExpr(Out, S, *Sel->Cond);
    Out += " ? ";
    appendExpr(Out, S, *Sel->TrueValue);
    Out += " : ";
    appendExpr(Out, S, *Sel->FalseValue);
    Out += ")";
    return;
  }
  case ExprKind::Call: {
    const auto *C = cast<CallExpr>(&E);
    Out += mathFuncName(C->Func);
    Out += ":";
    Out += C->type().irName();
    Out += "(";
    for (size_t I = 0; I < C->Args.size(); ++I) {
      if (I)
        Out += ", ";
      appendExpr(Out, S, *C->Args[I]);
    }
    Out += ")";
    return;
  }
  case ExprKind::Cast: {
    const auto *C = cast<CastExpr>(&E);
    Out += C->type().irName();
    Out += "(";
    appendExpr(Out, S, *C->Operand);
    Out += ")";
    return;
  }
  }
  Out += "?";
}

std::string stencilc::ir::printExpr(const Stencil &S, const Expr &E) {
  std::string Out;
  appendExpr(Out, S, E);
  return Out;
}

static void appendStmt(std::string &Out, const Stencil &S, const Stmt &St,
                       unsigned Indent) {
  auto Pad = [&] { Out.append(Indent, ' '); };
  switch (St.kind()) {
  case StmtKind::Block:
    for (const StmtRef &Child : cast<BlockStmt>(&St)->Body)
      appendStmt(Out, S, *Child, Indent);
    return;
  case StmtKind::LocalDecl: {
    const auto *D = cast<LocalDeclStmt>(&St);
    const Local &L = S.Locals[D->Local];
    Pad();
    Out += "local " + L.Name + ": " + L.Ty.irName();
    if (D->Init) {
      Out += " = ";
      appendExpr(Out, S, *D->Init);
    }
    Out += "\n";
    return;
  }
  case StmtKind::Assign: {
    const auto *A = cast<AssignStmt>(&St);
    Pad();
    Out += S.Locals[A->Local].Name + " = ";
    appendExpr(Out, S, *A->Value);
    Out += "\n";
    return;
  }
  case StmtKind::Store: {
    const auto *St2 = cast<StoreStmt>(&St);
    Pad();
    Out += S.Params[St2->Param].Name + printOffset({}, S.Dims) + " = ";
    appendExpr(Out, S, *St2->Value);
    Out += "\n";
    return;
  }
  case StmtKind::If: {
    const auto *If = cast<IfStmt>(&St);
    Pad();
    Out += "if ";
    appendExpr(Out, S, *If->Cond);
    Out += "\n";
    appendStmt(Out, S, *If->Then, Indent + 2);
    if (If->Else) {
      Pad();
      Out += "else\n";
      appendStmt(Out, S, *If->Else, Indent + 2);
    }
    return;
  }
  case StmtKind::For: {
    const auto *F = cast<ForStmt>(&St);
    Pad();
    // An unsigned counter's start is stored as its bit pattern.
    std::string Begin =
        S.Locals[F->Var].Ty.isSigned()
            ? std::to_string(F->Begin)
            : std::to_string(static_cast<std::uint64_t>(F->Begin));
    Out += "for " + S.Locals[F->Var].Name + " = " + Begin + " step " +
           std::to_string(F->Step) + " trips " + std::to_string(F->TripCount) +
           "\n";
    appendStmt(Out, S, *F->Body, Indent + 2);
    return;
  }
  }
}

std::string stencilc::ir::printStmt(const Stencil &S, const Stmt &St,
                                    unsigned Indent) {
  std::string Out;
  appendStmt(Out, S, St, Indent);
  return Out;
}
