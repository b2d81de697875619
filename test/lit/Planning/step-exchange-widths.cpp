// Over ranks an exchange fills exactly what is read before the array is
// written again: the widths and sides its group and the later groups read
// (u: x both sides for ReadX, then y -2..+1 and a diagonal for ReadY, which
// follows without an exchange), corners only when one of them reads a
// diagonal, and after Rewrite a new exchange of only what ReadZ reads.
// RUN: %stencilc %s --emit=plan --step-strategy=multi-kernel -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=cpu --step-strategy=multi-kernel --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL ReadX {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *a) const {
    a[idx.ix()] = u[idx.ix<-1, 0, 0>()] + u[idx.ix<1, 0, 0>()];
  }
};
struct STENCIL_KERNEL ReadY {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *b) const {
    b[idx.ix()] = u[idx.ix<0, -2, 0>()] - u[idx.ix<1, 1, 0>()];
  }
};
struct STENCIL_KERNEL Rewrite {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, const float *b,
                             float *u) const {
    u[idx.ix()] = a[idx.ix()] * b[idx.ix()];
  }
};
struct STENCIL_KERNEL ReadZ {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *c) const {
    c[idx.ix()] = u[idx.ix<0, 0, -1>()];
  }
};

STENCIL_STEP
void widths(stencil::Step3D &s, float *u, float *a, float *b, float *c) {
  s.run(ReadX(), u, a);
  s.run(ReadY(), u, b);
  s.run(Rewrite(), a, b, u);
  s.run(ReadZ(), u, c);
}

// PLAN: over ranks, before group 0: u exchanged (x -1..+1; sends x -1..+1 y -2..+1, diagonal)
// PLAN-NEXT: over ranks, before group 1: u (x -0..+1 y -2..+1, diagonal)
// PLAN-NEXT: over ranks, before group 3: u exchanged (z -1..+0)
// PLAN-NOT: over ranks

// The rounds' tables: param, reads, diagonal, exchange, then what the
// exchange sends and whether with corners (ABI 8).
// CPU: stencilc_step_widths_round0[] = {
// CPU-NEXT: {0, {{[{][{]}}1, 1}, {0, 0}, {0, 0}, {0, 0}}, false, true, {{[{][{]}}1, 1}, {2, 1}, {0, 0}, {0, 0}}, true},
// CPU: stencilc_step_widths_round1[] = {
// CPU-NEXT: {0, {{[{][{]}}0, 1}, {2, 1}, {0, 0}, {0, 0}}, true, false, {{[{][{]}}0, 0}, {0, 0}, {0, 0}, {0, 0}}, false},
// CPU: stencilc_step_widths_round3[] = {
// CPU-NEXT: {0, {{[{][{]}}0, 0}, {0, 0}, {1, 0}, {0, 0}}, false, true, {{[{][{]}}0, 0}, {0, 0}, {1, 0}, {0, 0}}, false},
