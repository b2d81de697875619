// main.cpp - a program built without stencilc that asks a generated engine
// for a stencil: the error names the stencil (a functor by its demangled
// type, a function by its address) and says how to fix it.
#include <stencil/dsl.hpp>

#include <cstdio>
#include <cstring>
#include <exception>

namespace app {
struct Blur {
  void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = 0.5f * (f[idx.ix<-1, 0>()] + f[idx.ix<1, 0>()]);
  }
};
void copy(const stencil::Index2D &idx, const float *f, float *fn) { fn[idx.ix()] = f[idx.ix()]; }
} // namespace app

int main(int argc, char **argv) {
  float F[5 * 3] = {}, FN[5 * 3] = {};
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> L(5, 1, 1, 3, 1, 1);
  try {
    if (argc > 1 && std::strcmp(argv[1], "--function") == 0)
      L.run(app::copy, F, FN);
    else
      L.run(app::Blur(), F, FN);
  } catch (const std::exception &E) {
    std::printf("%s\n", E.what());
    return 1;
  }
  return 0;
}
