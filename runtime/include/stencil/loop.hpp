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

template <int Dims> class HostLoopEngine;
/// Runs on the host or the GPU by where the first array lives
/// (auto_engine.hpp).
template <int Dims> class AutoLoopEngine;
template <int Dims> class DeviceAutoTuningLoopEngine;
template <int Dims, Backend B> class GeneratedLoopEngine;

namespace detail {
/// The dimensions of one of the runtime's engines, 0 for an engine of the
/// program's own (porting.md).
template <typename E> struct EngineDims : std::integral_constant<int, 0> {};
template <int N>
struct EngineDims<HostLoopEngine<N>> : std::integral_constant<int, N> {};
template <int N>
struct EngineDims<AutoLoopEngine<N>> : std::integral_constant<int, N> {};
template <int N>
struct EngineDims<DeviceAutoTuningLoopEngine<N>>
    : std::integral_constant<int, N> {};
template <int N, Backend B>
struct EngineDims<GeneratedLoopEngine<N, B>> : std::integral_constant<int, N> {
};
} // namespace detail

/// Applies a stencil to every point of a box, with the execution method the
/// Engine names (seed 000's Loop3D<Engine>):
///   Loop3D<HostLoopEngine3D> loop(nx + 2*mx, mx, mx, ny + 2*my, my, my, nz +
///   2*mz, mz, mz); loop.run(Diffusion3d(), args...);
/// A stencil passed to run() is a stencil to stencilc, annotated or not.
template <int Dims, typename Engine> class Loop {
  // (An engine of more dimensions reads ranges the loop has not.)
  static_assert(detail::EngineDims<Engine>::value == 0 ||
                    detail::EngineDims<Engine>::value == Dims,
                "the engine has other dimensions than the loop: Loop3D takes "
                "a 3-D engine (HostLoopEngine3D, OpenMPLoopEngine3D, ...)");

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
    if constexpr (!detail::IsStepFunction<StencilT>::value) {
      // (Generated engines would compute one plane of it, silently.)
      static_assert(detail::indexFits<StencilT, Dims>,
                    STENCIL_INDEX_DIMS_MESSAGE);
      Engine E(range_);
      E(Stencil, std::forward<Args>(A)...);
    }
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
    if constexpr (!detail::IsStepFunction<StencilT>::value) {
      static_assert(detail::indexFits<StencilT, Dims>,
                    STENCIL_INDEX_DIMS_MESSAGE);
      // (The host reference would run the steps backwards, silently.)
      static_assert(
          detail::nextLevelWritable<std::decay_t<Args>...>(
              typename detail::StencilTraits<StencilT>::Params()),
          "Loop::repeat: stencil::nextLevel marks a parameter the stencil "
          "cannot write (a pointer to const): mark the array it writes "
          "nextLevel and the one it reads previousLevel");
    }
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

  /// An array: an engine or a Step of other dimensions refuses it.
  const LoopRange (&ranges() const)[Dims] { return range_; }

private:
  LoopRange range_[Dims];
};

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
