// main.cpp - how engines find generated code: two functors of one name in
// two files (smooth_a.cpp, smooth_b.cpp) each run their own code, and a
// free-function stencil runs on the OpenMP engine however it is passed: by
// name, as &blur, or through a function-pointer variable. Every result must
// equal the host reference bit for bit; exit 0 if all do.
#include <stencil/dsl.hpp>

#include "registry.hpp"

#include <cstdio>
#include <exception>
#include <vector>

STENCIL_KERNEL
void blur(const stencil::Index2D &idx, float w, const float *f, float *fn) {
  fn[idx.ix()] = w * f[idx.ix()] + 0.25f * (f[idx.ix<-1, 0>()] + f[idx.ix<0, -1>()]);
}

namespace {
using registry::Nx;
using registry::Ny;

bool same(const char *What, const std::vector<float> &Ref, const std::vector<float> &Got) {
  for (std::size_t I = 0; I < Ref.size(); ++I)
    if (!(Ref[I] == Got[I])) {
      std::printf("FAIL %s: element %zu is %g, the host reference %g\n", What, I, Got[I], Ref[I]);
      return false;
    }
  std::printf("ok   %s\n", What);
  return true;
}

template <typename StencilT> std::vector<float> blurWith(const StencilT &S, const std::vector<float> &In) {
  std::vector<float> Out(In.size(), -1.0f);
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> L(Nx, 1, 1, Ny, 1, 1);
  L.run(S, 0.5f, In.data(), Out.data());
  return Out;
}
} // namespace

int main() {
  std::vector<float> In(Nx * Ny);
  for (std::size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<float>((I * 7919) % 101) / 13.0f;
  bool Pass = true;
  try {
    Pass &= same("a::Smooth", registry::smoothA(In, false), registry::smoothA(In, true));
    Pass &= same("b::Smooth", registry::smoothB(In, false), registry::smoothB(In, true));

    std::vector<float> Ref(In.size(), -1.0f);
    stencil::Loop2D<stencil::HostLoopEngine2D> Host(Nx, 1, 1, Ny, 1, 1);
    Host.run(blur, 0.5f, In.data(), Ref.data());
    void (*Pointer)(const stencil::Index2D &, float, const float *, float *) = &blur;
    Pass &= same("blur by name", Ref, blurWith(blur, In));
    Pass &= same("blur as &blur", Ref, blurWith(&blur, In));
    Pass &= same("blur through a pointer variable", Ref, blurWith(Pointer, In));
    Pass &= stencil::generatedFor(stencil::Backend::OpenMP, Pointer) ==
            stencil::generatedFor(stencil::Backend::OpenMP, blur);
  } catch (const std::exception &E) {
    std::printf("FAIL: %s\n", E.what());
    return 1;
  }
  std::printf(Pass ? "PASS\n" : "FAIL\n");
  return Pass ? 0 : 1;
}
