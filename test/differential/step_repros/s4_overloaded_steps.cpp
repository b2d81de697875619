// Bug S4: two STENCIL_STEP overloads of one name (2-D and 3-D). stencilc
// exits 0, but the generated .stencil.cpp defines stencilc_step_ov_openmp and
// stencilc_registered_step_ov twice: g++ 'redefinition of ...'.
// Expected: code that compiles, or a located error.
#include "../step_harness.hpp"
STENCIL_KERNEL void c2(const stencil::Index2D &idx, const float *u, float *o) {
  o[idx.ix()] = u[idx.ix()];
}
STENCIL_KERNEL void c3(const stencil::Index3D &idx, const float *u, float *o) {
  o[idx.ix()] = u[idx.ix()];
}
STENCIL_STEP void ov(stencil::Step2D &s, const float *u, float *a) { s.run(c2, u, a); }
STENCIL_STEP void ov(stencil::Step3D &s, const float *u, float *a) { s.run(c3, u, a); }
int main() {
  const int Ext[3] = {5, 3, 3};
  stepdiff::StepCase<float, 3> C("ov", 1u, Ext, 1, {45, 45});
  void (*p)(stencil::Step3D &, const float *, float *) = ov;
  C.run(p, [](float **A) { return std::make_tuple(A[0], A[1]); });
  return stepdiff::summary(1);
}
