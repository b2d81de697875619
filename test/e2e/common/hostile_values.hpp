// hostile_values.hpp - inputs a division's shortcuts trip on: zeros of both
// signs, subnormals, the tiniest and largest normals, any bits below 2^-90,
// infinities, NaNs and arbitrary bit patterns, mixed with ordinary values
// (a third).
#ifndef STENCIL_E2E_HOSTILE_VALUES_HPP
#define STENCIL_E2E_HOSTILE_VALUES_HPP

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

namespace e2e {

/// Any bits below 2^-90, of either sign: 2 to 4% of the products by the
/// split reciprocals of 118, 3 or 6 differ from the quotient there (their
/// least dividends, below which a chunk's products are checked, are 2^-92,
/// 2^-97 and 2^-96; the products that differ are lower still).
template <typename T> T tinyValue(std::mt19937 &Rng) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const Bits Below =
      sizeof(T) == 4 ? Bits(0x12800000u) : Bits(0x3a50000000000000ull);
  const Bits B = std::uniform_int_distribution<Bits>(0, Below - 1)(Rng);
  T V;
  std::memcpy(&V, &B, sizeof V);
  return Rng() % 2 ? -V : V;
}

/// One value of \p T (float or double) drawn from the classes above.
template <typename T> T hostileValue(std::mt19937 &Rng) {
  using Limits = std::numeric_limits<T>;
  std::uniform_int_distribution<int> Class(0, 11);
  std::uniform_real_distribution<T> Unit(T(1), T(2));
  const T Sign = Rng() % 2 ? T(-1) : T(1);
  switch (Class(Rng)) {
  case 0:
    return Sign * T(0);
  case 1: // a subnormal
    return Sign * Limits::denorm_min() * T(Rng() % 1000000 + 1);
  case 2: // the smallest normals, whose quotients are subnormal
    return Sign * Limits::min() * Unit(Rng) * T(Rng() % 4096 + 1);
  case 3: // near the largest
    return Sign * Limits::max() / Unit(Rng);
  case 4:
    return Sign * Limits::infinity();
  case 5:
    return Limits::quiet_NaN();
  case 6:
    return tinyValue<T>(Rng);
  case 7: { // any bits
    std::uint64_t Bits = (std::uint64_t(Rng()) << 32) | Rng();
    T V;
    std::memcpy(&V, &Bits, sizeof V);
    return V;
  }
  default:
    return Sign * Unit(Rng);
  }
}

/// What a test's input holds: ordinary values, hostileValue's, zeros of
/// random signs (a quotient's zero takes the signs of both operands; a
/// shortcut may lose it) or tinyValue's only (a sum with a larger term would
/// hide a quotient's last bit).
enum class Input { Uniform, Hostile, SignedZeros, Tiny };

/// +0 or -0, as \p Rng says.
template <typename T> T signedZero(std::mt19937 &Rng) {
  return Rng() % 2 ? -T(0) : T(0);
}

/// A value of \p Kind: for Input::Uniform, \p Uniform's (it draws from \p
/// Rng only then, so a kind's sequence of draws is its own).
template <typename T, typename UniformF>
T inputValue(Input Kind, std::mt19937 &Rng, UniformF Uniform) {
  switch (Kind) {
  case Input::Hostile:
    return hostileValue<T>(Rng);
  case Input::SignedZeros:
    return signedZero<T>(Rng);
  case Input::Tiny:
    return tinyValue<T>(Rng);
  default:
    return Uniform();
  }
}

/// The poison an output holds before a kernel writes it: a NaN whose
/// payload no arithmetic makes from these inputs but by chance.
template <typename T> T poison() {
  const std::uint64_t Bits =
      sizeof(T) == 4 ? 0x7fd2c5a1u : 0x7ffa5c3e2d1b0a97ull;
  T V;
  std::memcpy(&V, &Bits, sizeof V);
  return V;
}

template <typename T> bool isPoison(T V) {
  const T P = poison<T>();
  return std::memcmp(&V, &P, sizeof(T)) == 0;
}

/// Whether \p Got stands for the host's \p Host: the same bits, or both
/// NaN (which NaN an operation returns is not fixed: a compiler may swap
/// the operands of a sum) but not the poison.
template <typename T> bool sameAsHost(T Got, T Host) {
  if (std::memcmp(&Got, &Host, sizeof(T)) == 0)
    return true;
  return Got != Got && Host != Host && !isPoison(Got);
}

} // namespace e2e

#endif // STENCIL_E2E_HOSTILE_VALUES_HPP
