// Parameters keep their exact C++ types in generated code, printed from the
// IR's own type (not a spelling cut apart): long and long long, unsigned
// long, bool, a by-value index, const scalars, const and __restrict__
// pointers, typedefs. The OpenMP code registers a signature equal to the
// call's (the runtime checks it) and unpacks every argument; the result
// equals the host engine's, and nvcc-free checks below read the signature.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu,cuda -o %t -- -I %runtime_include
// RUN: FileCheck %s --check-prefix=SIG < %t/param-types-run.stencil.cpp
// RUN: FileCheck %s --check-prefix=CUDA < %t/param-types-run.stencil.cu
// RUN: c++ -std=c++17 -O0 -fopenmp -Wall -Wextra -Werror -I %runtime_include %s %t/param-types-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
#include <stencil/dsl.hpp>

#include <cstdio>
#include <vector>

using real = double;

struct STENCIL_KERNEL Mixed {
  void operator()(stencil::Index3D idx, const long n, long long m, unsigned long u, bool b,
                  const real *__restrict__ f, real *const out) const {
    out[idx.ix()] = f[idx.ix<0, 0, 1>()] + static_cast<double>(n) + static_cast<double>(m) +
                    static_cast<double>(u) + (b ? 0.5 : 0.25);
  }
};

STENCIL_KERNEL
void widths(const stencil::Index2D &idx, const long long *a, const unsigned long *c,
            long *out) {
  out[idx.ix()] = static_cast<long>(a[idx.ix()]) + static_cast<long>(c[idx.ix<1, 0>()]);
}

// SIG:      void widths(const stencil::Index<2> &, const long long *, const unsigned long *, long *);
// SIG:      /*signature=*/&typeid(void(long, long long, unsigned long, bool, const double *, double *)),
// SIG:      /*signature=*/&typeid(void(const long long *, const unsigned long *, long *)),
// CUDA:     const long n = *static_cast<const long *>(args[0]);
// CUDA:     const double *const f = *static_cast<const double *const *>(args[4]);
// CUDA:     double *const out = *static_cast<double *const *>(args[5]);

int main() {
  const int N = 6;
  std::vector<double> F(N * N * N), A(F.size(), -1), B(F.size(), -1);
  for (std::size_t I = 0; I < F.size(); ++I)
    F[I] = 0.125 * static_cast<double>(I % 7);
  stencil::Loop3D<stencil::HostLoopEngine3D> H(N, 0, 1, N, 0, 0, N, 0, 1);
  H.run(Mixed(), 3L, -4LL, 5UL, true, F.data(), A.data());
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> L(N, 0, 1, N, 0, 0, N, 0, 1);
  L.run(Mixed(), 3L, -4LL, 5UL, true, F.data(), B.data());
  std::vector<long long> Ai(N * N, 7);
  std::vector<unsigned long> Ci(N * N, 9);
  std::vector<long> Oh(N * N, 0), Oo(N * N, 0);
  stencil::Loop2D<stencil::HostLoopEngine2D> H2(N, 0, 1, N, 0, 0);
  H2.run(widths, Ai.data(), Ci.data(), Oh.data());
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> L2(N, 0, 1, N, 0, 0);
  L2.run(widths, Ai.data(), Ci.data(), Oo.data());
  std::printf("mixed %s, widths %s\n", A == B ? "equal" : "DIFFERENT",
              Oh == Oo && Oh[0] == 16 ? "equal" : "DIFFERENT");
  return 0;
}
// CHECK: mixed equal, widths equal
