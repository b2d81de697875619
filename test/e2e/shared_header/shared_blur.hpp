// shared_blur.hpp - one functor stencil that two DSL sources include.
// BLUR_WEIGHT lets one file compile another stencil under the same name (the
// conflict test); by default both files see the same definition.
#ifndef STENCILC_TEST_E2E_SHARED_BLUR_HPP
#define STENCILC_TEST_E2E_SHARED_BLUR_HPP

#include <stencil/dsl.hpp>

#include <vector>

#ifndef BLUR_WEIGHT
#define BLUR_WEIGHT 0.5f
#endif

namespace shared {
struct STENCIL_KERNEL Blur {
  void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = BLUR_WEIGHT * (f[idx.ix<-1, 0>()] + f[idx.ix<1, 0>()]);
  }
};

constexpr int Nx = 29, Ny = 13; // with a one-point margin

/// Runs Blur once from the file that defines the function (first.cpp,
/// second.cpp or other_weight.cpp), on the OpenMP engine or the host.
std::vector<float> blurFirst(const std::vector<float> &In, bool OpenMP);
std::vector<float> blurSecond(const std::vector<float> &In, bool OpenMP);
} // namespace shared

/// The body of blurFirst/blurSecond.
#define SHARED_BLUR_RUN(In, OpenMP)                                                                \
  std::vector<float> Out(In.size(), -1.0f);                                                        \
  if (OpenMP) {                                                                                    \
    stencil::Loop2D<stencil::OpenMPLoopEngine2D> L(Nx, 1, 1, Ny, 1, 1);                           \
    L.run(Blur(), In.data(), Out.data());                                                          \
  } else {                                                                                         \
    stencil::Loop2D<stencil::HostLoopEngine2D> L(Nx, 1, 1, Ny, 1, 1);                             \
    L.run(Blur(), In.data(), Out.data());                                                          \
  }                                                                                                \
  return Out;

#endif
