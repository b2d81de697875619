// stencil/choice_cache.hpp - a choice the runtime measured over a domain
// (a step's fused way, a time loop's steps between exchanges) kept in the
// auto-tuner's cache file (tuning_cache.hpp) under a key of the caller's, so
// that later runs take it without measuring again (a single GPU's too: no
// MPI here; domain_choice_key.hpp makes a domain's key).
#ifndef STENCIL_CHOICE_CACHE_HPP
#define STENCIL_CHOICE_CACHE_HPP

#include <stencil/device.hpp>
#include <stencil/tuning_cache.hpp>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace stencil::detail {

/// The choice kept for \p Key in the cache at \p Path (its variant name), if
/// any; a warning for a stale or unreadable file goes to stderr (the
/// cache's own wording).
inline std::optional<std::string> lookupChoice(const std::string &Path,
                                               const tuning::CacheKey &Key) {
  if (Path.empty())
    return std::nullopt;
  std::vector<std::string> Warnings;
  const std::optional<tuning::CacheEntry> Hit =
      tuning::lookupCache(tuning::readCache(Path, &Warnings), Key, &Warnings);
  for (const std::string &W : Warnings)
    std::fprintf(stderr, "stencil: warning: %s\n", W.c_str());
  if (!Hit)
    return std::nullopt;
  return Hit->best.variant;
}

/// Keeps choice \p Name (\p Ms per run, after \p Runs measured runs) for
/// \p Key in the cache at \p Path; a failure is one warning a file.
inline void storeChoice(const std::string &Path, const tuning::CacheKey &Key,
                        const std::string &Name, double Ms, int Runs) {
  if (Path.empty())
    return;
  tuning::CacheEntry Entry;
  Entry.key = Key;
  Entry.best.variant = Name;
  Entry.best.bx = Entry.best.by = Entry.best.bz = 1;
  Entry.ms = Ms;
  Entry.calls = Runs;
  // A failure is the cache's own warning, once per file however many
  // choices a run makes.
  std::vector<std::string> Warnings;
  tuning::storeCacheEntry(Path, Entry, &Warnings);
  for (const std::string &W : Warnings)
    std::fprintf(stderr, "stencil: warning: %s\n", W.c_str());
}

} // namespace stencil::detail

#endif // STENCIL_CHOICE_CACHE_HPP
