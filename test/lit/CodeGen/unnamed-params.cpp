// Unnamed parameters (a scalar a stencil or a step does not use, an array a
// stencil does not read) get names of their own: the generated code declares
// and passes every parameter (it printed `const float  = ...` and `, ,`, which
// nvcc refused). nvcc.test compiles the result.
// RUN: %stencilc %s --emit=cuda,cpu --no-line-directives -o %t -- -I %mock_include
// RUN: FileCheck %s < %t/unnamed-params.stencil.cu
#include <stencil/dsl.hpp>

STENCIL_KERNEL void shift(const stencil::Index2D &idx, float, const float *u, float *fx) {
  fx[idx.ix()] = u[idx.ix<1, 0>()];
}
struct STENCIL_KERNEL Div {
  void operator()(const stencil::Index2D &idx, const float *fx, const float *, float *un) const {
    un[idx.ix()] = fx[idx.ix<-1, 0>()] + fx[idx.ix()];
  }
};
STENCIL_STEP void advance(stencil::Step2D &s, float, const float *u, float *fx, float *un) {
  s.run(shift, 0.5f, u, fx);
  s.run(Div(), fx, u, un);
}
// CHECK: const float {{[A-Za-z_]*}}stencilc_unnamed1 = *static_cast<const float *>(args[0]);
// CHECK-NOT: , ,
