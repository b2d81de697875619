// smooth_a.cpp - a functor named Smooth; smooth_b.cpp has another.
#include <stencil/dsl.hpp>

#include "registry.hpp"

namespace a {
struct STENCIL_KERNEL Smooth {
  void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = 0.5f * (f[idx.ix<-1, 0>()] + f[idx.ix<1, 0>()]);
  }
};
} // namespace a

std::vector<float> registry::smoothA(const std::vector<float> &In, bool OpenMP) {
  std::vector<float> Out(In.size(), -1.0f);
  if (OpenMP) {
    stencil::Loop2D<stencil::OpenMPLoopEngine2D> L(Nx, 1, 1, Ny, 1, 1);
    L.run(a::Smooth(), In.data(), Out.data());
  } else {
    stencil::Loop2D<stencil::HostLoopEngine2D> L(Nx, 1, 1, Ny, 1, 1);
    L.run(a::Smooth(), In.data(), Out.data());
  }
  return Out;
}
