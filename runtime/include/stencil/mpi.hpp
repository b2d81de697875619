// stencil/mpi.hpp - the distributed runtime in one include: Domain, Field,
// BoundaryExchange, DomainLoop and CompCommBinder (link Stencilc::mpi).
#ifndef STENCIL_MPI_HPP
#define STENCIL_MPI_HPP

#include <cstdio>
#include <exception>
// The runtime uses MPI's C API. The deprecated C++ bindings that Open MPI
// and MPICH pull in otherwise are most of <mpi.h>'s parse time (0.3 s of
// stencilc's run on the MPI example).
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>
#include <stencil/boundary_exchange.hpp>
#include <stencil/comp_comm_binder.hpp>
#include <stencil/domain.hpp>
#include <stencil/domain_loop.hpp>
#include <stencil/field.hpp>
#include <stencil/halo.hpp>
#include <stencil/region_split.hpp>

namespace stencil {

/// MPI_Init, \p Body, MPI_Finalize. An exception (a DomainError, which every
/// rank raises alike) is printed as "stencil: rank R: error: ..." and gives
/// exit status 1 after a clean MPI_Finalize, instead of a hang or an abort.
template <typename Fn> int runMpiMain(int &Argc, char **&Argv, Fn Body) {
  MPI_Init(&Argc, &Argv);
  int Rank = 0, Status = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  try {
    Status = Body();
  } catch (const std::exception &E) {
    std::fprintf(stderr, "rank %d: error: %s\n", Rank, E.what());
    std::fflush(stderr);
    Status = 1;
  }
  MPI_Finalize();
  return Status;
}

} // namespace stencil

#endif // STENCIL_MPI_HPP
