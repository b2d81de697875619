// Scratch arrays of a step (STENCIL_SCRATCH): where the mark may stand, and
// a step that would read a value it did not write.
// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Copy {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix()];
  }
};
struct STENCIL_KERNEL Shift {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix<-1, 0, 0>()];
  }
};
struct STENCIL_KERNEL Accumulate {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = b[idx.ix()] + a[idx.ix()];
  }
};
struct STENCIL_KERNEL Bottom {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    if (idx.k() == 0)
      b[idx.ix()] = a[idx.ix()];
  }
};
struct STENCIL_KERNEL Either {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    if (idx.k() == 0)
      b[idx.ix()] = 0.0f;
    else
      b[idx.ix()] = a[idx.ix<0, 0, -1>()];
  }
};

// expected-error@+2 {{STENCIL_SCRATCH marks an array of a step; 'b' is a parameter of stencil 'onStencil'}}
STENCIL_KERNEL
void onStencil(const stencil::Index3D &idx, const float *a, STENCIL_SCRATCH float *b) {
  b[idx.ix()] = a[idx.ix()];
}

STENCIL_STEP void onScalar(stencil::Step3D &s, STENCIL_SCRATCH float w, // expected-error {{STENCIL_SCRATCH marks an array of a step; 'w' of step 'onScalar' is not an array}}
                           const float *a, float *b) {
  s.run(Copy(), a, b);
}
STENCIL_STEP void onStep(STENCIL_SCRATCH stencil::Step3D &s, // expected-error {{STENCIL_SCRATCH marks an array of a step; 's' of step 'onStep' is not an array}}
                         const float *a, float *b) {
  s.run(Copy(), a, b);
}
STENCIL_STEP void readOnly(stencil::Step3D &s, STENCIL_SCRATCH const float *a, // expected-error {{scratch array 'a' of step 'readOnly' is read-only; a step writes its scratch arrays before reading them}}
                           float *b) {
  s.run(Copy(), a, b);
}

STENCIL_STEP void readFirst(stencil::Step3D &s, const float *a,
                            STENCIL_SCRATCH float *t, // expected-note {{'t' is marked STENCIL_SCRATCH here}}
                            float *b) {
  s.run(Shift(), t, b); // expected-error {{stencil 'Shift' reads scratch array 't' before any stencil of step 'readFirst' writes it; a scratch array holds only what the step wrote}}
  s.run(Copy(), a, t);
}
// Reading at the centre while writing is a read of the earlier value too.
STENCIL_STEP void readWrite(stencil::Step3D &s, const float *a,
                            STENCIL_SCRATCH float *t, // expected-note {{'t' is marked STENCIL_SCRATCH here}}
                            float *b) {
  s.run(Accumulate(), a, t); // expected-error {{stencil 'Accumulate' reads scratch array 't' before any stencil of step 'readWrite' writes it; a scratch array holds only what the step wrote}}
  s.run(Shift(), t, b);
}
STENCIL_STEP void partial(stencil::Step3D &s, const float *a,
                          STENCIL_SCRATCH float *t, // expected-note {{'t' is marked STENCIL_SCRATCH here}}
                          float *b) {
  s.run(Bottom(), a, t); // expected-error {{stencil 'Bottom' writes scratch array 't' first but not on every path; the points it leaves would hold an earlier step's values}}
  s.run(Shift(), t, b);
}

// Accepted: written on every path (both branches) before any read, then
// read and written again; a scratch array nobody reads; one never used,
// with a warning (the mark changes nothing: probably on the wrong array).
STENCIL_STEP void fine(stencil::Step3D &s, const float *a,
                       STENCIL_SCRATCH float *t, STENCIL_SCRATCH float *u,
                       STENCIL_SCRATCH float *unused, // expected-warning {{scratch array 'unused' of step 'fine' is passed to no stencil of the step; the mark changes nothing}}
                       float *b) {
  s.run(Either(), a, t);
  s.run(Shift(), t, b);
  s.run(Accumulate(), a, t);
  s.run(Copy(), a, u);
}
