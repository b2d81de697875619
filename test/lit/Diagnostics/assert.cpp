// An active assert() in a stencil, written directly, in a helper or through a
// macro of the user's: err_assert_in_stencil at the assert (was a call of
// glibc's '__assert_fail'). Under NDEBUG it is a cast to void and the stencil
// translates; the generated OpenMP code then has no trace of it.
// RUN: not %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include 2>&1 | FileCheck %s
// RUN: %stencilc %s --emit=cpu -o %t.ndebug -- -std=c++17 -DNDEBUG -I %runtime_include
// RUN: FileCheck --check-prefix=NDEBUG --input-file=%t.ndebug/assert.stencil.cpp %s
#include <stencil/dsl.hpp>

#include <cassert>

#define CHECK_POSITIVE(x) assert((x) > 0.0f && "positive")

STENCIL_KERNEL void direct(const stencil::Index3D &idx, const float *f, float *fn) {
  assert(f[idx.ix()] >= 0.0f);
  fn[idx.ix()] = f[idx.ix<1, 0, 0>()];
}
// CHECK: assert.cpp:[[@LINE-3]]:3: error: assert() in a stencil is not translated into the generated variants; give stencilc -DNDEBUG (--extra-arg=-DNDEBUG) to leave the check to the host reference [err_assert_in_stencil]

inline float checkedHalf(float x) {
  CHECK_POSITIVE(x);
  return 0.5f * x;
}
STENCIL_KERNEL void inHelper(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = checkedHalf(f[idx.ix()]);
}
// CHECK: assert.cpp:[[@LINE-6]]:3: error: assert() in a stencil is not translated
// CHECK: note: in helper 'checkedHalf' inlined from here

// NDEBUG: stencilc_direct_openmp(
// NDEBUG-NOT: assert(
// NDEBUG-NOT: __assert_fail
