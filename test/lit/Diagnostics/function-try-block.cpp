// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
//
// A function-try-block was lowered to an empty stencil with only a warning.
#include <stencil/dsl.hpp>

STENCIL_KERNEL void freeTry(const stencil::Index3D &idx, const float *f, float *fn) try { // expected-error {{'freeTry' has a function-try-block; stencils and their helpers cannot handle exceptions}}
  fn[idx.ix()] = f[idx.ix()];
} catch (...) {
}

struct STENCIL_KERNEL FunctorTry {
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) const try { // expected-error {{'FunctorTry::operator()' has a function-try-block; stencils and their helpers cannot handle exceptions}}
    fn[idx.ix()] = f[idx.ix()];
  } catch (...) {
  }
};

static float helperTry(float x) try { // expected-error {{'helperTry' has a function-try-block; stencils and their helpers cannot handle exceptions}}
  return 2.0f * x;
} catch (...) {
  return 0.0f;
}

STENCIL_KERNEL void callsHelperTry(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = helperTry(f[idx.ix()]); // expected-note {{in helper 'helperTry' inlined from here}}
}

STENCIL_KERNEL void tryStatement(const stencil::Index3D &idx, const float *f, float *fn) {
  try { // expected-error {{unsupported statement in a stencil: 'try'}}
    fn[idx.ix()] = f[idx.ix()];
  } catch (...) {
  }
}
