// A `const T &` local that no write reaches through it: to a local or a
// scalar parameter an alias (a later write to the local shows through it),
// to a temporary or an element of a const array its value. The OpenMP run
// gives the host reference's bits. They were refused ("unsupported type
// 'const float &'"); a reference a write could reach still is.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu,cuda -o %t -- -std=c++17 -I %runtime_include
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/const-reference-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
// RUN: not %stencilc %s --emit=cpu -o %t/refused -- -std=c++17 -I %runtime_include -DREFUSED 2>&1 | FileCheck %s --check-prefix=REFUSED
#include <stencil/dsl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

STENCIL_KERNEL void refs(const stencil::Index2D &idx, float s, const float *a,
                         float *b) {
  const float &east = a[idx.ix<1, 0>()];
  const auto &centre = a[idx.ix()];
  float x = centre * 2.0f;
  const float &alias = x;
  x += east; // seen through alias
  const float &scale = s;
  const float &sum = east + centre; // a temporary, kept alive
  b[idx.ix()] = alias * scale + sum;
}

#ifdef REFUSED
STENCIL_KERNEL void writable(const stencil::Index2D &idx, float *b) {
  // REFUSED: unsupported type 'const float &'
  const float &old = b[idx.ix()];
  b[idx.ix()] = 1.0f;
  b[idx.ix()] += old;
}
STENCIL_KERNEL void call(const stencil::Index2D &idx, const float *a,
                         float *b) {
  // REFUSED: unsupported type 'const float &'
  const float &m = std::max(a[idx.ix()], a[idx.ix<1, 0>()]);
  b[idx.ix()] = m;
}
#endif

int main() {
  const int N = 9, P = N * N;
  std::vector<float> A(P), B(P, 3.0f), HB(P, 3.0f);
  for (int I = 0; I < P; ++I)
    A[I] = static_cast<float>((I * 37) % 11) * 0.3f - 1.0f;
  stencil::Loop2D<stencil::HostLoopEngine2D> Host(N - 1, 0, 1, N, 0, 0);
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Omp(N - 1, 0, 1, N, 0, 0);
  Host.run(refs, 0.5f, A.data(), HB.data());
  Omp.run(refs, 0.5f, A.data(), B.data());
  int Differ = 0;
  for (int I = 0; I < P; ++I)
    Differ += std::memcmp(&B[I], &HB[I], sizeof(float)) != 0;
  // CHECK: references: 0 points differ, b[0] -1.7
  std::printf("references: %d points differ, b[0] %g\n", Differ, B[0]);
}
