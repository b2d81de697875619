// RUN: rm -rf %t && split-file %s %t
//
// A stencil (and its helper) in a user's header in a folder named `stencil/`
// that also holds a dsl.hpp, found through -I after the real DSL header's
// folder: only the runtime's own headers have their bodies skipped, so both
// bodies are lowered (stencilc used to skip them and crash).
// RUN: %stencilc %t/main.cpp --emit=cpu -o - -- -I %mock_include -I %t/user | FileCheck %s
//
// The same header next to the DSL header stencilc uses (a vendored runtime
// folder): it is included by the program, not by the runtime, so it is not
// the runtime's either.
// RUN: %stencilc %t/main.cpp --emit=cpu -o - -- -I %t/user | FileCheck %s
//
// CHECK: // Stencil 'user::blur' from {{.*}}blur.hpp:4, variant grid
// CHECK: float x = f[c - 1];
// CHECK: half_result = 0.5f * x;
// CHECK: fn[c] = half_result + half_result_1;
// CHECK: /*name=*/"user::blur",

//--- main.cpp
#include <stencil/dsl.hpp>
#include <stencil/blur.hpp>

//--- user/stencil/dsl.hpp
// Mock DSL header for compiler tests: the names and shapes stencilc looks
// for, without the runtime (see STYLE.md: no system or CUDA headers).
#pragma once
#define STENCIL_KERNEL __attribute__((annotate("stencilc.stencil")))
#define STENCIL_HD
namespace stencil {
template <int Dims> class Index {
public:
  template <int... Off> long ix() const { return 0; }
  int i() const { return 0; }
  int j() const { return 0; }
  int k() const { return 0; }
  int w() const { return 0; }
};
using Index2D = Index<2>;
using Index3D = Index<3>;
using Index4D = Index<4>;
} // namespace stencil
using ArrayIndex2D = stencil::Index2D;
using ArrayIndex3D = stencil::Index3D;
using ArrayIndex4D = stencil::Index4D;

//--- user/stencil/blur.hpp
namespace user {
inline float half(float x) { return 0.5f * x; }
STENCIL_KERNEL
void blur(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = half(f[idx.ix<-1, 0, 0>()]) + half(f[idx.ix<1, 0, 0>()]);
}
} // namespace user
