// stencil/region_split.hpp - a rank's own points split into an interior,
// which reads no halo, and boundary slabs of the exchanged dimensions, for
// overlapping computation with the halo exchange.
#ifndef STENCIL_REGION_SPLIT_HPP
#define STENCIL_REGION_SPLIT_HPP

#include <algorithm>
#include <stencil/generated.hpp>
#include <stencil/halo.hpp>
#include <vector>

namespace stencil {

struct RegionSplit {
  Region interior;
  /// Disjoint slabs that, with the interior, cover the whole region.
  std::vector<Region> boundary;
};

inline bool emptyRegion(const Region &R, int Dims) {
  for (int D = 0; D < Dims; ++D)
    if (R.hi[D] <= R.lo[D])
      return true;
  return false;
}

/// Splits \p Own: the boundary slab on the low side of dimension D is
/// StencilHalo.lo[D] thick, on the high side StencilHalo.hi[D], for each D with
/// Split[D]. Slabs of the slowest dimension come first and span the whole
/// region (contiguous planes); later ones span what is left. A region too
/// thin for both slabs is all boundary.
inline RegionSplit splitRegion(const Region &Own, int Dims,
                               const Halo &StencilHalo, const bool *Split) {
  RegionSplit S;
  Region Rest = Own;
  for (int D = Dims - 1; D >= 0; --D) {
    if (!Split[D])
      continue;
    const long long Lo = Rest.lo[D], Hi = Rest.hi[D];
    const long long InLo = std::min(Hi, Lo + StencilHalo.lo[D]);
    const long long InHi = std::max(InLo, Hi - StencilHalo.hi[D]);
    Region Low = Rest, High = Rest;
    Low.hi[D] = InLo;
    High.lo[D] = InHi;
    for (const Region &R : {Low, High})
      if (!emptyRegion(R, Dims))
        S.boundary.push_back(R);
    Rest.lo[D] = InLo;
    Rest.hi[D] = InHi;
  }
  S.interior = Rest;
  return S;
}

} // namespace stencil

#endif // STENCIL_REGION_SPLIT_HPP
