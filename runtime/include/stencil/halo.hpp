// stencil/halo.hpp - halo widths of a field, from stencilc's analysis of the
// stencils that use it.
#ifndef STENCIL_HALO_HPP
#define STENCIL_HALO_HPP

#include <algorithm>
#include <stdexcept>
#include <stencil/generated.hpp>
#include <stencil/generated_engine.hpp>
#include <string>

namespace stencil {

/// Points kept around a field's own points, per dimension and side (x first).
struct Halo {
  int lo[4] = {0, 0, 0, 0};
  int hi[4] = {0, 0, 0, 0};
  /// Exchange edges and corners too (diagonal neighbours). Needed when a
  /// stencil reads diagonal offsets such as idx.ix<1,1,0>(): Halo::of and
  /// haloOf set it from stencilc's analysis (GeneratedStencil::readsDiagonal).
  /// A halo written by hand exchanges them unless told not to; setting it
  /// on a haloOf result exchanges them anyway.
  bool corners = true;

  /// The widths {lo, hi} per dimension of generated code's tables.
  static Halo of(const int (&Widths)[4][2], bool Corners) {
    Halo H;
    for (int D = 0; D < 4; ++D) {
      H.lo[D] = Widths[D][0];
      H.hi[D] = Widths[D][1];
    }
    H.corners = Corners;
    return H;
  }
  /// The widths stencil entry \p E needs, with corners only if it reads them.
  static Halo of(const GeneratedStencil &E) {
    return of(E.halo, E.readsDiagonal);
  }
  /// Every width at least as large as in \p O.
  Halo &merge(const Halo &O) {
    for (int D = 0; D < 4; ++D) {
      lo[D] = std::max(lo[D], O.lo[D]);
      hi[D] = std::max(hi[D], O.hi[D]);
    }
    corners = corners || O.corners;
    return *this;
  }
  /// Every width at least as large as in \p Need, and corners if it has them.
  bool covers(const Halo &Need) const {
    for (int D = 0; D < 4; ++D)
      if (lo[D] < Need.lo[D] || hi[D] < Need.hi[D])
        return false;
    return corners || !Need.corners;
  }
  bool operator==(const Halo &O) const {
    for (int D = 0; D < 4; ++D)
      if (lo[D] != O.lo[D] || hi[D] != O.hi[D])
        return false;
    return true;
  }
  bool operator!=(const Halo &O) const { return !(*this == O); }
  /// "x:1/1 y:0/2": the widths of the first \p Dims dimensions, each
  /// times \p Times (a halo K steps deep, whatever K: no int overflow).
  std::string str(int Dims, long long Times = 1) const {
    std::string S;
    for (int D = 0; D < Dims; ++D)
      S += std::string(D ? " " : "") + "xyzw"[D] + ":" +
           std::to_string(lo[D] * Times) + "/" + std::to_string(hi[D] * Times);
    return S;
  }
};

/// The generated entry of \p S for backend \p B, or an error that says how to
/// get one.
template <typename StencilT>
const GeneratedStencil &requireGenerated(Backend B, const StencilT &S) {
  const GeneratedStencil *E = generatedFor(B, S);
  if (!E)
    throw std::runtime_error(detail::noGeneratedCode(B, S));
  return *E;
}

/// The halo a field needs to be read by all of \p Stencils on backend \p B:
/// the maximum of their widths, per dimension and side, with corners if any
/// of them reads a diagonal offset.
template <typename... StencilT>
Halo haloOf(Backend B, const StencilT &...Stencils) {
  Halo H;
  H.corners = false;
  (H.merge(Halo::of(requireGenerated(B, Stencils))), ...);
  return H;
}

} // namespace stencil

#endif // STENCIL_HALO_HPP
