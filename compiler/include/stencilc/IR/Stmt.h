//===- Stmt.h - Statements of the stencil IR -------------------*- C++ -*-===//
///
/// \file
/// Structured statements: blocks, local declarations and assignments, stores
/// at the centre, if/else and loops with a constant trip count. Helper
/// functions are already inlined and compound assignments expanded by the
/// Frontend, so later stages see only these.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_IR_STMT_H
#define STENCILC_IR_STMT_H

#include "stencilc/IR/Expr.h"
#include <memory>
#include <vector>

namespace stencilc::ir {

enum class StmtKind { Block, LocalDecl, Assign, Store, If, For };

class Stmt;
using StmtRef = std::shared_ptr<const Stmt>;

class Stmt {
public:
  virtual ~Stmt();
  StmtKind kind() const { return Kind; }
  SourceRange range() const { return Range; }

protected:
  Stmt(StmtKind Kind, SourceRange Range) : Kind(Kind), Range(Range) {}

private:
  StmtKind Kind;
  SourceRange Range;
};

class BlockStmt : public Stmt {
public:
  BlockStmt(std::vector<StmtRef> Body, SourceRange R)
      : Stmt(StmtKind::Block, R), Body(std::move(Body)) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::Block; }
  std::vector<StmtRef> Body;
};

/// Declares local \p Local, optionally initialised.
class LocalDeclStmt : public Stmt {
public:
  LocalDeclStmt(unsigned Local, ExprRef Init, SourceRange R)
      : Stmt(StmtKind::LocalDecl, R), Local(Local), Init(std::move(Init)) {}
  static bool classof(const Stmt *S) {
    return S->kind() == StmtKind::LocalDecl;
  }
  unsigned Local;
  ExprRef Init; ///< May be null.
};

/// Local = Value (compound assignments arrive expanded: x = x + v).
class AssignStmt : public Stmt {
public:
  AssignStmt(unsigned Local, ExprRef Value, SourceRange R)
      : Stmt(StmtKind::Assign, R), Local(Local), Value(std::move(Value)) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::Assign; }
  unsigned Local;
  ExprRef Value;
};

/// array[idx.ix()] = Value: the only way a stencil writes memory.
class StoreStmt : public Stmt {
public:
  StoreStmt(unsigned Param, ExprRef Value, SourceRange R)
      : Stmt(StmtKind::Store, R), Param(Param), Value(std::move(Value)) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::Store; }
  unsigned Param;
  ExprRef Value;
};

class IfStmt : public Stmt {
public:
  IfStmt(ExprRef Cond, StmtRef Then, StmtRef Else, SourceRange R)
      : Stmt(StmtKind::If, R), Cond(std::move(Cond)), Then(std::move(Then)),
        Else(std::move(Else)) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::If; }
  ExprRef Cond;
  StmtRef Then;
  StmtRef Else; ///< May be null.
};

/// for (Var = Begin; trip < TripCount; Var += Step): a loop whose trip count
/// is known at compile time. Var is a local the body only reads.
class ForStmt : public Stmt {
public:
  ForStmt(unsigned Var, std::int64_t Begin, std::int64_t Step,
          std::int64_t TripCount, StmtRef Body, SourceRange R)
      : Stmt(StmtKind::For, R), Var(Var), Begin(Begin), Step(Step),
        TripCount(TripCount), Body(std::move(Body)) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::For; }
  unsigned Var;
  std::int64_t Begin, Step, TripCount;
  StmtRef Body;
  /// The first value Var does not take: Begin + TripCount * Step, modulo
  /// 2^64 (an unsigned counter may wrap; a signed one never overflows, the
  /// Frontend checks that).
  std::int64_t end() const {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(Begin) +
                                     static_cast<std::uint64_t>(TripCount) *
                                         static_cast<std::uint64_t>(Step));
  }
};

/// Calls \p OnStmt on \p S and nested statements (parents first), and
/// \p OnExpr on every top-level expression they hold.
template <typename StmtFn, typename ExprFn>
void walkStmt(const Stmt &S, StmtFn &&OnStmt, ExprFn &&OnExpr);

} // namespace stencilc::ir

#include "stencilc/IR/StmtWalk.h"

#endif // STENCILC_IR_STMT_H
