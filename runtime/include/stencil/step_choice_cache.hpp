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

#include <stencil/device.hpp>
#include <stencil/domain.hpp>
#include <stencil/generated_abi.hpp>
#include <stencil/tuning_cache.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace stencil::detail {

/// The names of DomainStep's ways, as the cache keeps them.
inline const char *const StepWayNames[] = {"planned", "alternative", "apart"};

/// The domain's part of a cache key: "512x512x64 on 2x2x1 periodic x ...".
inline std::string domainKeyText(const Domain &D) {
  std::string S;
  for (int X = 0; X < D.dims(); ++X)
    S += (X ? "x" : "") + std::to_string(D.globalExtent(X));
  S += " on " + D.procsText();
  for (int X = 0; X < D.dims(); ++X)
    if (D.periodic(X))
      S += std::string(" periodic ") + "xyz"[X];
  return S;
}

/// The cache key of round \p R of step \p E over domain \p D.
inline tuning::CacheKey stepChoiceKey(const GeneratedStep &E, int R,
                                      const Domain &D) {
  tuning::CacheKey K;
  K.gpu = D.backend() == Backend::Cuda ? deviceName() : "cpu";
  K.stencil = std::string(E.name) + " round " + std::to_string(R);
  K.irHash = E.irHash ? E.irHash : "";
  K.variants = E.rounds[R].alternative >= 0 ? "planned,alternative,apart"
                                            : "planned,apart";
  K.extents = domainKeyText(D);
  K.signature = E.signature ? E.signature->name() : "";
  return K;
}

/// The way kept for round \p R of \p E in the cache at \p Path (0-2), or -1
/// when there is none; a warning for a stale or unreadable file goes to
/// stderr (the cache's own wording).
inline int lookupStepChoice(const std::string &Path, const GeneratedStep &E,
                            int R, const Domain &D) {
  if (Path.empty())
    return -1;
  std::vector<std::string> Warnings;
  const std::vector<tuning::CacheEntry> Entries =
      tuning::readCache(Path, &Warnings);
  const std::optional<tuning::CacheEntry> Hit =
      tuning::lookupCache(Entries, stepChoiceKey(E, R, D), &Warnings);
  for (const std::string &W : Warnings)
    std::fprintf(stderr, "stencil: warning: %s\n", W.c_str());
  for (int W = 0; Hit && W < 3; ++W)
    if (Hit->best.variant == StepWayNames[W])
      return W;
  return -1;
}

/// Keeps way \p Way (its time \p Seconds, after \p Runs measured runs) for
/// round \p R of \p E in the cache at \p Path; a failure is a warning.
inline void storeStepChoice(const std::string &Path, const GeneratedStep &E,
                            int R, const Domain &D, int Way, double Seconds,
                            int Runs) {
  if (Path.empty())
    return;
  tuning::CacheEntry Entry;
  Entry.key = stepChoiceKey(E, R, D);
  Entry.best.variant = StepWayNames[Way];
  Entry.best.bx = Entry.best.by = Entry.best.bz = 1;
  Entry.ms = Seconds * 1e3;
  Entry.calls = Runs;
  std::vector<std::string> Warnings;
  tuning::storeCacheEntry(Path, Entry, &Warnings);
  for (const std::string &W : Warnings)
    std::fprintf(stderr, "stencil: warning: %s\n", W.c_str());
}

} // namespace stencil::detail

#endif // STENCIL_STEP_CHOICE_CACHE_HPP
