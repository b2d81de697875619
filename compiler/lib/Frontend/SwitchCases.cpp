//===- SwitchCases.cpp - A switch's body as groups of cases ---------------===//
#include "SwitchCases.h"
#include "clang/AST/Stmt.h"

using namespace clang;
using namespace stencilc;

/// The `break` that ends \p St: itself, or a block's last statement, at any
/// depth of blocks; null if \p St does not end in one.
static const Stmt *endingBreak(const Stmt *St) {
  while (const auto *CS = dyn_cast<CompoundStmt>(St)) {
    if (CS->body_empty())
      return nullptr;
    St = CS->body_back();
  }
  return isa<BreakStmt>(St) ? St : nullptr;
}

/// Whether \p St leaves by a `return` on every path: a return, a block
/// ending in one, an if/else or a switch (with a default) whose every
/// branch does. A case so ended falls into no other.
static bool endsInReturn(const Stmt *St) {
  if (const auto *AS = dyn_cast<AttributedStmt>(St))
    return endsInReturn(AS->getSubStmt());
  if (const auto *CS = dyn_cast<CompoundStmt>(St))
    return !CS->body_empty() && endsInReturn(CS->body_back());
  if (const auto *If = dyn_cast<IfStmt>(St))
    return If->getElse() && endsInReturn(If->getThen()) &&
           endsInReturn(If->getElse());
  if (const auto *Sw = dyn_cast<SwitchStmt>(St)) {
    const frontend::SwitchCases Inner = frontend::groupCases(*Sw);
    bool Default = false;
    for (const frontend::CaseGroup &G : Inner.Groups) {
      Default |= G.Default;
      if (G.Body.empty() || !endsInReturn(G.Body.back()))
        return false;
    }
    return !Inner.Problem && Default;
  }
  return isa<ReturnStmt>(St);
}

frontend::SwitchCases frontend::groupCases(const SwitchStmt &Sw) {
  SwitchCases R;
  auto Refuse = [&R](const Stmt *Where, std::string Why) {
    if (!R.Problem) {
      R.Problem = Where;
      R.Why = std::move(Why);
    }
  };
  llvm::ArrayRef<Stmt *> Children;
  const Stmt *Single = Sw.getBody();
  if (const auto *CS = dyn_cast<CompoundStmt>(Sw.getBody()))
    Children = llvm::ArrayRef<Stmt *>(CS->body_begin(), CS->body_end());
  else
    Children = llvm::ArrayRef<Stmt *>(const_cast<Stmt **>(&Single), 1);
  bool Ended = false;
  std::vector<const Stmt *> Declarations; // the current group's, top level
  for (const Stmt *Child : Children) {
    bool Labelled = false;
    while (isa<SwitchCase>(Child)) {
      if (!Labelled &&
          (Ended || R.Groups.empty() || !R.Groups.back().Body.empty())) {
        if (!Ended && !R.Groups.empty())
          Refuse(Child, "a 'case' reached from the statements before it "
                        "(falling through: end them with 'break')");
        if (!Declarations.empty())
          Refuse(Declarations.front(),
                 "a declaration at the top level of a case that later "
                 "cases can use (declare it inside braces or before the "
                 "'switch')");
        Declarations.clear();
        R.Groups.emplace_back();
        Ended = false;
      }
      Labelled = true;
      if (const auto *Case = dyn_cast<CaseStmt>(Child)) {
        if (Case->caseStmtIsGNURange())
          Refuse(Case, "a GNU case range ('case A ... B')");
        R.Groups.back().Cases.push_back(Case);
      } else {
        R.Groups.back().Default = true;
      }
      Child = cast<SwitchCase>(Child)->getSubStmt();
    }
    // `;` and `[[fallthrough]];` do nothing, nor a `break` no label reaches.
    if (const auto *AS = dyn_cast<AttributedStmt>(Child))
      if (isa<NullStmt>(AS->getSubStmt()))
        continue;
    if (isa<NullStmt>(Child) || (Ended && isa<BreakStmt>(Child)))
      continue;
    if (R.Groups.empty()) {
      Refuse(Child, "a statement before the first 'case' of a 'switch'");
      continue;
    }
    if (Ended) {
      Refuse(Child, "a statement after the 'break' or 'return' that ends a "
                    "case, which no label reaches");
      continue;
    }
    R.Groups.back().Body.push_back(Child);
    if (isa<DeclStmt>(Child))
      Declarations.push_back(Child);
    // A `continue` or `goto` leaves the case too (and is refused where it
    // is lowered, by its own name).
    if (const Stmt *Break = endingBreak(Child)) {
      R.EndingBreaks.push_back(Break);
      Ended = true;
    } else if (endsInReturn(Child) || isa<ContinueStmt, GotoStmt>(Child)) {
      Ended = true;
    }
  }
  return R;
}
