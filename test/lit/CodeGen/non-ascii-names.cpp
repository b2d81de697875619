// A stencil, a namespace and a step whose names are not ASCII: the generated
// symbols spell each byte past ASCII _xHH (nvcc refused the universal
// characters in a kernel's name); the registered names stay as written.
// nvcc.test compiles the result.
// RUN: %stencilc %s --emit=cuda,cpu --no-line-directives -o %t -- -I %mock_include
// RUN: FileCheck %s < %t/non-ascii-names.stencil.cu
// RUN: FileCheck %s --check-prefix=CPU < %t/non-ascii-names.stencil.cpp
#include <stencil/dsl.hpp>

namespace Ünï {
struct STENCIL_KERNEL Größe {
  void operator()(const stencil::Index2D &idx, const float *u, float *v) const {
    v[idx.ix()] = u[idx.ix<1, 0>()] + u[idx.ix()];
  }
};
} // namespace Ünï
STENCIL_KERNEL void wärme(const stencil::Index2D &idx, const float *v, float *w) {
  w[idx.ix()] = 0.5f * v[idx.ix<-1, 0>()];
}
STENCIL_STEP void schritt(stencil::Step2D &s, const float *u, float *v, float *w) {
  s.run(Ünï::Größe(), u, v);
  s.run(wärme, v, w);
}

// CHECK: __global__ {{.*}}stencilc__xc3_x9cn_xc3_xaf_Gr_xc3_xb6_xc3_x9fe_grid(
// CHECK: __global__ {{.*}}stencilc_w_xc3_xa4rme_grid(
// CHECK-NOT: {{stencilc_[A-Za-z0-9_]*[^A-Za-z0-9_(]}}Gr
// CHECK: "Ünï::Größe"
// CPU: stencilc__xc3_x9cn_xc3_xaf_Gr_xc3_xb6_xc3_x9fe_openmp(
// CPU: "wärme"
