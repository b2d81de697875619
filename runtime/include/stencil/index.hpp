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
/// array of extents \p N (host code only; kept out of line of ix()).
[[noreturn]] inline void accessOutside(int Dims, const int *Offsets,
                                       const std::ptrdiff_t *Pos,
                                       const std::ptrdiff_t *N) {
  std::string Off, At, Why;
  for (int D = 0; D < Dims; ++D) {
    Off += (D ? "," : "") + std::to_string(Offsets[D]);
    At += (D ? "," : "") + std::to_string(Pos[D]);
    const std::ptrdiff_t P = Pos[D] + Offsets[D];
    if (Why.empty() && (P < 0 || P >= N[D]))
      Why = std::string(1, "xyzw"[D]) + " = " + std::to_string(P) +
            " is outside [0, " + std::to_string(N[D]) + ")";
  }
  throw AccessError("access idx.ix<" + Off + ">() at point (" + At +
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
          detail::accessOutside(Dims, Offsets, pos_, n_);
#endif
      std::ptrdiff_t Delta = 0;
      for (int D = Dims - 1; D >= 0; --D)
        Delta = Delta * n_[D] + Offsets[D];
      return ix_ + Delta;
    }
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
