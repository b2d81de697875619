// RUN: %stencilc %s --emit=ir -o - -- -I %mock_include | FileCheck %s
//
// Seed 000's functor: seven scalars, a read-only and a written array.
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Diffusion3d {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float ce, float cw, float cn, float cs,
                             float ct, float cb, float cc, const float *f, float *fn) const {
    fn[idx.ix()] = cc * f[idx.ix()] + ce * f[idx.ix<1, 0, 0>()] + cw * f[idx.ix<-1, 0, 0>()] +
                   cn * f[idx.ix<0, 1, 0>()] + cs * f[idx.ix<0, -1, 0>()] +
                   ct * f[idx.ix<0, 0, 1>()] + cb * f[idx.ix<0, 0, -1>()];
  }
};

// CHECK:      "name": "Diffusion3d",
// CHECK-NEXT: "qualified_name": "Diffusion3d",
// CHECK-NEXT: "form": "functor",
// CHECK-NEXT: "type_key": "11Diffusion3d",
// CHECK-NEXT: "dims": 3,
// CHECK:      "file": "{{.*}}diffusion3d-functor.cpp",
// CHECK-NEXT: "line": 6,
// CHECK:      "name": "idx",
// CHECK-NEXT: "kind": "index",
// CHECK:      "cpp_type": "const stencil::Index<3> &"
// CHECK:      "name": "ce",
// CHECK-NEXT: "kind": "scalar",
// CHECK-NEXT: "type": "f32",
// CHECK:      "name": "f",
// CHECK-NEXT: "kind": "array",
// CHECK-NEXT: "type": "f32",
// CHECK-NEXT: "cpp_type": "const float *"
// CHECK:      "name": "fn",
// CHECK-NEXT: "kind": "array",
// CHECK-NEXT: "type": "f32",
// CHECK-NEXT: "cpp_type": "float *"
// CHECK:      "arrays": [
// CHECK:        "name": "f",
// CHECK-NEXT:   "type": "f32",
// CHECK-NEXT:   "intent": "in",
// CHECK-NEXT:   "axes": "xyz",
// CHECK-NEXT:   "offsets": [
// CHECK-NEXT:     [-1, 0, 0],
// CHECK-NEXT:     [0, -1, 0],
// CHECK-NEXT:     [0, 0, -1],
// CHECK-NEXT:     [0, 0, 0],
// CHECK-NEXT:     [0, 0, 1],
// CHECK-NEXT:     [0, 1, 0],
// CHECK-NEXT:     [1, 0, 0]
// CHECK-NEXT:   ],
// CHECK-NEXT:   "halo": [
// CHECK-NEXT:     [1, 1],
// CHECK-NEXT:     [1, 1],
// CHECK-NEXT:     [1, 1]
// CHECK-NEXT:   ]
// CHECK:        "name": "fn",
// CHECK-NEXT:   "type": "f32",
// CHECK-NEXT:   "intent": "out",
// CHECK-NEXT:   "axes": "xyz",
// CHECK-NEXT:   "offsets": [],
// CHECK:      "flops_per_point": 13,
// CHECK-NEXT: "bytes_per_point": 8,
// CHECK-NEXT: "body": "fn[0,0,0] = (((((((cc * f[0,0,0]) + (ce * f[1,0,0])) + (cw * f[-1,0,0])) + (cn * f[0,1,0])) + (cs * f[0,-1,0])) + (ct * f[0,0,1])) + (cb * f[0,0,-1]))\n"
