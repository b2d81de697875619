// A temporal stencil whose parameters are named as the pass's kernel and
// launchers name theirs (the margins m0 and m1, the stream, the template
// parameters STEPS, BX and BY...): they are renamed, and nvcc.test compiles
// the result.
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Names {
  STENCIL_HD void operator()(const stencil::Index3D &idx, float s, float m0, float m1,
                             int chunk, float steps, const float *margins, float shared,
                             float stream, float kernel, float gm, float STEPS, float BX,
                             float BY, const float *u, float *un) const {
    un[idx.ix()] = s * u[idx.ix()] + m0 * u[idx.ix<1, 0, 0>()] + m1 * u[idx.ix<0, -1, 0>()] +
                   static_cast<float>(chunk) * steps * margins[idx.ix()] +
                   shared * stream * kernel * gm * STEPS * BX * BY;
  }
};

void loop(float *u, float *un, const float *k) {
  stencil::Loop3D<> L;
  L.repeat(4, Names(), 0.5f, 0.1f, 0.2f, 3, 0.01f, k, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f,
           1.0f, stencil::previousLevel(u), stencil::nextLevel(un));
}

// CHECK: __global__ void __launch_bounds__({{.*}}) stencilc_Names_temporal0(const stencil::Grid g, const stencil::Region r, const stencil::Region stencilc_store, const long long stencilc_chunk, const float *stencilc_margin0, const float *stencilc_margin1, float s, float m0_, float m1_, int chunk_, float steps_, const float *__restrict__ margins_, float shared_, float stream_, float kernel_, float gm_, float STEPS_, float BX_, float BY_, const float *__restrict__ u, float *__restrict__ un) {
// CHECK: static const char *stencilc_Names_temporal0_cuda_launch(
// CHECK: case 1: return stencilc_Names_temporal0_run<1>(grid, block, shared, stream, g, r, stencilc_store, cfg.block[2], m0, m1, s, m0_, m1_, chunk_, steps_, margins_, shared_, stream_, kernel_, gm_, STEPS_, BX_, BY_, u, un);
