// blurlib.cpp - the library's DSL source: a stencil and the functions that run it.
#include "blurlib.hpp"

#include <utility>

namespace blurlib::detail {

// Not in an anonymous namespace: the generated code calls it from its own file.
struct STENCIL_KERNEL Blur {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *v) const {
    v[idx.ix()] = 0.5f * u[idx.ix()] + 0.125f * (u[idx.ix<-1, 0>()] + u[idx.ix<1, 0>()] +
                                                 u[idx.ix<0, -1>()] + u[idx.ix<0, 1>()]);
  }
};

} // namespace blurlib::detail

namespace {

using blurlib::detail::Blur;

std::vector<float> start(int Mx, int My) {
  std::vector<float> U(std::size_t(Mx) * My);
  for (std::size_t I = 0; I < U.size(); ++I)
    U[I] = float((I * 7919) % 101) / 101.0f;
  return U;
}

template <typename E> std::vector<float> blur(int Nx, int Ny, int Steps) {
  const int Mx = Nx + 2, My = Ny + 2;
  std::vector<float> U = start(Mx, My), V = U;
  stencil::Loop2D<E> Loop(Mx, 1, 1, My, 1, 1);
  for (int S = 0; S < Steps; ++S) {
    Loop.run(Blur(), U.data(), V.data());
    std::swap(U, V);
  }
  return U;
}

} // namespace

std::vector<float> blurlib::blurHost(int Nx, int Ny, int Steps) {
  return blur<stencil::HostLoopEngine<2>>(Nx, Ny, Steps);
}

std::vector<float> blurlib::blurGenerated(stencil::Backend B, int Nx, int Ny, int Steps) {
  if (B == stencil::Backend::Cuda)
    return blur<stencil::GeneratedLoopEngine<2, stencil::Backend::Cuda>>(Nx, Ny, Steps);
  return blur<stencil::GeneratedLoopEngine<2, stencil::Backend::OpenMP>>(Nx, Ny, Steps);
}
