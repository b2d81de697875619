// A `const T &` local that no write reaches through it: to a local or a
// scalar parameter an alias (a later write to the local shows through it),
// to a temporary, an element of a const array or std::min/max/clamp of
// objects no write can change (const, or never written) its value. The
// OpenMP run gives the host reference's bits (NaNs and signed zeros among
// the inputs). They were refused ("unsupported type 'const float &'"); a
// reference a write could reach, or one that dangles, still is.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu,cuda -o %t -- -std=c++17 -I %runtime_include
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/const-reference-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
// RUN: not %stencilc %s --emit=cpu -o %t/refused -- -std=c++17 -I %runtime_include -DREFUSED 2>&1 | FileCheck %s --check-prefix=REFUSED
#include <stencil/dsl.hpp>

#include <algorithm>
#include <cmath>
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

STENCIL_KERNEL void calls(const stencil::Index2D &idx, float s,
                          const float *a, float *b) {
  const float &m = std::max(a[idx.ix()], a[idx.ix<1, 0>()]);
  const float lo = -0.5f;
  float hi = s; // never written: its value
  const auto &c = std::clamp(a[idx.ix<1, 0>()], lo, hi);
  const float &t = a[idx.ix()] * 2.0f; // a temporary, kept alive
  const float &n = std::min(std::max(t, m), c);
  b[idx.ix()] = m + c * n;
}

#ifdef REFUSED
STENCIL_KERNEL void writable(const stencil::Index2D &idx, float *b) {
  // REFUSED: reference '{{.*}}' could see a write
  const float &old = b[idx.ix()];
  b[idx.ix()] = 1.0f;
  b[idx.ix()] += old;
}
STENCIL_KERNEL void dangling(const stencil::Index2D &idx, const float *a,
                             float *b) {
  // REFUSED: reference '{{.*}}' could see a write
  const float &m = std::max(a[idx.ix()] + 1.0f, a[idx.ix<1, 0>()]);
  b[idx.ix()] = m;
}
STENCIL_KERNEL void converted(const stencil::Index2D &idx, const float *a,
                              double *b) {
  // REFUSED: reference '{{.*}}' could see a write
  const double &m = std::max<double>(a[idx.ix()], a[idx.ix<1, 0>()]);
  b[idx.ix()] = m;
}
STENCIL_KERNEL void writtenLater(const stencil::Index2D &idx, const float *a,
                                 float *b) {
  float x = a[idx.ix()];
  // REFUSED: reference '{{.*}}' could see a write
  const float &m = std::max(x, a[idx.ix<1, 0>()]);
  x = 0.0f;
  b[idx.ix()] = m;
}
STENCIL_KERNEL void writtenArray(const stencil::Index2D &idx, const float *a,
                                 float *b) {
  // REFUSED: reference '{{.*}}' could see a write
  const float &m = std::min(b[idx.ix()], a[idx.ix()]);
  b[idx.ix()] = m;
}
#endif

int main() {
  const int N = 9, P = N * N;
  std::vector<float> A(P);
  for (int I = 0; I < P; ++I)
    A[I] = static_cast<float>((I * 37) % 11) * 0.3f - 1.0f;
  A[21] = std::nanf("");
  A[23] = -0.0f;
  A[24] = 0.0f;
  A[31] = -0.0f;
  stencil::Loop2D<stencil::HostLoopEngine2D> Host(N - 1, 0, 1, N, 0, 0);
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Omp(N - 1, 0, 1, N, 0, 0);
  auto Compare = [&](const char *Name, auto Stencil) {
    std::vector<float> B(P, 3.0f), HB(P, 3.0f);
    Host.run(Stencil, 0.5f, A.data(), HB.data());
    Omp.run(Stencil, 0.5f, A.data(), B.data());
    int Differ = 0;
    for (int I = 0; I < P; ++I)
      Differ += std::memcmp(&B[I], &HB[I], sizeof(float)) != 0 &&
                !(std::isnan(B[I]) && std::isnan(HB[I]));
    std::printf("%s: %d points differ, b[0] %g\n", Name, Differ, B[0]);
  };
  // CHECK: references: 0 points differ, b[0] -1.7
  Compare("references", refs);
  // CHECK: calls: 0 points differ, b[0] 0.24
  Compare("calls", calls);
}
