// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
//
// Engines find a functor's generated code by its type name; functors of
// internal or no linkage share that name with namesakes in other files, so
// one file's stencil would run another's code. They are rejected.
#include <stencil/dsl.hpp>

namespace {
struct STENCIL_KERNEL Smooth { // expected-error {{functor stencil 'Smooth' has internal or no linkage (it is in an anonymous namespace or is a local class); generated engines find functors by type name, which namesakes in other files share: move it into a named namespace}}
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<1, 0, 0>()];
  }
};

namespace inner {
struct STENCIL_KERNEL Nested { // expected-error {{functor stencil 'Nested' has internal or no linkage}}
  void operator()(const stencil::Index3D &idx, float *fn) const { fn[idx.ix()] = 1.0f; }
};
} // namespace inner

struct Outer {
  struct STENCIL_KERNEL Member { // expected-error {{functor stencil 'Member' has internal or no linkage}}
    void operator()(const stencil::Index3D &idx, float *fn) const { fn[idx.ix()] = 2.0f; }
  };
};
} // namespace

void caller() {
  struct STENCIL_KERNEL Local { // expected-error {{functor stencil 'Local' has internal or no linkage}}
    void operator()(const stencil::Index3D &idx, float *fn) const { fn[idx.ix()] = 3.0f; }
  };
}

// A named namespace is fine, also for a name used above.
namespace named {
struct STENCIL_KERNEL Smooth {
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<-1, 0, 0>()];
  }
};
} // namespace named
