// Fused groups together: two groups fused by recalculation that share an
// input and no dependence run in one kernel, each at every point in turn
// (the model: what they share is read once), with more registers a thread
// (four blocks an SM). A dependence between them keeps them apart, and so
// does a forced strategy (each fused group then a kernel of its own).
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=plan --step-strategy=recompute -o - -- -I %mock_include | FileCheck %s --check-prefix=FORCED
// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
#include <stencil/dsl.hpp>

// A face value of q carried by the mass flux m.
struct STENCIL_KERNEL FluxX {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *m, const double *q,
                             double *f) const {
    const double M = m[idx.ix<1, 0, 0>()];
    f[idx.ix()] = M * (M >= 0.0 ? q[idx.ix()] : q[idx.ix<1, 0, 0>()]);
  }
};
struct STENCIL_KERNEL Update {
  STENCIL_HD void operator()(const stencil::Index3D &idx, double dt, const double *q,
                             const double *f, double *qn) const {
    qn[idx.ix()] = q[idx.ix()] - dt * (f[idx.ix()] - f[idx.ix<-1, 0, 0>()]);
  }
};

// Two quantities carried by one mass flux m: two fused groups, both read m.
STENCIL_STEP
void carry(stencil::Step3D &s, double dt, const double *m, const double *a, const double *b,
           STENCIL_SCRATCH double *fa, STENCIL_SCRATCH double *fb, double *an, double *bn) {
  s.run(FluxX(), m, a, fa);
  s.run(FluxX(), m, b, fb);
  s.run(Update(), dt, a, fa, an);
  s.run(Update(), dt, b, fb, bn);
}

// The second group reads what the first writes (an): apart.
STENCIL_STEP
void chained(stencil::Step3D &s, double dt, const double *m, const double *a, double *fa,
             double *fb, double *an, double *bn) {
  s.run(FluxX(), m, a, fa);
  s.run(Update(), dt, a, fa, an);
  s.run(FluxX(), m, an, fb);
  s.run(Update(), dt, an, fb, bn);
}

// PLAN:      step carry
// PLAN-NEXT:   together: 2 parts in one kernel (cost [[COST:[0-9.e+]+]], apart [[APART:[0-9.e+]+]], multi-kernel
// PLAN-NEXT:     recompute: 0 FluxX 2 Update (cost {{.*}}); recomputes fa; scratch, not stored: fa
// PLAN-NEXT:     recompute: 1 FluxX 3 Update (cost {{.*}}); recomputes fb; scratch, not stored: fb
// PLAN-NEXT:   over ranks, before group 0: m exchanged (x -0..+1) a exchanged (x -1..+1) b exchanged (x -1..+1)
// PLAN-NEXT: step chained
// PLAN-NEXT:   recompute: 0 FluxX 1 Update
// PLAN-NEXT:   recompute: 2 FluxX 3 Update

// FORCED:      step carry
// FORCED-NEXT:   recompute: 0 FluxX 2 Update
// FORCED-NEXT:   recompute: 1 FluxX 3 Update

// One loop nest: each group's producer keeps its scratch value in a
// variable, its consumer recomputes the other offsets; then the next group.
// CPU:      static const char *stencilc_step_carry_openmp(
// CPU:        { // stencils together
// CPU:          {{\[\[}}maybe_unused]] double stencilc_at5{};
// CPU-NEXT:     {{\[\[}}maybe_unused]] double stencilc_at6{};
// CPU:          { // 'FluxX' at this point
// CPU:            stencilc_at5 = M * ((M >= 0.0) ? q[c] : q[c + 1]);
// CPU:          { // 'Update' at this point, recomputing what 'FluxX' stores where it reads it
// CPU:            qn[c] = q[c] - (dt * (stencilc_at5 - (i - 1 >= v.lo[0] ? stencilc_step_carry_g0_recompute5(g, i - 1, j, k, stencilc_s2, stencilc_s3) : f[c - 1])));
// CPU:          { // 'FluxX' at this point
// CPU:            stencilc_at6 = M * ((M >= 0.0) ? q[c] : q[c + 1]);
// CPU:          { // 'Update' at this point, recomputing what 'FluxX' stores where it reads it
// CPU:            qn[c] = q[c] - (dt * (stencilc_at6 - (i - 1 >= v.lo[0] ? stencilc_step_carry_g0_recompute6(g, i - 1, j, k, stencilc_s2, stencilc_s4) : f[c - 1])));
// Run call by call (over ranks), the producers come first, then the
// exchange of what they wrote, then the consumers.
// CPU:      static const int stencilc_step_carry_round0_calls[] = {0, 1, 2, 3};
// CPU-NEXT: static const int stencilc_step_carry_round0_recomputed[] = {4, 5};
// CPU:          "together(recompute(FluxX, Update), recompute(FluxX, Update))", stencilc_step_carry_round0_calls, 4, stencilc_step_carry_round0_recomputed, 2, 0u, -1, nullptr, 2},

// No staged alternative for a part; four blocks of 256 threads an SM.
// CUDA:      __global__ void __launch_bounds__(256, 4) stencilc_step_carry_g0(
// CUDA-NOT:  stencilc_step_carry_g0_alt
// CUDA:      __global__ void __launch_bounds__(256, 5) stencilc_step_chained_g0(
