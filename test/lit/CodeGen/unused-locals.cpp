// The generated code is compiled with the user's target's flags: it must
// hold -Wall -Wextra -Werror (and nvcc's -Werror all-warnings, nvcc.test).
// A helper's parameter a taken `if constexpr` branch leaves unused is
// declared [[maybe_unused]]; so is the point's index where a recomputed
// producer reads only arrays of lower rank. Both warned before.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include
// RUN: FileCheck %s < %t/unused-locals.stencil.cpp
// RUN: c++ -std=c++17 -O1 -Wall -Wextra -Werror -fopenmp -I %runtime_include -c %t/unused-locals.stencil.cpp -o %t/unused-locals.o
// CHECK: {{\[\[}}maybe_unused{{\]\]}} float x{{.*}} = x
// CHECK: {{\[\[}}maybe_unused{{\]\]}} const long long c = i + j * sy + k * sz;
// RUN: %stencilc %s --emit=cuda -o %t -- -std=c++17 -I %runtime_include
// RUN: FileCheck %s --check-prefix=SMEM < %t/unused-locals.stencil.cu
// SMEM-LABEL: void stencilc_sideColumn_smem(
// SMEM: float stencilc_q1_0{};
// SMEM-NEXT: // A queue of f at c - 1, z offsets +1 .. +1.
// SMEM-NEXT: float stencilc_q1c1_0{};
// SMEM-NEXT: for (long long k
#include <stencil/dsl.hpp>

template <int N> inline float power(float x) {
  if constexpr (N == 0)
    return 1.0f;
  else
    return x * power<N - 1>(x);
}

STENCIL_KERNEL void cube(const stencil::Index3D &idx, const float *a,
                         float *b) {
  b[idx.ix()] = power<3>(a[idx.ix()]);
}

// A switch of empty cases: its value is still read; an array named only to
// quiet "unused" reads nothing.
STENCIL_KERNEL void emptyCases(const stencil::Index3D &idx, const int *k,
                               const float *unused, float *b) {
  (void)unused;
  switch (k[idx.ix()]) {
  case 1:
    break;
  }
  b[idx.ix()] = 1.0f;
}

struct STENCIL_KERNEL Pressure {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *A,
                             const float *ps, float *p) const {
    p[idx.ix()] = A[idx.ix_z()] * ps[idx.ix_xy()];
  }
};
struct STENCIL_KERNEL Gradient {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *p,
                             float *g) const {
    g[idx.ix()] = p[idx.ix<1, 0, 0>()] - p[idx.ix()];
  }
};

STENCIL_STEP
void pressureStep(stencil::Step3D &s, const float *A, const float *ps,
                  float *p, float *g) {
  s.run(Pressure(), A, ps, p);
  s.run(Gradient(), p, g);
}

// A consumer that reads the producer's output only at the point: the group
// computes in place and never reads v, the region it recomputes within
// (declared [[maybe_unused]], a parameter of the group's launcher too).
struct STENCIL_KERNEL Make {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u,
                             float *a) const {
    a[idx.ix()] = u[idx.ix<1, 0, 0>()];
  }
};
struct STENCIL_KERNEL Use {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = 3.0f * a[idx.ix()];
  }
};
STENCIL_STEP
void inPlace(stencil::Step3D &s, const float *u, float *a, float *b) {
  s.run(Make(), u, a);
  s.run(Use(), a, b);
}

// A column read at z offsets 0 and +1 beside the centre: the smem variant
// reads its plane 0 from the tile, so its queue holds +1 alone (a register
// for 0 would only be shifted into; nvcc.test compiles the CUDA with
// -Werror all-warnings and checks the queue).
STENCIL_KERNEL void sideColumn(const stencil::Index3D &idx, const float *f,
                               float *fn) {
  fn[idx.ix()] = f[idx.ix()] + f[idx.ix<-1, 0, 1>()] + f[idx.ix<-1, 0, 0>()];
}
