//===- PlaneSums.cpp - A body's sum split by the planes it reads ----------===//
#include "stencilc/Planning/PlaneSums.h"
#include "stencilc/IR/ExprWalk.h"
#include "stencilc/IR/Stmt.h"
#include "stencilc/Planning/Plan.h"
#include <algorithm>
#include <cstdlib>
#include <optional>

using namespace stencilc;
using namespace stencilc::planning;

namespace {

/// The body's one statement, when it is a store.
const ir::StoreStmt *onlyStore(const ir::Stmt &Body) {
  const ir::Stmt *S = &Body;
  while (const auto *B = llvm::dyn_cast<ir::BlockStmt>(S)) {
    if (B->Body.size() != 1)
      return nullptr;
    S = B->Body.front().get();
  }
  return llvm::dyn_cast<ir::StoreStmt>(S);
}

/// The terms of \p E's chain of additions and subtractions of type \p Ty,
/// in the order they are added: ((t0 + t1) - t2) + t3.
std::vector<PlaneSumTerm> chainTerms(const ir::Expr &E, ir::Type Ty) {
  std::vector<PlaneSumTerm> Terms;
  const ir::Expr *Left = &E;
  while (const auto *B = llvm::dyn_cast<ir::BinaryExpr>(Left)) {
    if ((B->Op != ir::BinaryOp::Add && B->Op != ir::BinaryOp::Sub) ||
        !(B->type() == Ty))
      break;
    PlaneSumTerm T;
    T.Value = B->RHS.get();
    T.Subtract = B->Op == ir::BinaryOp::Sub;
    Terms.push_back(T);
    Left = B->LHS.get();
  }
  PlaneSumTerm First;
  First.Value = Left;
  Terms.push_back(First);
  std::reverse(Terms.begin(), Terms.end());
  return Terms;
}

bool marched(const MarchPlan &March, unsigned Param) {
  const ArrayAccessPlan *A = findArrayPlan(March, Param);
  return A && !A->Invariant;
}

/// Offsets beyond this in x or y are not planned (y + 1 must not overflow).
constexpr int MaxInPlaneOffset = 1 << 20;

/// Fills \p P's terms' planes from \p S's loads, or says why not.
void planTerms(PlaneSums &P, const ir::Stencil &S, const MarchPlan &March) {
  std::optional<int> Highest; // of the terms so far
  for (PlaneSumTerm &T : P.Terms) {
    std::optional<int> Plane;
    std::string Why;
    ir::walkExpr(*T.Value, [&](const ir::Expr &X) {
      if (llvm::isa<ir::CoordExpr>(X))
        Why = "it reads a coordinate";
      const auto *L = llvm::dyn_cast<ir::LoadExpr>(&X);
      if (!L || !Why.empty())
        return;
      // A plane of the written array is another block's to store.
      if (L->Param == P.Out) {
        Why = "it reads the array it writes";
        return;
      }
      // Every load is indexed as a full array's.
      if (!marched(March, L->Param) ||
          ir::isLowerRank(S.Params[L->Param], S.Dims)) {
        Why = "it reads '" + S.Params[L->Param].Name + "', of lower rank";
        return;
      }
      if (std::abs(static_cast<long long>(L->Off[0])) > MaxInPlaneOffset ||
          std::abs(static_cast<long long>(L->Off[1])) > MaxInPlaneOffset) {
        Why = "it reads too far along x or y";
        return;
      }
      if (Plane && *Plane != L->Off[2])
        Why = "a term reads two planes";
      Plane = L->Off[2];
    });
    if (!Why.empty()) {
      P.WhyNot = Why;
      return;
    }
    if (Plane)
      Highest = std::max(Highest.value_or(*Plane), *Plane);
    // A constant is added where the sum is (held for no plane).
    T.Reached = Highest.value_or(0);
    T.Plane = Plane.value_or(T.Reached);
  }
  if (!Highest) {
    P.WhyNot = "no term reads an array";
    return;
  }
  // Terms before the first that reads a plane go with it.
  const auto FirstRead =
      std::find_if(P.Terms.begin(), P.Terms.end(), [&](const PlaneSumTerm &T) {
        bool Reads = false;
        ir::walkExpr(*T.Value, [&](const ir::Expr &X) {
          Reads |= llvm::isa<ir::LoadExpr>(X);
        });
        return Reads;
      });
  for (auto It = P.Terms.begin(); It != FirstRead; ++It)
    It->Plane = It->Reached = FirstRead->Plane;
  P.First = P.Terms.front().Reached;
  P.Hi = P.Terms.back().Reached;
  P.Lo = std::min_element(P.Terms.begin(), P.Terms.end(),
                          [](const PlaneSumTerm &A, const PlaneSumTerm &B) {
                            return A.Plane < B.Plane;
                          })
             ->Plane;
  if (P.heldValues() > MaxHeldValues)
    P.WhyNot = "its terms of earlier planes after later ones would hold " +
               std::to_string(P.heldValues()) +
               " values a point in registers (the passes summed by planes "
               "hold at most " +
               std::to_string(MaxHeldValues) + ", the single step's zsum none)";
}

/// The loads of a plane for both points, in the order of first use.
void planLoads(PlaneSums &P) {
  auto Find = [&P](unsigned Param, int X, int Y) {
    return std::find_if(P.Loads.begin(), P.Loads.end(),
                        [&](const PlaneLoad &L) {
                          return L.Param == Param && L.X == X && L.Y == Y;
                        });
  };
  std::vector<PlaneLoad> Second;
  for (const PlaneSumTerm &T : P.Terms)
    ir::walkExpr(*T.Value, [&](const ir::Expr &X) {
      if (const auto *L = llvm::dyn_cast<ir::LoadExpr>(&X)) {
        if (Find(L->Param, L->Off[0], L->Off[1]) == P.Loads.end())
          P.Loads.push_back({L->Param, L->Off[0], L->Off[1], false});
        Second.push_back({L->Param, L->Off[0], L->Off[1] + 1, true});
      }
    });
  const size_t First = P.Loads.size();
  for (const PlaneLoad &L : Second)
    if (Find(L.Param, L.X, L.Y) == P.Loads.end())
      P.Loads.push_back(L);
  // Loads the first point makes too are not the second's only.
  for (size_t I = First; I < P.Loads.size(); ++I)
    P.Loads[I].SecondOnly = true;
  for (size_t I = 0; I < First; ++I) {
    const PlaneLoad &L = P.Loads[I];
    auto F = std::find_if(
        P.Footprints.begin(), P.Footprints.end(),
        [&](const PlaneFootprint &F) { return F.Param == L.Param; });
    if (F == P.Footprints.end()) {
      P.Footprints.push_back({L.Param, {L.X, L.X}, {L.Y, L.Y}});
      continue;
    }
    F->X[0] = std::min(F->X[0], L.X);
    F->X[1] = std::max(F->X[1], L.X);
    F->Y[0] = std::min(F->Y[0], L.Y);
    F->Y[1] = std::max(F->Y[1], L.Y);
  }
}

} // namespace

PlaneSums planning::planPlaneSums(const ir::Stencil &S,
                                  const MarchPlan &March) {
  PlaneSums P;
  if (S.Dims != 3) {
    P.WhyNot = "only 3-D stencils";
    return P;
  }
  P.OffCentreColumns = std::any_of(
      March.Arrays.begin(), March.Arrays.end(), [](const ArrayAccessPlan &A) {
        return std::any_of(A.Queues.begin(), A.Queues.end(),
                           [](const ColumnQueue &Q) {
                             return Q.Plane[0] != 0 || Q.Plane[1] != 0;
                           });
      });
  const ir::StoreStmt *Store = S.Body ? onlyStore(*S.Body) : nullptr;
  if (!Store) {
    P.WhyNot = "its body is not one store";
    return P;
  }
  // A conversion to the array's type applies to the whole sum.
  const ir::Expr *Value = Store->Value.get();
  if (const auto *C = llvm::dyn_cast<ir::CastExpr>(Value))
    Value = C->Operand.get();
  P.Ty = Value->type();
  if (!P.Ty.isFloat()) {
    P.WhyNot = "its sum is not of floating point";
    return P;
  }
  P.Out = Store->Param;
  P.Terms = chainTerms(*Value, P.Ty);
  if (P.Terms.size() < 2) {
    P.WhyNot = "the value it stores is not a sum";
    return P;
  }
  planTerms(P, S, March);
  if (!P.applies())
    return P;
  if (P.Lo == P.Hi) {
    P.WhyNot = "every term reads one plane";
    return P;
  }
  // A running sum a plane between the first and the last, as long as a
  // queue may be: the code grows with their square (the warm-up).
  if (static_cast<long long>(P.Hi) - P.Lo + 1 > MaxQueueLength) {
    P.WhyNot = "its planes span more than " + std::to_string(MaxQueueLength);
    return P;
  }
  planLoads(P);
  if (P.Loads.size() > MaxPlaneLoads)
    P.WhyNot = "it loads more than " + std::to_string(MaxPlaneLoads) +
               " values a plane for two points";
  for (const PlaneFootprint &F : P.Footprints) {
    const unsigned Bytes = S.Params[F.Param].Ty.bytes();
    if (Bytes != 4 && Bytes != 8)
      P.StagesWhyNot = "it reads '" + S.Params[F.Param].Name + "', of " +
                       std::to_string(Bytes) +
                       "-byte elements (an asynchronous copy moves 4 or 8)";
  }
  return P;
}

unsigned long long planning::stageBytes(const PlaneSums &P,
                                        const ir::Stencil &S, unsigned Stages,
                                        unsigned Points, long long Bx,
                                        long long By) {
  unsigned long long Bytes = 0;
  for (const PlaneFootprint &F : P.Footprints) {
    const unsigned long long Elements =
        (By * Points + F.Y[1] - F.Y[0]) * (Bx + F.X[1] - F.X[0]);
    Bytes += (Stages * Elements * S.Params[F.Param].Ty.bytes() + 15) / 16 * 16;
  }
  return Bytes;
}

long long planning::stageCopies(const PlaneSums &P, unsigned Points,
                                long long Bx, long long By) {
  long long Most = 0;
  for (const PlaneFootprint &F : P.Footprints) {
    const long long Elements =
        (By * Points + F.Y[1] - F.Y[0]) * (Bx + F.X[1] - F.X[0]);
    Most = std::max(Most, (Elements + Bx * By - 1) / (Bx * By));
  }
  return Most;
}
