// integer_stencils.hpp - the time loops' tests' stencils of integer fields
// (temporal.cpp on the GPU, cpu_threads.cpp on CPU threads), and the inputs
// they are run on. Integers are exact: every engine's levels are the host's,
// bit for bit.
#ifndef STENCIL_E2E_TEMPORAL_INTEGER_STENCILS_HPP
#define STENCIL_E2E_TEMPORAL_INTEGER_STENCILS_HPP

#include <stencil/dsl.hpp>

#include <random>
#include <type_traits>

/// A one-sided 2-D box of 32-bit unsigned integers that divides by a point
/// of the field (a pass keeps rings of rows: the barrier a level is for
/// floats). A pass computes a level only where it is wanted: an arbitrary
/// value as the divisor could be zero (on the CPU, a crash).
struct STENCIL_KERNEL UpwindQuotient2U {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const unsigned *a,
                             unsigned *b) const {
    b[idx.ix()] = a[idx.ix<-1, 0>()] + a[idx.ix<1, -1>()] / a[idx.ix()];
  }
};

/// A 3-D star of 64-bit integers with a signed division (a type of two
/// words, which a pass's printer once wrote as `long long()`).
struct STENCIL_KERNEL Star3dL {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const long long *a,
                             long long *b) const {
    b[idx.ix()] = (2 * a[idx.ix()] + a[idx.ix<-1, 0, 0>()] +
                   a[idx.ix<1, 0, 0>()] + a[idx.ix<0, -1, 0>()] +
                   a[idx.ix<0, 1, 0>()] + a[idx.ix<0, 0, -1>()] +
                   a[idx.ix<0, 0, 1>()]) /
                  7;
  }
};

namespace e2e {

/// An input for them: in [1, 1000] unsigned (UpwindQuotient2U's divisor
/// stays nonzero, its levels far from wrapping), within 10^6 signed (no
/// overflow in a dozen steps).
template <typename T> T integerInput(std::mt19937 &Rng) {
  static_assert(std::is_integral_v<T>, "integer fields only");
  if constexpr (std::is_unsigned_v<T>)
    return T(1 + Rng() % 1000);
  else
    return T(static_cast<long long>(Rng() % 2000001) - 1000000);
}

} // namespace e2e

#endif // STENCIL_E2E_TEMPORAL_INTEGER_STENCILS_HPP
