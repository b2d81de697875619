// RUN: %stencilc %s --list -- -I %mock_include | FileCheck %s
//
// Stencils a file hands only to the distributed runtime still get generated
// code: CompCommBinder's set_post_func/set_pre_func (seed 001's overlap;
// bound to a DomainLoop inside the runtime) and what asks for a stencil's
// generated code without running it (haloOf, deepHaloOf, generatedFor).
// The declarations below stand in for <stencil/mpi.hpp>, which needs MPI.
#include <stencil/dsl.hpp>

namespace stencil {
enum class Backend { OpenMP, Cuda };
struct Halo {};
struct GeneratedStencil;
class CompCommBinder {
public:
  template <typename S, typename... A> void set_post_func(const S &, A &&...) {}
  template <typename S, typename... A> void set_pre_func(const S &, A &&...) {}
};
template <typename... S> Halo haloOf(Backend, const S &...) { return {}; }
template <typename... S> Halo deepHaloOf(Backend, int, const S &...) {
  return {};
}
template <typename S> const GeneratedStencil *generatedFor(Backend, const S &) {
  return nullptr;
}
} // namespace stencil

struct Post {
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<1, 0, 0>()];
  }
};
struct Pre {
  void operator()(const stencil::Index3D &idx, const float *g, float *f) const {
    f[idx.ix()] = g[idx.ix<0, 1, 0>()];
  }
};
struct HaloA {
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<0, 0, 2>()];
  }
};
struct HaloB {
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<0, 0, -1>()];
  }
};
void deep(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<-3, 0, 0>()];
}
void looked_up(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<0, -2, 0>()];
}

void setUp(stencil::CompCommBinder &binder, const float *f, float *fn) {
  binder.set_post_func(Post(), f, fn);
  binder.set_pre_func(Pre(), f, fn);
  stencil::haloOf(stencil::Backend::OpenMP, HaloA(), HaloB());
  stencil::deepHaloOf(stencil::Backend::OpenMP, 2, deep);
  stencil::generatedFor(stencil::Backend::OpenMP, looked_up);
}

// CHECK-DAG: : Post (functor, 3-D)
// CHECK-DAG: : Pre (functor, 3-D)
// CHECK-DAG: : HaloA (functor, 3-D)
// CHECK-DAG: : HaloB (functor, 3-D)
// CHECK-DAG: : deep (function, 3-D)
// CHECK-DAG: : looked_up (function, 3-D)
