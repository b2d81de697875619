// stencil/time_loop_choice_cache.hpp - the steps between exchanges that
// DomainLoop::chooseStepsByTiming measured for a time loop, kept in the
// auto-tuner's cache file (tuning_cache.hpp), so that later runs take them
// without measuring again. "stencil" is "<stencil> time loop (<variant>)",
// "irHash" the stencil's fingerprint, "variants" the numbers of steps
// measured ("steps 1..N"), "extents" the domain, its decomposition, periodic
// dimensions and the fields' halo, "variant" the number kept ("steps K", or
// for stencilc's passes "steps K tile BX BY chunk C", the tile and chunk
// timed with it) and "ms" its time per step on the slowest rank.
#ifndef STENCIL_TIME_LOOP_CHOICE_CACHE_HPP
#define STENCIL_TIME_LOOP_CHOICE_CACHE_HPP

#include <stencil/choice_cache.hpp>
#include <stencil/domain.hpp>
#include <stencil/domain_choice_key.hpp>
#include <stencil/generated_abi.hpp>
#include <stencil/halo.hpp>

#include <cstdio>
#include <string>

namespace stencil::detail {

/// The cache key of a time loop of \p E over \p D in fields of halo \p H,
/// choosing among 1 to \p Candidates steps between exchanges.
inline tuning::CacheKey timeLoopChoiceKey(const GeneratedStencil &E,
                                          const Domain &D, const Halo &H,
                                          int Candidates) {
  tuning::CacheKey K;
  K.gpu = deviceKeyText(D);
  K.stencil = std::string(E.name) + " time loop (" + E.variant + ")";
  K.irHash = E.irHash ? E.irHash : "";
  K.variants = "steps 1.." + std::to_string(Candidates);
  K.extents = domainKeyText(D) + " halo " + H.str(D.dims()) +
              (H.corners ? " corners" : "");
  K.signature = E.signature ? E.signature->name() : "";
  return K;
}

/// A time loop's steps between exchanges and, for stencilc's passes, their
/// tile and chunk (bx, by, chunk; zeros: the plan's).
struct TimeLoopChoice {
  int steps = -1;
  int block[3] = {0, 0, 0};
};

/// The choice's text in the cache.
inline std::string timeLoopChoiceText(const TimeLoopChoice &C) {
  std::string Text = "steps " + std::to_string(C.steps);
  if (C.block[0] > 0)
    Text += " tile " + std::to_string(C.block[0]) + " " +
            std::to_string(C.block[1]) + " chunk " + std::to_string(C.block[2]);
  return Text;
}

/// \p Text as a choice; steps -1 when it is not one.
inline TimeLoopChoice parseTimeLoopChoice(const std::string &Text) {
  TimeLoopChoice C;
  char Rest = 0;
  const int N =
      std::sscanf(Text.c_str(), "steps %d tile %d %d chunk %d %c", &C.steps,
                  &C.block[0], &C.block[1], &C.block[2], &Rest);
  const bool Blocked =
      N == 4 && C.block[0] > 0 && C.block[1] > 0 && C.block[2] > 0;
  if (Blocked || (N == 1 && Text == timeLoopChoiceText(C)))
    return C;
  return TimeLoopChoice();
}

/// The choice kept for that key in the cache at \p Path; steps -1 when there
/// is none.
inline TimeLoopChoice lookupTimeLoopChoice(const std::string &Path,
                                           const tuning::CacheKey &Key) {
  const std::optional<std::string> Hit = lookupChoice(Path, Key);
  return Hit ? parseTimeLoopChoice(*Hit) : TimeLoopChoice();
}

/// Keeps \p C (\p Ms per step, after \p Runs measured loops) for that key
/// in the cache at \p Path; a failure is a warning.
inline void storeTimeLoopChoice(const std::string &Path,
                                const tuning::CacheKey &Key,
                                const TimeLoopChoice &C, double Ms, int Runs) {
  storeChoice(Path, Key, timeLoopChoiceText(C), Ms, Runs);
}

} // namespace stencil::detail

#endif // STENCIL_TIME_LOOP_CHOICE_CACHE_HPP
