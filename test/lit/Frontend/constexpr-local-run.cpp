// A constexpr local's value is the compiler's, rounded to nearest, whatever
// the rounding mode when the stencil runs: the host reference's. Lowered as
// a plain local, `1.0 / 3.0` was divided at run time by the OpenMP code
// (-frounding-math folds nothing inexact) in the mode set before the first
// launch (docs/correctness.md), another last bit.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include
// RUN: c++ -std=c++17 -O2 -frounding-math -fopenmp -I %runtime_include %s %t/constexpr-local-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
#include <stencil/dsl.hpp>

#include <cfenv>
#include <cstdio>
#include <cstring>
#include <vector>

constexpr float tenth() { return 1.0f / 10.0f; }

STENCIL_KERNEL void third(const stencil::Index2D &idx, const double *u, double *w) {
  constexpr double C = 1.0 / 3.0;
  w[idx.ix()] = u[idx.ix()] * C;
}
STENCIL_KERNEL void tenths(const stencil::Index2D &idx, const double *u, double *w) {
  constexpr float K = tenth();
  w[idx.ix()] = u[idx.ix()] + K;
}

int main() {
  const int N = 6;
  std::vector<double> U(N * N, 3.0);
  auto Compare = [&](const char *Name, int Mode, auto Stencil) {
    std::fesetround(Mode);
    std::vector<double> A(N * N), B(N * N);
    stencil::Loop2D<stencil::HostLoopEngine2D> H(N, 1, 1, N, 1, 1);
    stencil::Loop2D<stencil::OpenMPLoopEngine2D> O(N, 1, 1, N, 1, 1);
    H.run(Stencil, U.data(), A.data());
    O.run(Stencil, U.data(), B.data());
    std::fesetround(FE_TONEAREST);
    std::printf("%s: %s\n", Name,
                std::memcmp(A.data(), B.data(), A.size() * sizeof(double)) ? "differ" : "same");
  };
  // The OpenMP threads keep the mode they were made with: set it first.
  std::fesetround(FE_UPWARD);
  // CHECK: third, upward: same
  Compare("third, upward", FE_UPWARD, third);
  // CHECK-NEXT: tenths, upward: same
  Compare("tenths, upward", FE_UPWARD, tenths);
}
