//===- PlaneSums.h - A body's sum split by the planes it reads -*- C++ -*-===//
///
/// \file
/// The plan of the "zsum" variant: a 3-D body that stores one sum of terms,
/// each term reading one plane (one marching offset) of the arrays that span
/// the march, the terms in the order of their planes. Marching up, a thread
/// then loads each plane's in-plane neighbours once and adds each term to
/// the running sum of the point it belongs to: the point above gets the
/// plane's first terms, the point itself the middle ones, the point below
/// the last ones and is stored. Every sum keeps the source's order of
/// operations (nothing is reassociated), so a box that zmarch reads through
/// a register queue per column costs a running sum per plane instead.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_PLANNING_PLANESUMS_H
#define STENCILC_PLANNING_PLANESUMS_H

#include "stencilc/IR/Stencil.h"
#include <string>
#include <vector>

namespace stencilc::planning {

struct MarchPlan;

/// One term of the sum, in the source's order.
struct PlaneSumTerm {
  const ir::Expr *Value = nullptr;
  bool Subtract = false; ///< Taken away from the sum (never the first).
  /// The marching offset of every load in it of an array that spans the
  /// march (a term with none, a constant, goes with the term before it).
  int Plane = 0;
  /// The plane at which the running sum adds it: the highest plane of the
  /// terms up to it. Above Plane, the term is computed when its own plane
  /// is loaded and held in registers until then (the 3-D star as AN5D
  /// writes it: the plane below after the centre's).
  int Reached = 0;
  int held() const { return Reached - Plane; }
};

/// A load made once a plane for both points of a thread (the second one row
/// up in y): the array and in-plane offset from the first point.
struct PlaneLoad {
  unsigned Param = 0;
  int X = 0, Y = 0;
  /// Only the second point reads it: a row beyond the region when the
  /// second point is, so it is loaded from the row below there.
  bool SecondOnly = false;
};

/// The rows and columns, from the first point, of one array that the first
/// point reads in a plane (zsum4 copies them for a block's points).
struct PlaneFootprint {
  unsigned Param = 0;
  int X[2] = {0, 0}, Y[2] = {0, 0}; ///< The least and greatest offsets.
};

struct PlaneSums {
  /// Empty: the body's sum splits by planes (the single step's zsum
  /// variants need replacesQueues() too).
  std::string WhyNot;
  unsigned Out = 0;   ///< The array the body stores.
  /// The sum's type; the store converts it where the array's differs (a
  /// float array's sum of double products).
  ir::Type Ty;
  std::vector<PlaneSumTerm> Terms;
  /// The lowest and highest planes read (the loads' and copies' span).
  int Lo = 0, Hi = 0;
  /// The first term's plane, where the running sums start.
  int First = 0;
  std::vector<PlaneLoad> Loads;
  /// Each array's, in the order of first use.
  std::vector<PlaneFootprint> Footprints;
  /// Empty where the sum splits and its planes may be copied (asynchronous
  /// copies move 4, 8 or 16 bytes: no array of 1- or 2-byte elements); where
  /// replacesQueues(), also where zsum4's copies fit a small block (Plan.cpp).
  std::string StagesWhyNot;
  /// Whether some column off the centre is read at two planes or more (not
  /// a star): where none is, zmarch's queues cost no more than running sums,
  /// so the single step's zsum variants are offered only where one is.
  bool OffCentreColumns = false;
  bool applies() const { return WhyNot.empty(); }
  /// Where the single step's zsum (and, staged, zsum4) variants apply: their
  /// printers hold no term.
  bool replacesQueues() const {
    return applies() && OffCentreColumns && heldValues() == 0;
  }
  bool staged() const { return applies() && StagesWhyNot.empty(); }
  /// Running sums a point keeps between planes.
  int runningSums() const { return Hi - First; }
  /// Registers a point holds terms in (a term for as many planes as it is
  /// held).
  int heldValues() const {
    int N = 0;
    for (const PlaneSumTerm &T : Terms)
      N += T.held();
    return N;
  }
};

/// The shared memory a block of zsum4 may take (what a block gets without
/// asking for more).
constexpr unsigned long long MaxStageBytes = 48 * 1024;
/// zsum4 needs no more than MaxStageBytes at this block, 32 x 1, at least.
constexpr long long SmallestStagedBlock[2] = {32, 1};

/// zsum4's shared memory for a (\p Bx, \p By) block of \p Points points a
/// thread and \p Stages planes: each array's rows and columns, its stages
/// 16-byte aligned (the kernel and its launcher's helper lay them out so).
unsigned long long stageBytes(const PlaneSums &P, const ir::Stencil &S,
                              unsigned Stages, unsigned Points, long long Bx,
                              long long By);
/// The most elements of a plane one thread of that block copies.
long long stageCopies(const PlaneSums &P, unsigned Points, long long Bx,
                      long long By);

/// Registers a point may hold terms in (PlaneSums::heldValues): a term of
/// an earlier plane after a later one's costs one a plane between them.
constexpr int MaxHeldValues = 4;

/// Loads a plane beyond which zsum is not offered (a box of radius 2 reads
/// 25 a plane, 30 for two points).
constexpr size_t MaxPlaneLoads = 32;

/// The plane sums of \p S, or why it has none: only 3-D stencils whose
/// body is one store of a floating-point chain of additions and
/// subtractions (converted or not to the array's type), each
/// term reading one plane (spanning at most MaxQueueLength, the terms of
/// earlier planes after later ones held in at most MaxHeldValues registers
/// a point), no coordinate, not the written array.
PlaneSums planPlaneSums(const ir::Stencil &S, const MarchPlan &March);

} // namespace stencilc::planning

#endif // STENCILC_PLANNING_PLANESUMS_H
