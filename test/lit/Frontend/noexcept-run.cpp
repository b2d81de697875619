// noexcept stencils and steps (noexcept is part of a function's type since
// C++17): the runtime's traits did not match them, so the program did not
// compile even with the host engine alone. Each runs on the host and OpenMP
// engines, bit-equal.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/noexcept-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
#include <stencil/dsl.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

STENCIL_KERNEL void shift(const stencil::Index2D &idx, const float *u, float *a) noexcept {
  a[idx.ix()] = u[idx.ix<1, 0>()] - 0.5f * u[idx.ix<0, -1>()];
}
struct STENCIL_KERNEL Scale {
  void operator()(const stencil::Index2D &idx, float s, const float *a, float *b) const noexcept {
    b[idx.ix()] = s * a[idx.ix<-1, 0>()];
  }
};
struct STENCIL_KERNEL Mutable { // a non-const noexcept operator()
  void operator()(const stencil::Index2D &idx, const float *b, float *c) noexcept {
    c[idx.ix()] = b[idx.ix()] + 1.0f;
  }
};
STENCIL_STEP void both(stencil::Step2D &s, const float *u, float *a, float *b) noexcept {
  s.run(shift, u, a);
  s.run(Scale(), 3.0f, a, b);
}

template <typename Engine> std::vector<float> runOnce() {
  const int Nx = 9, Ny = 7, Count = Nx * Ny;
  std::vector<float> U(Count), A(Count, -7.0f), B(Count, -7.0f), C(Count, -7.0f);
  for (int P = 0; P < Count; ++P)
    U[P] = std::sin(0.37f * P);
  stencil::Loop2D<Engine> Loop(Nx, 1, 1, Ny, 1, 1);
  Loop.runStep(both, U.data(), A.data(), B.data());
  Loop.run(Mutable(), B.data(), C.data());
  C.insert(C.end(), A.begin(), A.end());
  return C;
}

int main() {
  auto Host = runOnce<stencil::HostLoopEngine2D>();
  auto OpenMP = runOnce<stencil::OpenMPLoopEngine2D>();
  std::printf("bit-equal %d, computed %d\n", Host == OpenMP ? 1 : 0,
              Host[10] != -7.0f ? 1 : 0);
  return Host == OpenMP ? 0 : 1;
}
// CHECK: bit-equal 1, computed 1
