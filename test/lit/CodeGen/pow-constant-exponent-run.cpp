// A float stencil raising to a constant power (std::pow(x, 2.0f), powf, a
// constexpr exponent, a helper's constant argument, -1): the OpenMP code
// gives the host reference's bits at -O2. GCC turns pow(x, 2.0f) into
// x * x where it inlines std::pow(float, float), which it did in the host
// reference but not in the generated file, whose `#pragma GCC optimize`
// came after <cmath> (a function of other optimisation options is not
// inlined): there powf ran, a last bit apart at about one point in 1200.
// At -O0, -fno-inline or -fno-builtin, GCC folds powf(x, -1.0f) into 1 / x
// but not std::pow(x, -1.0f), whose <cmath> overload it does not inline:
// the generated code calls each function as the source named it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include
// RUN: c++ -std=c++17 -O2 -frounding-math -fopenmp -I %runtime_include %s %t/pow-constant-exponent-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
// RUN: c++ -std=c++17 -O0 -frounding-math -fopenmp -I %runtime_include %s %t/pow-constant-exponent-run.stencil.cpp -o %t/run0
// RUN: %t/run0 | FileCheck %s
// RUN: c++ -std=c++17 -O2 -fno-inline -fno-builtin -frounding-math -fopenmp -I %runtime_include %s %t/pow-constant-exponent-run.stencil.cpp -o %t/run2
// RUN: %t/run2 | FileCheck %s
// RUN: FileCheck %s --check-prefix=CODE < %t/pow-constant-exponent-run.stencil.cpp
#include <stencil/dsl.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

STENCIL_HD inline float raise(float x, float e) { return std::pow(x, e); }

STENCIL_KERNEL void square(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = std::pow(a[idx.ix()], 2.0f);
}
STENCIL_KERNEL void squareC(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = powf(a[idx.ix()], 2.0f);
}
STENCIL_KERNEL void squareConstexpr(const stencil::Index2D &idx, const float *a, float *b) {
  constexpr float E = 2.0f;
  b[idx.ix()] = std::pow(a[idx.ix()], E);
}
STENCIL_KERNEL void squareHelper(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = raise(a[idx.ix()], 2.0f);
}
STENCIL_KERNEL void inverse(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = std::pow(a[idx.ix()], -1.0f);
}
// CODE: ::powf(a[c], -1.0f)
STENCIL_KERNEL void inverseC(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = powf(a[idx.ix()], -1.0f);
}
// <cmath>'s template for mixed types: in double, the exponent an int.
// CODE: static_cast<float>(::std::pow(a[c], 2))
STENCIL_KERNEL void squareInt(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = std::pow(a[idx.ix()], 2);
}
// CODE: ::std::pow(a[c], -1.0f) + ::expf(1.3f)
STENCIL_KERNEL void inverseExp(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = std::pow(a[idx.ix()], -1.0f) + expf(1.3f);
}

int main() {
  const int N = 256, P = N * N;
  std::vector<float> A(P);
  std::mt19937 Rng(1);
  for (float &V : A)
    V = 0.1f + static_cast<float>(Rng() % 1000000) * 1e-4f;
  stencil::Loop2D<stencil::HostLoopEngine2D> Host(N, 0, 0, N, 0, 0);
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Omp(N, 0, 0, N, 0, 0);
  auto Compare = [&](const char *Name, auto Stencil) {
    std::vector<float> B(P, 3.0f), HB(P, 3.0f);
    Host.run(Stencil, A.data(), HB.data());
    Omp.run(Stencil, A.data(), B.data());
    int Differ = 0;
    for (int I = 0; I < P; ++I)
      Differ += std::memcmp(&B[I], &HB[I], sizeof(float)) != 0;
    std::printf("%s: %d points differ\n", Name, Differ);
  };
  // CHECK: pow: 0 points differ
  Compare("pow", square);
  // CHECK-NEXT: powf: 0 points differ
  Compare("powf", squareC);
  // CHECK-NEXT: constexpr: 0 points differ
  Compare("constexpr", squareConstexpr);
  // CHECK-NEXT: helper: 0 points differ
  Compare("helper", squareHelper);
  // CHECK-NEXT: inverse: 0 points differ
  Compare("inverse", inverse);
  // CHECK-NEXT: powf inverse: 0 points differ
  Compare("powf inverse", inverseC);
  // CHECK-NEXT: int exponent: 0 points differ
  Compare("int exponent", squareInt);
  // CHECK-NEXT: inverse and exp: 0 points differ
  Compare("inverse and exp", inverseExp);
}
