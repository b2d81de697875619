// Helpers called where C++ evaluates conditionally (a branch of ?:, the right
// side of && and ||) run only when C++ runs them: the generated OpenMP code
// guards them with an if, and gives the host reference's results (without
// the guard, ratio() divides by zero: SIGFPE).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -I %runtime_include
// RUN: FileCheck %s --input-file %t/conditional-helper-run.stencil.cpp
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/conditional-helper-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s --check-prefix=OUT
#include <stencil/dsl.hpp>

#include <cstdio>
#include <vector>

static int ratio(int n, int d) { return n / d; }
static int nested(int n, int d, int e) { return e != 0 ? ratio(n, e) : ratio(n, d); }
static bool positive(int n, int d) { return n / d > 0; }
static void mark(const stencil::Index2D &idx, int *seen) { seen[idx.ix()] = 1; }
static int markAndRatio(const stencil::Index2D &idx, int *seen, int n, int d) {
  mark(idx, seen);
  return n / d;
}

STENCIL_KERNEL
void guarded(const stencil::Index2D &idx, const int *n, const int *d, const int *e, int *q,
             int *r, int *s, int *t, int *seen) {
  const int dd = d[idx.ix()], ee = e[idx.ix()], nn = n[idx.ix()];
  q[idx.ix()] = dd != 0 ? ratio(nn, dd) : 0;
  r[idx.ix()] = dd == 0 ? -1 : (ee == 0 ? ratio(nn, dd) : nested(nn, dd, ee));
  s[idx.ix()] = (dd != 0 && positive(nn, dd)) + 2 * (dd == 0 || positive(nn, dd));
  t[idx.ix()] = dd != 0 ? markAndRatio(idx, seen, nn, dd) : 7;
}

// The division sits inside the branch that tests the divisor.
// CHECK: if (dd != 0) {
// CHECK: n_1 = nn;
// CHECK: d_1 = dd;
// CHECK: ratio_result = n_1 / d_1;
// CHECK: } else {

template <typename Engine> std::vector<std::vector<int>> runOnce() {
  const int Nx = 7, Ny = 6, Count = Nx * Ny;
  std::vector<int> N(Count), D(Count), E(Count);
  for (int P = 0; P < Count; ++P) {
    N[P] = 3 * P - 40;
    D[P] = P % 3 - 1; // a third of the divisors are zero
    E[P] = P % 4 == 0 ? 0 : P % 5 - 2;
  }
  std::vector<std::vector<int>> Out(5, std::vector<int>(Count, -99));
  for (int P = 0; P < Count; ++P)
    Out[4][P] = 0;
  stencil::Loop2D<Engine> Loop(Nx, 0, 0, Ny, 0, 0);
  Loop.run(guarded, N.data(), D.data(), E.data(), Out[0].data(), Out[1].data(),
           Out[2].data(), Out[3].data(), Out[4].data());
  return Out;
}

int main() {
  auto Host = runOnce<stencil::HostLoopEngine2D>();
  auto OpenMP = runOnce<stencil::OpenMPLoopEngine2D>();
  int Marked = 0;
  for (int V : Host[4])
    Marked += V;
  std::printf("equal %d marked %d\n", Host == OpenMP ? 1 : 0, Marked);
  return Host == OpenMP ? 0 : 1;
}
// 14 of 42 points have a zero divisor: 28 are marked.
// OUT: equal 1 marked 28
