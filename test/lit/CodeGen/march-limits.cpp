// RUN: %stencilc %s --emit=cuda -o - -- -I %mock_include | FileCheck %s
// RUN: %stencilc %s --emit=cuda -o - -- -I %mock_include | %python -c "import sys; n = len(sys.stdin.read()); print(n); sys.exit(n > 200000)"
//
// A register queue holds one register per marching offset between the
// lowest and the highest it serves, and the smem tile one row or column per
// point of halo: Planning emits the marching variants only while queues stay
// within 32 registers and the smem variant only while the tile halo stays
// within 16 points, so the output stays linear in the stencil (an offset of
// 10^6 along z used to print a million registers: 264 MB of CUDA).
#include <stencil/dsl.hpp>

// The centre column spans z offsets 0 .. 10^6: grid only.
STENCIL_KERNEL void farZ(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix()] + f[idx.ix<0, 0, 1000000>()];
}

// Another column read at two z offsets far apart: grid only.
STENCIL_KERNEL void farColumn(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<1, 0, -600000>()] + f[idx.ix<1, 0, 600000>()];
}

// 2-D marches y.
STENCIL_KERNEL void farY(const stencil::Index2D &idx, const double *u, double *un) {
  un[idx.ix()] = u[idx.ix<0, -1000000>()] - u[idx.ix()];
}

// Queues of 33 registers (offsets -16 .. 16): one too many.
STENCIL_KERNEL void queue33(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<0, 0, -16>()] + f[idx.ix<0, 0, 16>()];
}

// Queues of 32 registers (-16 .. 15) and an in-plane halo of 16: every variant.
STENCIL_KERNEL void atLimits(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<0, 0, -16>()] + f[idx.ix<0, 0, 15>()] + f[idx.ix<-16, 0, 0>()] +
                 f[idx.ix<0, 16, 0>()];
}

// An in-plane halo of 17: the marching variants without the tile.
STENCIL_KERNEL void wideTile(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<17, 0, 0>()] + f[idx.ix<0, 0, 1>()] + f[idx.ix()];
}

// CHECK:     // Stencil 'farZ' from {{.*}}march-limits.cpp:13, variant grid
// CHECK-NOT: variant {{zmarch|smem}}
// CHECK:     // Stencil 'farColumn' from {{.*}}march-limits.cpp:18, variant grid
// CHECK-NOT: variant {{zmarch|smem}}
// CHECK:     // Stencil 'farY' from {{.*}}march-limits.cpp:23, variant grid
// CHECK-NOT: variant {{zmarch|smem}}
// CHECK:     // Stencil 'queue33' from {{.*}}march-limits.cpp:28, variant grid
// CHECK-NOT: variant {{zmarch|smem}}
// CHECK:     // Stencil 'atLimits' from {{.*}}march-limits.cpp:33, variant grid
// CHECK:     // Stencil 'atLimits' from {{.*}}march-limits.cpp:33, variant zmarch{{$}}
// CHECK:     // Stencil 'atLimits' from {{.*}}march-limits.cpp:33, variant zmarch2
// CHECK:     // Stencil 'atLimits' from {{.*}}march-limits.cpp:33, variant smem
// CHECK:     // Stencil 'wideTile' from {{.*}}march-limits.cpp:39, variant grid
// CHECK:     // Stencil 'wideTile' from {{.*}}march-limits.cpp:39, variant zmarch{{$}}
// CHECK:     // Stencil 'wideTile' from {{.*}}march-limits.cpp:39, variant zmarch2
// CHECK-NOT: variant smem
