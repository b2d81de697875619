// `c ? f() : g();` of void helpers as a statement (was "unsupported type
// 'void'"): only the arm taken runs, as `if (c) f(); else g();` would, nested
// ones too; the OpenMP code gives the host reference's bits.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/void-conditional-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
#include <stencil/dsl.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

inline void put(float *a, const stencil::Index2D &idx, float v) { a[idx.ix()] = v; }
inline void add(float *a, const stencil::Index2D &idx, float v) { a[idx.ix()] += v; }

STENCIL_KERNEL void pick(const stencil::Index2D &idx, const float *u, float *a,
                         float *b) {
  put(a, idx, -1.0f);
  put(b, idx, -2.0f);
  const float x = u[idx.ix<1, 0>()];
  x > 0.0f ? put(a, idx, x) : add(b, idx, x);
  x > 0.5f ? (x > 0.75f ? add(a, idx, 1.0f) : add(a, idx, 2.0f))
           : (void)0;
}

template <typename Engine> std::vector<float> runOnce() {
  const int Nx = 11, Ny = 6, Count = Nx * Ny;
  std::vector<float> U(Count), A(Count, -7.0f), B(Count, -7.0f);
  for (int P = 0; P < Count; ++P)
    U[P] = std::sin(0.91f * P);
  stencil::Loop2D<Engine> Loop(Nx, 1, 1, Ny, 0, 0);
  Loop.run(pick, U.data(), A.data(), B.data());
  A.insert(A.end(), B.begin(), B.end());
  return A;
}

int main() {
  auto Host = runOnce<stencil::HostLoopEngine2D>();
  auto OpenMP = runOnce<stencil::OpenMPLoopEngine2D>();
  int Arms[4] = {};
  const std::size_t Half = Host.size() / 2;
  for (std::size_t P = 0; P < Half; ++P) {
    Arms[0] += Host[P] == -1.0f;                      // a left alone
    Arms[1] += Host[Half + P] != -2.0f && Host[Half + P] != -7.0f; // b added to
    Arms[2] += Host[P] > 1.75f;                       // the nested arms
    Arms[3] += Host[P] > 0.0f && Host[P] < 1.0f;      // neither nested arm
  }
  std::printf("bit-equal %d, every arm %d\n", Host == OpenMP ? 1 : 0,
              Arms[0] && Arms[1] && Arms[2] && Arms[3] ? 1 : 0);
  return Host == OpenMP ? 0 : 1;
}
// CHECK: bit-equal 1, every arm 1
