// smooth_b.cpp - another functor named Smooth, with another body.
#include <stencil/dsl.hpp>

#include "registry.hpp"

namespace b {
struct STENCIL_KERNEL Smooth {
  void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = 3.0f * f[idx.ix()] - f[idx.ix<0, 1>()];
  }
};
} // namespace b

std::vector<float> registry::smoothB(const std::vector<float> &In, bool OpenMP) {
  std::vector<float> Out(In.size(), -1.0f);
  if (OpenMP) {
    stencil::Loop2D<stencil::OpenMPLoopEngine2D> L(Nx, 1, 1, Ny, 1, 1);
    L.run(b::Smooth(), In.data(), Out.data());
  } else {
    stencil::Loop2D<stencil::HostLoopEngine2D> L(Nx, 1, 1, Ny, 1, 1);
    L.run(b::Smooth(), In.data(), Out.data());
  }
  return Out;
}
