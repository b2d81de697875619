// stencil/temporal_passes.hpp - a time loop run as passes of several steps
// (temporal blocking) through stencilc's GeneratedTemporal code.
#ifndef STENCIL_TEMPORAL_PASSES_HPP
#define STENCIL_TEMPORAL_PASSES_HPP

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <stencil/generated.hpp>
#include <stencil/profile.hpp>
#include <stencil/time_loop.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace stencil {

/// How a time loop's passes launch: 0 leaves a value to stencilc's plan
/// (GeneratedTemporal::defaultSteps, defaultBlock).
struct TemporalConfig {
  int steps = 0;            ///< Steps per pass; 1 runs them one by one.
  int block[3] = {0, 0, 0}; ///< (bx, by, chunk); (bx, 1, chunk) in 2-D.
};

namespace detail {

/// A time loop's passes in order, kept as runs of equal passes (at most
/// three), so that the loop's length costs no memory (a vector of the
/// passes of 10^12 steps would not fit). Iterates each pass's steps.
class PassSchedule {
public:
  /// \p Count more passes of \p Steps steps (none when Count <= 0).
  void append(int Steps, long long Count) {
    if (Count <= 0)
      return;
    if (Used == MostRuns)
      throw std::logic_error(
          "stencil: a pass schedule of more than three runs");
    Runs[Used++] = {Steps, Count};
  }
  /// The number of passes.
  long long size() const {
    long long N = 0;
    for (int R = 0; R < Used; ++R)
      N += Runs[R].second;
    return N;
  }
  bool empty() const { return Used == 0; }
  /// The steps of all the passes together.
  long long steps() const {
    long long N = 0;
    for (int R = 0; R < Used; ++R)
      N += Runs[R].first * Runs[R].second;
    return N;
  }
  /// The passes of more than one step, and how many there are of one: a
  /// time loop runs those as steps (the plan's or the tuner's single-step
  /// kernel, faster than a pass of one step).
  PassSchedule longer() const {
    PassSchedule S;
    for (int R = 0; R < Used; ++R)
      if (Runs[R].first > 1)
        S.append(Runs[R].first, Runs[R].second);
    return S;
  }
  long long singles() const {
    long long N = 0;
    for (int R = 0; R < Used; ++R)
      N += Runs[R].first == 1 ? Runs[R].second : 0;
    return N;
  }

  class Iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = int;
    using difference_type = long long;
    using pointer = const int *;
    using reference = int;
    Iterator(const PassSchedule *Of, int First) : S(Of), Run(First) {}
    int operator*() const { return S->Runs[Run].first; }
    Iterator &operator++() {
      if (++Pass == S->Runs[Run].second) {
        ++Run;
        Pass = 0;
      }
      return *this;
    }
    bool operator==(const Iterator &O) const {
      return Run == O.Run && Pass == O.Pass;
    }
    bool operator!=(const Iterator &O) const { return !(*this == O); }

  private:
    const PassSchedule *S;
    int Run;
    long long Pass = 0;
  };
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, Used); }

private:
  static constexpr int MostRuns = 3;
  std::pair<int, long long> Runs[MostRuns];
  int Used = 0;
};

/// The steps of each pass for the first \p Total - 1 steps of a time loop,
/// at most \p PerPass each, as even as can be, in a number of passes of
/// the parity of \p Total - 1: each pass writes the other array, so level
/// Total - 1 lands in the array that holds it when the steps run one by one
/// and the last step (one at a time) leaves both arrays as they would be.
inline PassSchedule passSchedule(long long Total, int PerPass) {
  PassSchedule Passes;
  const long long Steps = Total - 1;
  if (Steps <= 0 || PerPass < 1)
    return Passes;
  // Rounded up without adding first: Steps may be near LLONG_MAX.
  long long Count = Steps / PerPass + (Steps % PerPass != 0);
  if (Count % 2 != Steps % 2)
    ++Count; // never beyond Steps: Count == Steps has the right parity
  const long long Base = Steps / Count, Extra = Steps % Count;
  // The first Extra passes take a step more.
  Passes.append(static_cast<int>(Base + 1), Extra);
  Passes.append(static_cast<int>(Base), Count - Extra);
  return Passes;
}

/// The fewest steps, at least \p AtLeast, whose first Total - 1 are whole
/// blocks of \p Every steps (at least one): a trial of K steps per exchange
/// (or passes of an odd Every, oddPassSchedule) that times blocks of K, not
/// a short last one.
inline long long trialStepsEvery(long long Every, long long AtLeast) {
  const long long E = std::max(Every, 1LL);
  return E * std::max(1LL, (AtLeast - 1 + E - 1) / E) + 1;
}

/// The fewest steps, at least \p AtLeast, whose passSchedule at \p PerPass is
/// passes of exactly PerPass steps: whole pairs of them (the parity
/// passSchedule keeps), so a trial of PerPass steps a pass times passes of
/// that length, not the shorter ones it would even its steps out into.
inline long long trialSteps(int PerPass, long long AtLeast) {
  return trialStepsEvery(2LL * std::max(PerPass, 1), AtLeast);
}

/// The steps of each pass for the first \p Total - 1 steps of a time loop,
/// each an odd number, at most \p PerPass (odd). After an odd pass the
/// array holding the newest level is the one that holds it one step at a
/// time, whose margin the next pass reads as its level 0 beyond its region:
/// with halos that an exchange fills, it must be the array exchanged.
inline PassSchedule oddPassSchedule(long long Total, int PerPass) {
  PassSchedule Passes;
  const long long Steps = Total - 1;
  const int Odd = PerPass - (PerPass % 2 == 0);
  if (Steps <= 0 || Odd < 1)
    return Passes;
  // Whole passes of the most, then what is left: odd, or even as one step
  // less and one step.
  Passes.append(Odd, Steps / Odd);
  const int Left = static_cast<int>(Steps % Odd);
  if (Left % 2 == 1)
    Passes.append(Left, 1);
  else if (Left > 0) {
    Passes.append(Left - 1, 1);
    Passes.append(1, 1);
  }
  return Passes;
}

/// Launches one pass of \p Steps steps of \p T over \p R with the stencil's
/// arguments \p Values (the time levels' arrays at their places), level l
/// reading its margin from \p Margins[l % 2], the last level stored inside
/// \p Store (a box inside \p R); throws naming the stencil on a launch
/// error.
template <typename... P, std::size_t... I>
void launchTemporalPass(const GeneratedStencil &E, const GeneratedTemporal &T,
                        std::tuple<P...> &Values, std::index_sequence<I...>,
                        const Grid &G, const Region &R, const Region &Store,
                        const LaunchConfig &C, int Steps,
                        const void *const (&Margins)[2]) {
  checkArrays(E, Values, std::index_sequence<I...>());
  checkMargins(E, G, R);
  profile::detail::noteUntimed(
      "time loops' passes of several steps (their single steps are in the "
      "rows)");
  void *ArgPointers[] = {static_cast<void *>(&std::get<I>(Values))..., nullptr};
  if (const char *Error = T.launch(G, R, Store, C, Steps, Margins, ArgPointers))
    throw std::runtime_error(std::string("stencil: ") + E.name + " (cuda, " +
                             std::to_string(Steps) +
                             " steps per pass): " + Error);
}

/// Runs \p Passes (passSchedule) of \p T over \p R with the arguments \p A
/// converted to the stencil's parameter types \p P; the time levels' pointer
/// variables end pointing at the array with the last level (previous) and
/// the other one (next), as after as many steps one by one.
template <typename... P, typename... Args, std::size_t... I>
void runTemporalPasses(const GeneratedStencil &E, const GeneratedTemporal &T,
                       ParamList<P...>, std::index_sequence<I...> Is,
                       const Grid &G, const Region &R, const LaunchConfig &C,
                       const PassSchedule &Passes, Args &...A) {
  using Levels = TimeLevels<Args...>;
  auto *Previous = levelVariable<Levels::Previous>(A...);
  auto *Next = levelVariable<Levels::Next>(A...);
  std::tuple<P...> Values(levelValue(A)...);
  auto *const Even = *Previous, *const Odd = *Next; // levels 0, 2, ... / 1, ...
  // The two arrays' margins the same (no pass writes them): every level's
  // margin is the pass's input's, which some passes are faster for.
  bool Same = false;
  if (T.sameMargins && !Passes.empty())
    if (const char *Error = T.sameMargins(G, R, Even, Odd, C.stream, &Same))
      throw std::runtime_error(std::string("stencil: ") + E.name +
                               " (cuda, comparing the margins): " + Error);
  auto *Holder = Even, *Other = Odd;
  long long Level = 0;
  for (int Steps : Passes) {
    std::get<Levels::Previous>(Values) = Holder;
    std::get<Levels::Next>(Values) = Other;
    const void *const Margins[2] = {Same        ? Holder
                                    : Level % 2 ? Odd
                                                : Even,
                                    Same        ? Holder
                                    : Level % 2 ? Even
                                                : Odd};
    launchTemporalPass(E, T, Values, Is, G, R, R, C, Steps, Margins);
    Level += Steps;
    std::swap(Holder, Other);
  }
  *Previous = Holder;
  *Next = Other;
}

/// True if an argument other than the two marks is one of the levels'
/// arrays (the previous level read again, say): between steps it follows the
/// swap, as the loop of run() and std::swap reads it, which a pass's copy of
/// the arguments cannot; the steps then run one by one.
template <typename Levels, typename... Args> bool levelPassedAgain(Args &...A) {
  const void *Previous = arrayAddress(*levelVariable<Levels::Previous>(A...));
  const void *Next = arrayAddress(*levelVariable<Levels::Next>(A...));
  std::size_t Position = 0;
  bool Again = false;
  auto Look = [&](const auto &Value) {
    const void *Address = arrayAddress(Value);
    if (Position != Levels::Previous && Position != Levels::Next && Address &&
        (Address == Previous || Address == Next))
      Again = true;
    ++Position;
  };
  (Look(levelValue(A)), ...);
  return Again;
}

/// Runs \p Steps steps of \p S: \p T's passes of C.steps (or the plan's)
/// and then the last step with \p OneStep (a run() of the stencil), or
/// every step with it when there is no temporal code or one step per pass.
/// The passes the parity leaves one step long (passes of 2 over an odd
/// count of steps) run with \p OneStep too.
template <typename StencilT, typename OneStepF, typename... Args>
void repeatTemporal(const GeneratedStencil *E, const Grid &G, const Region &R,
                    const LaunchConfig &Launch, const TemporalConfig &C,
                    long long Steps, const StencilT &, OneStepF &&OneStep,
                    Args &...A) {
  using Levels = TimeLevels<Args...>;
  using Params = typename StencilTraits<StencilT>::Params;
  checkRepeat(Steps, A...);
  const GeneratedTemporal *T =
      E ? findGeneratedTemporal(*E, static_cast<int>(Levels::Previous),
                                static_cast<int>(Levels::Next))
        : nullptr;
  if (!T && E && C.steps > 1 && Steps >= 2)
    // Asked for, and not there: running the steps one by one would hide it.
    throw std::invalid_argument(
        std::string("stencil: ") + E->name + ": " + std::to_string(C.steps) +
        " steps per pass asked for, but stencilc generated no passes for "
        "this stencil with these two time levels (stencilc --emit=plan says "
        "why; the file must pass the stencil to repeat())");
  const int PerPass = !T ? 1 : C.steps > 0 ? C.steps : T->defaultSteps;
  if (!T || PerPass <= 1 || Steps < 2 || levelPassedAgain<Levels>(A...)) {
    repeatOneByOne(Steps, OneStep, A...);
    return;
  }
  if (PerPass > T->maxSteps)
    throw std::invalid_argument(
        std::string("stencil: ") + E->name + ": " + std::to_string(PerPass) +
        " steps per pass; stencilc's passes take at most " +
        std::to_string(T->maxSteps));
  LaunchConfig Pass = Launch;
  for (int D = 0; D < 3; ++D)
    Pass.block[D] = C.block[D] > 0 ? C.block[D] : T->defaultBlock[D];
  const PassSchedule Passes = passSchedule(Steps, PerPass);
  runTemporalPasses(*E, *T, Params(), std::index_sequence_for<Args...>(), G, R,
                    Pass, Passes.longer(), A...);
  repeatOneByOne(Passes.singles() + 1, OneStep, A...);
}

} // namespace detail

} // namespace stencil

#endif // STENCIL_TEMPORAL_PASSES_HPP
