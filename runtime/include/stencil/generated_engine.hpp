// stencil/generated_engine.hpp - engines that run stencilc's generated code.
#ifndef STENCIL_GENERATED_ENGINE_HPP
#define STENCIL_GENERATED_ENGINE_HPP

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <stencil/default_launch.hpp>
#include <stencil/generated.hpp>
#include <stencil/loop_range.hpp>
#include <stencil/profile.hpp>
#include <stencil/stencil_traits.hpp>
#include <stencil/time_loop.hpp>
#include <stencil/type_name.hpp>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace stencil {

namespace detail {

template <typename StencilT>
const GeneratedStencil *lookupGenerated(Backend B, const StencilT &S) {
  if constexpr (std::is_function_v<StencilT>) {
    // A function's identity is its address; the generated code takes it too.
    return findGenerated(B, reinterpret_cast<const void *>(&S));
  } else if constexpr (std::is_pointer_v<StencilT> &&
                       std::is_function_v<std::remove_pointer_t<StencilT>>) {
    // A function pointer (run(&blur, ...) or a variable holding it): the
    // function is the pointer's value, not the pointer's own address.
    if (!S)
      throw std::invalid_argument(
          "stencil: the stencil is a null function pointer");
    return findGenerated(B, reinterpret_cast<const void *>(S));
  } else {
    return findGenerated(B, typeid(StencilT));
  }
}

/// Throws unless \p R, when not empty, leaves \p E's halo inside the arrays
/// of \p G on every side of every dimension: generated code reads its
/// offsets unchecked, so a margin narrower than the halo would read (or, on
/// a GPU, fault) outside the arrays.
template <typename Entry>
void checkMargins(const Entry &E, const Grid &G, const Region &R) {
  for (int D = 0; D < E.dims && D < 4; ++D)
    if (R.hi[D] <= R.lo[D])
      return;
  for (int D = 0; D < E.dims && D < 4; ++D)
    for (int Side = 0; Side < 2; ++Side) {
      const long long Margin = Side ? G.extent[D] - R.hi[D] : R.lo[D];
      const long long Halo = E.halo[D][Side] > 0 ? E.halo[D][Side] : 0;
      if (Margin >= Halo)
        continue;
      throw std::runtime_error(
          std::string("stencil: ") + E.name + " (" + backendName(E.backend) +
          "): its halo is " + std::to_string(Halo) +
          (Halo == 1 ? " point" : " points") + " at the " +
          (Side ? "end" : "start") + " of " + "xyzw"[D] +
          " but the margin there is " + std::to_string(Margin) +
          " (the loop runs " + "xyzw"[D] + " = " + std::to_string(R.lo[D]) +
          " to " + std::to_string(R.hi[D] - 1) + ", the arrays hold 0 to " +
          std::to_string(G.extent[D] - 1) +
          "): the loop's margins must be at least the stencil's halo");
    }
}

/// What the argument checks need of one converted argument: its array's
/// address (null for a scalar) and, for an array, its type.
struct ArgumentView {
  const void *array;
  const std::type_info *arrayType;
};

template <typename V> ArgumentView viewArgument(const V &Value) {
  if constexpr (std::is_pointer_v<V>)
    return {arrayAddress(Value), &typeid(V)};
  else
    return {nullptr, nullptr};
}

/// Refuses a null array among \p N arguments (by position after the index,
/// or after the stencil::Step where \p Step: the registry does not keep
/// parameter names) and, where \p Writes says which the stencil writes, one
/// array for two parameters of which it writes either. \p Where is the
/// backend's name. Not a template: every launch of every stencil shares this
/// code.
inline void checkArrayViews(const std::string &Name, const char *Where,
                            const bool *Writes, const ArgumentView *Views,
                            std::size_t N, bool Step = false) {
  for (std::size_t I = 0; I < N; ++I)
    if (Views[I].arrayType && !Views[I].array)
      throw std::invalid_argument( // as the host engine's
          "stencil: " + Name + " (" + Where + "): argument " +
          std::to_string(I + 1) +
          (Step ? " (after the step" : " (after the index") + "; an array of " +
          readableTypeName(Views[I].arrayType->name()) + ") is null");
  // One array for two parameters of a stencil that writes either: a launch
  // would read what it writes (the aliasing rule; a step's own launch runs
  // its calls one by one where its arrays are shared, and each call comes
  // here).
  if (!Writes)
    return;
  for (std::size_t A = 0; A < N; ++A)
    for (std::size_t C = A + 1; C < N; ++C)
      if (Views[A].array && Views[A].array == Views[C].array &&
          (Writes[A] || Writes[C]))
        throw std::invalid_argument(
            "stencil: " + Name + " (" + Where + "): arguments " +
            std::to_string(A + 1) + " and " + std::to_string(C + 1) +
            " (after the index) are one array, and the stencil writes "
            "argument " +
            std::to_string(Writes[C] ? C + 1 : A + 1) +
            ": a launch would read what it writes (pass the array once "
            "to update it in place)");
}

/// Refuses null arrays among the converted arguments \p Values and, for a
/// stencil, one array passed for two parameters of which it writes either.
template <typename Entry, typename Tuple, std::size_t... I>
void checkArrays(const Entry &E, const Tuple &Values,
                 std::index_sequence<I...>) {
  const ArgumentView Views[] = {viewArgument(std::get<I>(Values))...,
                                ArgumentView{nullptr, nullptr}};
  const bool *Writes = nullptr;
  constexpr bool Step = std::is_same_v<Entry, GeneratedStep>;
  if constexpr (std::is_same_v<Entry, GeneratedStencil>)
    Writes = E.writes;
  checkArrayViews(Step ? std::string("step ") + E.name : E.name,
                  backendName(E.backend), Writes, Views, sizeof...(I), Step);
}

/// Why an engine found no generated code for the stencil \p Display names
/// on \p B, and the fixes.
inline std::string noGeneratedCode(Backend B, const std::string &Display) {
  const std::string Name = backendName(B);
  return "stencil: no generated " + Name + " code for " + Display +
         ". stencilc compiles what a file passes to a loop's run() (or to "
         "CompCommBinder, haloOf) and what is annotated with STENCIL_KERNEL: "
         "run stencilc on the file that defines "
         "it "
         "(stencilc_add_sources(<target> FILES <file> BACKENDS " +
         Name +
         ")); if the file passes it through a variable, a template or another "
         "function, annotate it with STENCIL_KERNEL or pass the function "
         "itself";
}

template <typename StencilT>
std::string noGeneratedCode(Backend B, const StencilT &S) {
  return noGeneratedCode(B, stencilDisplayName(S));
}

/// Launches \p E with the converted arguments' addresses \p Args (null
/// ended); throws naming the stencil on a launch error.
inline void launchArguments(const GeneratedStencil &E, const Grid &G,
                            const Region &R, const LaunchConfig &C,
                            void **Args) {
  // Profiling off and no NVTX hooks: this branch is all it costs.
  const char *Error =
      profile::detail::state()
          ? profile::detail::profiledLaunch(
                E, R, C, [&] { return E.launch(G, R, C, Args); })
          : E.launch(G, R, C, Args);
  if (Error)
    throw std::runtime_error(std::string("stencil: ") + E.name + " (" +
                             backendName(E.backend) + "): " + Error);
}

template <typename Tuple, std::size_t... I>
void launchGenerated(const GeneratedStencil &E, const Grid &G, const Region &R,
                     const LaunchConfig &C, Tuple &Values,
                     std::index_sequence<I...>) {
  void *Args[] = {static_cast<void *>(&std::get<I>(Values))..., nullptr};
  launchArguments(E, G, R, C, Args);
}

/// Throws unless \p E was generated for a stencil of parameter types
/// \p Signature (the program's).
inline void checkSignature(const GeneratedStencil &E,
                           const std::type_info &Signature) {
  if (*E.signature != Signature)
    throw std::runtime_error(
        std::string("stencil: generated code for ") + E.name +
        " has other parameter types than the program: regenerate it");
}

/// Launches \p E, one of the stencil's entries, over \p R with \p A
/// converted to the stencil's parameter types \p P.
/// True unless an argument of \p A... does not convert to its parameter of
/// \p P... (true for other counts: those are refused on their own).
template <typename... P, typename... A>
constexpr bool argumentsConvert(ParamList<P...>, ParamList<A...>) {
  if constexpr (sizeof...(P) != sizeof...(A))
    return true;
  else
    return (std::is_convertible_v<A, P> && ...);
}

/// Checks the arguments, arrays and margins of \p E's call, then (where
/// \p Launch) launches it.
template <bool Launch = true, typename... P, typename... Args>
void runEntry(const GeneratedStencil &E, ParamList<P...>, const Grid &G,
              const Region &R, const LaunchConfig &C, Args &&...A) {
  static_assert(sizeof...(P) == sizeof...(Args),
                "wrong number of arguments for this stencil: pass one for each "
                "parameter after the index (default arguments are not used)");
  constexpr bool Converts =
      argumentsConvert(ParamList<P...>(), ParamList<Args &&...>());
  // (std::tuple's own error names none of this.)
  static_assert(Converts,
                "an argument does not convert to its parameter's type (an "
                "array the stencil writes passed as a pointer to const?)");
  if constexpr (sizeof...(P) == sizeof...(Args) && Converts) {
    checkSignature(E, typeid(void(P...)));
    std::tuple<P...> Values(std::forward<Args>(A)...);
    checkArrays(E, Values, std::index_sequence_for<P...>());
    checkMargins(E, G, R);
    if constexpr (Launch)
      launchGenerated(E, G, R, C, Values, std::index_sequence_for<P...>());
  }
}

/// Finds the generated code for \p S (its first entry: the grid variant)
/// and launches it over \p R.
template <typename StencilT, typename Params, typename... Args>
void runGenerated(Backend B, const StencilT &S, Params, const Grid &G,
                  const Region &R, const LaunchConfig &C, Args &&...A) {
  const GeneratedStencil *E = lookupGenerated(B, S);
  if (!E)
    throw std::runtime_error(noGeneratedCode(B, S));
  runEntry(*E, Params(), G, R, C, std::forward<Args>(A)...);
}

/// runGenerated's checks alone: what it would refuse, refused; nothing run.
template <typename StencilT, typename Params, typename... Args>
void checkGenerated(Backend B, const StencilT &S, Params, const Grid &G,
                    const Region &R, Args &&...A) {
  const GeneratedStencil *E = lookupGenerated(B, S);
  if (!E)
    throw std::runtime_error(noGeneratedCode(B, S));
  runEntry<false>(*E, Params(), G, R, LaunchConfig(), std::forward<Args>(A)...);
}

/// As runGenerated, launching the variant and block stencilc's plan chose
/// for \p S (see default_launch.hpp), on \p C's stream.
template <typename StencilT, typename Params, typename... Args>
void runPlannedDefault(Backend B, const StencilT &S, Params, const Grid &G,
                       const Region &R, const LaunchConfig &C, Args &&...A) {
  const GeneratedStencil *E = lookupGenerated(B, S);
  if (!E) {
    runGenerated(B, S, Params(), G, R, C, std::forward<Args>(A)...); // throws
    return;
  }
  DefaultLaunchChoice Choice = chooseDefaultLaunch(generatedVariants(*E), R, C);
  LaunchConfig Planned = C;
  for (int D = 0; D < 3; ++D)
    Planned.block[D] = Choice.block[D];
  runEntry(*Choice.entry, Params(), G, R, Planned, std::forward<Args>(A)...);
}

/// True if \p C's block is LaunchConfig's default: the user chose none.
inline bool defaultBlock(const LaunchConfig &C) {
  const LaunchConfig Default;
  return C.block[0] == Default.block[0] && C.block[1] == Default.block[1] &&
         C.block[2] == Default.block[2];
}

} // namespace detail

} // namespace stencil

// Time loops' passes, which use the checks above.
#include <stencil/temporal_passes.hpp>

namespace stencil {

/// The arrays' extents and the box of points of a Loop's ranges.
inline void loopGeometry(int Dims, const LoopRange *Ranges, Grid *G,
                         Region *R) {
  G->dims = Dims;
  for (int D = 0; D < Dims; ++D) {
    G->extent[D] = Ranges[D].n;
    R->lo[D] = Ranges[D].begin;
    R->hi[D] = Ranges[D].end;
  }
}

/// The generated code registered for \p S on backend \p B (a functor object
/// or a function), or null: its halo, variant, source and launcher.
template <typename StencilT>
const GeneratedStencil *generatedFor(Backend B, const StencilT &S) {
  return detail::lookupGenerated(B, S);
}

/// Runs stencilc's generated code for backend B over a Loop's range. The
/// CUDA engine expects device pointers and launches asynchronously on the
/// default stream (call stencil::deviceSynchronize() before reading back).
template <int Dims, Backend B> class GeneratedLoopEngine {
public:
  explicit GeneratedLoopEngine(LoopRanges<Dims> Ranges) {
    loopGeometry(Dims, Ranges, &Geometry, &Box);
  }

  template <typename StencilT, typename... Args>
  void operator()(const StencilT &S, Args &&...A) {
    using Params = typename detail::StencilTraits<StencilT>::Params;
    if (B == Backend::Cuda && detail::defaultBlock(Config))
      detail::runPlannedDefault(B, S, Params(), Geometry, Box, Config,
                                std::forward<Args>(A)...);
    else
      detail::runGenerated(B, S, Params(), Geometry, Box, Config,
                           std::forward<Args>(A)...);
  }

  /// Loop::repeat: on CUDA, passes of several steps where stencilc generated
  /// them for this stencil and these two time levels (Temporal, else its
  /// plan's default), then the last step alone; otherwise step by step.
  template <typename StencilT, typename... Args>
  void repeat(long long Steps, const StencilT &S, Args &&...A) {
    detail::checkLevelMarks<Args...>(
        detail::lookupGenerated(B, S),
        detail::signatureOf(
            typename detail::StencilTraits<StencilT>::Params()));
    auto OneStep = [&](auto &&...V) {
      (*this)(S, std::forward<decltype(V)>(V)...);
    };
    if constexpr (B == Backend::Cuda)
      detail::repeatTemporal(detail::lookupGenerated(B, S), Geometry, Box,
                             Config, Temporal, Steps, S, OneStep, A...);
    else
      detail::repeatOneByOne(Steps, OneStep, A...);
  }
  static constexpr bool repeatTag = true;

  /// The launch configuration. DeviceLoopEngine launches, while the block is
  /// left at LaunchConfig's (64, 4, 1), the variant and block stencilc's plan
  /// predicts best (no tuning; see default_launch.hpp); any other block runs
  /// the grid variant with that block.
  LaunchConfig Config;
  /// A time loop's passes (repeat()); zeros leave them to stencilc's plan.
  TemporalConfig Temporal;

private:
  Grid Geometry;
  Region Box;
};

using OpenMPLoopEngine2D = GeneratedLoopEngine<2, Backend::OpenMP>;
using OpenMPLoopEngine3D = GeneratedLoopEngine<3, Backend::OpenMP>;
using OpenMPLoopEngine4D = GeneratedLoopEngine<4, Backend::OpenMP>;
using DeviceLoopEngine2D = GeneratedLoopEngine<2, Backend::Cuda>;
using DeviceLoopEngine3D = GeneratedLoopEngine<3, Backend::Cuda>;
using DeviceLoopEngine4D = GeneratedLoopEngine<4, Backend::Cuda>;

} // namespace stencil

#endif // STENCIL_GENERATED_ENGINE_HPP
