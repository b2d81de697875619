// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s
// RUN: rm -rf %t && %stencilc %s --emit=cpu --no-line-directives -o %t -- -I %mock_include
// RUN: c++ -std=c++17 -fopenmp -Wall -Wextra -Werror -fsyntax-only -I %runtime_include %t/openmp-vectorize.stencil.cpp
// RUN: c++ -std=c++17 -O3 -fopenmp -fopt-info-vec-optimized -c -o /dev/null -I %runtime_include %t/openmp-vectorize.stencil.cpp 2>&1 | grep "loop vectorized" | cut -d: -f2 | sort -nu | wc -l | FileCheck %s --check-prefix=GCC
//
// The OpenMP x loop is one GCC vectorizes: '#pragma omp simd' where no array
// the stencil writes is read elsewhere in the row, an if/else of cheap
// assignments printed as selects (GCC leaves "control flow in loop" scalar),
// and the thread count from the CPUs the process may use.
#include <cmath>
#include <stencil/dsl.hpp>

// First-order upwind advection: the branch picks the side the flow comes from.
struct STENCIL_KERNEL Upwind {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float dt, const float *u, const float *q,
                             float *qn) const {
    float flux;
    if (u[idx.ix()] > 0.0f)
      flux = u[idx.ix()] * (q[idx.ix()] - q[idx.ix<-1, 0, 0>()]);
    else
      flux = u[idx.ix()] * (q[idx.ix<1, 0, 0>()] - q[idx.ix()]);
    qn[idx.ix()] = q[idx.ix()] - dt * flux;
  }
};

// A store in one branch only: the other side keeps the array's value.
struct STENCIL_KERNEL Clamp {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, double lo, const double *f,
                             double *out) const {
    out[idx.ix()] = f[idx.ix()];
    if (f[idx.ix<0, 1, 0>()] < lo)
      out[idx.ix()] = lo;
  }
};

// Integer division by a value that may be zero traps: it stays a branch.
struct STENCIL_KERNEL Divide {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const int *n, const int *d, int *out) const {
    int r = 0;
    if (d[idx.ix()] != 0)
      r = n[idx.ix()] / d[idx.ix()];
    out[idx.ix()] = r;
  }
};

// A math call may set errno on the side not taken: a branch too.
struct STENCIL_KERNEL Root {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const double *f, double *out) const {
    double r = 0.0;
    if (f[idx.ix()] >= 0.0)
      r = std::sqrt(f[idx.ix()]);
    out[idx.ix()] = r;
  }
};

// Before the includes, so that <cmath>'s functions inline into the stencils
// as in the host reference (pow-constant-exponent-run.cpp).
// CHECK:      #pragma GCC optimize("no-trapping-math")
// CHECK:      #include <stencil/cpu_threads.hpp>
// Clang's note that a simd loop stayed scalar is a warning without a place.
// CHECK:      #pragma clang diagnostic ignored "-Wpass-failed"
// CHECK:      static const char *stencilc_Upwind_openmp(
// CHECK:        #pragma omp parallel for collapse(2) schedule(static) num_threads(stencil::openmpThreads())
// CHECK-NEXT:   for (long long stencilc_kt = 0; stencilc_kt < stencilc_t.chunksZ; ++stencilc_kt) {
// CHECK-NEXT:     for (long long stencilc_jt = 0; stencilc_jt < stencilc_t.tilesY; ++stencilc_jt) {
// CHECK-NEXT:       for (long long k = stencilc_t.zBegin(stencilc_kt); k < stencilc_t.zEnd(stencilc_kt); ++k) {
// CHECK-NEXT:         for (long long j = stencilc_t.yBegin(stencilc_jt); j < stencilc_t.yEnd(stencilc_jt); ++j) {
// CHECK-NEXT:           #pragma omp simd
// CHECK-NEXT:           for (long long i = r.lo[0]; i < r.hi[0]; ++i) {
// CHECK-NEXT:             const long long c = i + j * sy + k * sz;
// CHECK-NEXT:             float flux;
// CHECK-NEXT:             const float stencilc_side0 = u[c] * (q[c] - q[c - 1]);
// CHECK-NEXT:             const float stencilc_side1 = u[c] * (q[c + 1] - q[c]);
// CHECK-NEXT:             flux = (u[c] > 0.0f) ? stencilc_side0 : stencilc_side1;
// CHECK-NEXT:             qn[c] = q[c] - (dt * flux);
// CHECK-NEXT:           }

// CHECK:      static const char *stencilc_Clamp_openmp(
// CHECK:                  out[c] = f[c];
// CHECK-NEXT:             const double stencilc_side{{[0-9]+}} = lo;
// CHECK-NEXT:             out[c] = (f[c + sy] < lo) ? stencilc_side{{[0-9]+}} : out[c];
// CHECK-NEXT:           }

// CHECK:      static const char *stencilc_Divide_openmp(
// CHECK:                  int r_ = 0;
// CHECK-NEXT:             if (d[c] != 0) {
// CHECK-NEXT:               r_ = n[c] / d[c];
// CHECK-NEXT:             }

// CHECK:      static const char *stencilc_Root_openmp(
// CHECK:                  double r_ = 0.0;
// CHECK-NEXT:             if (f[c] >= 0.0) {
// CHECK-NEXT:               r_ = ::std::sqrt(f[c]);
// CHECK-NEXT:             }

// GCC vectorizes two x loops (lines), Upwind's and Clamp's; Divide's and
// Root's keep their branch.
// GCC: {{^ *}}2{{$}}
