// RUN: %stencilc %s --emit=cpu -o - -- -I %mock_include | FileCheck %s
// RUN: %stencilc %s --emit=cuda -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
//
// The registration carries what analysis knows of the halo: its width per
// dimension and side, and whether an offset with two or more non-zero
// components (an edge or corner of the halo) is read, from which the
// runtime decides whether fields exchange edges and corners.
#include <stencil/dsl.hpp>

// 7-point star: faces only.
struct STENCIL_KERNEL Star7 {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()] + f[idx.ix<0, -1, 0>()] +
                   f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()] + f[idx.ix<0, 0, 1>()];
  }
};

// 27-point box: edges and corners.
struct STENCIL_KERNEL Box27 {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<-1, -1, -1>()] + f[idx.ix<0, -1, -1>()] + f[idx.ix<1, -1, -1>()] +
                   f[idx.ix<-1, 0, -1>()] + f[idx.ix<0, 0, -1>()] + f[idx.ix<1, 0, -1>()] +
                   f[idx.ix<-1, 1, -1>()] + f[idx.ix<0, 1, -1>()] + f[idx.ix<1, 1, -1>()] +
                   f[idx.ix<-1, -1, 0>()] + f[idx.ix<0, -1, 0>()] + f[idx.ix<1, -1, 0>()] +
                   f[idx.ix<-1, 0, 0>()] + f[idx.ix<0, 0, 0>()] + f[idx.ix<1, 0, 0>()] +
                   f[idx.ix<-1, 1, 0>()] + f[idx.ix<0, 1, 0>()] + f[idx.ix<1, 1, 0>()] +
                   f[idx.ix<-1, -1, 1>()] + f[idx.ix<0, -1, 1>()] + f[idx.ix<1, -1, 1>()] +
                   f[idx.ix<-1, 0, 1>()] + f[idx.ix<0, 0, 1>()] + f[idx.ix<1, 0, 1>()] +
                   f[idx.ix<-1, 1, 1>()] + f[idx.ix<0, 1, 1>()] + f[idx.ix<1, 1, 1>()];
  }
};

// One edge offset in a second array, the first read along the axes only.
struct STENCIL_KERNEL EdgeInSecond {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, const float *b,
                             float *out) const {
    out[idx.ix()] = a[idx.ix<2, 0, 0>()] + b[idx.ix<0, 1, -1>()];
  }
};

// Asymmetric: each side its own width (x 2/1, y 0/2, z 1/0), no diagonal.
struct STENCIL_KERNEL Lopsided {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<-2, 0, 0>()] + f[idx.ix<1, 0, 0>()] + f[idx.ix<0, 2, 0>()] +
                   f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()];
  }
};

// 2-D 9-point and a 4-D stencil whose only diagonal is in z and w.
STENCIL_KERNEL
void nine(const stencil::Index2D &idx, const double *u, double *un) {
  un[idx.ix()] = u[idx.ix<-1, 0>()] + u[idx.ix<1, 1>()];
}
struct STENCIL_KERNEL ZW {
  STENCIL_HD void operator()(const stencil::Index4D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<0, 0, 1, -1>()] + f[idx.ix<3, 0, 0, 0>()];
  }
};

// A written array read at its centre, a read one not at all off-centre.
struct STENCIL_KERNEL Pointwise {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = fn[idx.ix()] + f[idx.ix()];
  }
};

// CHECK-LABEL: /*name=*/"Star7",
// CHECK:       /*halo=*/{{[{][{]}}1, 1}, {1, 1}, {1, 1}, {0, 0{{[}][}]}},
// CHECK-NEXT:  /*readsDiagonal=*/false,
// CHECK-LABEL: /*name=*/"Box27",
// CHECK:       /*halo=*/{{[{][{]}}1, 1}, {1, 1}, {1, 1}, {0, 0{{[}][}]}},
// CHECK-NEXT:  /*readsDiagonal=*/true,
// CHECK-LABEL: /*name=*/"EdgeInSecond",
// CHECK:       /*halo=*/{{[{][{]}}0, 2}, {0, 1}, {1, 0}, {0, 0{{[}][}]}},
// CHECK-NEXT:  /*readsDiagonal=*/true,
// CHECK-LABEL: /*name=*/"Lopsided",
// CHECK:       /*halo=*/{{[{][{]}}2, 1}, {0, 2}, {1, 0}, {0, 0{{[}][}]}},
// CHECK-NEXT:  /*readsDiagonal=*/false,
// CHECK-LABEL: /*name=*/"nine",
// CHECK:       /*halo=*/{{[{][{]}}1, 1}, {0, 1}, {0, 0}, {0, 0{{[}][}]}},
// CHECK-NEXT:  /*readsDiagonal=*/true,
// CHECK-LABEL: /*name=*/"ZW",
// CHECK:       /*halo=*/{{[{][{]}}0, 3}, {0, 0}, {0, 1}, {1, 0{{[}][}]}},
// CHECK-NEXT:  /*readsDiagonal=*/true,
// CHECK-LABEL: /*name=*/"Pointwise",
// CHECK:       /*halo=*/{{[{][{]}}0, 0}, {0, 0}, {0, 0}, {0, 0{{[}][}]}},
// CHECK-NEXT:  /*readsDiagonal=*/false,

// Every CUDA variant's entry says the same as the grid variant's.
// CUDA-LABEL: /*name=*/"Star7",
// CUDA-NOT:   /*name=*/"Box27",
// CUDA:       /*variant=*/"zmarch",
// CUDA:       /*readsDiagonal=*/false,
// CUDA-LABEL: /*name=*/"Box27",
// CUDA:       /*variant=*/"zmarch",
// CUDA:       /*readsDiagonal=*/true,
