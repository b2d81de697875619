// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void lambda(const stencil::Index3D &idx, const float *f, float *g) {
  auto twice = [](float x) { return 2.0f * x; }; // expected-error {{unsupported type}}
  g[idx.ix()] = twice(f[idx.ix()]); // expected-error {{unsupported expression in a stencil: call of an overloaded operator or a lambda}}
}

// A rejected local is reported once, not again at each use (a reference to
// an element of a written array: Frontend/const-reference-run.cpp).
STENCIL_KERNEL void reference(const stencil::Index3D &idx, const float *f, float *g) {
  const float &r = g[idx.ix()]; // expected-error {{reference 'r' could see a write the generated code would not}}
  g[idx.ix()] = r + r + f[idx.ix()];
}

STENCIL_KERNEL void choose(const stencil::Index3D &idx, bool c, const float *f, const float *h, float *g) {
  g[idx.ix()] = (c ? f : h)[idx.ix()]; // expected-error {{unsupported expression in a stencil: subscript of something other than an array parameter}}
}

// A table of weights is not an array the generated code has: said so.
constexpr float weights[3] = {0.25f, 0.5f, 0.25f};
STENCIL_KERNEL void table(const stencil::Index3D &idx, const float *f, float *g) {
  float s = 0.0f;
  for (int m = 0; m < 3; ++m)
    s += weights[m] * f[idx.ix()]; // expected-error {{unsupported expression in a stencil: subscript of 'weights', an array that is not a parameter of the stencil (a table of constants: name each entry, e.g. constexpr float w0 = ...)}}
  g[idx.ix()] = s;
}

// An entry at a constant subscript is a constant.
STENCIL_KERNEL void entry(const stencil::Index3D &idx, const float *f, float *g) {
  g[idx.ix()] = weights[0] * f[idx.ix<-1, 0, 0>()] + weights[1] * f[idx.ix()];
}

// sizeof is a constant.
STENCIL_KERNEL void size(const stencil::Index3D &idx, float *g) { g[idx.ix()] = sizeof(double); }

// Said in the DSL's words, not clang's node names.
STENCIL_KERNEL void thirdOfTwo(const stencil::Index2D &idx, const float *f, float *g) {
  g[idx.ix()] = f[idx.ix()] * idx.k(); // expected-error {{unsupported expression in a stencil: 'k()' of a 2-D index (it has i() and j())}}
}
STENCIL_KERNEL void statementExpr(const stencil::Index2D &idx, const float *f, float *g) {
  g[idx.ix()] = ({ float t = f[idx.ix()]; t * 2.0f; }); // expected-error {{a statement expression '({ ... })' (a GNU extension: use a helper function)}}
}
