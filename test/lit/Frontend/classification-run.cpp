// <cmath>'s classification functions (isnan, isinf, isfinite, signbit),
// which correctness.md recommends for a NaN mask, were refused ("call to
// 'std::isnan', which has no visible definition"). Each is a bool of its
// argument in the argument's own type; an integer's is its double's. The
// OpenMP code gives the host reference's bits over the special values;
// nvcc.test compiles the CUDA.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu,cuda -o %t -- -std=c++17 -I %runtime_include
// RUN: FileCheck %s --check-prefix=CODE < %t/classification-run.stencil.cpp
// RUN: FileCheck %s --check-prefix=CUDA < %t/classification-run.stencil.cu
// RUN: c++ -std=c++17 -O2 -fopenmp -I %runtime_include %s %t/classification-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
// RUN: c++ -std=c++17 -O3 -msse4.1 -fopenmp -I %runtime_include %s %t/classification-run.stencil.cpp -o %t/run3
// RUN: %t/run3 | FileCheck %s
#include <stencil/dsl.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

// CODE: std::isnan(x) ? 0.0f : x
// CODE: std::isinf(x)
// CODE: std::isfinite(d[c])
// CODE: std::signbit(x)
// CODE: std::isnan(stencilc_from_integer<double>(
// CUDA: isnan(x) ? 0.0f : x
STENCIL_KERNEL void mask(const stencil::Index2D &idx, const float *a, const double *d, float *b) {
  const float x = a[idx.ix()];
  float r = std::isnan(x) ? 0.0f : x;
  if (std::isinf(x))
    r = -1.0f;
  r += std::isfinite(d[idx.ix()]) ? 1.0f : 2.0f;
  r += std::signbit(x) * 4.0f + std::signbit(d[idx.ix()]) * 8.0f + std::isnan(idx.i()) +
       std::signbit(idx.j() - 3) * 16.0f;
  b[idx.ix()] = r;
}

int main() {
  const int N = 40, P = N * N;
  std::vector<float> A(P), B(P, 3.0f), HB(P, 3.0f);
  std::vector<double> D(P);
  const float Special[] = {0.0f, -0.0f, 1.0f, -2.5f, INFINITY, -INFINITY, NAN, -NAN, 1e-40f, -1e-40f};
  for (int I = 0; I < P; ++I) {
    A[I] = Special[I % 10];
    D[I] = Special[(I / 10) % 10];
  }
  stencil::Loop2D<stencil::HostLoopEngine2D> Host(N, 0, 0, N, 0, 0);
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Omp(N, 0, 0, N, 0, 0);
  Host.run(mask, A.data(), D.data(), HB.data());
  Omp.run(mask, A.data(), D.data(), B.data());
  int Differ = 0;
  for (int I = 0; I < P; ++I)
    Differ += std::memcmp(&B[I], &HB[I], sizeof(float)) != 0;
  std::printf("mask: %d points differ; NaN %g, infinity %g\n", Differ, HB[6], HB[4]);
}
// CHECK: mask: 0 points differ; NaN 17, infinity 16
