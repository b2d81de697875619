// stencil/boundary_exchange.hpp - the former name of
// <stencil/halo_exchange.hpp> (HaloExchange, also named BoundaryExchange), kept
// so that existing includes keep working.
#ifndef STENCIL_BOUNDARY_EXCHANGE_HPP
#define STENCIL_BOUNDARY_EXCHANGE_HPP

#include <stencil/halo_exchange.hpp>

#endif // STENCIL_BOUNDARY_EXCHANGE_HPP
