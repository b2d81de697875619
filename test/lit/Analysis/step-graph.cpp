// A step's dependency graph: flow, anti and output dependences between its
// calls through the step's arrays, and the halos a distributed run must have
// current before each call that reads an array off the centre (after the
// call that wrote it, or -1: as the step began). A profile along z (rho0) is
// never exchanged.
// RUN: %stencilc %s --emit=ir -o - -- -I %mock_include | FileCheck %s
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL FluxX {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *fx) const {
    fx[idx.ix()] = u[idx.ix<1, 0, 0>()] - u[idx.ix()];
  }
};
struct STENCIL_KERNEL FluxY {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *fy) const {
    fy[idx.ix()] = u[idx.ix<0, 1, 0>()] - u[idx.ix()];
  }
};
struct STENCIL_KERNEL Update {
  STENCIL_HD void operator()(const stencil::Index3D &idx, float dt, const float *rho0,
                             const float *fx, const float *fy, const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix()] + dt * rho0[idx.ix_z<1>()] *
                   (fx[idx.ix()] - fx[idx.ix<-1, 0, 0>()] + fy[idx.ix()] - fy[idx.ix<0, -1, 0>()]);
  }
};
STENCIL_KERNEL
void smooth(const stencil::Index3D &idx, float w, const float *a, float *b) {
  b[idx.ix()] = a[idx.ix()] + w * (a[idx.ix<0, 0, 1>()] + a[idx.ix<0, 0, -1>()]);
}
STENCIL_KERNEL
void copy(const stencil::Index3D &idx, const float *a, float *b) { b[idx.ix()] = a[idx.ix()]; }

STENCIL_STEP
void stage(stencil::Step3D &s, float dt, const float *rho0, const float *u, float *fx, float *fy,
           float *un, float *tmp) {
  s.run(FluxX(), u, fx);
  s.run(FluxY(), u, fy);
  s.run(Update(), dt, rho0, fx, fy, u, un);
  s.run(smooth, 0.5f, un, tmp);
  s.run(&copy, tmp, fx);
}

// CHECK:      "steps": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "stage",
// CHECK-NEXT:     "qualified_name": "stage",
// CHECK-NEXT:     "dims": 3,
// CHECK:          "params": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "s",
// CHECK-NEXT:         "kind": "step",
// CHECK-NEXT:         "type": "step",
// CHECK-NEXT:         "cpp_type": "stencil::Step<3> &"
// CHECK:          "calls": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "stencil": "FluxX",
// CHECK-NEXT:         "args": [
// CHECK-NEXT:           "u",
// CHECK-NEXT:           "fx"
// CHECK:              "stencil": "Update",
// CHECK-NEXT:         "args": [
// CHECK-NEXT:           "dt",
// CHECK-NEXT:           "rho0",
// CHECK:              "stencil": "smooth",
// CHECK-NEXT:         "args": [
// CHECK-NEXT:           "0.5:f32",
// CHECK-NEXT:           "un",
// CHECK-NEXT:           "tmp"
// CHECK:              "stencil": "copy",
// CHECK:          "dependences": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "flow",
// CHECK-NEXT:         "from": 0,
// CHECK-NEXT:         "to": 2,
// CHECK-NEXT:         "array": "fx",
// CHECK-NEXT:         "offsets": [
// CHECK-NEXT:           [-1, 0, 0],
// CHECK-NEXT:           [0, 0, 0]
// CHECK-NEXT:         ]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "flow",
// CHECK-NEXT:         "from": 1,
// CHECK-NEXT:         "to": 2,
// CHECK-NEXT:         "array": "fy",
// CHECK:              "kind": "flow",
// CHECK-NEXT:         "from": 2,
// CHECK-NEXT:         "to": 3,
// CHECK-NEXT:         "array": "un",
// CHECK-NEXT:         "offsets": [
// CHECK-NEXT:           [0, 0, -1],
// CHECK-NEXT:           [0, 0, 0],
// CHECK-NEXT:           [0, 0, 1]
// CHECK:              "kind": "output",
// CHECK-NEXT:         "from": 0,
// CHECK-NEXT:         "to": 4,
// CHECK-NEXT:         "array": "fx",
// CHECK-NEXT:         "offsets": []
// CHECK:              "kind": "anti",
// CHECK-NEXT:         "from": 2,
// CHECK-NEXT:         "to": 4,
// CHECK-NEXT:         "array": "fx",
// CHECK:              "kind": "flow",
// CHECK-NEXT:         "from": 3,
// CHECK-NEXT:         "to": 4,
// CHECK-NEXT:         "array": "tmp",
// CHECK-NEXT:         "offsets": [
// CHECK-NEXT:           [0, 0, 0]
// CHECK-NEXT:         ]
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "exchanges": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "array": "u",
// CHECK-NEXT:         "after": -1,
// CHECK-NEXT:         "before": 0,
// CHECK-NEXT:         "halo": [
// CHECK-NEXT:           [0, 1],
// CHECK-NEXT:           [0, 1],
// CHECK-NEXT:           [0, 0]
// CHECK-NEXT:         ],
// CHECK-NEXT:         "diagonal": false
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "array": "fx",
// CHECK-NEXT:         "after": 0,
// CHECK-NEXT:         "before": 2,
// CHECK-NEXT:         "halo": [
// CHECK-NEXT:           [1, 0],
// CHECK-NEXT:           [0, 0],
// CHECK-NEXT:           [0, 0]
// CHECK-NEXT:         ],
// CHECK:              "array": "fy",
// CHECK-NEXT:         "after": 1,
// CHECK-NEXT:         "before": 2,
// CHECK:              "array": "un",
// CHECK-NEXT:         "after": 2,
// CHECK-NEXT:         "before": 3,
// CHECK-NEXT:         "halo": [
// CHECK-NEXT:           [0, 0],
// CHECK-NEXT:           [0, 0],
// CHECK-NEXT:           [1, 1]
// CHECK-NEXT:         ],
// CHECK-NEXT:         "diagonal": false
// CHECK-NEXT:       }
// CHECK-NEXT:     ]
