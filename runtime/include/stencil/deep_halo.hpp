// stencil/deep_halo.hpp - a time loop over ranks with halos several steps
// deep: one exchange every K steps, and between two exchanges each step
// recomputes the part of the halo that the later steps read.
//
// Step s (1..K) of a block of K steps after an exchange is computed on the
// rank's own points widened by (K - s) times the stencil's reach on every
// side that a neighbour fills (never at a wall), so the last step is exact
// on the own points and reads nothing the exchange did not bring. Its
// interior, the own points narrowed by s times the reach, needs no halo at
// all: a block may compute every step's interior while the exchange is in
// flight and its boundary (the rest) afterwards.
#ifndef STENCIL_DEEP_HALO_HPP
#define STENCIL_DEEP_HALO_HPP

#include <algorithm>
#include <stdexcept>
#include <stencil/domain.hpp>
#include <stencil/halo.hpp>
#include <stencil/region_split.hpp>
#include <string>
#include <vector>

namespace stencil {

namespace detail {
/// \p Reads, a step's halo, for \p Steps steps between exchanges.
inline Halo deepen(Halo Reads, int Steps) {
  for (int D = 0; D < 4; ++D) {
    Reads.lo[D] *= Steps;
    Reads.hi[D] *= Steps;
  }
  Reads.corners = Reads.corners || Steps > 1;
  return Reads;
}
} // namespace detail

/// The halo fields need for \p Steps steps of each of \p Stencils between
/// two exchanges: haloOf's widths times \p Steps, with edges and corners
/// from two steps on (a second step reaches diagonal neighbours' points even
/// through a star's faces).
template <typename... StencilT>
Halo deepHaloOf(Backend B, int Steps, const StencilT &...Stencils) {
  if (Steps < 1 || Steps > 1024)
    throw std::invalid_argument(
        "stencil: deepHaloOf: " + std::to_string(Steps) +
        " steps between exchanges: from 1 to 1024");
  return detail::deepen(haloOf(B, Stencils...), Steps);
}

namespace detail {

/// Whether the dimension's halo is read and filled by exchanges: where the
/// steps between two exchanges widen.
inline bool widens(const Domain &D, const Halo &Reads, int X) {
  return D.exchanges(X) && (Reads.lo[X] > 0 || Reads.hi[X] > 0);
}

/// The most steps between two exchanges that fields of halo \p H allow a
/// stencil reading \p Reads, the same on every rank; 0 when nothing limits
/// them (no dimension both read and exchanged). Without edges and corners
/// in the halo, steps widening two dimensions at once need them: 1.
inline int deepestSteps(const Domain &D, const Halo &H, const Halo &Reads) {
  int Most = 0, Widening = 0;
  for (int X = 0; X < D.dims(); ++X) {
    if (!widens(D, Reads, X))
      continue;
    ++Widening;
    for (const auto &[Have, Need] :
         {std::pair<int, int>{H.lo[X], Reads.lo[X]}, {H.hi[X], Reads.hi[X]}})
      if (Need > 0)
        Most = Most ? std::min(Most, Have / Need) : Have / Need;
  }
  if (Widening > 1 && !H.corners)
    return std::min(Most, 1);
  return Most;
}

/// The first dimension in which steps between two exchanges would recompute
/// points across a periodic wrap while the stencil uses that coordinate
/// (\p Coordinates, bit d: GeneratedStencil::coordinates), or -1. There a
/// recomputed point would see the coordinate beyond the edge, not the
/// wrapped one: one step per exchange only.
inline int wrappedCoordinate(const Domain &D, const Halo &Reads,
                             unsigned Coordinates) {
  for (int X = 0; X < D.dims(); ++X)
    if (widens(D, Reads, X) && D.periodic(X) && (Coordinates >> X & 1u))
      return X;
  return -1;
}

/// The regions of the steps between two exchanges on one rank.
class DeepRegions {
public:
  /// \p Own: the rank's own points; \p Reads: how far a step reads.
  DeepRegions(const Domain &D, const Region &Own, const Halo &Reads)
      : own_(Own), dims_(D.dims()) {
    for (int X = 0; X < dims_; ++X) {
      const bool Widens = detail::widens(D, Reads, X);
      Direction Low, High;
      Low.d[X] = -1;
      High.d[X] = 1;
      // Sides at a wall keep the margin fixed: no step widens there.
      lo_[X] = Widens && D.neighbour(Low) >= 0 ? Reads.lo[X] : 0;
      hi_[X] = Widens && D.neighbour(High) >= 0 ? Reads.hi[X] : 0;
      // The interior narrows alike on both sides (the wider reach): then a
      // later step's interior never overwrites what an earlier step's boundary
      // still reads in the array the two share.
      const int Wider = std::max(Reads.lo[X], Reads.hi[X]);
      narrowLo_[X] = lo_[X] ? Wider : 0;
      narrowHi_[X] = hi_[X] ? Wider : 0;
    }
  }

  /// Whether any side widens (a neighbour fills a halo the steps read).
  bool widens() const {
    for (int X = 0; X < dims_; ++X)
      if (lo_[X] || hi_[X])
        return true;
    return false;
  }

  /// Step \p S of \p Steps: the own points widened by Steps - S reaches.
  Region step(int S, int Steps) const {
    Region R = own_;
    for (int X = 0; X < dims_; ++X) {
      R.lo[X] -= static_cast<long long>(Steps - S) * lo_[X];
      R.hi[X] += static_cast<long long>(Steps - S) * hi_[X];
    }
    return R;
  }

  /// The points of step \p S that need no halo: the own points narrowed by
  /// S reaches on the widening sides (empty when nothing is left).
  Region interior(int S) const {
    Region R = own_;
    for (int X = 0; X < dims_; ++X) {
      R.lo[X] += static_cast<long long>(S) * narrowLo_[X];
      R.hi[X] -= static_cast<long long>(S) * narrowHi_[X];
      R.hi[X] = std::max(R.hi[X], R.lo[X]);
    }
    return R;
  }

  /// Step \p S of \p Steps less its interior (its boundary), as disjoint
  /// boxes.
  std::vector<Region> boundary(int S, int Steps) const {
    return boxDifference(step(S, Steps), interior(S), dims_);
  }

  /// One pass of a block: computed over region, its last level stored
  /// inside store; the interior's needs no halo.
  struct PassPart {
    Region region, store;
    bool interior;
  };

  /// A pass of \p Steps steps after one exchange, exact on the own points,
  /// as parts whose stores are disjoint and cover them. A level computed
  /// over a region is exact where none of the levels before it was read
  /// from the margin, Steps - 1 reaches inside the region. The interior's
  /// first level is computed over the own points less a reach, so it reads
  /// only own points: its last is exact on interior(Steps). Each boundary
  /// slab is computed over step(1, Steps) as the whole pass would be.
  std::vector<PassPart> passParts(int Steps) const {
    std::vector<PassPart> Parts;
    const Region Inner = interior(Steps);
    if (!emptyRegion(Inner, dims_))
      Parts.push_back({interior(1), Inner, true});
    for (const Region &Slab : boxDifference(own_, Inner, dims_))
      Parts.push_back({step(1, Steps), Slab, false});
    return Parts;
  }

private:
  Region own_;
  int dims_;
  int lo_[3] = {0, 0, 0}, hi_[3] = {0, 0, 0};
  int narrowLo_[3] = {0, 0, 0}, narrowHi_[3] = {0, 0, 0};
};

} // namespace detail

} // namespace stencil

#endif // STENCIL_DEEP_HALO_HPP
