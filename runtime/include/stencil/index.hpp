// stencil/index.hpp - the index of one grid point: stencil::Index2D/3D/4D.
#ifndef STENCIL_INDEX_HPP
#define STENCIL_INDEX_HPP

#include <cstddef>
#include <stdexcept>
#include <string>

#if defined(__CUDACC__)
#define STENCIL_INDEX_HD __host__ __device__
#else
#define STENCIL_INDEX_HD
#endif

namespace stencil {

/// An access outside the array: the host reference engine's answer to a
/// loop whose margin is smaller than the stencil's halo.
class AccessError : public std::out_of_range {
public:
  explicit AccessError(const std::string &What) : std::out_of_range(What) {}
};

namespace detail {
/// Throws AccessError for an access at \p Offsets from point \p Pos of an
/// array of extents \p N spanning the dimensions in \p Axes (bit d:
/// dimension d; all of them for idx.ix()) (host code only; kept out of line
/// of ix()).
[[noreturn]] inline void accessOutside(int Dims, const int *Offsets,
                                       const std::ptrdiff_t *Pos,
                                       const std::ptrdiff_t *N, unsigned Axes) {
  std::string Method = "ix", Off, At, Why;
  if (Axes != (1u << Dims) - 1)
    Method += "_";
  for (int D = 0; D < Dims; ++D) {
    At += (D ? "," : "") + std::to_string(Pos[D]);
    if (!((Axes >> D) & 1))
      continue;
    if (Axes != (1u << Dims) - 1)
      Method += "xyzw"[D];
    Off += (Off.empty() ? "" : ",") + std::to_string(Offsets[D]);
    const std::ptrdiff_t P = Pos[D] + Offsets[D];
    if (Why.empty() && (P < 0 || P >= N[D]))
      Why = std::string(1, "xyzw"[D]) + " = " + std::to_string(P) +
            " is outside [0, " + std::to_string(N[D]) + ")";
  }
  throw AccessError("access idx." + Method + "<" + Off + ">() at point (" + At +
                    ") reads outside the array (" + Why +
                    "): the loop's margin is smaller than the stencil's halo "
                    "(or the extents are not the arrays')");
}
} // namespace detail

/// The point a stencil updates, in an array of Dims dimensions whose first
/// dimension (x) is contiguous. `ix()` is the point's linear index,
/// `ix<dx,dy,...>()` a neighbour's, `i()`, `j()`, `k()`, `w()` its global
/// coordinates (array index plus the origin of this piece of the domain).
template <int Dims> class Index {
  static_assert(Dims >= 2 && Dims <= 4,
                "stencil indices have 2, 3 or 4 dimensions");

public:
  Index() = default;
  /// Extents of the arrays, halo included, x first.
  template <typename... N>
  STENCIL_INDEX_HD explicit Index(N... Extents)
      : n_{static_cast<std::ptrdiff_t>(Extents)...} {
    static_assert(sizeof...(N) == Dims,
                  "an index takes one extent per dimension");
  }

  /// Moves to point (p0, p1, ...) of the array.
  template <typename... P> STENCIL_INDEX_HD void set_pos(P... Pos) {
    static_assert(sizeof...(P) == Dims,
                  "set_pos takes one coordinate per dimension");
    const std::ptrdiff_t Coords[] = {static_cast<std::ptrdiff_t>(Pos)...};
    std::ptrdiff_t Linear = 0;
    for (int D = Dims - 1; D >= 0; --D) {
      pos_[D] = Coords[D];
      Linear = Linear * n_[D] + Coords[D];
    }
    ix_ = Linear;
  }
  /// Global coordinates of element 0 (non-zero for a piece of a decomposed
  /// domain).
  template <typename... O> STENCIL_INDEX_HD void set_origin(O... Origin) {
    static_assert(sizeof...(O) == Dims,
                  "set_origin takes one coordinate per dimension");
    const std::ptrdiff_t Coords[] = {static_cast<std::ptrdiff_t>(Origin)...};
    for (int D = 0; D < Dims; ++D)
      origin_[D] = Coords[D];
  }

  /// Linear index of the centre, or of the neighbour at constant offsets.
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix() const {
    static_assert(
        sizeof...(Off) == 0 || sizeof...(Off) == Dims,
        "idx.ix<...>() takes no offset (the centre) or one per dimension");
    if constexpr (sizeof...(Off) == 0) {
      return ix_;
    } else {
      const int Offsets[] = {Off...};
#if !defined(__CUDA_ARCH__)
      // The host reference never reads outside the array, whatever the
      // loop's margins (generated code does not use Index: it costs them
      // nothing; device code skips it).
      for (int D = 0; D < Dims; ++D)
        if (pos_[D] + Offsets[D] < 0 || pos_[D] + Offsets[D] >= n_[D])
          detail::accessOutside(Dims, Offsets, pos_, n_, (1u << Dims) - 1);
#endif
      std::ptrdiff_t Delta = 0;
      for (int D = Dims - 1; D >= 0; --D)
        Delta = Delta * n_[D] + Offsets[D];
      return ix_ + Delta;
    }
  }

  /// The linear index, in an array of lower rank that spans only some of
  /// the dimensions (a 1-D profile along z, a 2-D surface field in x and y),
  /// of the element under this point, or of the one at constant offsets
  /// along its own dimensions. Such an array has the extents of the full
  /// arrays (halo included) along the dimensions it spans, the first of
  /// them contiguous: `rho0[idx.ix_z<1>()]` is rho0[k + 1],
  /// `ps[idx.ix_xy<0, -1>()]` is ps[i + (j - 1) * nx].
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_x() const {
    return project<0x1, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_y() const {
    return project<0x2, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_z() const {
    return project<0x4, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_w() const {
    return project<0x8, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_xy() const {
    return project<0x3, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_xz() const {
    return project<0x5, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_yz() const {
    return project<0x6, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_xw() const {
    return project<0x9, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_yw() const {
    return project<0xa, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_zw() const {
    return project<0xc, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_xyz() const {
    return project<0x7, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_xyw() const {
    return project<0xb, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_xzw() const {
    return project<0xd, Off...>();
  }
  template <int... Off> STENCIL_INDEX_HD std::ptrdiff_t ix_yzw() const {
    return project<0xe, Off...>();
  }

  STENCIL_INDEX_HD int i() const {
    return static_cast<int>(origin_[0] + pos_[0]);
  }
  STENCIL_INDEX_HD int j() const {
    return static_cast<int>(origin_[1] + pos_[1]);
  }
  STENCIL_INDEX_HD int k() const {
    static_assert(Dims >= 3, "k() needs a 3-D or 4-D index");
    return static_cast<int>(origin_[2] + pos_[2]);
  }
  STENCIL_INDEX_HD int w() const {
    static_assert(Dims >= 4, "w() needs a 4-D index");
    return static_cast<int>(origin_[3] + pos_[3]);
  }
  STENCIL_INDEX_HD std::ptrdiff_t extent(int D) const { return n_[D]; }

private:
  /// ix_x() ... ix_yzw(): the element of an array spanning the dimensions
  /// in \p Axes (bit d: dimension d), at offsets \p Off along them.
  template <unsigned Axes, int... Off>
  STENCIL_INDEX_HD std::ptrdiff_t project() const {
    static_assert((Axes >> Dims) == 0,
                  "the array spans a dimension this index does not have");
    static_assert(Axes != (1u << Dims) - 1,
                  "an array of every dimension is indexed with idx.ix()");
    constexpr int Spanned = ((Axes >> 0) & 1) + ((Axes >> 1) & 1) +
                            ((Axes >> 2) & 1) + ((Axes >> 3) & 1);
    static_assert(sizeof...(Off) == 0 || sizeof...(Off) == Spanned,
                  "idx.ix_...<...>() takes no offset (the element under the "
                  "point) or one per dimension the array spans");
    const int Given[] = {Off..., 0};
    int Offsets[Dims] = {};
    if constexpr (sizeof...(Off) != 0)
      for (int D = 0, N = 0; D < Dims; ++D)
        if ((Axes >> D) & 1)
          Offsets[D] = Given[N++];
#if !defined(__CUDA_ARCH__)
    for (int D = 0; D < Dims; ++D)
      if (((Axes >> D) & 1) &&
          (pos_[D] + Offsets[D] < 0 || pos_[D] + Offsets[D] >= n_[D]))
        detail::accessOutside(Dims, Offsets, pos_, n_, Axes);
#endif
    std::ptrdiff_t Linear = 0;
    for (int D = Dims - 1; D >= 0; --D)
      if ((Axes >> D) & 1)
        Linear = Linear * n_[D] + pos_[D] + Offsets[D];
    return Linear;
  }

  std::ptrdiff_t n_[Dims] = {};
  std::ptrdiff_t pos_[Dims] = {};
  std::ptrdiff_t origin_[Dims] = {};
  std::ptrdiff_t ix_ = 0;
};

using Index2D = Index<2>;
using Index3D = Index<3>;
using Index4D = Index<4>;

} // namespace stencil

// The seed framework's names, at global scope as its code writes them.
using ArrayIndex2D = stencil::Index2D;
using ArrayIndex3D = stencil::Index3D;
using ArrayIndex4D = stencil::Index4D;

#endif // STENCIL_INDEX_HPP
