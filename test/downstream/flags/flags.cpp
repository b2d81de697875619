// flags.cpp - a stencil whose coefficient depends on the preprocessor flags
// (see CMakeLists.txt); main() checks that the host build got each flag, then
// compares the generated OpenMP code with the host engine.
#include <stencil/dsl.hpp>

#include <cstdio>
#include <vector>

// One factor per flag: a flag seen by one side only changes the result.
#ifdef NDEBUG
#define FLAGS_NDEBUG 2.0f
#else
#define FLAGS_NDEBUG 1.0f
#endif
#ifdef FLAGS_FROM_CXX_FLAGS
#define FLAGS_CXX_FLAGS 3.0f
#else
#define FLAGS_CXX_FLAGS 1.0f
#endif
#ifdef FLAGS_FROM_OPTIONS
#define FLAGS_OPTIONS 5.0f
#else
#define FLAGS_OPTIONS 1.0f
#endif
#if __cplusplus > 201703L
#define FLAGS_CXX20 7.0f
#else
#define FLAGS_CXX20 1.0f
#endif
#ifdef FLAGS_FROM_SOURCE_FLAGS
#define FLAGS_SOURCE 11.0f
#else
#define FLAGS_SOURCE 1.0f
#endif
#ifdef FLAGS_FROM_PCH
#define FLAGS_PCH 13.0f
#else
#define FLAGS_PCH 1.0f
#endif
#ifdef _OPENMP
#define FLAGS_OPENMP 17.0f
#else
#define FLAGS_OPENMP 1.0f
#endif
#define FLAGS_ALL                                                                              \
  (FLAGS_NDEBUG * FLAGS_CXX_FLAGS * FLAGS_OPTIONS * FLAGS_CXX20 * FLAGS_SOURCE * FLAGS_PCH *   \
   FLAGS_OPENMP)

struct STENCIL_KERNEL Scaled {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *v) const {
    v[idx.ix()] =
        FLAGS_ALL * (u[idx.ix<-1, 0, 0>()] + u[idx.ix<0, 1, 0>()] + u[idx.ix<0, 0, 1>()]);
  }
};

template <typename E> std::vector<float> run() {
  const int M = 6;
  std::vector<float> U(M * M * M), V(M * M * M, 0.0f);
  for (std::size_t I = 0; I < U.size(); ++I)
    U[I] = float(I % 7);
  stencil::Loop3D<E> Loop(M, 1, 1, M, 1, 1, M, 1, 1);
  Loop.run(Scaled(), U.data(), V.data());
  return V;
}

int main() {
  const float Factor = FLAGS_ALL;
  if (Factor != 2.0f * 3.0f * 5.0f * 7.0f * 11.0f * 13.0f * 17.0f) {
    std::printf("flags: the host build lacks a flag the test sets (factor %g)\n", Factor);
    return 2;
  }
  const std::vector<float> Host = run<stencil::HostLoopEngine3D>();
  const std::vector<float> OpenMP = run<stencil::OpenMPLoopEngine3D>();
  int Differ = 0;
  for (std::size_t I = 0; I < Host.size(); ++I)
    Differ += Host[I] != OpenMP[I];
  std::printf("flags: openmp against host: %d of %zu points differ\n", Differ, Host.size());
  return Differ == 0 ? 0 : 1;
}
