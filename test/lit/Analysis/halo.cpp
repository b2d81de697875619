// RUN: %stencilc %s --emit=ir -o - -- -I %mock_include | FileCheck %s
//
// Halo per dimension and side is the largest offset read on that side, per
// array and for the stencil; written arrays need none.
#include <stencil/dsl.hpp>

// Radius-2 star in x and y, one-sided in z.
STENCIL_KERNEL void star(const stencil::Index3D &idx, const float *f, float *g) {
  g[idx.ix()] = f[idx.ix<-2, 0, 0>()] + f[idx.ix<2, 0, 0>()] + f[idx.ix<0, -2, 0>()] +
                f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, 3>()];
}

// CHECK-LABEL: "name": "star",
// CHECK:       "name": "f",
// CHECK:       "halo": [
// CHECK-NEXT:    [2, 2],
// CHECK-NEXT:    [2, 1],
// CHECK-NEXT:    [0, 3]
// CHECK-NEXT:  ]
// CHECK:       "name": "g",
// CHECK-NEXT:  "type": "f32",
// CHECK-NEXT:  "intent": "out",
// CHECK-NEXT:  "axes": "xyz",
// CHECK-NEXT:  "offsets": [],
// CHECK-NEXT:  "halo": [
// CHECK-NEXT:    [0, 0],
// CHECK-NEXT:    [0, 0],
// CHECK-NEXT:    [0, 0]
// CHECK-NEXT:  ]
// CHECK:       "halo": [
// CHECK-NEXT:    [2, 2],
// CHECK-NEXT:    [2, 1],
// CHECK-NEXT:    [0, 3]
// CHECK-NEXT:  ],
// CHECK-NEXT:  "flops_per_point": 4,
// CHECK-NEXT:  "bytes_per_point": 8,

// Diagonal (box-like) offsets read inside a constant-trip loop.
STENCIL_KERNEL void box(const stencil::Index3D &idx, const double *f, const double *w, double *g) {
  double s = 0.0;
  for (int m = 0; m < 3; ++m)
    s += w[idx.ix()] * (f[idx.ix<-1, -1, -1>()] + f[idx.ix<1, 1, 1>()] + f[idx.ix<1, -1, 0>()]);
  g[idx.ix()] = s;
}

// CHECK-LABEL: "name": "box",
// CHECK:       "name": "f",
// CHECK:       "offsets": [
// CHECK-NEXT:    [-1, -1, -1],
// CHECK-NEXT:    [1, -1, 0],
// CHECK-NEXT:    [1, 1, 1]
// CHECK-NEXT:  ],
// CHECK:       "name": "w",
// CHECK-NEXT:  "type": "f64",
// CHECK-NEXT:  "intent": "in",
// The loop body has 4 flops (2 adds, 1 mul, 1 accumulate) and runs 3 times;
// two arrays of doubles are read once and one is written: 24 bytes.
// CHECK:       "flops_per_point": 12,
// CHECK-NEXT:  "bytes_per_point": 24,

// Reading a written array at the centre makes it inout; its bytes count twice.
STENCIL_KERNEL void accumulate(const stencil::Index2D &idx, float a, const float *f, float *acc) {
  acc[idx.ix()] += a * f[idx.ix<1, 0>()];
}

// CHECK-LABEL: "name": "accumulate",
// CHECK:       "arrays": [
// CHECK:       "name": "acc",
// CHECK-NEXT:  "type": "f32",
// CHECK-NEXT:  "intent": "inout",
// CHECK-NEXT:  "axes": "xy",
// CHECK-NEXT:  "offsets": [
// CHECK-NEXT:    [0, 0]
// CHECK-NEXT:  ],
// CHECK:       "flops_per_point": 2,
// CHECK-NEXT:  "bytes_per_point": 12,
