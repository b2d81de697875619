// seed_option.hpp - the `--seed=N` option of the e2e programs that take only
// that one.
#ifndef STENCIL_E2E_SEED_OPTION_HPP
#define STENCIL_E2E_SEED_OPTION_HPP

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace e2e {

/// The seed of `PROGRAM [--seed=N]` (1 without one), or -1 after a usage
/// line on stderr: a seed is a whole decimal number from 0 to 2^32 - 1, and
/// anything else is refused, not read as 0.
inline long long seedOption(int argc, char **argv) {
  long long Seed = 1;
  for (int I = 1; I < argc; ++I) {
    const char *Text = argv[I] + 7;
    char *End = nullptr;
    const bool IsSeed = std::strncmp(argv[I], "--seed=", 7) == 0 &&
                        *Text >= '0' && *Text <= '9';
    const unsigned long long Value =
        IsSeed ? std::strtoull(Text, &End, 10) : 0;
    if (!IsSeed || *End != '\0' || Value > 0xffffffffULL) {
      std::fprintf(stderr, "usage: %s [--seed=N] (N: 0 to 4294967295)\n",
                   argv[0]);
      return -1;
    }
    Seed = static_cast<long long>(Value);
  }
  return Seed;
}

} // namespace e2e

#endif // STENCIL_E2E_SEED_OPTION_HPP
