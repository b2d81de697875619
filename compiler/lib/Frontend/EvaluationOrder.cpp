//===- EvaluationOrder.cpp - Which accesses C++ orders --------------------===//
#include "EvaluationOrder.h"

using namespace stencilc::frontend;

unsigned EvaluationOrder::call(std::string Helper, clang::SourceRange Range) {
  const unsigned N = node();
  Calls[N] = {std::move(Helper), Range, {}};
  return N;
}

void EvaluationOrder::access(unsigned Array, bool Write, bool Target) {
  if (!Write)
    ReadLog.push_back(Array);
  // Innermost first: a call that has the array has it in every call (and a
  // full-expression every one) around it already, from the same parts.
  if (Write)
    for (std::size_t I = Path.size(); I-- > 0;)
      if (Path[I].CallBody && !Calls[Path[I].Node].Writes.insert(Array).second)
        break;
  for (std::size_t F = Open.size(); F-- > 0;) {
    FullExpression &E = Open[F];
    Access A{Array, Write, Target && F + 1 == Open.size(), {}};
    std::vector<unsigned> Key = {Array, Write, A.Target};
    for (std::size_t I = E.Base; I < Path.size(); ++I) {
      A.Where.push_back(Path[I]);
      Key.insert(Key.end(), {Path[I].Node, Path[I].Index});
      if (Path[I].CallBody)
        break;
    }
    if (!E.Keys.insert(std::move(Key)).second)
      break;
    E.Accesses.push_back(std::move(A));
  }
}

llvm::DenseSet<unsigned> EvaluationOrder::readsSince(std::size_t Mark) const {
  llvm::DenseSet<unsigned> Arrays;
  for (std::size_t I = Mark; I < ReadLog.size(); ++I)
    Arrays.insert(ReadLog[I]);
  return Arrays;
}

bool EvaluationOrder::callWrites(unsigned Node, unsigned Array) const {
  auto It = Calls.find(Node);
  return It != Calls.end() && It->second.Writes.contains(Array);
}

/// Two accesses are ordered (or never both happen) where they part in two
/// parts of one construct, or do not part at all (one call's body: its own
/// statements order them, checked there).
bool EvaluationOrder::ordered(const std::vector<Part> &A,
                              const std::vector<Part> &B) {
  std::size_t I = 0;
  while (I < A.size() && I < B.size() && A[I].Node == B[I].Node &&
         A[I].Index == B[I].Index)
    ++I;
  if (I == A.size() && I == B.size())
    return true;
  return I < A.size() && I < B.size() && A[I].Node == B[I].Node;
}

std::optional<EvaluationOrder::Conflict> EvaluationOrder::endFullExpression() {
  FullExpression F = std::move(Open.back());
  Open.pop_back();
  for (const Access &W : F.Accesses) {
    if (!W.Write || W.Where.empty() || !W.Where.back().CallBody)
      continue; // only helpers write other than the statement's store
    for (const Access &X : F.Accesses)
      if (&X != &W && X.Array == W.Array && !X.Target &&
          !ordered(W.Where, X.Where)) {
        const Call &C = Calls[W.Where.back().Node];
        return Conflict{C.Helper, C.Range, W.Array, X.Write};
      }
  }
  return std::nullopt;
}
