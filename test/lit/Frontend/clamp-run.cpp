// std::clamp(v, lo, hi) is libstdc++'s std::min(std::max(v, lo), hi), for
// every scalar type: the OpenMP run gives the host reference's bits, ties,
// signed zeros and NaNs (in v and in the bounds) included. It was refused
// for its reference result ("unsupported type 'const float &'").
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include 2>&1 | FileCheck %s --allow-empty --check-prefix=WARN
// RUN: %stencilc %s --emit=ir -o - -- -std=c++17 -I %runtime_include | FileCheck %s --check-prefix=IR
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/clamp-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s --check-prefix=OUT
// WARN-NOT: warning
// IR: "body": "{{.*}}min:f32(max:f32(v, lo_1), 1:f32)
// IR-SAME: min:f32(max:f32(a[1,0], lo[0,0]), hi[0,0])
// IR: "body": "b[0,0] = (min:i32(max:i32(a[0,0], (-3)), 7) * 2)
#include <stencil/dsl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

inline float bounded(float v, float lo) { return std::clamp(v, lo, 1.0f); }

STENCIL_KERNEL void limit(const stencil::Index2D &idx, const float *a,
                          const float *lo, const float *hi, float *b) {
  b[idx.ix()] = std::clamp(a[idx.ix<1, 0>()], lo[idx.ix()], hi[idx.ix()]) +
                bounded(a[idx.ix()], -0.0f);
}

STENCIL_KERNEL void limitInt(const stencil::Index2D &idx, const int *a,
                             int *b) {
  b[idx.ix()] = std::clamp(a[idx.ix()], -3, 7) * 2;
}

STENCIL_KERNEL void limitDouble(const stencil::Index2D &idx, const double *a,
                                double lo, double *b) {
  b[idx.ix()] = std::clamp(a[idx.ix<0, -1>()], lo, lo + 0.5);
}

int main() {
  const int N = 16, P = N * N;
  const float Odd[] = {0.0f,  -0.0f, 1.0f, -1.0f,
                       std::numeric_limits<float>::quiet_NaN(),
                       2.5f,  -2.5f, 0.25f};
  std::vector<float> A(P), Lo(P), Hi(P), B(P, 9.0f), HB(P, 9.0f);
  std::vector<int> IA(P), IB(P, 0), HIB(P, 0);
  std::vector<double> DA(P), DB(P, 9.0), HDB(P, 9.0);
  unsigned S = 12345;
  auto Next = [&S]() { return S = S * 1103515245u + 12345u, (S >> 8) & 0xffff; };
  for (int I = 0; I < P; ++I) {
    A[I] = Next() % 3 ? (Next() / 16384.0f - 2.0f) : Odd[Next() % 8];
    Lo[I] = Next() % 4 ? -(Next() / 32768.0f) : Odd[Next() % 8];
    Hi[I] = Next() % 4 ? Next() / 32768.0f : Odd[Next() % 8];
    IA[I] = static_cast<int>(Next() % 21) - 10;
    DA[I] = Next() / 32768.0 - 1.0;
  }
  stencil::Loop2D<stencil::HostLoopEngine2D> Host(N, 1, 1, N, 1, 1);
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Omp(N, 1, 1, N, 1, 1);
  Host.run(limit, A.data(), Lo.data(), Hi.data(), HB.data());
  Omp.run(limit, A.data(), Lo.data(), Hi.data(), B.data());
  Host.run(limitInt, IA.data(), HIB.data());
  Omp.run(limitInt, IA.data(), IB.data());
  Host.run(limitDouble, DA.data(), 0.1, HDB.data());
  Omp.run(limitDouble, DA.data(), 0.1, DB.data());
  int Differ = 0, NaNs = 0, Clamped = 0;
  for (int I = 0; I < P; ++I) {
    Differ += std::memcmp(&B[I], &HB[I], sizeof(float)) != 0 &&
              !(std::isnan(B[I]) && std::isnan(HB[I]));
    Differ += IB[I] != HIB[I] ||
              std::memcmp(&DB[I], &HDB[I], sizeof(double)) != 0;
    NaNs += std::isnan(HB[I]);
    Clamped += HIB[I] == 14 || HIB[I] == -6;
  }
  // OUT: clamp: 0 points differ
  std::printf("clamp: %d points differ\n", Differ);
  // Inputs that reach each kind of case, so the test can fail.
  std::printf("NaNs %d, int bounds hit %d\n", NaNs, Clamped);
}
