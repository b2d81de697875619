// stencil/seed_compat_mpi.hpp - seed 001's distributed names at global scope
// (Domain, BoundaryExchange, CompCommBinder), for code ported with
// <stencil/seed_compat.hpp>. That header and <stencil/mpi.hpp> include this
// one when the other came first, so either order gives the names.
#ifndef STENCIL_SEED_COMPAT_MPI_HPP
#define STENCIL_SEED_COMPAT_MPI_HPP

#include <stencil/mpi.hpp>

using stencil::BoundaryExchange;
using stencil::CompCommBinder;
using stencil::Domain;

#endif // STENCIL_SEED_COMPAT_MPI_HPP
