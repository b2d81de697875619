// Bug S1: a full array one stencil writes, read by the next as an array of
// lower rank. The fused plan (recompute(prod, cons)) recomputes prod at the
// point (i+1, j, k) for a[idx.ix_x<1>()], where the host reads element i+1 of
// a. Expected: the host's values (or no fusion / a located error).
#include "../step_harness.hpp"
STENCIL_KERNEL void prod(const stencil::Index3D &idx, const float *u, float *a) {
  a[idx.ix()] = u[idx.ix()] + 1.0f;
}
STENCIL_KERNEL void cons(const stencil::Index3D &idx, const float *p, float *b) {
  b[idx.ix()] = p[idx.ix_x<1>()];
}
STENCIL_STEP void lrw(stencil::Step3D &s, const float *u, float *a, float *b) {
  s.run(prod, u, a);
  s.run(cons, a, b);
}
int main() {
  const int Ext[3] = {5, 3, 3};
  stepdiff::StepCase<float, 3> C("lrw", 1u, Ext, 1, {45, 45, 45});
  C.run(&lrw, [](float **A) { return std::make_tuple(A[0], A[1], A[2]); });
  return stepdiff::summary(1);
}
