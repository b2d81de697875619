// Fused groups of more than two stencils, not adjacent: a consumer
// recomputes every earlier producer it may (FluxX and FluxY around Scale,
// which touches neither), one that a stencil between them depends on stays
// apart, and over ranks each group reads its producers' inputs as far out as
// the recomputations reach.
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
// RUN: %stencilc %s --emit=plan --step-strategy=recompute -o - -- -I %mock_include | FileCheck %s --check-prefix=FORCED
// RUN: %stencilc %s --emit=plan --step-strategy=recompute -o - -- -I %mock_include | FileCheck %s --check-prefix=CHAIN
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
struct STENCIL_KERNEL Scale {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *a, double *b) const {
    b[idx.ix()] = 2.0 * a[idx.ix()];
  }
};
struct STENCIL_KERNEL Div {
  STENCIL_HD void operator()(const stencil::Index3D &idx, double dt, const double *fx,
                             const double *fy, const double *u, double *un) const {
    un[idx.ix()] = u[idx.ix()] + dt * (fx[idx.ix()] - fx[idx.ix<-1, 0, 0>()] +
                                       fy[idx.ix()] - fy[idx.ix<0, -1, 0>()]);
  }
};

STENCIL_STEP
void around(stencil::Step3D &s, double dt, const double *u, double *fx, double *fy,
            const double *a, double *b, double *un) {
  s.run(FluxX(), u, fx);
  s.run(FluxY(), u, fy);
  s.run(Scale(), a, b);
  s.run(Div(), dt, fx, fy, u, un);
}

// Scale overwrites u, which FluxX read: FluxX cannot move past it.
STENCIL_STEP
void blocked(stencil::Step3D &s, double dt, double *u, double *fx, double *fy, double *a,
             double *un) {
  s.run(FluxX(), u, fx);
  s.run(Scale(), a, u);
  s.run(FluxY(), a, fy);
  s.run(Div(), dt, fx, fy, a, un);
}

// PLAN:      step around ({{.*}}step-groups.cpp:{{[0-9]+}}), 3-D, 4 stencils
// PLAN-NEXT:   multi-kernel: 2 Scale (cost 5.33e+03)
// PLAN-NEXT:   recompute: 0 FluxX 1 FluxY 3 Div (cost 1.6e+04, staged 1.6e+04, multi-kernel 2.13e+04); recomputes fx fy; also compiled staged (CUDA), for the runtime to measure
// PLAN-NEXT:   over ranks, before group 1: u exchanged (x -1..+1 y -1..+1)
// PLAN-NEXT: step blocked
// PLAN-NEXT:   multi-kernel: 0 FluxX (cost 5.33e+03); not fused with 3 Div: a stencil between them (Scale) depends on it through 'u'
// Scale shares a with the group after it and depends on none of it: the
// two run together, Scale at each point, then the group.
// PLAN-NEXT:   together: 2 parts in one kernel (cost 1.6e+04, apart 1.87e+04, multi-kernel 2.13e+04)
// PLAN-NEXT:     alone: 1 Scale (cost 5.33e+03)
// PLAN-NEXT:     recompute: 2 FluxY 3 Div (cost 1.33e+04, staged 1.33e+04, multi-kernel 1.6e+04); recomputes fy
// PLAN-NEXT:   over ranks, before group 0: u exchanged (x -0..+1)
// PLAN-NEXT:   over ranks, before group 1: fx exchanged (x -1..+0) a exchanged (y -1..+1)

// Forcing recomputation changes nothing that is illegal.
// FORCED:      step blocked
// FORCED-NEXT:   multi-kernel: 0 FluxX (cost 5.33e+03); not fused with 3 Div: a stencil between them (Scale) depends on it through 'u'
// A forced strategy keeps each fused group a kernel of its own.
// FORCED-NEXT:   multi-kernel: 1 Scale (cost 5.33e+03)
// FORCED-NEXT:   recompute: 2 FluxY 3 Div (cost

// Both producers run at the consumer's place, each storing its array, then
// the consumer recomputes both where it reads them off the point.
// CPU:      static const char *stencilc_step_around_openmp(
// CPU:        { // 'Scale'
// CPU:        { // fused by recomputation
// CPU:            { // 'FluxX' at this point
// CPU:              fx[c] = 0.5 * (u[c + 1] + u[c]);
// CPU:            { // 'FluxY' at this point
// CPU:              fy[c] = 0.5 * (u[c + sy] - u[c]);
// CPU:            { // 'Div' at this point, recomputing what 'FluxX', 'FluxY' stores where it reads it
// CPU:              un[c] = u[c] + (dt * (((fx[c] - (i - 1 >= v.lo[0] ? stencilc_step_around_g1_recompute3(g, i - 1, j, k, stencilc_s2) : fx[c - 1])) + fy[c]) - (j - 1 >= v.lo[1] ? stencilc_step_around_g1_recompute4(g, i, j - 1, k, stencilc_s2) : fy[c - sy])));
// The fused group's calls in order, and the arrays it recomputes (fx, fy).
// CPU:      static const int stencilc_step_around_round1_calls[] = {0, 1, 3};
// CPU-NEXT: static const int stencilc_step_around_round1_recomputed[] = {2, 3};
// CPU-NEXT: static const stencil::GeneratedStepRound stencilc_step_around_rounds[] = {
// CPU-NEXT:     {2, -1, {{[{][{]}}0, 0}, {0, 0}, {0, 0}, {0, 0}}, nullptr, 0, "Scale", nullptr, 0, nullptr, 0, 0u, -1, nullptr, 0},
// CPU-NEXT:     {-1, 1, {{[{][{]}}1, 1}, {1, 1}, {0, 0}, {0, 0}}, stencilc_step_around_round1, 1, "recompute(FluxX, FluxY, Div)", stencilc_step_around_round1_calls, 3, stencilc_step_around_round1_recomputed, 2, 0u, -1, nullptr, 2},
// CPU-NEXT: };

// A producer whose consumer became a producer in a later group: the note
// says why it stayed alone (it had none).
STENCIL_KERNEL void P1(const stencil::Index3D &idx, const double *u, double *a) {
  a[idx.ix()] = u[idx.ix<1, 0, 0>()];
}
STENCIL_KERNEL void C1(const stencil::Index3D &idx, const double *a, const double *u, double *o1) {
  o1[idx.ix()] = a[idx.ix<-1, -1, 0>()] + a[idx.ix<0, 0, -1>()] * u[idx.ix()];
}
STENCIL_KERNEL void P2(const stencil::Index3D &idx, const double *u, double *b) {
  b[idx.ix()] = u[idx.ix<0, 0, 1>()];
}
STENCIL_KERNEL void C2(const stencil::Index3D &idx, const double *b, const double *o1, double *o2) {
  o2[idx.ix()] = b[idx.ix<0, -1, -1>()] + b[idx.ix<-1, 0, 0>()] + o1[idx.ix()];
}
STENCIL_STEP void chained(stencil::Step3D &s, const double *u, double *a, double *o1, double *b,
                          double *o2) {
  s.run(P1, u, a);
  s.run(C1, a, u, o1);
  s.run(P2, u, b);
  s.run(C2, b, o1, o2);
}
// CHAIN:      step chained
// CHAIN-NEXT:   multi-kernel: 0 P1 (cost {{.*}}); not fused with 1 C1: it is a producer in the fused group of 3 C2
// CHAIN-NEXT:   recompute: 1 C1 2 P2 3 C2
