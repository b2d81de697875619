// cpu_benchmark.cpp - the OpenMP backend against the CPU's own copy
// bandwidth, in the DSL (stencilc --emit=cpu generates its loops on a build
// machine; g++ builds it on the machine measured; see tools/benchmark.sh).
//
//   cpu_benchmark [--size=N] [--reps=R] [--csv=FILE]
//
// Measures, with the thread count the generated code uses
// (stencil::openmpThreads(): OMP_NUM_THREADS if set, else the CPUs of the
// affinity mask capped by the cgroup quota), a STREAM-style copy of arrays
// as large as the stencil's, then the 7-point star in f32 and f64 at N^3
// (default 256) with the OpenMP engine, and prints each one's effective
// bandwidth (registered bytes per point) and its ratio to the copy. Checks
// first that the OpenMP result equals the host reference bit for bit.
#include <stencil/cpu_threads.hpp>
#include <stencil/dsl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#if defined(_OPENMP)
#include <omp.h>
#endif

struct STENCIL_KERNEL CpuStar7F {
  void operator()(const stencil::Index3D &idx, float c0, float c1, const float *f,
                  float *fn) const {
    fn[idx.ix()] = c0 * f[idx.ix()] +
                   c1 * (f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()] + f[idx.ix<0, -1, 0>()] +
                         f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()] + f[idx.ix<0, 0, 1>()]);
  }
};

struct STENCIL_KERNEL CpuStar7D {
  void operator()(const stencil::Index3D &idx, double c0, double c1, const double *f,
                  double *fn) const {
    fn[idx.ix()] = c0 * f[idx.ix()] +
                   c1 * (f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()] + f[idx.ix<0, -1, 0>()] +
                         f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()] + f[idx.ix<0, 0, 1>()]);
  }
};

namespace {

double now() {
#if defined(_OPENMP)
  return omp_get_wtime();
#else
  return 0;
#endif
}

/// Seconds per call of \p F: the median of 5 batches of \p Reps calls.
template <typename F> double timeSec(F &&Fn, int Reps) {
  Fn(); // warm-up (and first touch of anything left)
  std::vector<double> S;
  for (int B = 0; B < 5; ++B) {
    const double T0 = now();
    for (int R = 0; R < Reps; ++R)
      Fn();
    S.push_back((now() - T0) / Reps);
  }
  std::sort(S.begin(), S.end());
  return S[2];
}

/// Arrays first touched by the threads that use them (pages on their NUMA
/// node), with the static schedule the loops use.
template <typename T> T *allocate(std::size_t N, int Threads) {
  T *P = static_cast<T *>(std::aligned_alloc(64, (N * sizeof(T) + 63) / 64 * 64));
#pragma omp parallel for schedule(static) num_threads(Threads)
  for (long long I = 0; I < static_cast<long long>(N); ++I)
    P[I] = static_cast<T>((I * 7 % 13) * 0.0625);
  return P;
}

template <typename T> double copyGbs(std::size_t N, int Threads, int Reps) {
  T *A = allocate<T>(N, Threads), *B = allocate<T>(N, Threads);
  const double Sec = timeSec(
      [&] {
#pragma omp parallel for schedule(static) num_threads(Threads)
        for (long long I = 0; I < static_cast<long long>(N); ++I)
          B[I] = A[I];
      },
      Reps);
  std::free(A);
  std::free(B);
  return 2.0 * N * sizeof(T) / Sec / 1e9;
}

template <typename S, typename T> struct Case {
  const char *name;
  T c0, c1;
};

/// The OpenMP engine's result equals the host reference, bit for bit.
template <typename S, typename T> bool exact(T C0, T C1, int N) {
  const int E = N + 2;
  const std::size_t Count = std::size_t(E) * E * E;
  std::vector<T> F(Count), A(Count, T(0)), B(Count, T(0));
  for (std::size_t I = 0; I < Count; ++I)
    F[I] = static_cast<T>(std::sin(0.37 * I) * 3.0);
  stencil::Loop3D<stencil::HostLoopEngine3D> H(E, 1, 1, E, 1, 1, E, 1, 1);
  H.run(S(), C0, C1, F.data(), A.data());
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> L(E, 1, 1, E, 1, 1, E, 1, 1);
  L.run(S(), C0, C1, F.data(), B.data());
  return std::memcmp(A.data(), B.data(), Count * sizeof(T)) == 0;
}

template <typename S, typename T>
int bench(const char *Name, T C0, T C1, int N, int Threads, int Reps, std::FILE *Csv) {
  const int E = N + 2;
  const std::size_t Count = std::size_t(E) * E * E;
  const bool Exact = exact<S, T>(C0, C1, 37);
  const double Copy = copyGbs<T>(Count, Threads, Reps);
  T *F = allocate<T>(Count, Threads), *Out = allocate<T>(Count, Threads);
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> L(E, 1, 1, E, 1, 1, E, 1, 1);
  const double Sec = timeSec([&] { L.run(S(), C0, C1, F, Out); }, Reps);
  const stencil::GeneratedStencil *G = stencil::generatedFor(stencil::Backend::OpenMP, S());
  const double Points = double(N) * N * N;
  const double Gbs = G->bytesPerPoint * Points / Sec / 1e9;
  std::printf("cpu %-8s %dx%dx%d threads %3d: %9.4f ms/step %8.1f GB/s %7.3f GCells/s, copy %8.1f "
              "GB/s, %5.3f of copy, %s the host reference\n",
              Name, N, N, N, Threads, Sec * 1e3, Gbs, Points / Sec / 1e9, Copy, Gbs / Copy,
              Exact ? "equal to" : "DIFFERENT FROM");
  if (Csv)
    std::fprintf(Csv, "%s,%s,%d,%d,%.6f,%.2f,%.4f,%.2f,%.4f,%d\n", Name,
                 sizeof(T) == 4 ? "f32" : "f64", N, Threads, Sec * 1e3, Gbs, Points / Sec / 1e9,
                 Copy, Gbs / Copy, Exact ? 1 : 0);
  std::free(F);
  std::free(Out);
  return Exact ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  int N = 256, Reps = 10;
  std::string CsvPath;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A.rfind("--size=", 0) == 0)
      N = std::atoi(A.c_str() + 7);
    else if (A.rfind("--reps=", 0) == 0)
      Reps = std::atoi(A.c_str() + 7);
    else if (A.rfind("--csv=", 0) == 0)
      CsvPath = A.substr(6);
    else {
      std::fprintf(stderr, "usage: cpu_benchmark [--size=N] [--reps=R] [--csv=FILE]\n");
      return 2;
    }
  }
  std::FILE *Csv = nullptr;
  if (!CsvPath.empty()) {
    const bool Fresh = !std::fopen(CsvPath.c_str(), "r");
    Csv = std::fopen(CsvPath.c_str(), "a");
    if (Csv && Fresh)
      std::fprintf(Csv, "stencil,type,n,threads,ms_per_step,gb_per_s,gcells_per_s,copy_gb_per_s,"
                        "ratio_to_copy,exact\n");
  }
  const int Threads = stencil::openmpThreads();
  const char *Env = std::getenv("OMP_NUM_THREADS");
  std::printf("cpu: %d threads (usable CPUs %d%s%s)\n", Threads, stencil::usableCpus(),
              Env ? ", OMP_NUM_THREADS=" : "", Env ? Env : "");
  int Fail = 0;
  Fail |= bench<CpuStar7F, float>("star7f", 0.4f, 0.1f, N, Threads, Reps, Csv);
  Fail |= bench<CpuStar7D, double>("star7d", 0.4, 0.1, N, Threads, Reps, Csv);
  if (Csv)
    std::fclose(Csv);
  return Fail;
}
