// stencil/mpi_wait.hpp - waiting for a rank's messages without hanging
// silently: a rank whose exchange has waited long for its neighbours says so
// (one of them did not make the same exchange, or is stuck elsewhere),
// and goes on waiting.
#ifndef STENCIL_MPI_WAIT_HPP
#define STENCIL_MPI_WAIT_HPP

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mpi.h>
#include <string>
#include <thread>
#include <vector>

namespace stencil {
namespace detail {

/// Seconds from environment variable \p Name: unset, empty or not a number
/// of seconds (garbage, negative) gives \p Default; above an hour, an hour.
inline double secondsSetting(const char *Name, double Default) {
  const char *E = std::getenv(Name);
  if (!E || !*E)
    return Default;
  char *End = nullptr;
  const double S = std::strtod(E, &End);
  if (End == E || *End != '\0' || !(S >= 0))
    return Default;
  return std::min(S, 3600.0);
}

/// The seconds STENCIL_MPI_HANG_WARN sets (default 60; 0: never warn).
inline double hangWarnSeconds() {
  static const double Warn = secondsSetting("STENCIL_MPI_HANG_WARN", 60.0);
  return Warn;
}

/// "stencil: warning: rank R has waited S s for ": how a warning of
/// waitAllSaying begins.
inline std::string waitedFor(int Rank) {
  char Seconds[32]; // as set: 0.5 is "0.5", not "0"
  std::snprintf(Seconds, sizeof(Seconds), "%g", hangWarnSeconds());
  return "stencil: warning: rank " + std::to_string(Rank) + " has waited " +
         Seconds + " s for ";
}

/// Completes \p Requests (then clears them). Past STENCIL_MPI_HANG_WARN
/// seconds (default 60; 0: never) it prints once, on this rank, what
/// \p What says it waits for, and waits on.
inline void waitAllSaying(std::vector<MPI_Request> &Requests,
                          const std::function<std::string()> &What) {
  const double Warn = hangWarnSeconds();
  const int Count = static_cast<int>(Requests.size());
  if (Warn <= 0) {
    MPI_Waitall(Count, Requests.data(), MPI_STATUSES_IGNORE);
    Requests.clear();
    return;
  }
  const auto Start = std::chrono::steady_clock::now();
  bool Said = false;
  for (int Done = 0;;) {
    MPI_Testall(Count, Requests.data(), &Done, MPI_STATUSES_IGNORE);
    if (Done)
      break;
    if (!Said &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
                .count() >= Warn) {
      std::fprintf(stderr, "%s\n", What().c_str());
      std::fflush(stderr);
      Said = true;
    }
    std::this_thread::yield();
  }
  Requests.clear();
}

} // namespace detail
} // namespace stencil

#endif // STENCIL_MPI_WAIT_HPP
