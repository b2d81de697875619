// Scratch arrays (STENCIL_SCRATCH) in fused groups: a producer's store of a
// scratch array that only its consumer reads is left out; the consumer
// reads the producer's value at its own point from a variable and
// recomputes it elsewhere. A scratch array another call reads, or an array
// that is not scratch, is stored as before.
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
// RUN: %stencilc %s --emit=cuda --step-strategy=staged --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=STAGED
// RUN: %stencilc %s --emit=cuda --step-strategy=recompute --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL FluxX {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u, double *fx) const {
    fx[idx.ix()] = 0.5 * (u[idx.ix<1, 0, 0>()] + u[idx.ix()]);
  }
};
struct STENCIL_KERNEL FluxY {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u, double *fy) const {
    if (idx.j() == 0)
      fy[idx.ix()] = 0.0;
    else
      fy[idx.ix()] = 0.5 * (u[idx.ix<0, 1, 0>()] - u[idx.ix()]);
  }
};
struct STENCIL_KERNEL Div {
  STENCIL_HD void operator()(const stencil::Index3D &idx, double dt, const double *fx,
                             const double *fy, const double *u, double *un) const {
    un[idx.ix()] = u[idx.ix()] + dt * (fx[idx.ix()] - fx[idx.ix<-1, 0, 0>()] +
                                       fy[idx.ix()] - fy[idx.ix<0, -1, 0>()]);
  }
};
struct STENCIL_KERNEL Copy {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *a, double *b) const {
    b[idx.ix()] = a[idx.ix()];
  }
};

STENCIL_STEP
void both(stencil::Step3D &s, double dt, const double *u, STENCIL_SCRATCH double *fx,
          STENCIL_SCRATCH double *fy, double *un) {
  s.run(FluxX(), u, fx);
  s.run(FluxY(), u, fy);
  s.run(Div(), dt, fx, fy, u, un);
}

// fx is read again after the group (stored); fy is not scratch (stored).
STENCIL_STEP
void readAfter(stencil::Step3D &s, double dt, const double *u, STENCIL_SCRATCH double *fx,
               double *fy, double *un, double *keep) {
  s.run(FluxX(), u, fx);
  s.run(FluxY(), u, fy);
  s.run(Div(), dt, fx, fy, u, un);
  s.run(Copy(), fx, keep);
}

// fx is written again on every path before the next read: not stored.
STENCIL_STEP
void overwritten(stencil::Step3D &s, double dt, const double *u, const double *w,
                 STENCIL_SCRATCH double *fx, STENCIL_SCRATCH double *fy, double *un,
                 double *keep) {
  s.run(FluxX(), u, fx);
  s.run(FluxY(), u, fy);
  s.run(Div(), dt, fx, fy, u, un);
  s.run(Copy(), w, fx);
  s.run(Copy(), fx, keep);
}

// A 2-D step: its fused block has one plane.
STENCIL_KERNEL
void flux2(const stencil::Index2D &idx, const float *u, float *f) {
  f[idx.ix()] = u[idx.ix<1, 0>()] - u[idx.ix()];
}
STENCIL_KERNEL
void div2(const stencil::Index2D &idx, const float *f, float *out) {
  out[idx.ix()] = f[idx.ix()] - f[idx.ix<-1, 0>()];
}
STENCIL_STEP
void flat(stencil::Step2D &s, const float *u, STENCIL_SCRATCH float *f, float *out) {
  s.run(flux2, u, f);
  s.run(div2, f, out);
}

// Fused kernels hold FusedThreadsPerSM (1280) threads an SM: five blocks of
// 32 x 4 x 2 in 3-D, ten of 32 x 4 in 2-D.
// CUDA:      __global__ void __launch_bounds__(256, 5) stencilc_step_both_g0(
// CUDA:        stencilc_at3 = 0.5 * (u[c + 1] + u[c]);
// CUDA:      __global__ void __launch_bounds__(128, 10) stencilc_step_flat_g0(
// CUDA:        stencilc_at2 = u[c + 1] - u[c];
// CUDA:        out[c] = stencilc_at2 - (i - 1 >= v.lo[0] ?

// PLAN:      step both
// PLAN-NEXT:   recompute: 0 FluxX 1 FluxY 2 Div ({{.*}}); recomputes fx fy; scratch, not stored: fx fy;
// PLAN:      step readAfter
// PLAN-NEXT:   recompute: 0 FluxX 1 FluxY 2 Div ({{.*}}); recomputes fx fy; also compiled
// PLAN:      step overwritten
// PLAN-NEXT:   recompute: 0 FluxX 1 FluxY 2 Div ({{.*}}); recomputes fx fy; scratch, not stored: fx fy;

// The producers keep their values in variables; the consumer reads them at
// its point and recomputes elsewhere.
// CPU:      static const char *stencilc_step_both_openmp(
// CPU:        { // fused by recomputation
// CPU:          {{\[\[maybe_unused\]\]}} double stencilc_at3{};
// CPU-NEXT:     {{\[\[maybe_unused\]\]}} double stencilc_at4{};
// CPU:            { // 'FluxX' at this point
// CPU-NOT:      fx[c] =
// CPU:              stencilc_at3 = 0.5 * (u[c + 1] + u[c]);
// CPU:            { // 'FluxY' at this point
// CPU:              stencilc_at4 = {{.*}}
// CPU:            { // 'Div' at this point, recomputing
// CPU:              un[c] = u[c] + (dt * (((stencilc_at3 - (i - 1 >= v.lo[0] ? stencilc_step_both_g0_recompute3(g, i - 1, j, k, stencilc_s2) : fx[c - 1])) + stencilc_at4) - (j - 1 >= v.lo[1] ? stencilc_step_both_g0_recompute4(g, i, j - 1, k, stencilc_s2) : fy[c - sy])));
// In readAfter, both producers store.
// CPU:      static const char *stencilc_step_readAfter_openmp(
// CPU-NOT:    stencilc_at
// CPU:              fx[c] = 0.5 * (u[c + 1] + u[c]);
// CPU-NOT:    stencilc_at
// CPU:              un[c] = u[c] + (dt * (((fx[c] -

// Staged: the producers store nothing from the rings.
// STAGED:      __global__ void {{.*}}stencilc_step_both_g0(
// STAGED:        // 'FluxX' stores what its ring holds here.
// STAGED-NEXT:   // 'fx' is scratch: not stored.
// STAGED-NEXT:   // 'FluxY' stores what its ring holds here.
// STAGED-NEXT:   // 'fy' is scratch: not stored.
// STAGED-NEXT:   { // 'Div' at this point, reading
// STAGED:      __global__ void {{.*}}stencilc_step_readAfter_g0(
// STAGED:        // 'FluxX' stores what its ring holds here.
// STAGED-NEXT:   stencilc_s3[c] =
// STAGED:        // 'FluxY' stores what its ring holds here.
// STAGED-NEXT:   stencilc_s4[c] =
