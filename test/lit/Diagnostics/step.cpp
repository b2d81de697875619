// Step functions (STENCIL_STEP): what their form, body and arguments must be.
// RUN: %stencilc %s -- -I %mock_include -ferror-limit=0 -Xclang -verify
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Copy {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix()];
  }
};
struct STENCIL_KERNEL Scale {
  STENCIL_HD void operator()(const stencil::Index3D &idx, float w, const float *a, float *b) const {
    b[idx.ix()] = w * a[idx.ix<1, 0, 0>()];
  }
};
struct STENCIL_KERNEL Flat {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix()];
  }
};
STENCIL_KERNEL
void twice(const stencil::Index3D &idx, const double *a, double *b) { b[idx.ix()] = 2.0 * a[idx.ix()]; }
void opaque(const stencil::Index3D &idx, const float *a, float *b);

STENCIL_STEP inline void inlined(stencil::Step3D &s, const float *a, float *b) { // expected-error {{step 'inlined' must be a free function of external linkage that is neither a template nor inline}}
  s.run(Copy(), a, b);
}
STENCIL_STEP static void hidden(stencil::Step3D &s, const float *a, float *b) { // expected-error {{step 'hidden' must be a free function of external linkage that is neither a template nor inline}}
  s.run(Copy(), a, b);
}
template <typename T>
STENCIL_STEP void generic(stencil::Step3D &s, const T *a, T *b) { // expected-error {{step 'generic' must be a free function of external linkage that is neither a template nor inline}}
  s.run(Copy(), a, b);
}
// Instantiated: refused once, with the template.
template void generic<float>(stencil::Step3D &, const float *, float *);
// C varargs: no parameter to generate from.
STENCIL_STEP void varargs(stencil::Step3D &s, const float *a, float *b, ...) { // expected-error {{step 'varargs' takes a variable argument list ('...'); generated code passes exactly the parameters a stencil or step declares}}
  s.run(Copy(), a, b);
}

STENCIL_STEP void noStep(int n, const float *a, float *b) {} // expected-error {{the first parameter of step 'noStep' must be a 'stencil::Step2D &', 'stencil::Step3D &' or 'stencil::Step4D &'}}
STENCIL_STEP void byValue(stencil::Step3D s, const float *a, float *b) { // expected-error {{the first parameter of step 'byValue' must be a 'stencil::Step2D &', 'stencil::Step3D &' or 'stencil::Step4D &'}}
  s.run(Copy(), a, b);
}

STENCIL_STEP void statements(stencil::Step3D &s, stencil::Step3D &other, const float *a, float *b) { // expected-error {{parameter 'other' of step 'statements' has type 'stencil::Step3D &'; step parameters are scalars by value or pointers to scalars (arrays)}}
}
STENCIL_STEP void body(stencil::Step3D &s, int n, const float *a, float *b) {
  s.run(Copy(), a, b);
  int k = n; // expected-error {{a step runs stencils only: each statement of step 'body' must be 'step.run(Stencil(), args...)' on its first parameter}}
  for (int i = 0; i < 2; ++i) // expected-error {{a step runs stencils only: each statement of step 'body' must be 'step.run(Stencil(), args...)' on its first parameter}}
    s.run(Copy(), a, b);
}
STENCIL_STEP void empty(stencil::Step3D &s) {} // expected-error {{step 'empty' runs no stencil}}
// `;` and a void cast without side effects (an assert() under NDEBUG) do
// nothing and are accepted; a void cast that does something is not.
STENCIL_STEP void quiet(stencil::Step3D &s, int unused, const float *a, float *b) {
  (void)unused;
  ;
  static_cast<void>(0);
  static_assert(sizeof(float) == 4, "float");
  using Real = float;
  typedef Real Value;
  s.run(Copy(), a, b);
  (void)(unused++); // expected-error {{a step runs stencils only: each statement of step 'quiet' must be 'step.run(Stencil(), args...)' on its first parameter}}
  Value kept = 0; // expected-error {{a step runs stencils only: each statement of step 'quiet' must be 'step.run(Stencil(), args...)' on its first parameter}}
}
STENCIL_STEP void onlyQuiet(stencil::Step3D &s, int unused) { // expected-error {{step 'onlyQuiet' runs no stencil}}
  (void)unused;
}

STENCIL_STEP void unknown(stencil::Step3D &s, const float *a, float *b) {
  s.run(&opaque, a, b); // expected-error {{step 'unknown' runs something that is not a stencil stencilc can generate here: pass a functor object or a function defined in this file}} expected-warning {{stencil 'opaque' passed to run() is defined in another file}}
}
STENCIL_STEP void dims(stencil::Step3D &s, const float *a, float *b) {
  s.run(Flat(), a, b); // expected-error {{stencil 'Flat' is 2-D but step 'dims' is 3-D}}
}
STENCIL_STEP void count(stencil::Step3D &s, const float *a, float *b) {
  s.run(Copy(), a); // expected-error {{stencil 'Copy' gets 1 arguments after the index but takes 2}}
}
STENCIL_STEP void args(stencil::Step3D &s, float w, const float *a, float *b) {
  s.run(Scale(), w * 2.0f, a, b); // expected-error {{argument 1 of stencil 'Scale' (its parameter 'w') is neither a parameter of the step nor a constant}}
  s.run(Scale(), 0.5f, w, b);     // expected-error {{argument 2 of stencil 'Scale' (its parameter 'a') is a scalar, where the stencil takes an array}}
  s.run(Scale(), a, a, b);        // expected-error {{argument 1 of stencil 'Scale' (its parameter 'w') is an array, where the stencil takes a scalar}}
  s.run(Copy(), b, a);            // expected-error {{argument 2 of stencil 'Copy' (its parameter 'b') is a read-only array, where the stencil writes one}}
  s.run(Scale(), 'c', a, b);      // expected-error {{argument 1 of stencil 'Scale' (its parameter 'w') is a constant of type 'char', which no scalar of a stencil has; convert it to the parameter's type}}
}
STENCIL_STEP void alias(stencil::Step3D &s, double *d) {
  s.run(twice, d, d); // expected-error {{array 'd' is passed to stencil 'twice' twice (as 'a' and 'b') and written through one of them; the arrays of one launch must not overlap}}
}
STENCIL_STEP void types(stencil::Step3D &s, const double *a, float *b) {
  s.run(Copy(), a, b); // expected-error {{argument 1 of stencil 'Copy' (its parameter 'a') is an array of 'double', where the stencil takes one of 'float'}}
}

// One array of a step indexed with different dimensions by two stencils.
STENCIL_KERNEL
void profileX(const stencil::Index3D &idx, const float *p, float *b) { b[idx.ix()] = p[idx.ix_x<1>()]; }
STENCIL_STEP void shapes(stencil::Step3D &s, const float *u, float *a, float *b) {
  s.run(Copy(), u, a);
  s.run(profileX, a, b); // expected-error {{array 'a' spans 'x' in stencil 'profileX' but 'xyz' in stencil 'Copy'; an array of a step has one shape}}
}

// A step where a stencil goes: run by another step, or repeated by a loop.
STENCIL_STEP void inner(stencil::Step3D &s, const float *a, float *b) {
  s.run(Copy(), a, b);
}
STENCIL_STEP void outer(stencil::Step3D &s, const float *a, float *b, float *c) {
  s.run(inner, a, b); // expected-error {{'inner' is a step (STENCIL_STEP), not a stencil: run() cannot run it; a loop's runStep or DomainStep::run runs a step, one at a time}}
  s.run(Copy(), b, c);
}
void repeated(float *f, float *fn) {
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> loop;
  loop.repeat(3, inner, stencil::previousLevel(f), stencil::nextLevel(fn)); // expected-error {{'inner' is a step (STENCIL_STEP), not a stencil: repeat() cannot run it}}
}
