// stencil/step_choice_cache.hpp - a fused group's measured way (DomainStep's
// chooseByTiming) kept in the auto-tuner's cache file (tuning_cache.hpp), so
// that later runs take it without measuring again. One entry per round of a
// step: "stencil" is "<step> round <R>", "irHash" the step's fingerprint
// (its stencils and plan: another one makes the entry stale), "variants" the
// ways measured, "extents" the domain, its decomposition and periodic
// dimensions, "variant" the way kept ("planned", "alternative" or "apart")
// and "ms" its time on the slowest rank. The device's name is the GPU's, or
// "cpu" for the OpenMP backend.
#ifndef STENCIL_STEP_CHOICE_CACHE_HPP
#define STENCIL_STEP_CHOICE_CACHE_HPP

#include <stencil/choice_cache.hpp>
#include <stencil/domain.hpp>
#include <stencil/domain_choice_key.hpp>
#include <stencil/generated_abi.hpp>
#include <stencil/tuning_cache.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace stencil::detail {

/// The names of DomainStep's ways, as the cache keeps them.
inline const char *const StepWayNames[] = {"planned", "alternative", "apart"};

/// The cache key of round \p R of step \p E over domain \p D.
inline tuning::CacheKey stepChoiceKey(const GeneratedStep &E, int R,
                                      const Domain &D) {
  tuning::CacheKey K;
  K.gpu = deviceKeyText(D);
  K.stencil = std::string(E.name) + " round " + std::to_string(R);
  K.irHash = E.irHash ? E.irHash : "";
  K.variants = E.rounds[R].alternative >= 0 ? "planned,alternative,apart"
                                            : "planned,apart";
  K.extents = domainKeyText(D);
  K.signature = E.signature ? E.signature->name() : "";
  return K;
}

/// The way kept for round \p R of \p E in the cache at \p Path (0-2), or -1
/// when there is none.
inline int lookupStepChoice(const std::string &Path, const GeneratedStep &E,
                            int R, const Domain &D) {
  const std::optional<std::string> Hit =
      lookupChoice(Path, stepChoiceKey(E, R, D));
  for (int W = 0; Hit && W < 3; ++W)
    if (*Hit == StepWayNames[W])
      return W;
  return -1;
}

/// Keeps way \p Way (its time \p Seconds, after \p Runs measured runs) for
/// round \p R of \p E in the cache at \p Path; a failure is a warning.
inline void storeStepChoice(const std::string &Path, const GeneratedStep &E,
                            int R, const Domain &D, int Way, double Seconds,
                            int Runs) {
  storeChoice(Path, stepChoiceKey(E, R, D), StepWayNames[Way], Seconds * 1e3,
              Runs);
}

} // namespace stencil::detail

#endif // STENCIL_STEP_CHOICE_CACHE_HPP
