// A file whose only stencil is a star as AN5D writes it (the plane below's
// term after the centre plane's), in a time loop: its passes summed by
// planes hold that term one plane in a register per point and level, and
// the file includes the asynchronous copies' header though no stencil has
// zsum4 (nvcc.test compiles it).
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL StarAn5d {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = 0.25f * u[idx.ix()] + 0.1248f * u[idx.ix<-1, 0, 0>()] +
                   0.1249f * u[idx.ix<1, 0, 0>()] + 0.1250f * u[idx.ix<0, -1, 0>()] +
                   0.1251f * u[idx.ix<0, 1, 0>()] + 0.1252f * u[idx.ix<0, 0, -1>()] +
                   0.1253f * u[idx.ix<0, 0, 1>()];
  }
};

void loop(float *u, float *un) {
  stencil::Loop3D<> L;
  L.repeat(4, StarAn5d(), stencil::previousLevel(u), stencil::nextLevel(un));
}

// CHECK: #include <stencil/cuda/shared_copy.cuh>
// CHECK: stencilc_h1_0_5_0 = static_cast<float>(0)
// CHECK: const float stencilc_o0 = stencilc_s1_0_0 + (0.1253f * stencilc_v0);
// CHECK-NEXT: stencilc_s1_0_0 = (0.25f * stencilc_v0) + (0.1248f * stencilc_v1) + (0.1249f * stencilc_v2) + (0.125f * stencilc_v3) + (0.1251f * stencilc_v4) + stencilc_h1_0_5_0;
// CHECK-NEXT: stencilc_h1_0_5_0 = (0.1252f * stencilc_v0);
