// RUN: %stencilc %s --emit=ir -o - -- -I %mock_include | FileCheck %s
//
// A 2-D free function with the constructs of a boundary condition: locals,
// if/else, ?:, coordinates, a constant-trip loop and a math call.
#include <cmath>
#include <stencil/dsl.hpp>

namespace physics {
STENCIL_KERNEL void smooth(const stencil::Index2D &idx, int nx, float w, const float *u, float *out) {
  float acc = 0.0f;
  for (int m = -1; m <= 1; ++m)
    acc += w * u[idx.ix<0, 0>()];
  if (idx.i() == 0 || idx.i() == nx - 1) {
    out[idx.ix()] = 0.0f;
  } else {
    const float s = std::sqrt(acc);
    out[idx.ix()] = s > 1.0f ? s : u[idx.ix<-1, 0>()];
  }
}
} // namespace physics

// CHECK:      "name": "smooth",
// CHECK-NEXT: "qualified_name": "physics::smooth",
// CHECK-NEXT: "form": "function",
// CHECK-NEXT: "dims": 2,
// CHECK:      "name": "u",
// CHECK:      "intent": "in",
// CHECK-NEXT:      "axes": "xy",
// CHECK-NEXT: "offsets": [
// CHECK-NEXT:   [-1, 0],
// CHECK-NEXT:   [0, 0]
// CHECK-NEXT: ],
// CHECK-NEXT: "halo": [
// CHECK-NEXT:   [1, 0],
// CHECK-NEXT:   [0, 0]
// CHECK-NEXT: ]
// The loop runs 3 times (2 flops each); the else branch has one sqrt.
// CHECK:      "flops_per_point": 7,
// CHECK-NEXT: "bytes_per_point": 8,
// CHECK-NEXT: "body": "local acc: f32 = 0:f32\nfor m = -1 step 1 trips 3\n  acc = (acc + (w * u[0,0]))\nif ((idx.i() == 0) || (idx.i() == (nx - 1)))\n  out[0,0] = 0:f32\nelse\n  local s: f32 = sqrt:f32(acc)\n  out[0,0] = ((s > 1:f32) ? s : u[-1,0])\n"
