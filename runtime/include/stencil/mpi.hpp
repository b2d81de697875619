// stencil/mpi.hpp - the distributed runtime in one include, with the DSL:
// Domain, Field, HaloExchange, DomainLoop and CompCommBinder (link
// Stencilc::mpi).
#ifndef STENCIL_MPI_HPP
#define STENCIL_MPI_HPP

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>
#include <unistd.h>
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
#include <stencil/comp_comm_binder.hpp>
#include <stencil/domain.hpp>
#include <stencil/domain_loop.hpp>
#include <stencil/domain_step.hpp>
#include <stencil/dsl.hpp> // the DSL too: a file of stencils needs one include
#include <stencil/field.hpp>
#include <stencil/halo.hpp>
#include <stencil/halo_exchange.hpp>
#include <stencil/mpi_wait.hpp>
#include <stencil/region_split.hpp>

namespace stencil {

namespace detail {
/// What a rank prints when mpirun stops it because another rank aborted.
inline char *abortSignalMessage() {
  static char Text[160];
  return Text;
}
inline void onAbortSignal(int) {
  const char *Text = abortSignalMessage();
  // Only async-signal-safe calls here.
  ssize_t Ignored = ::write(2, Text, std::strlen(Text));
  (void)Ignored;
  ::_exit(1);
}
/// Seconds a failed rank waits for the others to report too, before it
/// aborts them all ($STENCIL_MPI_ERROR_WAIT, default 3).
/// Not a number of seconds (garbage, negative): the default; above an hour:
/// an hour.
inline double errorWaitSeconds() {
  return secondsSetting("STENCIL_MPI_ERROR_WAIT", 3.0);
}
} // namespace detail

/// MPI_Init, \p Body, MPI_Finalize, for a main() that ends well or with a
/// clear error on every rank, never in a hang. An exception is printed as
/// "rank R: error: ..."; then the ranks compare notes on a communicator of
/// their own:
///  - every rank got here (all failed alike, e.g. a DomainError, or some
///    finished while others failed): each that did not fail prints "another
///    rank failed", all finalize cleanly and exit with status 1;
///  - a failed rank waits STENCIL_MPI_ERROR_WAIT seconds (default 3) for
///    the others, which may be waiting in a collective it left: then it
///    calls MPI_Abort, and each rank that mpirun stops prints "rank R: error:
///    stencil: stopped: another rank failed" as it goes.
template <typename Fn> int runMpiMain(int &Argc, char **&Argv, Fn Body) {
  MPI_Init(&Argc, &Argv);
  int Rank = 0, Status = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm Guard;
  MPI_Comm_dup(MPI_COMM_WORLD, &Guard);
  std::snprintf(detail::abortSignalMessage(), 160,
                "rank %d: error: stencil: stopped: another rank failed (its "
                "message is above) or the job was cancelled\n",
                Rank);
  std::signal(SIGTERM, detail::onAbortSignal);
  int Failed = 0;
  try {
    Status = Body();
  } catch (const std::exception &E) {
    std::fprintf(stderr, "rank %d: error: %s\n", Rank, E.what());
    Failed = 1;
  } catch (...) {
    std::fprintf(stderr, "rank %d: error: an exception of unknown type\n",
                 Rank);
    Failed = 1;
  }
  std::fflush(stderr);
  std::fflush(stdout);
  int AnyFailed = Failed;
  MPI_Request Req;
  MPI_Iallreduce(&Failed, &AnyFailed, 1, MPI_INT, MPI_MAX, Guard, &Req);
  if (!Failed) {
    MPI_Wait(&Req, MPI_STATUS_IGNORE);
  } else {
    const auto Deadline =
        std::chrono::steady_clock::now() +
        std::chrono::duration<double>(detail::errorWaitSeconds());
    int Done = 0;
    while (MPI_Test(&Req, &Done, MPI_STATUS_IGNORE), !Done) {
      if (std::chrono::steady_clock::now() > Deadline) {
        std::fprintf(stderr,
                     "rank %d: error: stencil: the other ranks did not stop "
                     "with an error of their own: aborting them\n",
                     Rank);
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  if (AnyFailed && !Failed) {
    std::fprintf(
        stderr,
        "rank %d: error: stencil: another rank failed (its message is above)\n",
        Rank);
    std::fflush(stderr);
  }
  std::signal(SIGTERM, SIG_DFL);
  MPI_Comm_free(&Guard);
  MPI_Finalize();
  return AnyFailed ? 1 : Status;
}

} // namespace stencil

// Seed 001's names at global scope for code ported with
// <stencil/seed_compat.hpp>, included before this header.
#ifdef STENCIL_SEED_COMPAT_HPP
#include <stencil/seed_compat_mpi.hpp>
#endif

#endif // STENCIL_MPI_HPP
