// stencil/step.hpp - a time step (or one stage of it) as one unit: an ordinary
// function that runs several stencils in order over one loop's points.
//
//   STENCIL_STEP
//   void advance(stencil::Step3D &step, float dt, const float *u, float *flux,
//                float *un) {
//     step.run(Flux(), u, flux);          // every point, then
//     step.run(Update(), dt, flux, un);   // every point again
//   }
//   loop.runStep(advance, dt, u, flux, un);
//
// Without stencilc (and on the host reference engine) runStep calls the
// function, and each step.run runs its stencil over the loop's points with
// the loop's engine, one after the other: that is the step's meaning. A
// stencil therefore sees every point of the arrays the stencils before it
// wrote, and the arrays' margins as they were. stencilc reads the function
// (annotated STENCIL_STEP), builds its dependency graph and plans it
// (--emit=ir shows both).
#ifndef STENCIL_STEP_HPP
#define STENCIL_STEP_HPP

#include <stencil/auto_engine.hpp>
#include <stencil/generated_engine.hpp>
#include <stencil/host_engine.hpp>
#include <stencil/loop_range.hpp>
#include <type_traits>
#include <utility>

// STENCIL_STEP marks a step function for stencilc, as STENCIL_KERNEL marks a
// stencil; other compilers see nothing.
#if defined(__STENCILC__)
#define STENCIL_STEP __attribute__((annotate("stencilc.step")))
#else
#define STENCIL_STEP
#endif

namespace stencil {

/// The engines a step can run its stencils on.
enum class StepEngine { Host, OpenMP, Cuda, Auto };

namespace detail {
template <typename Engine> struct StepEngineOf {
  static constexpr bool Known = false;
};
template <int Dims> struct StepEngineOf<HostLoopEngine<Dims>> {
  static constexpr bool Known = true;
  static constexpr StepEngine Kind = StepEngine::Host;
};
template <int Dims> struct StepEngineOf<GeneratedLoopEngine<Dims, Backend::OpenMP>> {
  static constexpr bool Known = true;
  static constexpr StepEngine Kind = StepEngine::OpenMP;
};
template <int Dims> struct StepEngineOf<GeneratedLoopEngine<Dims, Backend::Cuda>> {
  static constexpr bool Known = true;
  static constexpr StepEngine Kind = StepEngine::Cuda;
};
template <int Dims> struct StepEngineOf<AutoLoopEngine<Dims>> {
  static constexpr bool Known = true;
  static constexpr StepEngine Kind = StepEngine::Auto;
};
} // namespace detail

/// What a step function gets: the loop's points and engine. run() runs one
/// stencil over every point before it returns (the GPU engines queue it on
/// the same stream, in order).
template <int Dims> class Step {
public:
  Step(const LoopRange *Ranges, StepEngine Engine)
      : ranges_(Ranges), engine_(Engine) {}

  template <typename StencilT, typename... Args>
  void run(const StencilT &Stencil, Args &&...A) const {
    switch (engine_) {
    case StepEngine::Host:
      HostLoopEngine<Dims>{ranges_}(Stencil, std::forward<Args>(A)...);
      return;
    case StepEngine::OpenMP:
      GeneratedLoopEngine<Dims, Backend::OpenMP>{ranges_}(
          Stencil, std::forward<Args>(A)...);
      return;
    case StepEngine::Cuda:
      GeneratedLoopEngine<Dims, Backend::Cuda>{ranges_}(
          Stencil, std::forward<Args>(A)...);
      return;
    case StepEngine::Auto:
      AutoLoopEngine<Dims>{ranges_}(Stencil, std::forward<Args>(A)...);
      return;
    }
  }

  const LoopRange *ranges() const { return ranges_; }
  StepEngine engine() const { return engine_; }

private:
  const LoopRange *ranges_;
  StepEngine engine_;
};

using Step2D = Step<2>;
using Step3D = Step<3>;
using Step4D = Step<4>;

/// Runs step function \p F (`void F(Step<Dims> &, Args...)`) over \p Ranges
/// with \p Engine's stencils.
template <int Dims, typename Engine, typename F, typename... Args>
void runStep(const LoopRange *Ranges, F &&Function, Args &&...A) {
  static_assert(detail::StepEngineOf<Engine>::Known,
                "runStep: steps run on the host reference, OpenMP, CUDA and "
                "auto engines");
  Step<Dims> S(Ranges, detail::StepEngineOf<Engine>::Kind);
  Function(S, std::forward<Args>(A)...);
}

} // namespace stencil

#endif // STENCIL_STEP_HPP
