// registry.hpp - what the files of the registry test share.
#ifndef STENCILC_TEST_E2E_REGISTRY_HPP
#define STENCILC_TEST_E2E_REGISTRY_HPP

#include <vector>

namespace registry {
constexpr int Nx = 37, Ny = 23; // with a one-point margin
/// Runs the functor of smooth_a.cpp (a::Smooth) or smooth_b.cpp (b::Smooth)
/// once over the interior, on the OpenMP engine or the host reference.
std::vector<float> smoothA(const std::vector<float> &In, bool OpenMP);
std::vector<float> smoothB(const std::vector<float> &In, bool OpenMP);
} // namespace registry

#endif
