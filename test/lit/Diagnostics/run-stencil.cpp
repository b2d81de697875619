// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
//
// What a loop's run() is passed that stencilc cannot generate: each is
// located, never an empty file and a run-time surprise.
#include <stencil/dsl.hpp>

using Fn = void (*)(const stencil::Index2D &, float *);
void zero(const stencil::Index2D &idx, float *fn) { fn[idx.ix()] = 0.0f; }
void one(const stencil::Index2D &idx, float *fn) { fn[idx.ix()] = 1.0f; }
void elsewhere(const stencil::Index2D &idx, float *fn); // defined in another file
STENCIL_KERNEL void annotatedElsewhere(const stencil::Index2D &idx, float *fn);

template <typename T> struct Fill { // expected-error {{stencil 'Fill' is a template; stencils must be ordinary functions or functors}}
  void operator()(const stencil::Index2D &idx, T *fn) const { fn[idx.ix()] = T(); }
};
static void hidden(const stencil::Index2D &idx, float *fn) { fn[idx.ix()] = 2.0f; } // expected-error {{free-function stencil 'hidden' must have external linkage}}

void pick(bool c, Fn param, float *fn) {
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> loop;
  loop.run(c ? zero : one, fn);  // both are generated: no warning
  loop.run(c ? zero : param, fn); // expected-warning {{stencilc cannot tell which stencil this run() call passes}}
  loop.run(c ? &one : elsewhere, fn); // expected-warning {{stencil 'elsewhere' passed to run() is defined in another file}}
  loop.run(param, fn);           // expected-warning {{stencilc cannot tell which stencil this run() call passes}}
  Fn changed = zero;
  changed = one;
  loop.run(changed, fn);         // expected-warning {{stencilc cannot tell which stencil this run() call passes}}
  loop.run(elsewhere, fn);       // expected-warning {{stencil 'elsewhere' passed to run() is defined in another file}}
  loop.run(annotatedElsewhere, fn);
  loop.run([](const stencil::Index2D &idx, float *f) { f[idx.ix()] = 0.0f; }, fn); // expected-error {{a lambda passed to run() cannot be a stencil}}
  loop.run(Fill<float>(), fn);
  loop.run(hidden, fn);
}

// A time loop's call is named as such.
void timeLoop(float *u, float *un) {
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> loop;
  loop.repeat(3, [](const stencil::Index2D &idx, const float *f, float *g) { g[idx.ix()] = f[idx.ix()]; }, stencil::previousLevel(u), stencil::nextLevel(un)); // expected-error {{a lambda passed to repeat() cannot be a stencil}}
}

// Through a template's parameter: an annotated function of that type is
// assumed (no warning); stencilc compiles it as annotated.
STENCIL_KERNEL void annotated3d(const stencil::Index3D &idx, float *fn) { fn[idx.ix()] = 3.0f; }
template <typename F> void forward(F fn3, float *fn) {
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> loop;
  loop.run(fn3, fn);
}
void useForward(float *fn) { forward(annotated3d, fn); }
