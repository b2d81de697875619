// Bug S3: a step taking 'const stencil::Step3D &' is accepted by stencilc,
// but the generated .stencil.cpp declares 'void cst(stencil::Step<3> &, ...)'
// (not const) and takes its address: undefined reference at link time.
// Expected: it links (run() is const), or err_step_first_param.
#include "../step_harness.hpp"
STENCIL_KERNEL void copy(const stencil::Index3D &idx, const float *u, float *o) {
  o[idx.ix()] = u[idx.ix()];
}
STENCIL_STEP void cst(const stencil::Step3D &s, const float *u, float *a, float *b) {
  s.run(copy, u, a);
  s.run(copy, a, b);
}
int main() {
  const int Ext[3] = {5, 3, 3};
  stepdiff::StepCase<float, 3> C("cst", 1u, Ext, 1, {45, 45, 45});
  C.run(&cst, [](float **A) { return std::make_tuple(A[0], A[1], A[2]); });
  return stepdiff::summary(1);
}
