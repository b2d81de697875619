// plane_sums_on_cpu.cpp - stencilc's zsum and zsum4 kernels (a body's sum
// split by the planes it reads, running sums marched up z, two or four
// points a thread; zsum4 from planes copied into shared memory) run on the
// CPU, bit for bit against the host reference: the variants' logic (the
// warm-up planes, the running sums' order, the points at the region's edge,
// planes with no term, zsum4's copies, stages and barriers) is checked
// without a GPU.
//
// The build runs stencilc on this file (--emit=cuda), extract_kernels.py
// --variant zsum,zsum4 (test/e2e/common) copies each kernel, its helpers and
// its launcher, and this file includes them (STENCILC_PLANE_SUMS_KERNELS); a
// launch runs zsum's threads one after another, zsum4's together, its copies
// made when a thread waits for them in even rounds, at once in odd ones
// (../common/cuda_on_cpu.hpp). Per
// stencil and seed: random extents, a random box of the interior as the
// region, random blocks and chunks, inputs of each kind (ordinary half the
// time, hostile, signed zeros, tiny); the output poisoned. Inside the region
// the output must equal one step on the host, outside it keep its poison.
//
//   plane_sums_on_cpu [--seed=N]
#include <stencil/dsl.hpp>

#include "../common/hostile_values.hpp"
#include "../common/seed_option.hpp"
#include "an5d_stencils.hpp" // tools/benchmark: AN5D's box

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

/// Planes -1, 0 and +2 (none at +1: a running sum passes it by), a
/// constant first, subtractions, two arrays, a math call.
struct STENCIL_KERNEL GapSumF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             const float *k, float *b) const {
    b[idx.ix()] = 0.25f - a[idx.ix<-1, 0, -1>()] * k[idx.ix<0, 0, -1>()] +
                  0.5f * a[idx.ix<1, 1, -1>()] + a[idx.ix()] -
                  k[idx.ix<0, -1, 0>()] * a[idx.ix<1, 1, 0>()] +
                  std::sqrt(std::fabs(a[idx.ix<1, 1, 2>()])) -
                  0.125f * a[idx.ix<-1, 0, 2>()];
  }
};

/// Reads only planes below (-2 and -1): the point stored lies above the
/// plane loaded last. Rows -1 .. +2 in y.
struct STENCIL_KERNEL BelowD {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *a,
                             double *b) const {
    b[idx.ix()] = a[idx.ix<0, 0, -2>()] + 0.5 * a[idx.ix<1, 0, -2>()] -
                  0.25 * a[idx.ix<0, 2, -2>()] + a[idx.ix<1, 0, -1>()] -
                  a[idx.ix<0, -1, -1>()] * a[idx.ix<0, 2, -1>()];
  }
};

/// Double products summed for a float array: the running sums are double,
/// the store converts. Planes -1 and +1 only (0 has no term).
struct STENCIL_KERNEL WideToFloatF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = 0.3 * a[idx.ix<-1, -1, -1>()] + 0.7 * a[idx.ix<1, 1, -1>()] -
                  1.1 * a[idx.ix<-1, -1, 1>()] + 0.1 * a[idx.ix<1, 1, 1>()];
  }
};

// The zsum kernels and launchers of this file, extracted (see above).
#ifdef STENCILC_PLANE_SUMS_KERNELS
#include "../common/cuda_on_cpu.hpp"
#include STENCILC_PLANE_SUMS_KERNELS

namespace {

int Failures = 0, Checks = 0;

using Launcher = const char *(*)(const stencil::Grid &, const stencil::Region &,
                                 const stencil::LaunchConfig &, void *const *);

/// zsum4's count of the elements a thread of a (bx, by) block copies.
using CopiesFn = unsigned long long (*)(unsigned, unsigned);
/// The most elements a thread of zsum4 copies (its launcher refuses more).
constexpr unsigned long long MostCopies = 8;

/// One check: arrays of extents \p E, \p Ins input arrays and one output,
/// the region a random box inside a margin of \p Margin, one launch of
/// \p Launch with a random block and chunk against \p Host's step; for
/// zsum4 (\p Copies), a block its launcher takes.
template <typename T, typename HostF>
void check(const char *Name, std::mt19937 &Rng, int Margin, int Ins,
           Launcher Launch, HostF Host, CopiesFn Copies = nullptr) {
  long long E[3];
  for (long long &X : E)
    X = 2 * Margin + 1 + Rng() % 23;
  const long long N = E[0] * E[1] * E[2];
  // Ordinary values half the time: hostile ones make many sums NaN or
  // infinite, where a term added to the wrong sum would not show.
  const e2e::Input Kind =
      Rng() % 2 ? e2e::Input::Uniform : static_cast<e2e::Input>(Rng() % 4);
  std::uniform_real_distribution<T> U(-2, 2);
  std::vector<std::vector<T>> In(Ins, std::vector<T>(N));
  for (std::vector<T> &A : In)
    for (T &V : A)
      V = e2e::inputValue<T>(Kind, Rng, [&] { return U(Rng); });
  std::vector<T> Out(N, e2e::poison<T>()), Ref(N, e2e::poison<T>());
  Host(In, Ref, E, Margin);
  // A random box of the interior, as a rank's slab.
  stencil::Grid G;
  stencil::Region R;
  for (int D = 0; D < 3; ++D) {
    G.extent[D] = E[D];
    const long long Lo = Margin, Hi = E[D] - Margin;
    R.lo[D] = Lo + Rng() % (Hi - Lo);
    R.hi[D] = R.lo[D] + 1 + Rng() % (Hi - R.lo[D]);
  }
  stencil::LaunchConfig C;
  do {
    C.block[0] = 1 + Rng() % 40;
    C.block[1] = 1 + Rng() % 6;
  } while (Copies && Copies(C.block[0], C.block[1]) > MostCopies);
  C.block[2] = 1 + Rng() % 12;
  std::vector<const T *> Pointers;
  for (std::vector<T> &A : In)
    Pointers.push_back(A.data());
  T *OutPointer = Out.data();
  std::vector<void *> Args;
  for (const T *&P : Pointers)
    Args.push_back(&P);
  Args.push_back(&OutPointer);
  ++Checks;
  if (const char *Error = Launch(G, R, C, Args.data())) {
    ++Failures;
    std::printf("FAIL %s: launch: %s\n", Name, Error);
    return;
  }
  long long Bad = 0;
  for (long long Z = 0; Z < E[2]; ++Z)
    for (long long Y = 0; Y < E[1]; ++Y)
      for (long long X = 0; X < E[0]; ++X) {
        const long long I = X + E[0] * (Y + E[1] * Z);
        const bool Inside = X >= R.lo[0] && X < R.hi[0] && Y >= R.lo[1] &&
                            Y < R.hi[1] && Z >= R.lo[2] && Z < R.hi[2];
        const bool Ok =
            Inside ? e2e::sameAsHost(Out[I], Ref[I]) : e2e::isPoison(Out[I]);
        if (!Ok && Bad++ == 0)
          std::printf("  %s point (%lld, %lld, %lld) %s: kernel %.17g, host "
                      "%.17g\n",
                      Name, X, Y, Z, Inside ? "inside" : "outside",
                      double(Out[I]), double(Ref[I]));
      }
  if (Bad) {
    ++Failures;
    std::printf("FAIL %s: %lld x %lld x %lld, region [%lld, %lld) x [%lld, "
                "%lld) x [%lld, %lld), block %d x %d, chunk %d, input kind "
                "%d: %lld points differ\n",
                Name, E[0], E[1], E[2], R.lo[0], R.hi[0], R.lo[1], R.hi[1],
                R.lo[2], R.hi[2], C.block[0], C.block[1], C.block[2],
                static_cast<int>(Kind), Bad);
  }
}

/// One step of \p Stencil on the host over the interior of a margin of
/// \p Margin, from the input arrays into \p Out.
template <int Ins, typename StencilT> auto host(StencilT Stencil) {
  return [Stencil](auto &In, auto &Out, const long long(&E)[3], int Margin) {
    stencil::Loop3D<stencil::HostLoopEngine3D> L(
        E[0], Margin, Margin, E[1], Margin, Margin, E[2], Margin, Margin);
    if constexpr (Ins == 1)
      L.run(Stencil, In[0].data(), Out.data());
    else
      L.run(Stencil, In[0].data(), In[1].data(), Out.data());
  };
}

/// zsum4's launcher refuses a block whose threads would copy more elements
/// than it may, with an error and no launch.
void checkRefused(const char *Name, Launcher Launch, CopiesFn Copies) {
  ++Checks;
  stencil::Grid G;
  stencil::Region R;
  for (int D = 0; D < 3; ++D) {
    G.extent[D] = 16;
    R.lo[D] = 4;
    R.hi[D] = 12;
  }
  stencil::LaunchConfig C;
  C.block[0] = C.block[1] = C.block[2] = 1;
  // Arrays enough for any of this file's stencils (its launcher reads them
  // before it refuses).
  std::vector<double> Array(16 * 16 * 16);
  void *Pointer = Array.data();
  void *Args[] = {&Pointer, &Pointer, &Pointer};
  const long long Before = cuda_on_cpu::Launches;
  const char *Error = Launch(G, R, C, Args);
  if (Copies(1, 1) <= MostCopies || !Error || !std::strstr(Error, "copies") ||
      cuda_on_cpu::Launches != Before) {
    ++Failures;
    std::printf("FAIL %s: a 1 x 1 block (%llu copies a thread): %s\n", Name,
                Copies(1, 1), Error ? Error : "launched");
  }
}

} // namespace

int main(int argc, char **argv) {
  const unsigned Seed = e2e::seedOption(argc, argv);
  std::mt19937 Rng(Seed);
  for (int Round = 0; Round < 12; ++Round) {
    // Copies as late as a wait allows, or as early as started.
    cuda_on_cpu::EagerCopies = Round % 2;
    check<float>("Box3d1rF", Rng, 1, 1, &stencilc_Box3d1rF_zsum_cuda_launch,
                 host<1>(Box3d1rF()));
    check<float>("GapSumF", Rng, 2, 2, &stencilc_GapSumF_zsum_cuda_launch,
                 host<2>(GapSumF()));
    check<double>("BelowD", Rng, 2, 1, &stencilc_BelowD_zsum_cuda_launch,
                  host<1>(BelowD()));
    check<float>("WideToFloatF", Rng, 1, 1,
                 &stencilc_WideToFloatF_zsum_cuda_launch,
                 host<1>(WideToFloatF()));
    check<float>("Box3d1rF zsum4", Rng, 1, 1,
                 &stencilc_Box3d1rF_zsum4_cuda_launch, host<1>(Box3d1rF()),
                 &stencilc_Box3d1rF_zsum4_copies);
    check<float>("GapSumF zsum4", Rng, 2, 2,
                 &stencilc_GapSumF_zsum4_cuda_launch, host<2>(GapSumF()),
                 &stencilc_GapSumF_zsum4_copies);
    check<double>("BelowD zsum4", Rng, 2, 1, &stencilc_BelowD_zsum4_cuda_launch,
                  host<1>(BelowD()), &stencilc_BelowD_zsum4_copies);
    check<float>("WideToFloatF zsum4", Rng, 1, 1,
                 &stencilc_WideToFloatF_zsum4_cuda_launch,
                 host<1>(WideToFloatF()), &stencilc_WideToFloatF_zsum4_copies);
  }
  checkRefused("Box3d1rF zsum4", &stencilc_Box3d1rF_zsum4_cuda_launch,
               &stencilc_Box3d1rF_zsum4_copies);
  checkRefused("GapSumF zsum4", &stencilc_GapSumF_zsum4_cuda_launch,
               &stencilc_GapSumF_zsum4_copies);
  std::printf("%s: plane sums on the CPU, seed %u: %d passed, %d failed\n",
              Failures ? "FAIL" : "PASS", Seed, Checks - Failures, Failures);
  return Failures ? 1 : 0;
}
#else
int main() {
  std::fprintf(stderr,
               "plane_sums_on_cpu: built without the extracted kernels\n");
  return 2;
}
#endif
