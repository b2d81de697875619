//===- StencilInfo.h - What analysis knows about a stencil -----*- C++ -*-===//
///
/// \file
/// Per array: its intent, the offsets it is read at, its halo per dimension
/// and side; per stencil: the union halo, whether it reads diagonal offsets
/// and the cost per point.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_ANALYSIS_STENCILINFO_H
#define STENCILC_ANALYSIS_STENCILINFO_H

#include "stencilc/IR/Expr.h"
#include <array>
#include <vector>

namespace stencilc::analysis {

enum class Intent { In, Out, InOut };
const char *intentName(Intent I);

/// Points needed on each side of a dimension: Lo on the negative side.
/// 64 bits: the halo of an offset of INT_MIN is 2^31.
struct HaloWidth {
  long long Lo = 0;
  long long Hi = 0;
  friend bool operator==(const HaloWidth &A, const HaloWidth &B) {
    return A.Lo == B.Lo && A.Hi == B.Hi;
  }
  friend bool operator!=(const HaloWidth &A, const HaloWidth &B) {
    return !(A == B);
  }
};
using Halo = std::array<HaloWidth, ir::MaxDims>;

struct ArrayInfo {
  unsigned Param = 0; ///< Index into Stencil::Params.
  Intent Use = Intent::In;
  bool Read = false;
  bool Written = false;
  std::vector<ir::Offset> ReadOffsets; ///< Sorted, unique.
  /// Points read on each side of each dimension. Qualified: the member
  /// shares the type's name.
  analysis::Halo Halo{};
};

struct StencilInfo {
  std::vector<ArrayInfo> Arrays; ///< Array parameters, in parameter order.
  analysis::Halo Halo{};         ///< Union over the arrays read.
  /// Some array is read at an offset with two or more non-zero components:
  /// the edges and corners of the halo are read, not only its faces.
  bool ReadsDiagonal = false;
  /// The dimensions whose coordinate (idx.i(), ...) the body uses, bit d
  /// for dimension d: computed in a halo across a periodic wrap, such a
  /// point would see the coordinate beyond the edge, not the wrapped one.
  unsigned CoordinateDims = 0;
  /// Floating-point operations per point: + - * / and math calls on floating
  /// types; loops count trip-count times, if/else and ?: their costlier side.
  double FlopsPerPoint = 0;
  /// Bytes of memory traffic per point with perfect reuse of neighbours:
  /// each array read once and each array written once; arrays of lower rank
  /// (read once per column or plane) count nothing.
  double BytesPerPoint = 0;
};

} // namespace stencilc::analysis

#endif // STENCILC_ANALYSIS_STENCILINFO_H
