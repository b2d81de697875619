// stencil/cpu_threads.hpp - how many threads the OpenMP code runs with.
//
// libgomp starts one thread per CPU of the affinity mask, but a container
// under a CPU quota (cgroup cpu.max) may have 16 CPUs' worth of time on a
// 200-CPU host: that many threads then spend their time descheduled, and
// the default is slower than one thread. The generated OpenMP loops ask
// stencil::openmpThreads() instead: the user's OMP_NUM_THREADS when set,
// else the smaller of the affinity mask's CPU count and the cgroup quota.
#ifndef STENCIL_CPU_THREADS_HPP
#define STENCIL_CPU_THREADS_HPP

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#if defined(__linux__)
#include <sched.h>
#endif
#if defined(_OPENMP)
#include <omp.h>
#endif

namespace stencil {
namespace detail {

/// CPUs' worth of time a cgroup quota allows, rounded up; 0 when there is no
/// quota or the text is not one. \p Quota, \p Period: cgroup v2's cpu.max
/// ("max 100000" or "150000 100000") passes both words; v1 passes
/// cpu.cfs_quota_us ("-1" for none) and cpu.cfs_period_us.
inline int cpusOfQuota(const std::string &Quota, const std::string &Period) {
  char *End = nullptr;
  const double Q = std::strtod(Quota.c_str(), &End);
  if (End == Quota.c_str() || Q <= 0) // "max", "-1", empty
    return 0;
  const double P = std::strtod(Period.c_str(), &End);
  if (End == Period.c_str() || P <= 0)
    return 0;
  const double Cpus = std::ceil(Q / P);
  return Cpus < 1 ? 1 : Cpus > 1e6 ? 0 : static_cast<int>(Cpus);
}

inline std::string readFirstLine(const std::string &Path) {
  std::ifstream In(Path);
  std::string Line;
  if (In)
    std::getline(In, Line);
  return Line;
}

/// The cgroup CPU quota under \p Root (normally /sys/fs/cgroup), v2 then v1;
/// 0 when there is none.
inline int cgroupCpuQuota(const std::string &Root) {
  std::istringstream V2(readFirstLine(Root + "/cpu.max"));
  std::string Quota, Period;
  if (V2 >> Quota >> Period)
    return cpusOfQuota(Quota, Period);
  for (const char *Dir : {"/cpu", "/cpu,cpuacct", ""}) {
    const std::string Base = Root + Dir;
    const std::string Q = readFirstLine(Base + "/cpu.cfs_quota_us");
    if (!Q.empty())
      return cpusOfQuota(Q, readFirstLine(Base + "/cpu.cfs_period_us"));
  }
  return 0;
}

/// CPUs in the process's affinity mask; 0 when unknown.
inline int affinityCpus() {
#if defined(__linux__) && defined(CPU_COUNT)
  cpu_set_t Set;
  CPU_ZERO(&Set);
  if (sched_getaffinity(0, sizeof(Set), &Set) == 0)
    return CPU_COUNT(&Set);
#endif
  return 0;
}

/// min(affinity, quota), ignoring unknowns; at least 1.
inline int usableCpus(int Affinity, int Quota) {
  int N = Affinity > 0 ? Affinity : 0;
  if (Quota > 0 && (N == 0 || Quota < N))
    N = Quota;
  return N > 0 ? N : 1;
}

} // namespace detail

/// CPUs this process may really use: its affinity mask, capped by the
/// cgroup CPU quota (computed once).
inline int usableCpus() {
  static const int N = detail::usableCpus(
      detail::affinityCpus(), detail::cgroupCpuQuota("/sys/fs/cgroup"));
  return N;
}

/// The thread count of the generated OpenMP loops: OpenMP's own
/// (omp_get_max_threads) where OMP_NUM_THREADS is set, else usableCpus(),
/// or fewer where the program asked for fewer (omp_set_num_threads; OpenMP's
/// own default counts the host's CPUs, not a container's quota).
inline int openmpThreads() {
  static const bool UserChose = std::getenv("OMP_NUM_THREADS") != nullptr;
#if defined(_OPENMP)
  if (UserChose)
    return omp_get_max_threads();
  return std::max(1, std::min(usableCpus(), omp_get_max_threads()));
#else
  (void)UserChose;
  return usableCpus();
#endif
}

} // namespace stencil

#endif // STENCIL_CPU_THREADS_HPP
