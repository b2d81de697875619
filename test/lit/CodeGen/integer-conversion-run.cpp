// An integer converted to a floating type is never -0 in C++. The generated
// file turns trapping math off (OpenMPEmitter: selects vectorise), and GCC
// then makes (float)(int)x trunc(x) where SSE4.1 has a rounding instruction:
// -0 for x in (-1, 0), where the host reference gives +0. The OpenMP code
// converts integers through stencilc_from_integer, whose zero is +0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include
// RUN: FileCheck %s --check-prefix=CODE < %t/integer-conversion-run.stencil.cpp
// RUN: c++ -std=c++17 -O2 -msse4.1 -fopenmp -I %runtime_include %s %t/integer-conversion-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
// RUN: c++ -std=c++17 -O3 -msse4.1 -ffp-contract=fast -fopenmp -I %runtime_include %s %t/integer-conversion-run.stencil.cpp -o %t/run3
// RUN: %t/run3 | FileCheck %s
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/integer-conversion-run.stencil.cpp -o %t/run0
// RUN: %t/run0 | FileCheck %s
// CODE: template <typename T, typename I> inline T stencilc_from_integer(I v)
#include <stencil/dsl.hpp>

#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

// CODE: b[c] = stencilc_from_integer<float>(static_cast<int>(a[c]));
STENCIL_KERNEL void truncated(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = static_cast<float>(static_cast<int>(a[idx.ix()]));
}
STENCIL_KERNEL void truncatedDouble(const stencil::Index2D &idx, const double *a, double *b) {
  b[idx.ix()] = static_cast<double>(static_cast<long long>(a[idx.ix()]));
}
// Through a local, in an implicit conversion.
STENCIL_KERNEL void local(const stencil::Index2D &idx, const float *a, float *b) {
  const int n = static_cast<int>(a[idx.ix()] * 3.0f);
  b[idx.ix()] = n * 0.5f;
}
STENCIL_KERNEL void rounded(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = static_cast<float>(static_cast<int>(a[idx.ix()] + 0.5f)) - a[idx.ix<1, 0>()];
}

template <typename T> int compare(const char *Name, void (*Stencil)(const stencil::Index2D &, const T *, T *)) {
  const int N = 128, P = N * N;
  std::vector<T> A(P);
  std::mt19937 Rng(7);
  for (T &V : A)
    V = static_cast<T>(static_cast<int>(Rng() % 4001) - 2000) * T(0.001);
  stencil::Loop2D<stencil::HostLoopEngine2D> Host(N, 0, 1, N, 0, 0);
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Omp(N, 0, 1, N, 0, 0);
  std::vector<T> B(P, T(3)), HB(P, T(3));
  Host.run(Stencil, A.data(), HB.data());
  Omp.run(Stencil, A.data(), B.data());
  int Differ = 0, Zeros = 0;
  for (int I = 0; I < P; ++I) {
    Differ += std::memcmp(&B[I], &HB[I], sizeof(T)) != 0;
    Zeros += HB[I] == T(0);
  }
  std::printf("%s: %d points differ\n", Name, Differ);
  return Zeros;
}

int main() {
  int Zeros = compare<float>("truncated", truncated);
  Zeros += compare<double>("truncatedDouble", truncatedDouble);
  Zeros += compare<float>("local", local);
  Zeros += compare<float>("rounded", rounded);
  // Zeros from inputs in (-1, 0) are what the check is about.
  std::printf("zeros: %d\n", Zeros);
}
// CHECK: truncated: 0 points differ
// CHECK-NEXT: truncatedDouble: 0 points differ
// CHECK-NEXT: local: 0 points differ
// CHECK-NEXT: rounded: 0 points differ
// CHECK-NEXT: zeros: {{[1-9][0-9]+}}
