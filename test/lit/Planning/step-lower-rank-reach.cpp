// A fused group that recomputes a producer at x - 1 and x + 1 reads the
// producer's full-rank input there, but its z profile and xy surface field
// only along the dimensions each spans: the plan's round and the registered
// halo (which sizes the fields, DomainStep::haloOf) give rho0 z only and ps
// x and y (they gave rho0 "x -1..+1 z -0..+2", ps a z reach).
// RUN: %stencilc %s --emit=plan --step-strategy=recompute -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=cpu --step-strategy=recompute --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Prod {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, const float *rho0,
                             const float *ps, float *p) const {
    p[idx.ix()] = u[idx.ix()] * rho0[idx.ix_z<1>()] + ps[idx.ix_xy<0, 1>()];
  }
};
struct STENCIL_KERNEL Cons {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *p, float *q) const {
    q[idx.ix()] = p[idx.ix<1, 0, 0>()] + p[idx.ix<-1, 0, 0>()] + p[idx.ix<0, 0, 1>()];
  }
};
STENCIL_STEP void step(stencil::Step3D &s, const float *u, const float *rho0, const float *ps,
                       float *p, float *q) {
  s.run(Prod(), u, rho0, ps, p);
  s.run(Cons(), p, q);
}

// PLAN: over ranks, before group 0: u exchanged (x -1..+1 z -0..+1) rho0 (z -0..+2) ps (x -1..+1 y -0..+1)
// PLAN-NOT: over ranks
// CPU: stencilc_step_step_round0[] = {
// CPU-NEXT: {0, {{\{\{}}1, 1}, {0, 0}, {0, 1}, {0, 0}}, false, true,
// CPU-NEXT: {1, {{\{\{}}0, 0}, {0, 0}, {0, 2}, {0, 0}}, false, false,
// CPU-NEXT: {2, {{\{\{}}1, 1}, {0, 1}, {0, 0}, {0, 0}}, false, false,
