// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
// RUN: %stencilc %s --emit=openmp --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=OMP
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
//
// A float division by a constant whose split reciprocal is exact for every
// input (IR/ExactReciprocal.h) is a product in CUDA, the division kept for
// the quotients it cannot vouch for; the host's code divides. Powers of two,
// divisors off its range, doubles and runtime divisors stay divisions.
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Divisions {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a, float *b,
                             float k) const {
    b[idx.ix()] = a[idx.ix()] / 118.0f + a[idx.ix<1, 0>()] / 6 - a[idx.ix()] / -0.1f +
                  a[idx.ix()] / 4.0f + a[idx.ix()] / 1e-10f + a[idx.ix()] / k +
                  a[idx.ix<0, 1>()] / 118.0f;
  }
};
STENCIL_KERNEL void divisionsF64(const stencil::Index2D &idx, const double *a, double *b) {
  b[idx.ix()] = a[idx.ix()] / 118.0;
}
STENCIL_KERNEL void compound(const stencil::Index2D &idx, const float *a, float *b) {
  float s = a[idx.ix()];
  s /= 7.0f;
  b[idx.ix()] = s;
}
// Unsigned divisors too; a divisor converted twice (through another
// integer type) is neither a product nor listed.
STENCIL_KERNEL void unsignedDivisors(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = a[idx.ix()] / 3u + a[idx.ix()] / 2147483648u +
                a[idx.ix()] / (unsigned long)5;
}
// An unsigned negation wraps: -3u is 2^32 - 3, not -3 (a division kept);
// a signed one is the negated divisor.
STENCIL_KERNEL void negatedDivisors(const stencil::Index2D &idx, const float *a, float *b) {
  b[idx.ix()] = a[idx.ix()] / -3u + a[idx.ix()] / -(3ul) + a[idx.ix()] / -3;
}
void run(float *a, float *b, double *c, double *d) {
  stencil::Loop2D<> l;
  l.run(Divisions(), a, b, 2.0f);
  l.run(divisionsF64, c, d);
  l.run(compound, a, b);
  l.run(unsignedDivisors, a, b);
  l.run(negatedDivisors, a, b);
}

// CUDA: __device__ __forceinline__ float stencilc_divide(float x, float d, float high, float low, float least) { const float q = __fmaf_rn(x, high, __fmul_rn(x, low)); return fabsf(q) >= least ? q : __fdiv_rn(x, d); }
// CUDA-LABEL: void stencilc_Divisions_grid(
// CUDA: b[c] = (((((stencilc_divide(a[c], 118.0f, 0.008474575f, 9.155374e-10f, 7.888609e-31f) + stencilc_divide(a[c + 1], static_cast<float>(6), 0.16666666f, 9.934108e-09f, 7.888609e-31f)) - stencilc_divide(a[c], -0.1f, (-9.999999f), (-8.046627e-07f), 7.888609e-31f)) + (a[c] / 4.0f)) + (a[c] / 1e-10f)) + (a[c] / k_)) + stencilc_divide(a[c + sy], 118.0f,
// CUDA-LABEL: void stencilc_divisionsF64_grid(
// CUDA: b[c] = a[c] / 118.0;
// A compound assignment divides as its expansion does.
// CUDA-LABEL: void stencilc_compound_grid(
// CUDA: s = stencilc_divide(s, 7.0f, 
// OMP-NOT: stencilc_divide
// OMP: (a[c] / 118.0f) + (a[c + 1] / static_cast<float>(6))
// The plan lists them by divisor, in the order they appear; runtime divisors
// and doubles are not listed.
// PLAN-LABEL: stencil Divisions
// PLAN: float divisions by constants (CUDA): by 118 as an exact product (2); by 6 as an exact product (1); by -0.1 as an exact product (1); by 4 kept as a division (1); by 1e-10 kept as a division (1)
// PLAN-LABEL: stencil divisionsF64
// PLAN-NOT: divisions by constants
// PLAN-LABEL: stencil compound
// PLAN: float divisions by constants (CUDA): by 7 as an exact product (1)
// PLAN-LABEL: stencil unsignedDivisors
// PLAN: float divisions by constants (CUDA): by 3 as an exact product (1); by 2147483648 kept as a division (1)
// CUDA-LABEL: void stencilc_unsignedDivisors_grid(
// CUDA: b[c] = (stencilc_divide(a[c], static_cast<float>(3U), 0.3333333f, 1.9868216e-08f, 7.888609e-31f) + (a[c] / static_cast<float>(2147483648U))) + (a[c] / static_cast<float>(static_cast<unsigned long long>(5)));
// PLAN-LABEL: stencil negatedDivisors
// PLAN: float divisions by constants (CUDA): by -3 as an exact product (1)
// CUDA-LABEL: void stencilc_negatedDivisors_grid(
// CUDA: b[c] = ((a[c] / static_cast<float>(-3U)) + (a[c] / static_cast<float>(-3ULL))) + stencilc_divide(a[c], static_cast<float>(-3), (-0.3333333f),
