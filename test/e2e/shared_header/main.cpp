// main.cpp - a functor in a header that two DSL sources include: registered
// once per variant, and both files' runs equal the host reference. Linked
// with other_weight.cpp instead of second.cpp, the run must stop with an
// error that names both generated files.
#include "shared_blur.hpp"

#include <cstdio>
#include <cstring>
#include <exception>

int main() {
  try {
    std::vector<float> In(std::size_t(shared::Nx) * shared::Ny);
    for (std::size_t I = 0; I < In.size(); ++I)
      In[I] = float((I * 37) % 101) / 101.0f;
    const std::vector<float> Want = shared::blurFirst(In, false);
    if (shared::blurFirst(In, true) != Want || shared::blurSecond(In, true) != Want) {
      std::printf("a generated run differs from the host reference\n");
      return 1;
    }
    int Entries = 0;
    for (const stencil::GeneratedStencil &E : stencil::generatedStencils())
      if (std::strcmp(E.name, "shared::Blur") == 0)
        ++Entries;
    // One entry per variant: OpenMP has one, the grid loop nest.
    if (Entries != 1) {
      std::printf("shared::Blur is registered %d times on openmp, not once\n", Entries);
      return 1;
    }
    std::printf("shared::Blur registered once; both files equal the host reference\n");
    return 0;
  } catch (const std::exception &E) {
    std::printf("%s\n", E.what());
    return 1;
  }
}
