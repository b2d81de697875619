// Constants written the ways C++ allows, which stencilc refused: a template's
// value parameter used as a value (x * N), value-initialisation (float(),
// T(), float{}, T{}) and a scalar's braces (float{x}), sizeof...(Ts), the builtins behind INFINITY, NAN and HUGE_VAL, std::numeric_limits'
// members, `if constexpr` (only the taken branch runs), and the index passed
// to a helper by value. The OpenMP code gives the host reference's bits.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu,cuda -o %t -- -I %runtime_include
// RUN: FileCheck %s --input-file %t/constants-run.stencil.cpp
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/constants-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s --check-prefix=OUT
// A NaN with a payload is refused: the generated code would write the
// default one.
// RUN: not %stencilc %s --emit=cpu -o %t/payload -- -I %runtime_include -DPAYLOAD 2>&1 | FileCheck %s --check-prefix=PAYLOAD
#include <stencil/dsl.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

template <int N> inline float scale(float x) { return x * N; }
template <class T> inline T plusZero(T x) { return x + T{}; }
template <class... Ts> inline int count(int x) { return x * static_cast<int>(sizeof...(Ts)); }
template <class T> inline T positive(T x) { return x > T() ? x : T(); }
template <int N> inline float sumEast(stencil::Index2D at, const float *f) {
  if constexpr (N == 0)
    return f[at.ix()];
  else
    return f[at.ix<N, 0>()] + sumEast<N - 1>(at, f);
}

STENCIL_KERNEL
void constants(const stencil::Index2D &idx, const float *u, float *a, float *b, double *c,
               float *d) {
  const float x = u[idx.ix()];
  float zero = float();
  a[idx.ix()] = scale<3>(x) + positive(x) + zero + float{} + float{x} + plusZero(x) +
                static_cast<float>(count<int, float>(3));
  b[idx.ix()] = x > 0.5f ? INFINITY : (x < -0.5f ? -HUGE_VALF : (x == 0.0f ? NAN : x));
  c[idx.ix()] = x > 0.0f ? std::numeric_limits<double>::max()
                         : (x < -0.9f ? std::numeric_limits<double>::quiet_NaN()
                                      : std::numeric_limits<double>::denorm_min());
#ifdef PAYLOAD
  d[idx.ix()] = __builtin_nanf("5");
#elif defined(BUILTIN)
  d[idx.ix()] = __builtin_expect(x > 0.0f, 1) ? x : 0.0f;
#else
  d[idx.ix()] = sumEast<2>(idx, u) + (float)std::numeric_limits<int>::min();
#endif
}

// CHECK: __builtin_huge_valf()
// CHECK: __builtin_nanf("")
// PAYLOAD: error: unsupported expression in a stencil: a NaN other than the default quiet NaN (its bits)
// A builtin that is no constant is named as such (it was "has no visible
// definition").
// RUN: not %stencilc %s --emit=cpu -o %t/builtin -- -I %runtime_include -DBUILTIN 2>&1 | FileCheck %s --check-prefix=BUILTIN
// BUILTIN: error: unsupported expression in a stencil: call of the builtin '__builtin_expect' (stencils call math functions by their names, and builtins only as constants)

template <typename Engine> std::vector<unsigned char> runOnce() {
  const int Nx = 9, Ny = 7, Count = Nx * Ny;
  std::vector<float> U(Count), A(Count, -7.0f), B(Count, -7.0f), D(Count, -7.0f);
  std::vector<double> C(Count, -7.0);
  for (int P = 0; P < Count; ++P)
    U[P] = P % 7 == 0 ? 0.0f : std::sin(0.37f * P);
  stencil::Loop2D<Engine> Loop(Nx, 0, 2, Ny, 0, 0);
  Loop.run(constants, U.data(), A.data(), B.data(), C.data(), D.data());
  std::vector<unsigned char> Bytes;
  for (const void *Data : {(const void *)A.data(), (const void *)B.data(), (const void *)D.data()})
    Bytes.insert(Bytes.end(), (const unsigned char *)Data,
                 (const unsigned char *)Data + Count * sizeof(float));
  Bytes.insert(Bytes.end(), (const unsigned char *)C.data(),
               (const unsigned char *)C.data() + Count * sizeof(double));
  return Bytes;
}

int main() {
  auto Host = runOnce<stencil::HostLoopEngine2D>();
  auto OpenMP = runOnce<stencil::OpenMPLoopEngine2D>();
  std::printf("bit-equal %d\n", Host == OpenMP ? 1 : 0);
  return Host == OpenMP ? 0 : 1;
}
// OUT: bit-equal 1
