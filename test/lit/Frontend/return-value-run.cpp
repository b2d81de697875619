// A stencil's last statement `return <expression>;` (a void helper's call,
// valid C++ in a void function, or the value an `int operator()` returns)
// was dropped: what the expression writes was lost, silently. It is
// evaluated, for what it writes, and its value dropped, as the engines drop
// it. Each stencil's OpenMP run gives the host reference's values. A
// `run()` of `c ? f : g`, one of them not annotated, generates both (the
// runtime found no code for the other).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include 2>&1 | FileCheck %s --allow-empty --check-prefix=WARN
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/return-value-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s --check-prefix=OUT
// RUN: %t/run chosen | FileCheck %s --check-prefix=OTHER
// WARN-NOT: warning
#include <stencil/dsl.hpp>

#include <cstdio>
#include <vector>

inline void put(const stencil::Index2D &idx, float *p, float v) {
  p[idx.ix()] = v;
}
inline float bump(const stencil::Index2D &idx, float *p) {
  p[idx.ix()] += 1.0f;
  return p[idx.ix()];
}

STENCIL_KERNEL void viaVoid(const stencil::Index2D &idx, const float *a,
                            float *b, float *c) {
  b[idx.ix()] = a[idx.ix()];
  return put(idx, c, a[idx.ix<1, 0>()] + 1.0f);
}

struct ViaValue {
  STENCIL_HD int operator()(const stencil::Index2D &idx, float *b) const {
    return static_cast<int>(bump(idx, b));
  }
};

// The value converted (an assignment's lvalue to a float, the float to the
// int returned): the assignment still runs.
struct ViaAssign {
  STENCIL_HD int operator()(const stencil::Index2D &idx, const float *a,
                            float *c) const {
    return c[idx.ix()] = a[idx.ix()] + 3.0f;
  }
};

STENCIL_KERNEL void zero(const stencil::Index2D &idx, float *f) {
  f[idx.ix()] = 0.0f;
}
void one(const stencil::Index2D &idx, float *f) { f[idx.ix()] = 1.0f; }

int main(int argc, char **) {
  const int N = 8;
  std::vector<float> A(N * N), B(N * N, 0.0f), C(N * N, 0.0f),
      HB(N * N, 0.0f), HC(N * N, 0.0f);
  for (int I = 0; I < N * N; ++I)
    A[I] = 0.5f * static_cast<float>(I % 7);
  stencil::Loop2D<stencil::HostLoopEngine2D> Host(N, 1, 1, N, 1, 1);
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Omp(N, 1, 1, N, 1, 1);
  Host.run(viaVoid, A.data(), HB.data(), HC.data());
  Omp.run(viaVoid, A.data(), B.data(), C.data());
  Host.run(ViaValue(), HB.data());
  Omp.run(ViaValue(), B.data());
  Host.run(ViaAssign(), A.data(), HC.data());
  Omp.run(ViaAssign(), A.data(), C.data());
  int Differ = 0;
  for (int I = 0; I < N * N; ++I)
    Differ += HB[I] != B[I] || HC[I] != C[I];
  // OUT: return values: 0 points differ, c 4 b 2
  std::printf("return values: %d points differ, c %g b %g\n", Differ,
              C[N + 1], B[N + 1]);
  std::vector<float> F(N * N, 5.0f);
  Omp.run(argc > 1 ? zero : one, F.data());
  // OUT: chosen: 1
  // OTHER: chosen: 0
  std::printf("chosen: %g\n", F[N + 1]);
}
