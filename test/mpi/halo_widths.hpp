// halo_widths.hpp - the MPI tests' halos narrowed for exchanges that fill
// only some dimensions (appends split over dimensions, one exchange a
// dimension).
#ifndef STENCILC_TEST_MPI_HALO_WIDTHS_HPP
#define STENCILC_TEST_MPI_HALO_WIDTHS_HPP

#include <initializer_list>
#include <stencil/mpi.hpp>

/// \p H with no width in the dimensions \p Dims.
inline stencil::Halo without(stencil::Halo H, std::initializer_list<int> Dims) {
  for (int D : Dims)
    H.lo[D] = H.hi[D] = 0;
  return H;
}

#endif // STENCILC_TEST_MPI_HALO_WIDTHS_HPP
