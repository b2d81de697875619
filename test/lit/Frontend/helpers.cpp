// RUN: %stencilc %s --emit=ir -o - -- -I %mock_include | FileCheck %s
//
// Helpers defined in the translation unit are inlined: scalars become
// locals, arrays and the index are passed through, results land in a local.
#include <stencil/dsl.hpp>

inline float laplacian(const stencil::Index3D &idx, const float *f) {
  return f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()] - 2.0f * f[idx.ix()];
}

inline float limit(float x, float hi) {
  if (x > hi)
    return hi;
  else
    return x;
}

inline void store(const stencil::Index3D &idx, float v, float *out) { out[idx.ix()] = v; }

STENCIL_KERNEL void useHelpers(const stencil::Index3D &idx, float nu, const float *f, float *out) {
  float x = nu * laplacian(idx, f);
  store(idx, limit(x, 1.0f), out);
}

// CHECK:      "name": "f",
// CHECK:      "offsets": [
// CHECK-NEXT:   [-1, 0, 0],
// CHECK-NEXT:   [0, 0, 0],
// CHECK-NEXT:   [1, 0, 0]
// CHECK-NEXT: ],
// CHECK:      "body": "local laplacian_result: f32\nlaplacian_result = ((f[-1,0,0] + f[1,0,0]) - (2:f32 * f[0,0,0]))\nlocal x: f32 = (nu * laplacian_result)\nlocal x_1: f32 = x\nlocal hi: f32 = 1:f32\nlocal limit_result: f32\nif (x_1 > hi)\n  limit_result = hi\nelse\n  limit_result = x_1\nlocal v: f32 = limit_result\nout[0,0,0] = v\n"

// The index by value (as a stencil may take it): a copy of the caller's
// index, its offsets the same points.
inline float east(stencil::Index3D at, const float *f) { return f[at.ix<1, 0, 0>()]; }
inline float eastAgain(const stencil::Index3D at, const float *f) { return east(at, f); }

STENCIL_KERNEL void byValue(const stencil::Index3D &idx, const float *f, float *out) {
  out[idx.ix()] = eastAgain(idx, f) - east(stencil::Index3D(idx), f);
}

// CHECK:      "name": "byValue",
// CHECK:      "body": "local eastAgain_result: f32\nlocal east_result: f32\neast_result = f[1,0,0]\neastAgain_result = east_result\nlocal east_result_1: f32\neast_result_1 = f[1,0,0]\nout[0,0,0] = (eastAgain_result - east_result_1)\n"
