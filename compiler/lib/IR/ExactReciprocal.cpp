//===- ExactReciprocal.cpp - Division by a constant as a product ----------===//
#include "stencilc/IR/ExactReciprocal.h"
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>

using namespace stencilc::ir;

// The check runs the GPU's float operations on the host: each must round to
// float once (no wider evaluation, as x87 code would do twice).
static_assert(FLT_EVAL_METHOD == 0, "float arithmetic must round to float");

static std::uint32_t bitsOf(float F) {
  std::uint32_t B;
  std::memcpy(&B, &F, sizeof B);
  return B;
}

/// What the GPU computes: the product rounded once, and x * Low before it.
static float product(float X, const ExactReciprocal &R) {
  const float XLow = X * R.Low;
  return std::fma(X, R.High, XLow);
}

/// Whether the product equals the division for every significand of the
/// binade [2^K, 2^(K + 1)) (bit for bit; the signs are symmetric).
static bool everySignificandAgrees(float Divisor, const ExactReciprocal &R,
                                   int K) {
  const std::uint32_t Exponent = static_cast<std::uint32_t>(127 + K) << 23;
  for (std::uint32_t M = 0; M < (1u << 23); ++M) {
    float X;
    const std::uint32_t Bits = Exponent | M;
    std::memcpy(&X, &Bits, sizeof X);
    if (bitsOf(product(X, R)) != bitsOf(X / Divisor))
      return false;
  }
  return true;
}

/// The split of \p Divisor's reciprocal whose first part is \p High (within
/// an ulp of 1 / d), with its Least, if it passes the check.
static std::optional<ExactReciprocal> checkedSplit(float Divisor, float High) {
  ExactReciprocal R;
  R.High = High;
  // 1 - d * High is exact (High is within an ulp of d's reciprocal), so Low
  // is the rest of the reciprocal rounded once more.
  R.Low = std::fma(-Divisor, R.High, 1.0f) / Divisor;
  // x * Low must not overflow where x is finite (a divisor below about 2^-24
  // in magnitude would let it).
  if (R.Low == 0.0f || std::fabs(R.Low) >= 0.5f)
    return std::nullopt;
  // Least: where |q| >= Least, |x| >= Least / |High| (with a little room)
  // and x * Low is normal; q and x / d are then normal too. (|High / Low|
  // is at most about 2^48, 1 - d * High being a multiple of 2^-48 of it, so
  // this and the binade's bounds below never refuse; they keep the
  // argument's conditions in sight.)
  const double Ratio = std::fabs(static_cast<double>(R.High) / R.Low);
  const int Needed = static_cast<int>(std::ceil(std::log2(Ratio))) + 2 - 126;
  if (Needed > -20)
    return std::nullopt;
  R.Least = std::ldexp(1.0f, Needed);
  // The binade checked must itself keep every value normal: x * Low at
  // least 2^-124, x * High far from overflowing.
  const int K = std::max(
      0, static_cast<int>(std::ceil(-124 - std::log2(std::fabs(R.Low)))));
  if (K + 1 + std::log2(std::fabs(R.High)) > 120 ||
      !everySignificandAgrees(Divisor, R, K))
    return std::nullopt;
  if (std::signbit(R.High) == std::signbit(R.Low)) {
    // |x| >= 2 * Least * |d| gives |x / d| >= 2 * Least, and q within an
    // ulp of it; the smallest subnormal where that is below it.
    const int Exponent =
        static_cast<int>(
            std::ceil(std::log2(static_cast<double>(R.Least) *
                                std::fabs(static_cast<double>(Divisor))))) +
        1;
    R.LeastDividend = std::ldexp(1.0f, std::max(Exponent, -149));
  }
  return R;
}

static std::optional<ExactReciprocal> search(float Divisor) {
  const float Magnitude = std::fabs(Divisor);
  if (!(Magnitude >= 0x1p-60f && Magnitude <= 0x1p60f))
    return std::nullopt;
  int Exponent = 0;
  if (std::frexp(Magnitude, &Exponent) == 0.5f)
    return std::nullopt; // a power of two
  const float Nearest = 1.0f / Divisor;
  // Parts of one sign first (most divisors have such a split that passes):
  // the nearest reciprocal if its rest has its sign, else the float below
  // it in magnitude.
  const float Rest = std::fma(-Divisor, Nearest, 1.0f) / Divisor;
  if (std::signbit(Rest) != std::signbit(Nearest))
    if (std::optional<ExactReciprocal> R =
            checkedSplit(Divisor, std::nextafter(Nearest, 0.0f)))
      return R;
  return checkedSplit(Divisor, Nearest);
}

std::optional<ExactReciprocal> stencilc::ir::exactReciprocal(float Divisor) {
  // A program divides by few constants, each check takes 2^23 divisions.
  static std::mutex Lock;
  static std::map<std::uint32_t, std::optional<ExactReciprocal>> Checked;
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, Inserted] = Checked.try_emplace(bitsOf(Divisor));
  if (Inserted)
    It->second = search(Divisor);
  return It->second;
}
