// RUN: %stencilc %s --emit=ir -o - -- -I %mock_include | FileCheck %s
//
// A stencil that the file passes to a loop's run() is a stencil without
// STENCIL_KERNEL (the seed framework has no annotation): functors, functions
// by name, by address and through a variable that never changes. A stencil
// run only on the host engine needs no generated code.
#include <stencil/dsl.hpp>

namespace app {
struct Copy {
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) {
    fn[idx.ix()] = f[idx.ix()];
  }
};
} // namespace app

void scale(const stencil::Index3D &idx, float a, const float *f, float *fn) {
  fn[idx.ix()] = a * f[idx.ix()];
}
void twice(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = 2.0f * f[idx.ix()];
}
void shift(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<1, 0, 0>()];
}
struct HostOnly {
  void operator()(const stencil::Index3D &idx, float *fn) const { fn[idx.ix()] = 0.0f; }
};

void step(float *f, float *fn) {
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> loop;
  loop.run(app::Copy(), f, fn);
  loop.run(scale, 0.5f, f, fn);
  loop.run(&twice, f, fn);
  void (*const fixed)(const stencil::Index3D &, const float *, float *) = &shift;
  stencil::Loop3D<> automatic;
  automatic.run(fixed, f, fn);
  stencil::Loop3D<stencil::HostLoopEngine3D> host;
  host.run(HostOnly(), fn);
}

// CHECK:     "name": "Copy",
// CHECK:     "form": "functor",
// CHECK:     "name": "scale",
// CHECK:     "name": "twice",
// CHECK:     "name": "shift",
// CHECK-NOT: "name": "HostOnly"
