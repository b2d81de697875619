//===- EvaluationOrder.h - Which accesses C++ orders -----------*- C++ -*-===//
///
/// \file
/// Inlining runs a helper's statements before the expression that uses its
/// result. That is what C++ does only where C++ orders the helper's body
/// against the rest of the expression: an argument before the body, the
/// condition of ?:, && and || before the rest, the right side of an
/// assignment before its store, the arguments of a math function before its
/// reads through reference parameters (std::min). Elsewhere (the operands of
/// +, two arguments of one call) C++ leaves the order unspecified, and a
/// helper writing an array that the expression also reads there has no one
/// result to match; the lowering marks as ordered only what it keeps in
/// C++'s order (not << and >>, which C++17 orders left to right).
/// This records each full-expression's array accesses with where they sit
/// among those ordered parts, so the lowering can refuse such a helper.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_LIB_FRONTEND_EVALUATIONORDER_H
#define STENCILC_LIB_FRONTEND_EVALUATIONORDER_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stencilc::frontend {

class EvaluationOrder {
public:
  /// A part of an ordering construct: a call's arguments (0) or body (1);
  /// the condition (0) or a branch (1, 2) of ?:; && or ||'s sides (0, 1).
  struct Part {
    unsigned Node;
    unsigned Index;
    bool CallBody;
  };
  /// A helper that writes an array which an access outside the call
  /// reaches, unordered with it.
  struct Conflict {
    std::string Helper;
    clang::SourceRange Call;
    unsigned Array;
    bool OtherWrites;
  };

  /// A new ordering construct (a node for enter()).
  unsigned node() { return NextNode++; }
  /// A call of \p Helper at \p Call, as a node.
  unsigned call(std::string Helper, clang::SourceRange Call);
  /// Accesses from here to leave() are in \p Index of \p Node.
  void enter(unsigned Node, unsigned Index, bool CallBody = false) {
    Path.push_back({Node, Index, CallBody});
  }
  void leave() { Path.pop_back(); }

  /// A full-expression starts: its accesses are checked at its end.
  void beginFullExpression() { Open.push_back({Path.size(), {}}); }
  /// The full-expression ends: the first unordered helper write, if any.
  std::optional<Conflict> endFullExpression();

  /// An access to array \p Array; \p Target: the store (or the old value) of
  /// the innermost full-expression's own assignment, which C++ orders after
  /// its right side.
  void access(unsigned Array, bool Write, bool Target = false);
  /// Whether the body of call \p Node wrote \p Array (helpers it called
  /// too).
  bool callWrites(unsigned Node, unsigned Array) const;
  /// The arrays read from here on, up to readsSince(): what a reference
  /// argument may name.
  std::size_t readMark() const { return ReadLog.size(); }
  llvm::DenseSet<unsigned> readsSince(std::size_t Mark) const;

private:
  struct Access {
    unsigned Array;
    bool Write;
    bool Target;
    /// The parts from the full-expression down, cut after the first call
    /// body: inside a call's body, every access is one unit for the
    /// expression around the call.
    std::vector<Part> Where;
  };
  struct FullExpression {
    std::size_t Base;
    std::vector<Access> Accesses;
    /// The accesses' keys (array, write, target, parts): one of each is
    /// enough, and a helper body writing one array many times stays one.
    std::set<std::vector<unsigned>> Keys;
  };
  struct Call {
    std::string Helper;
    clang::SourceRange Range;
    llvm::DenseSet<unsigned> Writes;
  };
  static bool ordered(const std::vector<Part> &A, const std::vector<Part> &B);

  unsigned NextNode = 0;
  std::vector<Part> Path;
  std::vector<FullExpression> Open;
  llvm::DenseMap<unsigned, Call> Calls;
  std::vector<unsigned> ReadLog;
};

} // namespace stencilc::frontend

#endif // STENCILC_LIB_FRONTEND_EVALUATIONORDER_H
