// seed_option.hpp - the `--seed=N` option of the e2e programs that take only
// that one.
#ifndef STENCIL_E2E_SEED_OPTION_HPP
#define STENCIL_E2E_SEED_OPTION_HPP

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace e2e {

/// The seed of `PROGRAM [--seed=N]` (1 without one). A seed is a whole
/// decimal number from 0 to 2^32 - 1; anything else is refused, not read as
/// 0: a usage line on stderr, and the program exits with status 2.
inline unsigned seedOption(int argc, char **argv) {
  unsigned long long Seed = 1;
  for (int I = 1; I < argc; ++I) {
    const char *Text = argv[I] + 7;
    char *End = nullptr;
    const bool IsSeed = std::strncmp(argv[I], "--seed=", 7) == 0 &&
                        *Text >= '0' && *Text <= '9';
    Seed = IsSeed ? std::strtoull(Text, &End, 10) : 0;
    if (!IsSeed || *End != '\0' || Seed > 0xffffffffULL) {
      std::fprintf(stderr, "usage: %s [--seed=N] (N: 0 to 4294967295)\n",
                   argv[0]);
      std::exit(2);
    }
  }
  return static_cast<unsigned>(Seed);
}

} // namespace e2e

#endif // STENCIL_E2E_SEED_OPTION_HPP
