// main.cpp - runs the library's stencil on the generated OpenMP code and
// compares it with the host engine.
#include <blurlib.hpp>

#include <cmath>
#include <cstdio>

int main() {
  const int Nx = 37, Ny = 23, Steps = 4;
  const std::vector<float> Want = blurlib::blurHost(Nx, Ny, Steps);
  const std::vector<float> Got = blurlib::blurGenerated(stencil::Backend::OpenMP, Nx, Ny, Steps);
  double MaxDiff = 0;
  for (std::size_t I = 0; I < Want.size(); ++I)
    MaxDiff = std::fmax(MaxDiff, std::fabs(double(Want[I]) - Got[I]));
  std::printf("useblur: openmp against host: max difference %g\n", MaxDiff);
  return MaxDiff <= 1e-6 ? 0 : 1;
}
