//===- ExactReciprocalTest.cpp - Divisions by constants as products -------===//
///
/// \file
/// ir::exactReciprocal: which divisors get a split reciprocal, and that the
/// code printDivideHelper prints (emulated here with the same correctly
/// rounded operations) equals the division on zeros, subnormals, the
/// extremes, infinities, NaNs and a spread of every other float.
///
//===----------------------------------------------------------------------===//
#include "stencilc/IR/ExactReciprocal.h"
#include <cmath>
#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

using namespace stencilc::ir;

namespace {

float fromBits(std::uint32_t B) {
  float F;
  std::memcpy(&F, &B, sizeof F);
  return F;
}

std::uint32_t bitsOf(float F) {
  std::uint32_t B;
  std::memcpy(&B, &F, sizeof B);
  return B;
}

/// The product, as the CUDA code computes it.
float product(float X, const ExactReciprocal &R) {
  const float XLow = X * R.Low;
  return std::fma(X, R.High, XLow);
}

/// stencilc_divide, as the CUDA code computes it.
float divide(float X, float D, const ExactReciprocal &R) {
  const float Q = product(X, R);
  return std::fabs(Q) >= R.Least ? Q : X / D;
}

/// stencilc_divide_or's test on x alone: twice its bits less two (sign
/// dropped, zeros the largest) below the least dividend's so computed.
bool dividendMarked(float X, const ExactReciprocal &R) {
  return bitsOf(X) * 2u - 2u < bitsOf(R.LeastDividend) * 2u - 2u;
}

/// The floats the test divides: every 997th bit pattern (NaNs, infinities,
/// zeros, subnormals and normals of both signs), and the special ones.
std::vector<float> inputs() {
  using Limits = std::numeric_limits<float>;
  std::vector<float> X = {0.0f,
                          -0.0f,
                          Limits::infinity(),
                          -Limits::infinity(),
                          Limits::quiet_NaN(),
                          Limits::denorm_min(),
                          -Limits::denorm_min(),
                          Limits::min(),
                          Limits::max(),
                          -Limits::max(),
                          std::nextafter(Limits::min(), 0.0f)};
  for (std::uint64_t B = 0; B < (1ull << 32); B += 997)
    X.push_back(fromBits(static_cast<std::uint32_t>(B)));
  return X;
}

bool same(float A, float B) {
  return bitsOf(A) == bitsOf(B) || (std::isnan(A) && std::isnan(B));
}

/// How many inputs \p R divides by \p D otherwise than the division.
long long mismatches(float D, const ExactReciprocal &R,
                     const std::vector<float> &X) {
  long long Bad = 0;
  for (float V : X)
    Bad += !same(divide(V, D, R), V / D);
  return Bad;
}

/// How many inputs stencilc_divide_or lets through with a product that is
/// not the division.
long long unmarkedMismatches(float D, const ExactReciprocal &R,
                             const std::vector<float> &X) {
  long long Bad = 0;
  for (float V : X)
    Bad += !dividendMarked(V, R) && !same(product(V, R), V / D);
  return Bad;
}

/// The divisors whose split the tests check.
const float Divisors[] = {118.0f, 3.0f, 6.0f, 7.0f, 10.0f, 0.1f, -0.1f, -118.0f,
                          1.5f, 0.3f, 0.7f, 188.127365f, 3.14159265f,
                          12345.678f, 1e10f, 1e17f, 1e-6f,
                          // The most lopsided split (|High / Low| = 2^47)
                          // at a tiny divisor; the largest divisor taken.
                          0x1.43cb1ep-46f, 0x1.fffffep59f};

TEST(ExactReciprocal, EqualsTheDivisionOnEveryKindOfInput) {
  const std::vector<float> X = inputs();
  for (float D : Divisors) {
    const std::optional<ExactReciprocal> R = exactReciprocal(D);
    ASSERT_TRUE(R.has_value()) << D;
    // The nearest reciprocal, or the float below it in magnitude.
    EXPECT_TRUE(R->High == 1.0f / D ||
                R->High == std::nextafter(1.0f / D, 0.0f))
        << D;
    EXPECT_EQ(mismatches(D, *R, X), 0) << D;
  }
}

// Where High and Low share a sign, the test on x alone (the chunk's) lets
// through only products that are the division: zeros and infinities too.
TEST(ExactReciprocal, TheLeastDividendMarksEveryProductThatMayDiffer) {
  const std::vector<float> X = inputs();
  int WithDividend = 0;
  for (float D : Divisors) {
    const ExactReciprocal R = *exactReciprocal(D);
    if (R.LeastDividend == 0.0f) {
      EXPECT_NE(std::signbit(R.High), std::signbit(R.Low)) << D;
      continue;
    }
    ++WithDividend;
    EXPECT_EQ(std::signbit(R.High), std::signbit(R.Low)) << D;
    int Exponent = 0;
    EXPECT_EQ(std::frexp(R.LeastDividend, &Exponent), 0.5f) << D;
    // The power of two from 2 * Least * |d|: |q| >= Least beyond it, and
    // no higher than that needs.
    const double Bound = 2.0 * R.Least * std::fabs(static_cast<double>(D));
    EXPECT_GE(R.LeastDividend, Bound) << D;
    EXPECT_LT(R.LeastDividend, 2 * Bound) << D;
    EXPECT_EQ(unmarkedMismatches(D, R, X), 0) << D;
    for (float Z : {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
      EXPECT_FALSE(dividendMarked(Z, R)) << D << " " << Z;
      EXPECT_TRUE(same(product(Z, R), Z / D)) << D << " " << Z;
    }
  }
  // Every float of the two binades around the least dividend, of 118's and
  // 0.1's: none let through differs.
  for (float D : {118.0f, 0.1f}) {
    const ExactReciprocal R = *exactReciprocal(D);
    std::vector<float> Near;
    for (std::uint32_t B = bitsOf(R.LeastDividend / 2);
         B < bitsOf(R.LeastDividend * 2); ++B)
      Near.push_back(fromBits(B));
    EXPECT_EQ(unmarkedMismatches(D, R, Near), 0) << D;
  }
  // 0.7 and 188.127365 have no such split that passes; most divisors do.
  EXPECT_GE(WithDividend, 15);
  EXPECT_EQ(exactReciprocal(0.7f)->LeastDividend, 0.0f);
}

TEST(ExactReciprocal, NoneWhereTheDivisionIsAProductOrOutOfRange) {
  using Limits = std::numeric_limits<float>;
  for (float D :
       {1.0f, 4.0f, -0.25f, 0x1p-100f, 0x1p70f, 1e-10f, 1e30f, 0.0f, -0.0f,
        Limits::infinity(), Limits::quiet_NaN(), Limits::denorm_min()})
    EXPECT_FALSE(exactReciprocal(D).has_value()) << D;
}

// The check has teeth: the product by High alone, or the split product
// used everywhere (zeros, infinities), differs from the division.
TEST(ExactReciprocal, AWrongSplitIsCaught) {
  const std::vector<float> X = inputs();
  const float D = 118.0f;
  const ExactReciprocal R = *exactReciprocal(D);
  ExactReciprocal Off = R;
  Off.Low = 0.0f;
  EXPECT_GT(mismatches(D, Off, X), 0);
  ExactReciprocal Everywhere = R;
  Everywhere.Least = 0.0f;
  EXPECT_GT(mismatches(D, Everywhere, X), 0);
  // Below the least dividend some products differ (subnormal quotients),
  // and the nearest reciprocal's parts, of two signs, get zeros and
  // infinities wrong.
  ExactReciprocal Lower = R;
  Lower.LeastDividend = std::numeric_limits<float>::denorm_min();
  EXPECT_GT(unmarkedMismatches(D, Lower, X), 0);
  ExactReciprocal Nearest = R;
  Nearest.High = 1.0f / D;
  Nearest.Low = std::fma(-D, Nearest.High, 1.0f) / D;
  ASSERT_NE(std::signbit(Nearest.High), std::signbit(Nearest.Low));
  EXPECT_FALSE(same(product(-0.0f, Nearest), -0.0f / D));
  EXPECT_GT(unmarkedMismatches(D, Nearest, X), 0);
}

TEST(ExactReciprocal, TheLeastQuotientIsAPowerOfTwo) {
  const ExactReciprocal R = *exactReciprocal(7.0f);
  int Exponent = 0;
  EXPECT_EQ(std::frexp(R.Least, &Exponent), 0.5f);
  EXPECT_GE(R.Least, std::numeric_limits<float>::min());
}

} // namespace
