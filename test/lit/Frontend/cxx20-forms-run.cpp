// Forms users write that stencilc refused with clang's node names: C++20's
// [[likely]] / [[unlikely]] (hints: the statement is the same), a consteval
// helper's value, a local enum's enumerators, and an entry of a constant
// table at a constant subscript. The OpenMP code gives the host reference's
// bits; a table entry chosen by a loop variable is still refused, saying why.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++20 -I %runtime_include
// RUN: c++ -std=c++20 -O0 -fopenmp -I %runtime_include %s %t/cxx20-forms-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s --check-prefix=OUT
// RUN: not %stencilc %s --emit=cpu -o %t/loop -- -std=c++20 -I %runtime_include -DLOOP 2>&1 | FileCheck %s --check-prefix=LOOP
#include "Inputs/run_2d.hpp"

#include <cstdio>

constexpr float weights[3] = {0.25f, 0.5f, 0.25f};
consteval float half(float x) { return x / 2.0f; }

STENCIL_KERNEL void forms(const stencil::Index2D &idx, const float *u, float *a) {
  enum { Scale = 3 };
  float s = weights[0] * u[idx.ix<-1, 0>()] + weights[1] * u[idx.ix()] +
            weights[2] * u[idx.ix<1, 0>()];
  if (s > 0.0f) [[likely]] {
    s = s * Scale;
  } else [[unlikely]] {
    s = s + half(3.0f);
  }
#ifdef LOOP
  for (int m = 0; m < 3; ++m)
    s += weights[m]; // LOOP: error: unsupported expression in a stencil: subscript of 'weights', an array that is not a parameter of the stencil
#endif
  a[idx.ix()] = s;
}

template <typename Engine> std::vector<float> runOnce() {
  return runOnce2D<Engine>(forms, 9, 7, 1, 0);
}

int main() {
  auto Host = runOnce<stencil::HostLoopEngine2D>();
  auto OpenMP = runOnce<stencil::OpenMPLoopEngine2D>();
  int Positive = 0;
  for (float X : Host)
    Positive += X > 0.0f;
  std::printf("bit-equal %d, both branches %d\n", Host == OpenMP ? 1 : 0,
              Positive > 0 && Positive < int(Host.size()) ? 1 : 0);
  return Host == OpenMP ? 0 : 1;
}
// OUT: bit-equal 1, both branches 1
