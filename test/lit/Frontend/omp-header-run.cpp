// A DSL file of an OpenMP program that includes <omp.h>: Clang 16 ships no
// omp.h without libomp, and stencilc stopped with "'omp.h' file not found".
// It searches the C++ compiler's own headers last, as g++ finds them; the
// stencil runs on the OpenMP engine bit-equal to the host.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++17 -fopenmp -I %runtime_include
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/omp-header-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
#include <omp.h>
#include <stencil/dsl.hpp>

#include <cstdio>
#include <vector>

STENCIL_KERNEL void half(const stencil::Index2D &idx, const float *u, float *v) {
  v[idx.ix()] = 0.5f * (u[idx.ix<-1, 0>()] + u[idx.ix<1, 0>()]);
}

int main() {
  const int N = 9;
  std::vector<float> U(N * N), Host(N * N), Omp(N * N);
  for (int I = 0; I < N * N; ++I)
    U[I] = 0.1f * static_cast<float>(I % 7);
  stencil::Loop2D<stencil::HostLoopEngine2D>(N, 1, 1, N, 0, 0)
      .run(half, U.data(), Host.data());
  stencil::Loop2D<stencil::OpenMPLoopEngine2D>(N, 1, 1, N, 0, 0)
      .run(half, U.data(), Omp.data());
  std::printf("%s, %d threads at most\n", Host == Omp ? "same" : "DIFFERENT",
              omp_get_max_threads() > 0 ? 1 : 0);
}
// CHECK: same, 1 threads at most
