// A function passed to runStep or a DomainStep without STENCIL_STEP got no
// step code and ran call by call without a word; stencilc warns where it is
// passed (not on the host engine, which calls it anyway), and not for a
// marked step, through a header's declaration too.
// RUN: %stencilc %s --list -- -std=c++17 -I %runtime_include 2>&1 | FileCheck %s
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Half {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *v) const {
    v[idx.ix()] = 0.5f * u[idx.ix<1, 0>()];
  }
};
void unmarked(stencil::Step2D &s, const float *u, float *v, float *w) {
  s.run(Half(), u, v);
  s.run(Half(), v, w);
}
STENCIL_STEP void declared(stencil::Step2D &s, const float *u, float *v);
void declared(stencil::Step2D &s, const float *u, float *v) { s.run(Half(), u, v); }
STENCIL_STEP void marked(stencil::Step2D &s, const float *u, float *v) { s.run(Half(), u, v); }

void runAll(float *u, float *v, float *w) {
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Loop(9, 1, 1, 7, 0, 0);
  Loop.runStep(unmarked, u, v, w);
  Loop.runStep(marked, u, v);
  Loop.runStep(declared, u, v);
  stencil::Loop2D<stencil::HostLoopEngine2D> Host(9, 1, 1, 7, 0, 0);
  Host.runStep(unmarked, u, v, w);
}
// CHECK: step-unannotated.cpp:23:16: warning: 'unmarked' passed to runStep() is not marked STENCIL_STEP, so stencilc generates no step for it: a loop runs its stencils one at a time, unplanned, and a DomainStep refuses it; mark its definition STENCIL_STEP [warn_run_step_unannotated]
// CHECK-NOT: warning:
