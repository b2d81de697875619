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

/// \p Outer less \p Inner, as disjoint boxes: the slabs of the slowest
/// dimension first, spanning the whole of \p Outer (contiguous planes), then
/// those of the next within what is left, low side before high side.
inline std::vector<Region> boxDifference(const Region &Outer,
                                         const Region &Inner, int Dims) {
  std::vector<Region> Out;
  Region Rest = Outer;
  for (int D = Dims - 1; D >= 0; --D) {
    const long long InLo = std::clamp(Inner.lo[D], Rest.lo[D], Rest.hi[D]);
    const long long InHi = std::clamp(Inner.hi[D], InLo, Rest.hi[D]);
    Region Low = Rest, High = Rest;
    Low.hi[D] = InLo;
    High.lo[D] = InHi;
    for (const Region &R : {Low, High})
      if (!emptyRegion(R, Dims))
        Out.push_back(R);
    Rest.lo[D] = InLo;
    Rest.hi[D] = InHi;
  }
  return Out;
}

/// Splits \p Own: the boundary slab on the low side of dimension D is
/// StencilHalo.lo[D] thick, on the high side StencilHalo.hi[D], for each D with
/// Split[D]. Slabs of the slowest dimension come first and span the whole
/// region (contiguous planes); later ones span what is left. A region too
/// thin for both slabs is all boundary.
inline RegionSplit splitRegion(const Region &Own, int Dims,
                               const Halo &StencilHalo, const bool *Split) {
  RegionSplit S;
  S.interior = Own;
  for (int D = 0; D < Dims; ++D) {
    if (!Split[D])
      continue;
    const long long Lo = Own.lo[D], Hi = Own.hi[D];
    S.interior.lo[D] = std::min(Hi, Lo + StencilHalo.lo[D]);
    S.interior.hi[D] = std::max(S.interior.lo[D], Hi - StencilHalo.hi[D]);
  }
  S.boundary = boxDifference(Own, S.interior, Dims);
  return S;
}

} // namespace stencil

#endif // STENCIL_REGION_SPLIT_HPP
