// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
//
// An offset of INT_MIN gave a halo of 0 (negation overflow); offsets are
// bounded by 2^20 where they are read.
#include <stencil/dsl.hpp>

STENCIL_KERNEL void intMin(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<0, (-2147483647 - 1), 0>()]; // expected-error {{offset -2147483648 of array 'f' in dimension 2 (y) is beyond the limit of 1048576; offsets must lie in [-1048576, 1048576]}}
}

STENCIL_KERNEL void justBeyond(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<1048577, 0, 0>()]; // expected-error {{offset 1048577 of array 'f' in dimension 1 (x) is beyond the limit of 1048576}}
}

STENCIL_KERNEL void onWrite(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix<0, 0, -1048577>()] = f[idx.ix()]; // expected-error {{offset -1048577 of array 'fn' in dimension 3 (z) is beyond the limit of 1048576}}
}

// An array of lower rank: the dimension its offset stands for, not its place
// among the method's offsets.
STENCIL_KERNEL void lowerRank(const stencil::Index3D &idx, const float *prof, float *fn) {
  fn[idx.ix()] = prof[idx.ix_z<2000000>()]; // expected-error {{offset 2000000 of array 'prof' in dimension 3 (z) is beyond the limit of 1048576}}
}
STENCIL_KERNEL void lowerRankSecond(const stencil::Index3D &idx, const float *plane, float *fn) {
  fn[idx.ix()] = plane[idx.ix_xz<0, -2000000>()]; // expected-error {{offset -2000000 of array 'plane' in dimension 3 (z) is beyond the limit of 1048576}}
}

// The bound itself is accepted.
STENCIL_KERNEL void atBound(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<-1048576, 0, 1048576>()];
}
