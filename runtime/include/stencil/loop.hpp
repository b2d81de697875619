// stencil/loop.hpp - Loop2D/3D/4D<Engine>: apply a stencil over a range of
// points.
#ifndef STENCIL_LOOP_HPP
#define STENCIL_LOOP_HPP

#include <stencil/loop_range.hpp>
#include <stencil/stencil_traits.hpp>
#include <stencil/time_loop.hpp>
#include <utility>

namespace stencil {

template <int Dims, typename Engine, typename F, typename... Args>
void runStep(const LoopRange *Ranges, F &&Function, Args &&...A);

/// Applies a stencil to every point of a box, with the execution method the
/// Engine names (seed 000's Loop3D<Engine>):
///   Loop3D<HostLoopEngine3D> loop(nx + 2*mx, mx, mx, ny + 2*my, my, my, nz +
///   2*mz, mz, mz); loop.run(Diffusion3d(), args...);
/// A stencil passed to run() is a stencil to stencilc, annotated or not.
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
    static_assert(!detail::IsStepFunction<StencilT>::value,
                  STENCIL_NOT_A_STEP_MESSAGE);
    Engine E(range_);
    E(Stencil, std::forward<Args>(A)...);
  }

  /// Runs \p Stencil \p Steps times over these points, two arrays trading
  /// places between steps: one argument is stencil::previousLevel(f) (the
  /// array a step reads), one stencil::nextLevel(fn) (the array it writes);
  /// both pointer variables end as a loop of run() and std::swap(f, fn)
  /// leaves them (see <stencil/time_loop.hpp>). The GPU engines advance
  /// several steps per pass where stencilc generated such passes.
  template <typename StencilT, typename... Args>
  void repeat(long long Steps, const StencilT &Stencil, Args &&...A) {
    static_assert(!detail::IsStepFunction<StencilT>::value,
                  STENCIL_NOT_A_STEP_MESSAGE);
    detail::checkRepeat(Steps, A...);
    Engine E(range_);
    if constexpr (detail::HasRepeat<Engine>::value)
      E.repeat(Steps, Stencil, A...);
    else
      detail::repeatOneByOne(
          Steps,
          [&](auto &&...V) { E(Stencil, std::forward<decltype(V)>(V)...); },
          A...);
  }

  /// Runs step function \p Function (`void f(StepND &, Args...)`, see
  /// <stencil/step.hpp>): several stencils in order over these points.
  template <typename F, typename... Args>
  void runStep(F &&Function, Args &&...A) {
    stencil::runStep<Dims, Engine>(range_, std::forward<F>(Function),
                                   std::forward<Args>(A)...);
  }

  const LoopRange *ranges() const { return range_; }

private:
  LoopRange range_[Dims];
};

/// Runs on the host or the GPU by where the first array lives
/// (auto_engine.hpp).
template <int Dims> class AutoLoopEngine;

/// `Loop2D`, `Loop3D`, `Loop4D` (with an engine as the template argument): a
/// Loop of 2, 3 or 4 dimensions. Without an engine
/// (`Loop3D loop(...)`, seed 000's first form) it is AutoLoopEngine. Class
/// templates, not aliases, so that C++17 deduces the default engine.
#define STENCIL_LOOP_ND(Name, Dims)                                            \
  template <typename Engine = AutoLoopEngine<Dims>>                            \
  class Name : public Loop<Dims, Engine> {                                     \
  public:                                                                      \
    template <typename... Ints>                                                \
    explicit Name(Ints... Triples) : Loop<Dims, Engine>(Triples...) {}         \
  };
STENCIL_LOOP_ND(Loop2D, 2)
STENCIL_LOOP_ND(Loop3D, 3)
STENCIL_LOOP_ND(Loop4D, 4)
#undef STENCIL_LOOP_ND

} // namespace stencil

#endif // STENCIL_LOOP_HPP
