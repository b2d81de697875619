// periodic_grid.hpp - what the serial references of the MPI tests share: a
// grid periodic in every dimension, its points visited x fastest, and the
// options of a Domain of it.
#ifndef STENCILC_TEST_MPI_PERIODIC_GRID_HPP
#define STENCILC_TEST_MPI_PERIODIC_GRID_HPP

#include <cstddef>
#include <stencil/mpi.hpp>

struct PeriodicGrid {
  long long x, y, z;

  /// \p a brought into [0, n).
  static long long wrap(long long a, long long n) { return ((a % n) + n) % n; }
  /// The place of point (i, j, k), wrapped, in an array x fastest.
  std::size_t at(long long i, long long j, long long k) const {
    return static_cast<std::size_t>((wrap(k, z) * y + wrap(j, y)) * x +
                                    wrap(i, x));
  }
  std::size_t size() const { return static_cast<std::size_t>(x * y * z); }
  /// Calls \p F(i, j, k) for every point, x fastest.
  template <typename Fn> void forEach(Fn F) const {
    for (long long k = 0; k < z; ++k)
      for (long long j = 0; j < y; ++j)
        for (long long i = 0; i < x; ++i)
          F(i, j, k);
  }
  /// A domain of this grid, periodic in every dimension.
  static stencil::DomainOptions periodic() {
    stencil::DomainOptions O;
    for (bool &P : O.periodic)
      P = true;
    return O;
  }
};

#endif // STENCILC_TEST_MPI_PERIODIC_GRID_HPP
