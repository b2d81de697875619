// mpi_cuda_aware.cpp - asks the MPI library at run time whether it takes
// device pointers (Open MPI's MPIX_Query_cuda_support).
#include <stencil/mpi_device.hpp>

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#include <cstdlib>
#include <cstring>

namespace stencil::mpi_device {

bool mpiCudaAware() {
  if (const char *Env = std::getenv("STENCIL_MPI_CUDA_AWARE"))
    return std::strcmp(Env, "1") == 0;
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

} // namespace stencil::mpi_device
