//===- SwitchCases.h - A switch's body as groups of cases ------*- C++ -*-===//
#ifndef STENCILC_LIB_FRONTEND_SWITCHCASES_H
#define STENCILC_LIB_FRONTEND_SWITCHCASES_H

#include <string>
#include <vector>

namespace clang {
class CaseStmt;
class Stmt;
class SwitchStmt;
} // namespace clang

namespace stencilc::frontend {

/// Labels that run the same statements, which end in a `break` or a
/// `return` (or the switch's end): one branch of an if/else chain.
struct CaseGroup {
  std::vector<const clang::CaseStmt *> Cases;
  bool Default = false;
  /// The statements after the labels, the ending `break` among them (at
  /// the top level or last in a block there; see EndingBreaks).
  std::vector<const clang::Stmt *> Body;
};

struct SwitchCases {
  std::vector<CaseGroup> Groups;
  /// The breaks that end a group: nothing to do in a branch.
  std::vector<const clang::Stmt *> EndingBreaks;
  /// Where the body cannot be such a chain, and why; null if it can.
  const clang::Stmt *Problem = nullptr;
  std::string Why;
};

/// The body of \p Sw as groups: labels gathered until statements follow,
/// each group ended by `break`, by a statement that returns on every path
/// (a `return`, an if/else or a switch of returns), by `continue` or
/// `goto` (refused where lowered), or by the body's end. A group that
/// falls into the next label, statements no label reaches, a GNU case range
/// and a declaration at the top level of a group other than the last (the
/// later groups could use it) are problems.
SwitchCases groupCases(const clang::SwitchStmt &Sw);

} // namespace stencilc::frontend

#endif // STENCILC_LIB_FRONTEND_SWITCHCASES_H
