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

/// stencilc_divide, as the CUDA code computes it.
float divide(float X, float D, const ExactReciprocal &R) {
  const float XLow = X * R.Low;
  const float Q = std::fma(X, R.High, XLow);
  return std::fabs(Q) >= R.Least ? Q : X / D;
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

/// How many inputs \p R divides by \p D otherwise than the division.
long long mismatches(float D, const ExactReciprocal &R,
                     const std::vector<float> &X) {
  long long Bad = 0;
  for (float V : X) {
    const float Got = divide(V, D, R), Want = V / D;
    if (bitsOf(Got) != bitsOf(Want) && !(std::isnan(Got) && std::isnan(Want)))
      ++Bad;
  }
  return Bad;
}

TEST(ExactReciprocal, EqualsTheDivisionOnEveryKindOfInput) {
  const std::vector<float> X = inputs();
  for (float D : {118.0f, 3.0f, 6.0f, 7.0f, 10.0f, 0.1f, -0.1f, -118.0f, 1.5f,
                  0.3f, 3.14159265f, 12345.678f, 1e10f, 1e17f, 1e-6f,
                  // The most lopsided split (|High / Low| = 2^47) at a tiny
                  // divisor; the largest divisor taken.
                  0x1.43cb1ep-46f, 0x1.fffffep59f}) {
    const std::optional<ExactReciprocal> R = exactReciprocal(D);
    ASSERT_TRUE(R.has_value()) << D;
    EXPECT_EQ(R->High, 1.0f / D) << D;
    EXPECT_EQ(mismatches(D, *R, X), 0) << D;
  }
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
}

TEST(ExactReciprocal, TheLeastQuotientIsAPowerOfTwo) {
  const ExactReciprocal R = *exactReciprocal(7.0f);
  int Exponent = 0;
  EXPECT_EQ(std::frexp(R.Least, &Exponent), 0.5f);
  EXPECT_GE(R.Least, std::numeric_limits<float>::min());
}

} // namespace
