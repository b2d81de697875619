// Bug S2: one array passed to two array parameters of a step (u and un),
// no launch of which gets overlapping arrays (Back(u, fx), Back(fx, un)).
// The host and STENCIL_STEP_PLAN=multi-kernel agree; the fused plan
// recompute(Back, Back) reads u[i-1] after the consumer overwrote it.
// Expected: the host's values, or a run-time error naming the aliasing (the
// docs' aliasing rule speaks of one launch only).
#include "../step_harness.hpp"
STENCIL_KERNEL void Back(const stencil::Index3D &idx, const float *u, float *fx) {
  fx[idx.ix()] = 0.5f * (u[idx.ix<-1, 0, 0>()] + u[idx.ix()]);
}
STENCIL_STEP void adv(stencil::Step3D &s, const float *u, float *fx, float *un) {
  s.run(Back, u, fx);
  s.run(Back, fx, un);
}
int main() {
  const int Ext[3] = {6, 3, 3};
  stepdiff::StepCase<float, 3> C("alias", 1u, Ext, 1, {54, 54});
  C.run(&adv, [](float **A) { return std::make_tuple(A[0], A[1], A[0]); });
  return stepdiff::summary(1);
}
