// stencil/time_loop.hpp - a time loop stencilc can see: apply a stencil N
// times, two arrays trading places between steps.
//
//   loop.repeat(100, Diffusion3d(), stencil::previousLevel(f),
//               stencil::nextLevel(fn), ce, cw, ...);
//
// does what this loop does, and leaves f, fn and both arrays as it leaves
// them:
//
//   for (int t = 0; t < 100; ++t) {
//     loop.run(Diffusion3d(), f, fn, ce, cw, ...);
//     std::swap(f, fn);
//   }
//
// so f holds the last time level and fn the one before. On the GPU, stencilc's
// code for such a stencil advances several steps per pass over the grid
// (temporal blocking); every other engine runs the steps one by one.
#ifndef STENCIL_TIME_LOOP_HPP
#define STENCIL_TIME_LOOP_HPP

#include "generated_abi.hpp"
#include "stencil_traits.hpp"

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace stencil {

/// The argument in the position of the array a step reads as its previous
/// time level: the variable repeat() swaps, a pointer (V = T *) or a
/// stencil::Field (V = Field<T>, whose storage trades places).
template <typename V> struct PreviousLevel {
  V *array;
};
/// The argument in the position of the array a step writes.
template <typename V> struct NextLevel {
  V *array;
};

/// Marks \p Array (a pointer variable) as the previous time level of a
/// Loop::repeat call; after the call it points at the last level computed.
template <typename T> PreviousLevel<T *> previousLevel(T *&Array) {
  static_assert(!std::is_const_v<T>,
                "stencil::previousLevel: the time levels trade places, so "
                "both are pointers to non-const elements");
  return {&Array};
}
/// Marks \p Array as the next time level of a Loop::repeat call; after the
/// call it points at the level before the last.
template <typename T> NextLevel<T *> nextLevel(T *&Array) {
  static_assert(!std::is_const_v<T>,
                "stencil::nextLevel: the time levels trade places, so both "
                "are pointers to non-const elements");
  return {&Array};
}

namespace detail {

template <typename A> struct IsPrevious : std::false_type {};
template <typename T> struct IsPrevious<PreviousLevel<T>> : std::true_type {};
template <typename A> struct IsNext : std::false_type {};
template <typename T> struct IsNext<NextLevel<T>> : std::true_type {};

/// The position of the first argument \p Is says is one among \p Args, or
/// sizeof...(Args).
template <template <typename> class Is, typename... Args>
constexpr std::size_t levelPosition() {
  constexpr bool Marks[] = {Is<std::decay_t<Args>>::value..., false};
  for (std::size_t I = 0; I < sizeof...(Args); ++I)
    if (Marks[I])
      return I;
  return sizeof...(Args);
}
template <template <typename> class Is, typename... Args>
constexpr std::size_t levelCount() {
  return (std::size_t(0) + ... + (Is<std::decay_t<Args>>::value ? 1 : 0));
}

/// The two time levels of a repeat() call's arguments \p Args, by position
/// after the index, checked at compile time.
template <typename... Args> struct TimeLevels {
  static constexpr std::size_t Previous = levelPosition<IsPrevious, Args...>();
  static constexpr std::size_t Next = levelPosition<IsNext, Args...>();
  static_assert(levelCount<IsPrevious, Args...>() == 1 &&
                    levelCount<IsNext, Args...>() == 1,
                "Loop::repeat: mark exactly one argument "
                "stencil::previousLevel(array) and one "
                "stencil::nextLevel(array)");
};

/// False if parameter \p N of \p P... is a pointer to const (true past
/// the last: the argument count is checked elsewhere).
template <std::size_t N, typename... P> constexpr bool writableParam() {
  if constexpr (N < sizeof...(P)) {
    using T = std::tuple_element_t<N, std::tuple<P...>>;
    return !(std::is_pointer_v<T> && std::is_const_v<std::remove_pointer_t<T>>);
  } else {
    return true;
  }
}
/// False if the next level among repeat()'s arguments \p Args marks a
/// parameter (of stencil parameters \p P) that is a pointer to const.
template <typename... Args, typename... P>
constexpr bool nextLevelWritable(ParamList<P...>) {
  return writableParam<TimeLevels<Args...>::Next, P...>();
}

/// An argument as run() takes it: a level is its array's current pointer.
template <typename A> decltype(auto) levelValue(A &&Arg) {
  if constexpr (IsPrevious<std::decay_t<A>>::value ||
                IsNext<std::decay_t<A>>::value)
    return *Arg.array;
  else
    return std::forward<A>(Arg);
}

/// The pointer variable of the argument at \p Position among \p A.
template <std::size_t Position, typename... Args>
auto levelVariable(Args &...A) {
  return std::get<Position>(std::forward_as_tuple(A...)).array;
}

/// The two levels trade places: pointers by value, Fields their storage.
template <typename V> void swapLevels(V &A, V &B) {
  if constexpr (std::is_pointer_v<V>)
    std::swap(A, B);
  else
    A.swap(B);
}

/// Whether the two levels are one array (refused: a step would read what it
/// writes).
template <typename V> bool sameLevel(const V &A, const V &B) {
  if constexpr (std::is_pointer_v<V>)
    return A == B;
  else
    return &A == &B;
}

/// Why \p Steps is no step count, or "": below zero (an unsigned count past
/// LLONG_MAX arrives negative: said so, else "-1" puzzles a caller who
/// passed 2^64 - 1).
inline std::string stepsError(long long Steps) {
  if (Steps >= 0)
    return {};
  return "repeat(): the number of steps is " + std::to_string(Steps) +
         ", below zero (repeat() takes a long long: an unsigned count "
         "above " +
         std::to_string(std::numeric_limits<long long>::max()) +
         " arrives negative)";
}

/// Refuses a negative step count.
inline void checkSteps(long long Steps) {
  const std::string Error = stepsError(Steps);
  if (!Error.empty())
    throw std::invalid_argument("stencil: " + Error);
}

/// The checks of every repeat() call, on every engine and before any step:
/// \p Steps not below zero, the two levels among \p A not one array (a step
/// would read what it writes), whatever the number of steps.
template <typename... Args> void checkRepeat(long long Steps, Args &...A) {
  using Levels = TimeLevels<Args...>;
  auto *Previous = levelVariable<Levels::Previous>(A...);
  auto *Next = levelVariable<Levels::Next>(A...);
  static_assert(std::is_same_v<decltype(Previous), decltype(Next)>,
                "Loop::repeat: the two time levels must be pointers of one "
                "type");
  checkSteps(Steps);
  if (sameLevel(*Previous, *Next))
    throw std::invalid_argument("stencil: repeat(): the two time levels "
                                "are one array");
  // Another argument naming a level's array follows the swap only as the
  // level's variable itself; a copy (a cast, another variable) stays on the
  // array, which from step 2 on is the one written at some step.
  if constexpr (std::is_pointer_v<std::remove_pointer_t<decltype(Previous)>>) {
    std::size_t Position = 0, Copy = 0;
    auto Look = [&](const auto &X) {
      ++Position;
      if constexpr (std::is_pointer_v<std::decay_t<decltype(X)>>) {
        const void *Value = X, *Where = &X;
        if (!Copy && (Value == *Previous || Value == *Next) &&
            Where != Previous && Where != Next)
          Copy = Position;
      }
    };
    (Look(A), ...);
    if (Copy && Steps >= 2)
      throw std::invalid_argument(
          "stencil: repeat(): argument " + std::to_string(Copy) +
          " after the stencil is a copy of a time level's pointer, not the "
          "level's variable: it would not follow the swap after each step, "
          "and a later step would read the array it writes; pass the "
          "variable itself");
  }
}

/// Why stencil \p E's parameters \p Previous and \p Next (after the index)
/// cannot be a time loop's previous and next levels, or "" if they can:
/// arrays over all of its dimensions, the previous one never stored to, the
/// next one stored to (what stencilc checks where it sees the call; a call
/// through a function pointer is checked here). Swapped, a distributed loop
/// would exchange the array the steps write; a lower-rank array would be
/// written past its end.
inline std::string levelMarksError(const GeneratedStencil &E,
                                   std::size_t Previous, std::size_t Next) {
  const unsigned All = (1u << E.dims) - 1;
  for (const std::size_t P : {Previous, Next})
    if (E.arrayAxes && E.arrayAxes[P] != All)
      return std::string("stencil::") +
             (P == Previous ? "previousLevel" : "nextLevel") +
             " marks argument " + std::to_string(P + 1) +
             " after the index, which stencil '" + E.name + "' takes as " +
             (E.arrayAxes[P] == 0 ? "a scalar (or an array it never indexes)"
                                  : "an array of lower rank") +
             ": the two time levels are arrays over all of its dimensions";
  if (E.writes && E.writes[Previous])
    return "stencil::previousLevel marks argument " +
           std::to_string(Previous + 1) + " after the index, which stencil '" +
           E.name +
           "' writes: the previous level is the array a step reads; mark it "
           "stencil::nextLevel and the array the step reads "
           "stencil::previousLevel";
  if (E.writes && !E.writes[Next])
    return "stencil::nextLevel marks argument " + std::to_string(Next + 1) +
           " after the index, which stencil '" + E.name +
           "' never writes: the next level is the array a step writes";
  return "";
}

/// Throws std::invalid_argument if levelMarksError() finds \p Args's marks
/// wrong for \p E (null: no generated code, nothing to check against; code
/// of other parameter types than \p Signature, stale: the launch says so).
template <typename... Args>
void checkLevelMarks(const GeneratedStencil *E,
                     const std::type_info &Signature) {
  if (!E || *E->signature != Signature)
    return;
  using Levels = TimeLevels<Args...>;
  const std::string Why = levelMarksError(*E, Levels::Previous, Levels::Next);
  if (!Why.empty())
    throw std::invalid_argument("stencil: repeat(): " + Why);
}

/// \p Steps steps one by one with \p Run (a run() of the stencil), swapping
/// the two levels after each, as the loop in this file's comment does.
template <typename RunF, typename... Args>
void repeatOneByOne(long long Steps, RunF &&Run, Args &...A) {
  using Levels = TimeLevels<Args...>;
  checkRepeat(Steps, A...);
  auto *Previous = levelVariable<Levels::Previous>(A...);
  auto *Next = levelVariable<Levels::Next>(A...);
  for (long long T = 0; T < Steps; ++T) {
    Run(levelValue(A)...);
    swapLevels(*Previous, *Next);
  }
}

/// Argument \p Arg of a repeat() call with its level marks moved onto
/// \p Previous and \p Next (a trial's copies of the two levels: pointer
/// variables or Fields).
template <typename A, typename V>
decltype(auto) onTrialLevels(A &Arg, V &Previous, V &Next) {
  if constexpr (IsPrevious<std::decay_t<A>>::value)
    return PreviousLevel<V>{&Previous};
  else if constexpr (IsNext<std::decay_t<A>>::value)
    return NextLevel<V>{&Next};
  else
    return (Arg);
}

template <typename Engine, typename = void>
struct HasRepeat : std::false_type {};
template <typename Engine>
struct HasRepeat<Engine, std::void_t<decltype(&Engine::repeatTag)>>
    : std::true_type {};

} // namespace detail

} // namespace stencil

#endif // STENCIL_TIME_LOOP_HPP
