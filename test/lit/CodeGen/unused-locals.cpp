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
