// stencil/time_loop_choice_cache.hpp - the steps between exchanges that
// DomainLoop::chooseStepsByTiming measured for a time loop, kept in the
// auto-tuner's cache file (tuning_cache.hpp), so that later runs take them
// without measuring again. "stencil" is "<stencil> time loop (<variant>)",
// "irHash" the stencil's fingerprint, "variants" the numbers of steps
// measured ("steps 1..N"), "extents" the domain, its decomposition, periodic
// dimensions and the fields' halo, "variant" the number kept ("steps K") and
// "ms" its time per step on the slowest rank.
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

/// The steps kept for that key in the cache at \p Path, or -1 when there
/// is none.
inline int lookupTimeLoopChoice(const std::string &Path,
                                const tuning::CacheKey &Key) {
  const std::optional<std::string> Hit = lookupChoice(Path, Key);
  int Steps = -1;
  if (Hit && std::sscanf(Hit->c_str(), "steps %d", &Steps) != 1)
    return -1;
  return Steps;
}

/// Keeps \p Steps (\p Ms per step, after \p Runs measured loops) for that
/// key in the cache at \p Path; a failure is a warning.
inline void storeTimeLoopChoice(const std::string &Path,
                                const tuning::CacheKey &Key, int Steps,
                                double Ms, int Runs) {
  storeChoice(Path, Key, "steps " + std::to_string(Steps), Ms, Runs);
}

} // namespace stencil::detail

#endif // STENCIL_TIME_LOOP_CHOICE_CACHE_HPP
