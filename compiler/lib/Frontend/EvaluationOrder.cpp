//===- EvaluationOrder.cpp - Which accesses C++ orders --------------------===//
#include "EvaluationOrder.h"

using namespace stencilc::frontend;

unsigned EvaluationOrder::call(std::string Helper, clang::SourceRange Range) {
  const unsigned N = node();
  Calls[N] = {std::move(Helper), Range, {}};
  return N;
}

void EvaluationOrder::access(unsigned Array, bool Write, bool Target) {
  if (Write)
    for (const Part &P : Path)
      if (P.CallBody)
        Calls[P.Node].Writes.insert(Array);
  for (FullExpression &F : Open) {
    Access A{Array, Write, Target && &F == &Open.back(), {}};
    for (std::size_t I = F.Base; I < Path.size(); ++I) {
      A.Where.push_back(Path[I]);
      if (Path[I].CallBody)
        break;
    }
    F.Accesses.push_back(std::move(A));
  }
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
