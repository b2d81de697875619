// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s
//
// CUDA unrolls short constant-trip loops fully; a long one (up to 2^20 trips
// are accepted) is unrolled by 4 only: full unrolling made nvcc run for tens
// of seconds and emit a megabyte of code.
#include <stencil/dsl.hpp>

STENCIL_KERNEL void loops(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (int m = 0; m < 64; ++m)
    s = s * 0.5f + f[idx.ix()];
  for (int m = 0; m < 1048576; ++m)
    s = s * 0.5f + f[idx.ix()];
  fn[idx.ix()] = s;
}

// CHECK:      #pragma unroll{{$}}
// CHECK-NEXT: for (int m = 0; m < 64; ++m) {
// CHECK:      #pragma unroll 4{{$}}
// CHECK-NEXT: for (int m_1 = 0; m_1 < 1048576; ++m_1) {
