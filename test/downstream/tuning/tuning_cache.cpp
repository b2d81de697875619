// tuning_cache.cpp - stores a tuning result in the cache file named on the
// command line and reads it back, with the installed runtime's headers.
#include <stencil/tuning.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    std::fprintf(stderr, "usage: tuning_cache <cache file>\n");
    return 2;
  }
  namespace tuning = stencil::tuning;
  const std::string Path = Argv[1];
  std::error_code EC;
  std::filesystem::remove(Path, EC);
  tuning::CacheEntry Entry;
  Entry.key = {"Some GPU", "Blur", "00000000000000aa", "grid,zmarch", "64x64x64", "FvPKfPfE"};
  Entry.best = {"zmarch", 64, 4, 16};
  Entry.ms = 0.25;
  Entry.calls = 42;
  std::vector<std::string> Warnings;
  if (!tuning::storeCacheEntry(Path, Entry, &Warnings) || !Warnings.empty()) {
    std::fprintf(stderr, "tuning cache: not stored\n");
    return 1;
  }
  std::vector<tuning::CacheEntry> Entries = tuning::readCache(Path, &Warnings);
  auto Hit = tuning::lookupCache(Entries, Entry.key, &Warnings);
  if (!Hit || tuning::toString(Hit->best) != "zmarch:64,4,16" || Hit->calls != 42 ||
      !Warnings.empty()) {
    std::fprintf(stderr, "tuning cache: not read back\n");
    return 1;
  }
  std::printf("tuning cache: %s round trip ok\n", tuning::toString(Hit->best).c_str());
  return 0;
}
