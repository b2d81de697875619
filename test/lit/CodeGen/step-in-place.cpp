// A fused group whose consumer reads a producer's array at its own point only
// computes it there once, in place: the plan says so rather than
// "recomputes" (which it says of the arrays read around the point).
// RUN: %stencilc %s --emit=plan --step-strategy=recompute -o - -- -I %mock_include | FileCheck %s
// RUN: %stencilc %s --emit=plan --step-strategy=staged -o - -- -I %mock_include | FileCheck %s --check-prefix=STAGED
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL FluxX {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u, double *fx) const {
    fx[idx.ix()] = 0.5 * (u[idx.ix<1, 0, 0>()] + u[idx.ix()]);
  }
};
struct STENCIL_KERNEL FluxY {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u, double *fy) const {
    fy[idx.ix()] = 0.5 * (u[idx.ix<0, 1, 0>()] - u[idx.ix()]);
  }
};
struct STENCIL_KERNEL Mix {
  STENCIL_HD void operator()(const stencil::Index3D &idx, double dt, const double *fx,
                             const double *fy, const double *u, double *un) const {
    un[idx.ix()] = u[idx.ix()] + dt * (fx[idx.ix()] + fy[idx.ix()] - fy[idx.ix<0, -1, 0>()]);
  }
};

STENCIL_STEP
void atPoint(stencil::Step3D &s, double dt, const double *u, double *fx, double *fy,
             double *un) {
  s.run(FluxX(), u, fx);
  s.run(FluxY(), u, fy);
  s.run(Mix(), dt, fx, fy, u, un);
}

// CHECK:      step atPoint ({{.*}}step-in-place.cpp:{{[0-9]+}}), 3-D, 3 stencils
// CHECK-NEXT:   recompute: 0 FluxX 1 FluxY 2 Mix ({{.*}}); recomputes fy; computes in place (read at the point only): fx{{$| }}
// STAGED:       staged: 0 FluxX 1 FluxY 2 Mix ({{.*}}); stages fy; computes in place (read at the point only): fx{{$| }}
