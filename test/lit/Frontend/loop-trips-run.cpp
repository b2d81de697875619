// Loop counters take the host's exact sequence of values in the generated
// OpenMP code: unsigned wraparound, steps wider than the range, conversions
// in the comparison. Each stencil sums a hash of the counter's values.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -I %runtime_include
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/loop-trips-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
#include <stencil/dsl.hpp>

#include <cstdio>
#include <vector>

STENCIL_KERNEL
void loops(const stencil::Index2D &idx, const unsigned long *in, unsigned long *out) {
  unsigned long h = in[idx.ix()];
  for (unsigned m = 0; m < 3000000000u; m += 1000000000u)
    h = h * 31ul + m;
  for (unsigned m = 4294967290u; m != 3u; ++m)
    h = h * 31ul + m;
  for (unsigned m = 5; m < 10; m += 4294967295u)
    h = h * 31ul + m;
  for (unsigned m = 3; m > 0; --m)
    h = h * 31ul + m;
  for (int m = 2; m < 10u; --m)
    h = h * 31ul + static_cast<unsigned long>(m);
  for (int m = 0; m < 10; m += 7)
    h = h * 31ul + static_cast<unsigned long>(m);
  for (int m = 10; m != -2; m -= 3)
    h = h * 31ul + static_cast<unsigned long>(m);
  for (unsigned long m = 18446744073709551614ul; m != 2; ++m)
    h = h * 31ul + m;
  for (unsigned long m = 1; m < 100; m -= 9223372036854775807ul)
    h = h * 31ul + m;
  for (int m = 3; m > 0; m += 4294967295u)
    h = h * 31ul + static_cast<unsigned long>(m);
  for (long m = 9223372036854775800L; m != 9223372036854775806L; m += 3)
    h = h * 31ul + static_cast<unsigned long>(m);
  for (unsigned m = 0; m < 3u; m += 1000000000u)
    h = h * 31ul + m;
  for (unsigned m = 0; m < 10; m += 4294967297ul)
    h = h * 31ul + m;
  for (int m = 0; m < 10; m += 4294967297L)
    h = h * 31ul + static_cast<unsigned long>(m);
  out[idx.ix()] = h;
}

template <typename Engine> std::vector<unsigned long> runOnce() {
  const int Nx = 5, Ny = 4;
  std::vector<unsigned long> In(Nx * Ny), Out(Nx * Ny, 0);
  for (int P = 0; P < Nx * Ny; ++P)
    In[P] = 1000u * P + 17u;
  stencil::Loop2D<Engine> Loop(Nx, 0, 0, Ny, 0, 0);
  Loop.run(loops, In.data(), Out.data());
  return Out;
}

int main() {
  auto Host = runOnce<stencil::HostLoopEngine2D>();
  auto OpenMP = runOnce<stencil::OpenMPLoopEngine2D>();
  std::printf("equal %d\n", Host == OpenMP ? 1 : 0);
  return Host == OpenMP ? 0 : 1;
}
// CHECK: equal 1
