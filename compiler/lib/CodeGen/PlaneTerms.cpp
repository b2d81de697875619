//===- PlaneTerms.cpp - A sum by planes' terms, printed -------------------===//
#include "stencilc/CodeGen/PlaneTerms.h"
#include "stencilc/CodeGen/CudaKernels.h"
#include <algorithm>
#include <cassert>

using namespace stencilc;
using namespace stencilc::codegen;
using namespace stencilc::codegen::cuda;
using planning::PlaneLoad;
using planning::PlaneSums;
using planning::PlaneSumTerm;

namespace {

/// Loads of the body from the plane's registers, for the thread's point
/// \p Point (each a row above the one before).
class PlaneRegisters : public DeviceHooks {
public:
  PlaneRegisters(const std::vector<PlaneValue> &Values, int Point)
      : Values(Values), Point(Point) {}
  std::string printLoad(unsigned Param, const ir::Offset &Off,
                        const std::string &Memory) const override {
    const auto It =
        std::find_if(Values.begin(), Values.end(), [&](const PlaneValue &V) {
          return V.Param == Param && V.X == Off[0] && V.Y == Off[1] + Point;
        });
    assert(It != Values.end() && "a load the plan does not make");
    if (It == Values.end())
      return Memory;
    return fmt::format("stencilc_v{}", It - Values.begin());
  }

private:
  const std::vector<PlaneValue> &Values;
  const int Point;
};

} // namespace

std::vector<PlaneValue> cuda::planeValues(const PlaneSums &P, int Points) {
  std::vector<PlaneValue> Values;
  if (Points == 2) {
    for (const PlaneLoad &L : P.Loads)
      Values.push_back({L.Param, L.X, L.Y});
    return Values;
  }
  for (int Point = 0; Point < Points; ++Point)
    for (const PlaneLoad &L : P.Loads) {
      if (L.SecondOnly)
        continue;
      const PlaneValue V{L.Param, L.X, L.Y + Point};
      if (std::none_of(Values.begin(), Values.end(), [&](const PlaneValue &W) {
            return W.Param == V.Param && W.X == V.X && W.Y == V.Y;
          }))
        Values.push_back(V);
    }
  return Values;
}

std::vector<bool> cuda::usedPlaneValues(const PlaneSums &P,
                                        const std::vector<PlaneValue> &Values,
                                        int Points,
                                        const std::vector<int> &Planes) {
  std::vector<bool> Used(Values.size(), false);
  for (const PlaneSumTerm &T : P.Terms) {
    if (std::find(Planes.begin(), Planes.end(), T.Plane) == Planes.end())
      continue;
    ir::walkExpr(*T.Value, [&](const ir::Expr &X) {
      const auto *L = llvm::dyn_cast<ir::LoadExpr>(&X);
      if (!L)
        return;
      for (int Point = 0; Point < Points; ++Point)
        for (size_t N = 0; N < Values.size(); ++N)
          if (Values[N].Param == L->Param && Values[N].X == L->Off[0] &&
              Values[N].Y == L->Off[1] + Point)
            Used[N] = true;
    });
  }
  return Used;
}

std::string cuda::planeTerm(const ir::Stencil &S, const BodyNames &Names,
                            const PlaneSums &P,
                            const std::vector<PlaneValue> &Values, size_t Term,
                            int Point) {
  PlaneRegisters Hooks(Values, Point);
  return "(" + printExpression(S, Names, Hooks, *P.Terms[Term].Value) + ")";
}

std::string
cuda::planeTerms(const ir::Stencil &S, const BodyNames &Names,
                 const PlaneSums &P, const std::vector<PlaneValue> &Values,
                 int Plane, int Point,
                 const std::function<std::string(size_t Term)> &Held) {
  std::string Text;
  for (size_t I = 0; I < P.Terms.size(); ++I) {
    const PlaneSumTerm &T = P.Terms[I];
    if (T.Reached != Plane)
      continue;
    assert((!T.held() || Held) && "a held term where none is kept");
    const std::string Term =
        T.held() ? Held(I) : planeTerm(S, Names, P, Values, I, Point);
    Text += I == 0 ? Term : (T.Subtract ? " - " : " + ") + Term;
  }
  return Text;
}
