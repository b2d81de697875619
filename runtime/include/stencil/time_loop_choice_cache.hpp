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

#include <stencil/device.hpp>
#include <stencil/domain.hpp>
#include <stencil/generated_abi.hpp>
#include <stencil/halo.hpp>
#include <stencil/step_choice_cache.hpp>
#include <stencil/tuning_cache.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace stencil::detail {

/// The cache key of a time loop of \p E over \p D in fields of halo \p H,
/// choosing among 1 to \p Candidates steps between exchanges.
inline tuning::CacheKey timeLoopChoiceKey(const GeneratedStencil &E,
                                          const Domain &D, const Halo &H,
                                          int Candidates) {
  tuning::CacheKey K;
  K.gpu = D.backend() == Backend::Cuda ? deviceName() : "cpu";
  K.stencil = std::string(E.name) + " time loop (" + E.variant + ")";
  K.irHash = E.irHash ? E.irHash : "";
  K.variants = "steps 1.." + std::to_string(Candidates);
  K.extents = domainKeyText(D) + " halo " + H.str(D.dims()) +
              (H.corners ? " corners" : "");
  K.signature = E.signature ? E.signature->name() : "";
  return K;
}

/// The steps kept for that key in the cache at \p Path, or -1 when there
/// is none; a warning for a stale or unreadable file goes to stderr.
inline int lookupTimeLoopChoice(const std::string &Path,
                                const tuning::CacheKey &Key) {
  if (Path.empty())
    return -1;
  std::vector<std::string> Warnings;
  const std::optional<tuning::CacheEntry> Hit =
      tuning::lookupCache(tuning::readCache(Path, &Warnings), Key, &Warnings);
  for (const std::string &W : Warnings)
    std::fprintf(stderr, "stencil: warning: %s\n", W.c_str());
  int Steps = -1;
  if (Hit && std::sscanf(Hit->best.variant.c_str(), "steps %d", &Steps) != 1)
    return -1;
  return Steps;
}

/// Keeps \p Steps (\p Ms per step, after \p Runs measured loops) for that
/// key in the cache at \p Path; a failure is a warning.
inline void storeTimeLoopChoice(const std::string &Path,
                                const tuning::CacheKey &Key, int Steps,
                                double Ms, int Runs) {
  if (Path.empty())
    return;
  tuning::CacheEntry Entry;
  Entry.key = Key;
  Entry.best.variant = "steps " + std::to_string(Steps);
  Entry.best.bx = Entry.best.by = Entry.best.bz = 1;
  Entry.ms = Ms;
  Entry.calls = Runs;
  std::vector<std::string> Warnings;
  tuning::storeCacheEntry(Path, Entry, &Warnings);
  for (const std::string &W : Warnings)
    std::fprintf(stderr, "stencil: warning: %s\n", W.c_str());
}

} // namespace stencil::detail

#endif // STENCIL_TIME_LOOP_CHOICE_CACHE_HPP
