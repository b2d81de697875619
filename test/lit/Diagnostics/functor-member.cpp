// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Scaled {
  float factor = 2.0f;
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = factor * f[idx.ix()]; // expected-error {{functor stencil 'Scaled' reads data member 'factor'; pass values as parameters instead}}
  }
};

struct STENCIL_KERNEL TwoOperators { // expected-error {{functor stencil 'TwoOperators' must define exactly one non-template 'operator()'}}
  void operator()(const stencil::Index3D &idx, float *fn) const { fn[idx.ix()] = 0.0f; }
  void operator()(const stencil::Index2D &idx, float *fn) const { fn[idx.ix()] = 0.0f; }
};

struct STENCIL_KERNEL NoOperator {}; // expected-error {{functor stencil 'NoOperator' must define exactly one non-template 'operator()'}}
