// divide_stencil.hpp - the time loops' tests' stencil of divisions by
// constants (temporal.cpp on the GPU, cpu_threads.cpp on CPU threads).
#ifndef STENCIL_E2E_TEMPORAL_DIVIDE_STENCIL_HPP
#define STENCIL_E2E_TEMPORAL_DIVIDE_STENCIL_HPP

#include <stencil/dsl.hpp>

// Divisions by constants: by split reciprocals where exact for every input
// (118, -0.1, 6, 3), plain ones by a power of two and by a divisor too small
// for one. No product to contract: every engine's result is the host's, bit
// for bit, on any input. On zeros the sum is -0 only where every quotient
// is (x / 3 and x / 4 agree in sign), so a zero quotient of the wrong sign
// shows.
struct STENCIL_KERNEL DivideF {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = (a[idx.ix<-1, 0>()] + a[idx.ix<1, 0>()]) / 118.0f +
                  a[idx.ix<0, -1>()] / -0.1f - a[idx.ix<0, 1>()] / 6 +
                  a[idx.ix()] / 3.0f + a[idx.ix()] / 4.0f +
                  a[idx.ix()] / 1e-10f;
  }
};

#endif // STENCIL_E2E_TEMPORAL_DIVIDE_STENCIL_HPP
