//===- PlaneTerms.h - A sum by planes' terms, printed -----------*- C++ -*-===//
///
/// \file
/// What the kernels that sum by planes print alike (zsum and zsum4,
/// PlaneSumKernelPrinter.cpp; the passes summed by planes,
/// PlaneSumPassPrinter.cpp): the values of a plane a thread's points read,
/// held in registers stencilc_v0, stencilc_v1, ..., and the terms of a plane
/// for one of the points, read from them.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_CODEGEN_PLANETERMS_H
#define STENCILC_CODEGEN_PLANETERMS_H

#include "stencilc/CodeGen/BodyPrinter.h"
#include "stencilc/Planning/PlaneSums.h"
#include <functional>
#include <string>
#include <vector>

namespace stencilc::codegen::cuda {

/// A value of a plane the thread's points read: the array and in-plane
/// offset from the first point. Register N is stencilc_vN.
struct PlaneValue {
  unsigned Param = 0;
  int X = 0, Y = 0;
};

/// The values a plane's \p Points points (adjacent in y) read: zsum's loads
/// for two, or for more the first point's loads a row up for each point
/// after it.
std::vector<PlaneValue> planeValues(const planning::PlaneSums &P, int Points);

/// Which of \p Values the terms of \p Planes read, for any of the points.
std::vector<bool> usedPlaneValues(const planning::PlaneSums &P,
                                  const std::vector<PlaneValue> &Values,
                                  int Points, const std::vector<int> &Planes);

/// The terms the running sums add at plane \p Plane (PlaneSumTerm::Reached)
/// for point \p Point, each after its operator (the chain's first without),
/// their loads from \p Values' registers; a term of an earlier plane, held,
/// is the register \p Held names for its index in P.Terms.
std::string
planeTerms(const ir::Stencil &S, const BodyNames &Names,
           const planning::PlaneSums &P, const std::vector<PlaneValue> &Values,
           int Plane, int Point,
           const std::function<std::string(size_t Term)> &Held = nullptr);

/// Term \p Term of P.Terms alone for point \p Point, its loads from
/// \p Values' registers (what a held term's register takes at its plane).
std::string planeTerm(const ir::Stencil &S, const BodyNames &Names,
                      const planning::PlaneSums &P,
                      const std::vector<PlaneValue> &Values, size_t Term,
                      int Point);

} // namespace stencilc::codegen::cuda

#endif // STENCILC_CODEGEN_PLANETERMS_H
