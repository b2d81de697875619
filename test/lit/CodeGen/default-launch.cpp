// RUN: %stencilc %s --emit=cuda -o - -- -I %mock_include | FileCheck %s
// RUN: %stencilc %s --emit=cpu -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
//
// The plan's cost model marks, per stencil, the variant and block the fixed
// CUDA engine (DeviceLoopEngine) launches without tuning: zmarch2 (128,2)
// for narrow f32 stars with a chunk of twice the marching radius, zmarch
// (128,4) chunk 8 for f64, zmarch (64,4) chunk 16 for long queues
// (radius > 2) or several queued columns (a box),
// zmarch2 (256,1) chunk 4 in 2-D, the grid elsewhere. Other entries and the
// OpenMP entries carry zeros.
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Star7F {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()] + f[idx.ix<0, -1, 0>()] +
                   f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()] + f[idx.ix<0, 0, 1>()];
  }
};

struct STENCIL_KERNEL Star7D {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const double *f, double *fn) const {
    fn[idx.ix()] = f[idx.ix<0, 0, -1>()] + f[idx.ix()] + f[idx.ix<0, 0, 1>()];
  }
};

struct STENCIL_KERNEL Star13F {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<0, 0, -2>()] + f[idx.ix<0, -2, 0>()] + f[idx.ix<0, 0, 2>()];
  }
};

struct STENCIL_KERNEL LongZ {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<0, 0, -3>()] + f[idx.ix<0, 0, 3>()];
  }
};

struct STENCIL_KERNEL Box {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<1, 0, -1>()] + f[idx.ix<1, 0, 1>()] + f[idx.ix()];
  }
};

struct STENCIL_KERNEL Plane {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<0, -1>()] + f[idx.ix<0, 1>()];
  }
};

struct STENCIL_KERNEL Hyper {
  STENCIL_HD void operator()(const stencil::Index4D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix()];
  }
};

// CHECK-LABEL: /*name=*/"Star7F",
// CHECK:       /*variant=*/"grid",
// CHECK:       /*defaultBlock=*/{0, 0, 0},
// CHECK:       /*variant=*/"zmarch",
// CHECK:       /*defaultBlock=*/{0, 0, 0},
// CHECK:       /*variant=*/"zmarch2",
// CHECK:       /*defaultBlock=*/{128, 2, 2},
// CHECK:       /*variant=*/"smem",
// CHECK:       /*defaultBlock=*/{0, 0, 0},

// CHECK-LABEL: /*name=*/"Star7D",
// CHECK:       /*variant=*/"zmarch",
// CHECK:       /*defaultBlock=*/{128, 4, 8},
// CHECK:       /*variant=*/"zmarch2",
// CHECK:       /*defaultBlock=*/{0, 0, 0},

// CHECK-LABEL: /*name=*/"Star13F",
// CHECK:       /*variant=*/"zmarch2",
// CHECK:       /*defaultBlock=*/{128, 2, 4},

// CHECK-LABEL: /*name=*/"LongZ",
// CHECK:       /*variant=*/"zmarch",
// CHECK:       /*defaultBlock=*/{64, 4, 16},
// CHECK:       /*variant=*/"zmarch2",
// CHECK:       /*defaultBlock=*/{0, 0, 0},

// CHECK-LABEL: /*name=*/"Box",
// CHECK:       /*variant=*/"zmarch",
// CHECK:       /*defaultBlock=*/{64, 4, 16},

// CHECK-LABEL: /*name=*/"Plane",
// CHECK:       /*variant=*/"zmarch2",
// CHECK:       /*defaultBlock=*/{256, 1, 4},

// CHECK-LABEL: /*name=*/"Hyper",
// CHECK:       /*variant=*/"grid",
// CHECK:       /*defaultBlock=*/{64, 4, 1},

// CPU-NOT: /*defaultBlock=*/{{[{][1-9]}}
