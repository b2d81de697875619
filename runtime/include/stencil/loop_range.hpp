// stencil/loop_range.hpp - the range of points a loop visits in one dimension.
#ifndef STENCIL_LOOP_RANGE_HPP
#define STENCIL_LOOP_RANGE_HPP

#include <stdexcept>
#include <string>

namespace stencil {

/// Points [begin, end) of an array dimension of n points (halo included).
struct LoopRange {
  int n = 0;
  int begin = 0;
  int end = 0;
};

/// The seed's (n, margin_begin, margin_end) triple: points [mb, n - me).
inline LoopRange makeLoopRange(int N, int MarginBegin, int MarginEnd,
                               char Axis) {
  if (N <= 0 || MarginBegin < 0 || MarginEnd < 0 || MarginBegin + MarginEnd > N)
    throw std::invalid_argument(std::string("stencil: bad loop range in ") +
                                Axis + ": n=" + std::to_string(N) +
                                ", margins " + std::to_string(MarginBegin) +
                                " and " + std::to_string(MarginEnd));
  return LoopRange{N, MarginBegin, N - MarginEnd};
}

} // namespace stencil

#endif // STENCIL_LOOP_RANGE_HPP
