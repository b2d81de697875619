// Arrays of lower rank (idx.ix_z<...>(), idx.ix_xy<...>(), ...): the rules
// on how they are indexed and that they are never written.
// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void count(const stencil::Index3D &idx, const float *rho0, const float *ps,
                          float *fn) {
  fn[idx.ix()] = rho0[idx.ix_z<0, 1>()]   // expected-error {{access to 'rho0' through 'idx.ix_z' has 2 offsets but the array spans 1 dimensions}}
                 + ps[idx.ix_xy<1>()];    // expected-error {{access to 'ps' through 'idx.ix_xy' has 1 offsets but the array spans 2 dimensions}}
}

STENCIL_KERNEL void outside(const stencil::Index2D &idx, const float *p, const float *q,
                            float *fn) {
  fn[idx.ix()] = p[idx.ix_z()]            // expected-error {{'idx.ix_z' spans dimension 'z', which a 2-D stencil does not have}}
                 + q[idx.ix_yw<0, 1>()];  // expected-error {{'idx.ix_yw' spans dimension 'w', which a 2-D stencil does not have}}
}

STENCIL_KERNEL void every(const stencil::Index3D &idx, const float *f, const float *g,
                          float *fn) {
  fn[idx.ix()] = f[idx.ix_xyz<1, 0, 0>()]; // expected-error {{'idx.ix_xyz' spans every dimension of a 3-D stencil; index such arrays with 'idx.ix<...>()'}}
}

STENCIL_KERNEL void every2d(const stencil::Index2D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix_xy<1, 0>()]; // expected-error {{'idx.ix_xy' spans every dimension of a 2-D stencil; index such arrays with 'idx.ix<...>()'}}
}

STENCIL_KERNEL void mismatch(const stencil::Index3D &idx, const float *f, const float *p,
                             float *fn) {
  fn[idx.ix()] = f[idx.ix()]    // expected-note {{'f' is first indexed here}}
                 + f[idx.ix_z<1>()]   // expected-error {{array 'f' is indexed through 'idx.ix_z' here but through 'idx.ix' before; every access of an array spans the same dimensions}}
                 + p[idx.ix_x<1>()]   // expected-note {{'p' is first indexed here}}
                 + p[idx.ix_y<1>()];  // expected-error {{array 'p' is indexed through 'idx.ix_y' here but through 'idx.ix_x' before; every access of an array spans the same dimensions}}
}

// A store through an index of lower rank, and a store to an array read as a
// profile before.
STENCIL_KERNEL void writes(const stencil::Index3D &idx, const float *f, float *colsum,
                           float *p) {
  colsum[idx.ix_xy()] = f[idx.ix()]; // expected-error {{array 'colsum' spans only dimensions 'xy' and is written; a stencil writes only arrays of every dimension, at 'idx.ix()'}}
  float t = p[idx.ix_z<1>()];        // expected-note {{'p' is first indexed here}}
  p[idx.ix()] = t;                   // expected-error {{array 'p' is indexed through 'idx.ix' here but through 'idx.ix_z' before; every access of an array spans the same dimensions}}
}

// Inside a helper, the array keeps the shape it has in the stencil.
inline float twice(const stencil::Index3D &idx, const float *q) {
  return q[idx.ix()] * 2.0f; // expected-error {{array 'q' is indexed through 'idx.ix' here but through 'idx.ix_z' before; every access of an array spans the same dimensions}}
}
STENCIL_KERNEL void helper(const stencil::Index3D &idx, const float *q, float *fn) {
  fn[idx.ix()] = q[idx.ix_z()]  // expected-note {{'q' is first indexed here}}
                 + twice(idx, q); // expected-note {{in helper 'twice' inlined from here}}
}

// An index escaping as a value is still an escape.
STENCIL_KERNEL void escape(const stencil::Index3D &idx, const float *f, float *fn) {
  long k = idx.ix_z<1>(); // expected-error {{the stencil index 'idx' may only be used as 'ix<...>()' (or 'ix_z<...>()' and the like, for arrays of lower rank), 'i()', 'j()', 'k()', 'w()' or passed to a helper function}}
  fn[idx.ix()] = f[idx.ix()] + k;
}
