// stencil/loop_range.hpp - the range of points a loop visits in one dimension.
#ifndef STENCIL_LOOP_RANGE_HPP
#define STENCIL_LOOP_RANGE_HPP

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace stencil {

/// Points [begin, end) of an array dimension of n points (halo included).
struct LoopRange {
  int n = 0;
  int begin = 0;
  int end = 0;
};

/// The seed's (n, margin_begin, margin_end) triple: points [mb, n - me).
/// The caller promises that every array of the loop has n points per
/// dimension (x first, contiguous): a raw pointer cannot say how large its
/// array is. Checked without overflow for any int.
inline LoopRange makeLoopRange(int N, int MarginBegin, int MarginEnd,
                               char Axis) {
  auto Fail = [&](const std::string &Why) {
    throw std::invalid_argument(std::string("stencil: bad loop range in ") +
                                Axis + ": n=" + std::to_string(N) +
                                ", margins " + std::to_string(MarginBegin) +
                                " and " + std::to_string(MarginEnd) + ": " +
                                Why);
  };
  if (N <= 0)
    Fail("the extent is not positive");
  if (MarginBegin < 0 || MarginEnd < 0)
    Fail("a margin is negative");
  if (static_cast<long long>(MarginBegin) + MarginEnd > N)
    Fail("the margins are wider than the extent");
  return LoopRange{N, MarginBegin, N - MarginEnd};
}

/// The ranges an engine or a step of \p Dims dimensions runs over: a loop's
/// ranges() (an array, its size checked when the program compiles: a
/// Loop3D's three ranges given to a 4-D engine were read past their end) or
/// a pointer to \p Dims ranges (the caller's word: a pointer carries no
/// size).
template <int Dims> class LoopRanges {
public:
  template <std::size_t N>
  LoopRanges(const LoopRange (&Ranges)[N]) : ranges_(Ranges) {
    static_assert(N == static_cast<std::size_t>(Dims),
                  "the loop's ranges have other dimensions than the engine "
                  "or step given them");
  }
  /// (By reference, so that an array is not taken for a pointer here.)
  template <typename P,
            std::enable_if_t<std::is_pointer_v<P> &&
                                 std::is_convertible_v<P, const LoopRange *>,
                             int> = 0>
  LoopRanges(const P &Ranges) : ranges_(Ranges) {}

  operator const LoopRange *() const { return ranges_; }

private:
  const LoopRange *ranges_;
};

namespace detail {
/// A loop's extent or margin as an int, checked in the type it arrived in:
/// a long long of 2^32 + 10 is an error, not 10.
template <typename T> int loopInt(T V, int Position, char Axis) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>,
                "a loop's extents and margins are integers");
  static const char *const What[] = {"extent", "margin at the start",
                                     "margin at the end"};
  const std::string Name =
      std::string("stencil: loop ") + What[Position] + " in " + Axis + " is ";
  if constexpr (std::is_signed_v<T>) {
    if (V < 0)
      throw std::invalid_argument(Name + std::to_string(V) + ": negative");
  }
  if (static_cast<unsigned long long>(V) >
      static_cast<unsigned long long>(INT_MAX))
    throw std::invalid_argument(Name + std::to_string(V) + ": more than " +
                                std::to_string(INT_MAX) +
                                ", the most a loop dimension can have");
  return static_cast<int>(V);
}
} // namespace detail

} // namespace stencil

#endif // STENCIL_LOOP_RANGE_HPP
