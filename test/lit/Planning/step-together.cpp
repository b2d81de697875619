// Stencils run together: consecutive stencils left alone that share no
// dependence run in one kernel, each at every point in turn, when they share
// an input (the cost model: it is read once); a dependence between them, or
// --step-strategy=multi-kernel, keeps them apart.
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=plan --step-strategy=multi-kernel -o - -- -I %mock_include | FileCheck %s --check-prefix=MULTI
// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Ratio {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *m, const double *rho,
                             double *q) const {
    q[idx.ix()] = m[idx.ix()] / rho[idx.ix()];
  }
};
struct STENCIL_KERNEL Face {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *m, const double *rho,
                             double *u) const {
    u[idx.ix()] = 2.0 * m[idx.ix()] / (rho[idx.ix()] + rho[idx.ix<-1, 0, 0>()]);
  }
};
struct STENCIL_KERNEL Other {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *a, double *b) const {
    b[idx.ix()] = 3.0 * a[idx.ix<0, 1, 0>()];
  }
};

// Ratio and Face share m and rho: together. Other shares nothing with them,
// and the model sees nothing saved: alone.
STENCIL_STEP
void share(stencil::Step3D &s, const double *m, const double *rho, double *q, double *u,
           const double *a, double *b) {
  s.run(Ratio(), m, rho, q);
  s.run(Face(), m, rho, u);
  s.run(Other(), a, b);
}

// Ratio overwrites rho, which Face read at x - 1 (an anti dependence; no
// flow to recompute): apart, though they share m.
STENCIL_STEP
void chain(stencil::Step3D &s, const double *m, double *rho, double *u, const double *w) {
  s.run(Face(), m, rho, u);
  s.run(Ratio(), m, w, rho);
}

// PLAN:      step share
// PLAN-NEXT:   together: 0 Ratio 1 Face (cost 1.07e+04, multi-kernel 1.6e+04)
// PLAN-NEXT:   multi-kernel: 2 Other
// PLAN-NEXT:   over ranks, before group 0: rho exchanged (x -1..+0)
// PLAN-NEXT:   over ranks, before group 1: a exchanged (y -0..+1)
// PLAN-NEXT: step chain
// PLAN-NEXT:   multi-kernel: 0 Face
// PLAN-NEXT:   multi-kernel: 1 Ratio

// MULTI:      step share
// MULTI-NEXT:   multi-kernel: 0 Ratio
// MULTI-NEXT:   multi-kernel: 1 Face
// MULTI-NEXT:   multi-kernel: 2 Other

// Each at the point in turn, reading its own names for the shared arrays.
// CPU:      static const char *stencilc_step_share_openmp(
// CPU:        { // stencils together
// CPU:            { // 'Ratio' at this point
// CPU:              q[c] = m[c] / rho[c];
// CPU:            { // 'Face' at this point
// CPU-NEXT:         const double *const m = stencilc_s1;
// CPU:              u[c] = (2.0 * m[c]) / (rho[c] + rho[c - 1]);
// CPU:      static const int stencilc_step_share_round0_calls[] = {0, 1};
// CPU-NEXT: static const stencil::GeneratedStepRound stencilc_step_share_rounds[] = {
// CPU-NEXT:     {-1, 0, {{[{][{]}}1, 0}, {0, 0}, {0, 0}, {0, 0}}, stencilc_step_share_round0, 1, "together(Ratio, Face)", stencilc_step_share_round0_calls, 2, nullptr, 0, 0u, -1, nullptr, 0},

// CUDA:      __global__ void __launch_bounds__(256, 5) stencilc_step_share_g0(
// CUDA:        { // stencils together, one thread per point
