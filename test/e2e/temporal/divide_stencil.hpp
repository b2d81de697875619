// divide_stencil.hpp - the time loops' tests' stencil of divisions by
// constants (temporal.cpp on the GPU, cpu_threads.cpp on CPU threads).
#ifndef STENCIL_E2E_TEMPORAL_DIVIDE_STENCIL_HPP
#define STENCIL_E2E_TEMPORAL_DIVIDE_STENCIL_HPP

#include <stencil/dsl.hpp>

// Divisions by constants: by split reciprocals where exact for every input
// (118, -0.1, 6, 3, whose parts can share a sign: a pass's chunk checks
// their products once; 0.7, whose cannot: tested where it is computed),
// plain ones by a power of two and by a divisor too small for one. No
// product to contract: every engine's result is the host's, bit for bit,
// on any input. On zeros the sum is -0 only where every quotient is (x / 3
// and x / 4 agree in sign), so a zero quotient of the wrong sign shows.
struct STENCIL_KERNEL DivideF {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = (a[idx.ix<-1, 0>()] + a[idx.ix<1, 0>()]) / 118.0f +
                  a[idx.ix<0, -1>()] / -0.1f - a[idx.ix<0, 1>()] / 6 +
                  a[idx.ix()] / 3.0f + a[idx.ix()] / 4.0f +
                  a[idx.ix<1, 0>()] / 0.7f + a[idx.ix()] / 1e-10f;
  }
};

// One quotient a point, by 118 (its split's parts share a sign): on tiny
// inputs (e2e::Input::Tiny) a few percent of its products differ from the
// quotient and no larger term hides it, so a pass whose chunk keeps a
// product it should have divided again fails.
struct STENCIL_KERNEL QuotientF {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = (a[idx.ix<-1, 0>()] + a[idx.ix<0, 1>()]) / 118.0f;
  }
};
// The same with a corner read: passes with rings of rows, whose steady part
// checks its products once a row.
struct STENCIL_KERNEL QuotientBoxF {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = (a[idx.ix<-1, 1>()] + a[idx.ix<0, 1>()]) / 118.0f;
  }
};

#endif // STENCIL_E2E_TEMPORAL_DIVIDE_STENCIL_HPP
