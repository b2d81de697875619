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

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <stencil/auto_engine.hpp>
#include <stencil/generated.hpp>
#include <stencil/generated_engine.hpp>
#include <stencil/host_engine.hpp>
#include <stencil/loop_range.hpp>
#include <stencil/stencil_traits.hpp>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

// STENCIL_STEP marks a step function for stencilc, as STENCIL_KERNEL marks a
// stencil; other compilers see nothing.
#if defined(__STENCILC__)
#define STENCIL_STEP __attribute__((annotate("stencilc.step")))
#else
#define STENCIL_STEP
#endif

// STENCIL_SCRATCH marks an array parameter of a step as the step's own
// scratch: the step writes it (every point, by the first stencil that
// touches it) before it reads it, and nothing after the step reads it, so
// a fused kernel need not store it at all (a flux its consumer recomputes).
// After the step its points hold unspecified values. Other compilers see
// nothing: g++ alone runs the step as written.
//   STENCIL_STEP void advance(stencil::Step3D &s, const float *u,
//                             STENCIL_SCRATCH float *flux, float *un);
#if defined(__STENCILC__)
#define STENCIL_SCRATCH __attribute__((annotate("stencilc.scratch")))
#else
#define STENCIL_SCRATCH
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

/// The pointer arguments among \p A, in order.
template <typename... Args>
std::vector<const void *> pointerArguments(const Args &...A) {
  std::vector<const void *> Pointers;
  auto Collect = [&Pointers](const auto &Arg) {
    if constexpr (std::is_pointer_v<std::decay_t<decltype(Arg)>>)
      Pointers.push_back(static_cast<const void *>(Arg));
  };
  (Collect(A), ...);
  return Pointers;
}
} // namespace detail

/// What a step function gets: the loop's points and engine. run() runs one
/// stencil over every point before it returns (the GPU engines queue it on
/// the same stream, in order).
template <int Dims> class Step {
public:
  /// Called on the host before each run() with that call's pointer
  /// arguments in order (arrays of every rank, as the stencil gets them), for
  /// what a step leaves to whoever calls it between stencils: a serial
  /// reference's periodic wraps, say, which a distributed run gets from the
  /// exchanges of the step's graph. On a GPU engine the stencils before may
  /// still be running.
  using BeforeRun = std::function<void(const void *const *Pointers, int Count)>;

  Step(LoopRanges<Dims> Ranges, StepEngine Engine, BeforeRun Hook = nullptr)
      : ranges_(Ranges), engine_(Engine), beforeRun_(std::move(Hook)) {}

  /// A step whose run() only refuses what the generated engines would
  /// refuse (arguments, arrays, margins) and runs nothing: a step run call
  /// by call goes through it first, so that a later stencil's refusal comes
  /// before an earlier one has written.
  static Step checking(LoopRanges<Dims> Ranges, StepEngine Engine) {
    Step S(Ranges, Engine);
    S.checkOnly_ = true;
    return S;
  }

  template <typename StencilT, typename... Args>
  void run(const StencilT &Stencil, Args &&...A) const {
    static_assert(!detail::IsStepFunction<StencilT>::value,
                  STENCIL_NOT_A_STEP_MESSAGE);
    if (checkOnly_) {
      if (engine_ == StepEngine::OpenMP || engine_ == StepEngine::Cuda) {
        Grid G;
        Region R;
        loopGeometry(Dims, ranges_, &G, &R);
        detail::checkGenerated(
            engine_ == StepEngine::Cuda ? Backend::Cuda : Backend::OpenMP,
            Stencil, typename detail::StencilTraits<StencilT>::Params(), G, R,
            A...);
      }
      return;
    }
    if (beforeRun_) {
      const std::vector<const void *> Pointers = detail::pointerArguments(A...);
      beforeRun_(Pointers.data(), static_cast<int>(Pointers.size()));
    }
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
  BeforeRun beforeRun_;
  bool checkOnly_ = false;
};

using Step2D = Step<2>;
using Step3D = Step<3>;
using Step4D = Step<4>;

namespace detail {
/// STENCIL_STEP_PLAN: unset or empty, "multi-kernel" or "timed". Any other
/// value is refused by name: a misspelt setting would otherwise leave the
/// plan as compiled without a word.
inline std::string stepPlanSetting() {
  const char *V = std::getenv("STENCIL_STEP_PLAN");
  const std::string S = V ? V : "";
  if (!S.empty() && S != "multi-kernel" && S != "timed")
    throw std::invalid_argument("stencil: STENCIL_STEP_PLAN is '" + S +
                                "'; it may be multi-kernel or timed, or "
                                "unset for stencilc's plan");
  return S;
}

/// STENCIL_STEP_PLAN=multi-kernel: run the stencils of a step one by one
/// (each its own generated code), not stencilc's plan of the step; for
/// comparing the two in one program.
inline bool stepPlanDisabled() { return stepPlanSetting() == "multi-kernel"; }

/// STENCIL_STEP_PLAN=timed: a DomainStep measures each fused group of the
/// plan against its calls alone and keeps the faster
/// (DomainStep::chooseByTiming).
inline bool stepPlanTimed() { return stepPlanSetting() == "timed"; }

/// True if two pointer arguments among \p A are the same array: a fused
/// kernel of the step's plan would read one while it writes the other, so the
/// step then runs stencil by stencil, as the host reference does.
template <typename... Args> bool sharesArrays(const Args &...A) {
  std::vector<const void *> Pointers = pointerArguments(A...);
  std::sort(Pointers.begin(), Pointers.end());
  return std::adjacent_find(Pointers.begin(), Pointers.end()) !=
         Pointers.end();
}

/// How the profile's summary names the runs of a step by its plan, whose
/// launches (fused groups, stencils together) it has no rows for.
inline constexpr const char *DomainStepRunsUntimed =
    "runs of steps over ranks (DomainStep, by its plan or call by call; "
    "their kernels: DomainStep::timeRounds, or Nsight Systems)";
inline constexpr const char *StepRunsUntimed =
    "runs of steps by their plan (their kernels: Nsight Systems, or "
    "DomainStep::timeRounds over ranks; STENCIL_STEP_PLAN=multi-kernel "
    "counts each stencil)";

/// Refuses a null array among a step function's arguments \p A (converted to
/// its parameter types \p P), numbered after the stencil::Step, before any
/// of its stencils runs: on every engine as the step's generated code does.
/// \p Address names the step where generated code registered it.
template <typename... P, typename... Args>
void checkStepArguments(ParamList<P...>, const void *Address, const char *Where,
                        const Args &...A) {
  // (A scalar the step takes by non-const reference leaves the check to the
  // stencils: the conversion below copies.)
  if constexpr (std::is_constructible_v<std::tuple<P...>, const Args &...>) {
    const std::tuple<P...> Values(A...);
    std::apply(
        [&](const auto &...V) {
          const ArgumentView Views[] = {viewArgument(V)...,
                                        ArgumentView{nullptr, nullptr}};
          // The registry is looked up for the message only: most steps
          // get no null, and this runs before every step.
          bool Null = false;
          for (const ArgumentView &W : Views)
            Null = Null || (W.arrayType && !W.array);
          if (!Null)
            return;
          const GeneratedStep *E = findGeneratedStep(Backend::OpenMP, Address);
          if (!E)
            E = findGeneratedStep(Backend::Cuda, Address);
          checkArrayViews(E ? std::string("step ") + E->name : "step function",
                          Where, nullptr, Views, sizeof...(P), /*Step=*/true);
        },
        Values);
  }
}

/// Launches step entry \p E over \p R with \p A converted to the step's
/// parameter types \p P (after the stencil::Step).
template <typename... P, typename... Args>
void runStepEntry(const GeneratedStep &E, ParamList<P...>, const Grid &G,
                  const Region &R, const LaunchConfig &C, Args &&...A) {
  static_assert(sizeof...(P) == sizeof...(Args),
                "wrong number of arguments for this step (the stencil::Step "
                "is not passed)");
  profile::detail::noteUntimed(StepRunsUntimed);
  if (*E.signature != typeid(void(P...)))
    throw std::runtime_error(std::string("stencil: generated code for step ") +
                             E.name +
                             " has other parameter types than the program: "
                             "regenerate it");
  std::tuple<P...> Values(std::forward<Args>(A)...);
  checkArrays(E, Values, std::index_sequence_for<P...>());
  checkMargins(E, G, R);
  std::apply(
      [&](auto &...V) {
        void *Each[] = {const_cast<void *>(static_cast<const void *>(&V))..., nullptr};
        if (const char *Error = E.launch(G, R, C, Each))
          throw std::runtime_error(std::string("stencil: step ") + E.name +
                                   " (" + backendName(E.backend) +
                                   "): " + Error);
      },
      Values);
}
} // namespace detail

/// Runs step function \p F (`void F(Step<Dims> &, Args...)`) over \p Ranges
/// with \p Engine: on the OpenMP and CUDA engines stencilc's generated code
/// for the whole step where there is some (its plan of the step's stencils),
/// else the function, each of its stencils with the engine.
template <int Dims, typename Engine, typename F, typename... Args>
void runStep(const LoopRange *Ranges, F &&Function, Args &&...A) {
  static_assert(detail::StepEngineOf<Engine>::Known,
                "runStep: steps run on the host reference, OpenMP, CUDA and "
                "auto engines");
  // A stencil here (its first parameter the index) would bury this in
  // errors from the call below.
  constexpr bool IsStep = std::is_invocable_v<F, Step<Dims> &, Args...>;
  constexpr bool OtherDims =
      !IsStep && (std::is_invocable_v<F, Step<2> &, Args...> ||
                  std::is_invocable_v<F, Step<3> &, Args...> ||
                  std::is_invocable_v<F, Step<4> &, Args...>);
  static_assert(!OtherDims,
                "runStep: the step function's stencil::Step has other "
                "dimensions than the loop (a Loop2D runs functions of a "
                "Step2D &, a Loop3D of a Step3D &, a Loop4D of a Step4D &)");
  static_assert(IsStep || OtherDims,
                "runStep runs a step function, void f(stencil::StepND &, "
                "args...), with arguments it takes (a stencil, whose first "
                "parameter is the index, runs with run())");
  constexpr StepEngine Kind = detail::StepEngineOf<Engine>::Kind;
  using Pointer = std::decay_t<F>;
  if constexpr (IsStep && std::is_pointer_v<Pointer>)
    detail::checkStepArguments(
        typename detail::StencilTraits<Pointer>::Params(),
        reinterpret_cast<const void *>(static_cast<Pointer>(Function)),
        Kind == StepEngine::Host     ? "host"
        : Kind == StepEngine::OpenMP ? "openmp"
        : Kind == StepEngine::Cuda   ? "cuda"
                                     : "auto",
        A...);
  if constexpr (!IsStep) {
    return;
  } else if constexpr ((Kind == StepEngine::OpenMP ||
                        Kind == StepEngine::Cuda) &&
                       std::is_pointer_v<Pointer>) {
    const Backend B =
        Kind == StepEngine::Cuda ? Backend::Cuda : Backend::OpenMP;
    const Pointer Address = Function;
    const GeneratedStep *E =
        findGeneratedStep(B, reinterpret_cast<const void *>(Address));
    // Read whichever way the step runs: a bad value is refused alike.
    const bool Disabled = E && detail::stepPlanDisabled();
    if (E && detail::sharesArrays(A...)) {
      // Call by call: a fused kernel would read what it writes. A stencil
      // that gets one array twice is refused naming itself: say whose.
      Step<Dims> S(Ranges, Kind);
      try {
        Step<Dims> Check = Step<Dims>::checking(Ranges, Kind);
        Function(Check, A...);
        Function(S, std::forward<Args>(A)...);
      } catch (const std::invalid_argument &X) {
        throw std::invalid_argument(
            std::string("stencil: step '") + E->name +
            "' (one array passed for two of its parameters, so run call by "
            "call): " +
            (std::strncmp(X.what(), "stencil: ", 9) ? X.what() : X.what() + 9));
      }
      return;
    }
    if (E && !Disabled) {
      using Params = typename detail::StencilTraits<Pointer>::Params;
      Grid G;
      Region R;
      loopGeometry(Dims, Ranges, &G, &R);
      detail::runStepEntry(*E, Params(), G, R, LaunchConfig(),
                           std::forward<Args>(A)...);
      return;
    }
    // Call by call: every call checked before the first runs (a step
    // stencilc compiled runs stencils only; any other function runs once).
    if (E) {
      Step<Dims> Check = Step<Dims>::checking(Ranges, Kind);
      Function(Check, A...);
    }
  }
  if constexpr (IsStep) {
    Step<Dims> S(Ranges, Kind);
    Function(S, std::forward<Args>(A)...);
  }
}

} // namespace stencil

#endif // STENCIL_STEP_HPP
