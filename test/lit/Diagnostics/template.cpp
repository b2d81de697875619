// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

template <typename T>
STENCIL_KERNEL void generic(const stencil::Index3D &idx, T *fn) { // expected-error {{stencil 'generic' is a template; stencils must be ordinary functions or functors}}
  fn[idx.ix()] = T(0);
}

template <typename T>
struct STENCIL_KERNEL GenericFunctor { // expected-error {{stencil 'GenericFunctor' is a template}}
  void operator()(const stencil::Index3D &idx, T *fn) const { fn[idx.ix()] = T(0); }
};

void use(float *p) { GenericFunctor<float>{}(stencil::Index3D(), p); }

struct Holder {
  STENCIL_KERNEL void member(const stencil::Index3D &idx, float *fn) { fn[idx.ix()] = 0.0f; } // expected-error {{stencil 'member' is a member function; annotate a free function or the functor struct instead}}
};
