// store_box.hpp - the store region of a pass under test: the whole region,
// or a random box inside it (a rank's interior or boundary slab), and
// whether a point of the arrays lies in a box.
#ifndef STENCILC_TEST_E2E_STORE_BOX_HPP
#define STENCILC_TEST_E2E_STORE_BOX_HPP

#include <stencil/dsl.hpp>

#include <random>

namespace e2e {

/// \p R itself in half the draws of \p Rng, else a random non-empty box
/// inside it, over the first \p Dims dimensions.
template <typename Engine>
stencil::Region storeBox(const stencil::Region &R, int Dims, Engine &Rng) {
  stencil::Region Store = R;
  if (Rng() % 2)
    for (int D = 0; D < Dims; ++D) {
      auto Pick = [&](long long Lo, long long Hi) {
        return std::uniform_int_distribution<long long>(Lo, Hi)(Rng);
      };
      Store.lo[D] = Pick(R.lo[D], R.hi[D] - 1);
      Store.hi[D] = Pick(Store.lo[D] + 1, R.hi[D]);
    }
  return Store;
}

/// Whether element \p I of arrays of extents \p Ext (x fastest) lies in
/// \p Box.
inline bool inBox(long long I, const long long *Ext, int Dims,
                  const stencil::Region &Box) {
  for (int D = 0; D < Dims; ++D) {
    if (I % Ext[D] < Box.lo[D] || I % Ext[D] >= Box.hi[D])
      return false;
    I /= Ext[D];
  }
  return true;
}

} // namespace e2e

#endif // STENCILC_TEST_E2E_STORE_BOX_HPP
