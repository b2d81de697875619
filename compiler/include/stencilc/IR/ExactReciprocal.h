//===- ExactReciprocal.h - Division by a constant as a product -*- C++ -*-===//
///
/// \file
/// A float division x / d by a constant d costs an IEEE division on the GPU
/// (a reciprocal, its refinement and a range check with a slow path: about
/// ten instructions). Where d's reciprocal split in two floats, High + Low,
/// gives q = fma(x, High, x * Low) equal to the division's correctly rounded
/// quotient for every x, the CUDA backend prints that product instead (two
/// instructions) and keeps the division for the x it cannot vouch for.
///
/// Every x is checked, not a sample: in the range where no value involved is
/// subnormal or infinite, scaling x by a power of two scales q and x / d
/// alike, so the 2^23 significands of one binade decide for all of them.
/// Outside it (|q| below Least: zeros, subnormals and the binades whose
/// x * Low underflows; NaNs and infinities that the product turns into NaN)
/// the code divides.
///
/// High is 1 / d rounded to nearest, or one float nearer zero where that
/// split passes: High and Low then share a sign, so the product of a zero
/// or an infinity is the quotient too (-0 + +0 would be +0, inf - inf NaN),
/// and a test on x's bits alone (LeastDividend) tells every x where the
/// product may differ, before the product is known.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_IR_EXACTRECIPROCAL_H
#define STENCILC_IR_EXACTRECIPROCAL_H

#include <optional>

namespace stencilc::ir {

struct ExactReciprocal {
  float High = 0; ///< 1 / d rounded to float.
  float Low = 0;  ///< 1 / d - High, rounded.
  /// The product stands where |q| >= Least (a power of two); below, and
  /// where q is NaN, the code divides.
  float Least = 0;
  /// Where High and Low share a sign: the product stands for every x but
  /// those with 0 < |x| < LeastDividend (a power of two, at least
  /// 2 * Least * |d|, so |q| >= Least beyond it; zeros, infinities and NaNs
  /// included). 0 where they do not.
  float LeastDividend = 0;
};

/// The split reciprocal of \p Divisor if fma(x, High, x * Low) equals the
/// float x / Divisor for every x with |q| >= Least (checked for each
/// significand); none for a power of two (the division is a product
/// already), a divisor off [2^-60, 2^60] in magnitude, one whose Low is 1/2
/// or more (x * Low could overflow: most divisors below 2^-23, all below
/// about 2^-46), or one that fails.
std::optional<ExactReciprocal> exactReciprocal(float Divisor);

} // namespace stencilc::ir

#endif // STENCILC_IR_EXACTRECIPROCAL_H
