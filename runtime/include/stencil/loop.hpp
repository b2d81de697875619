// stencil/loop.hpp - Loop2D/3D/4D<Engine>: apply a stencil over a range of
// points.
#ifndef STENCIL_LOOP_HPP
#define STENCIL_LOOP_HPP

#include <stencil/loop_range.hpp>
#include <utility>

namespace stencil {

/// Applies a stencil to every point of a box, with the execution method the
/// Engine names (seed 000's Loop3D<Engine>):
///   Loop3D<HostLoopEngine3D> loop(nx + 2*mx, mx, mx, ny + 2*my, my, my, nz +
///   2*mz, mz, mz); loop.run(Diffusion3d(), args...);
template <int Dims, typename Engine> class Loop {
public:
  /// Per dimension, x first: array extent, margin at the start, margin at the
  /// end; integers of any type, each checked in its own type (negative or
  /// beyond INT_MAX is an error). Every array the stencil gets must have these
  /// extents: the caller promises it (a pointer cannot tell its size).
  template <typename... Ints> explicit Loop(Ints... Triples) {
    static_assert(sizeof...(Ints) == 3 * Dims,
                  "a loop takes (n, begin margin, end margin) per dimension");
    int Values[3 * Dims];
    int I = 0;
    ((Values[I] = detail::loopInt(Triples, I % 3, "xyzw"[I / 3]), ++I), ...);
    for (int D = 0; D < Dims; ++D)
      range_[D] = makeLoopRange(Values[3 * D], Values[3 * D + 1],
                                Values[3 * D + 2], "xyzw"[D]);
  }

  /// Runs \p Stencil (a functor or a function) with \p Args after the index.
  template <typename StencilT, typename... Args>
  void run(const StencilT &Stencil, Args &&...A) {
    Engine E(range_);
    E(Stencil, std::forward<Args>(A)...);
  }

  const LoopRange *ranges() const { return range_; }

private:
  LoopRange range_[Dims];
};

template <typename Engine> using Loop2D = Loop<2, Engine>;
template <typename Engine> using Loop3D = Loop<3, Engine>;
template <typename Engine> using Loop4D = Loop<4, Engine>;

} // namespace stencil

#endif // STENCIL_LOOP_HPP
