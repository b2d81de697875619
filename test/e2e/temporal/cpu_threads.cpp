// cpu_threads.cpp - stencilc's CUDA passes of several time steps, run on CPU
// threads: no GPU is needed, so CI checks the kernels' logic (tiles,
// recomputed halos, rings, queues, the steady part, the margins) bit for bit
// against the host reference, which the GPU test can only do on a GPU.
//
// The build runs stencilc on this file (--emit=cuda), extract_kernels.py
// (test/e2e/common) turns the generated kernels into host function
// templates, and this file includes them (STENCILC_CPU_THREADS_KERNELS). A
// block runs as one fiber per CUDA thread, each in turn up to its next
// __syncthreads(), blocks one after another (../common/cuda_on_cpu.hpp's
// launchTogether). Per stencil and seed: random extents, margins and chunks, 1
// to 4 steps a pass, a tile compiled with constant extents and a random one
// with runtime extents; one pass from A into B (B poisoned inside the region;
// A as the input poisoned outside it, as level 0's margin poisoned inside)
// must equal the steps one by one on the host inside its store region (the
// whole region, or in half the checks a random box of it, as a rank's
// interior or boundary slab) and leave every other point as it was.
//
//   temporal_cpu_threads [--seed=N]
#include <stencil/dsl.hpp>

#include "../common/hostile_values.hpp"
#include "../common/seed_option.hpp"
#include "../common/store_box.hpp"
#include "an5d_stencils.hpp" // tools/benchmark: AN5D's stencils
#include "divide_stencil.hpp"
#include "integer_stencils.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

/// One-sided in x and z (rings of 3 planes), with a coefficient array read
/// at the point: the body's other loads go to memory.
struct STENCIL_KERNEL Upwind3F {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             const float *k, float *b) const {
    b[idx.ix()] = a[idx.ix()] -
                  k[idx.ix()] * (a[idx.ix()] - a[idx.ix<-1, 0, 0>()]) -
                  0.2f * (a[idx.ix()] - a[idx.ix<0, 0, -1>()]);
  }
};
/// A 2-D box with a division by a constant: its passes keep rings of rows,
/// where the stars' meet once a level (TemporalPlan::LevelBarrier).
struct STENCIL_KERNEL Box2d9F {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] =
        (a[idx.ix<-1, -1>()] + a[idx.ix<1, -1>()] + 2.0f * a[idx.ix()] +
         a[idx.ix<-1, 1>()] + a[idx.ix<1, 1>()]) /
            6.0f +
        a[idx.ix<0, 1>()] / 3.0f;
  }
};
/// A wide, one-sided 2-D star (x -2..+3, y -1..+2: queues of four rows, a
/// lag of two rows a level) with a coefficient array read a row below:
/// a barrier a level.
struct STENCIL_KERNEL WideStar2F {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a,
                             const float *k, float *b) const {
    b[idx.ix()] = 0.5f * a[idx.ix()] +
                  k[idx.ix<0, 1>()] * (a[idx.ix<-2, 0>()] + a[idx.ix<3, 0>()] -
                                       a[idx.ix<1, 0>()]) +
                  0.125f * (a[idx.ix<0, -1>()] - a[idx.ix<0, 2>()]);
  }
};
/// A one-sided 2-D star reading no row above (a lag of 0 rows a level): a
/// barrier a level.
struct STENCIL_KERNEL Upwind2F {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = a[idx.ix()] - 0.375f * (a[idx.ix()] - a[idx.ix<-1, 0>()]) -
                  0.25f * (a[idx.ix()] - a[idx.ix<0, -1>()]);
  }
};
/// A one-sided f64 sum by planes (planes 0 and +1, x -1..+1, y 0..+1) with
/// a weight: its passes are summed by planes too, with no plane or row below
/// the point.
struct STENCIL_KERNEL SkewSumD {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *a,
                             double *b, double w) const {
    b[idx.ix()] = 0.25 * a[idx.ix<-1, 0, 0>()] + w * a[idx.ix<1, 1, 0>()] +
                  0.375 * a[idx.ix()] + 0.125 * a[idx.ix<1, 1, 1>()] +
                  w * a[idx.ix<0, 0, 1>()];
  }
};
/// A sum by planes reading no plane above the point (planes -1 and 0, x
/// 0..+1): the margin takes the centre of the plane just read.
struct STENCIL_KERNEL DownSumF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = 0.375f * a[idx.ix<0, 0, -1>()] +
                  0.25f * a[idx.ix<1, 0, -1>()] + 0.25f * a[idx.ix<1, 0, 0>()] +
                  0.125f * a[idx.ix()];
  }
};
/// A star with its terms in the planes' order (AN5D's star3d1r, the z-1
/// term first): summed by planes in f32, no column off the centre at two
/// planes.
struct STENCIL_KERNEL StarOrderedF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] =
        0.1252f * a[idx.ix<0, 0, -1>()] + 0.2500f * a[idx.ix()] +
        0.1248f * a[idx.ix<-1, 0, 0>()] + 0.1249f * a[idx.ix<1, 0, 0>()] +
        0.1250f * a[idx.ix<0, -1, 0>()] + 0.1251f * a[idx.ix<0, 1, 0>()] +
        0.1253f * a[idx.ix<0, 0, 1>()];
  }
};
/// A star in the planes' order with constants and subtractions, a constant
/// first: the terms a pass summed by planes adds as they come.
struct STENCIL_KERNEL SubStarF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = 0.25f + 0.5f * a[idx.ix<0, 0, -1>()] -
                  0.125f * a[idx.ix<-1, 0, 0>()] + 0.75f * a[idx.ix()] -
                  0.0625f * a[idx.ix<0, 1, 0>()] + 1.0f -
                  0.1875f * a[idx.ix<0, 0, 1>()];
  }
};
/// Terms of earlier planes after later ones, held in registers until the
/// sum reaches their place (one two planes, a subtraction, a constant
/// between): planes -1 to +1, the running sums from 0.
struct STENCIL_KERNEL HeldStarF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = 0.5f * a[idx.ix<0, 1, 0>()] - 0.25f * a[idx.ix<1, 0, -1>()] +
                  0.125f + 0.75f * a[idx.ix<-1, 1, 1>()] -
                  0.0625f * a[idx.ix<0, -1, -1>()] +
                  0.3125f * a[idx.ix<1, 1, 0>()];
  }
};
/// Every term held but the first: no running sum, planes -1 and 0.
struct STENCIL_KERNEL HeldDownF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = 0.5f * a[idx.ix()] + 0.25f * a[idx.ix<1, 0, -1>()] +
                  0.1875f * a[idx.ix<0, 1, -1>()];
  }
};
/// A sum reaching 4 planes above the point (the most a pass summed by
/// planes stages ahead) and none below, x 0..+1, y -1..0: a margin of 4.
struct STENCIL_KERNEL FarAboveF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = 0.5f * a[idx.ix()] + 0.125f * a[idx.ix<1, 0, 0>()] +
                  0.125f * a[idx.ix<1, 0, 2>()] +
                  0.125f * a[idx.ix<0, -1, 3>()] +
                  0.125f * a[idx.ix<0, 0, 4>()];
  }
};
/// A 3-D star of 32-bit integers: its passes of 3 steps read level 2's own
/// column from registers, so a thread of the margin takes the centre below
/// from a queue (a type of one word).
struct STENCIL_KERNEL Star3dI {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const int *a,
                             int *b) const {
    b[idx.ix()] =
        (3 * a[idx.ix()] + a[idx.ix<-1, 0, 0>()] + a[idx.ix<1, 0, 0>()] +
         a[idx.ix<0, -1, 0>()] + a[idx.ix<0, 1, 0>()] + a[idx.ix<0, 0, -1>()] +
         a[idx.ix<0, 0, 1>()]) /
        9;
  }
};
/// A star over f32 arrays summed in f64 (an 8-byte sum: two points a thread)
/// reading no row but the point's (its border has no band above or below).
struct STENCIL_KERNEL RowStarFD {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = static_cast<float>(
        0.375 * a[idx.ix<0, 0, -1>()] + 0.125 * a[idx.ix<-1, 0, 0>()] +
        0.25 * a[idx.ix()] + 0.125 * a[idx.ix<1, 0, 0>()] +
        0.125 * a[idx.ix<0, 0, 1>()]);
  }
};
/// A star reading no column off the point's in x (y and z only): its border
/// has bands above and below the tile and no column left or right.
struct STENCIL_KERNEL ColumnStarF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = 0.25f * a[idx.ix<0, 0, -1>()] +
                  0.125f * a[idx.ix<0, -1, 0>()] + 0.25f * a[idx.ix()] +
                  0.25f * a[idx.ix<0, 1, 0>()] + 0.125f * a[idx.ix<0, 0, 1>()];
  }
};
/// The time loops stencilc sees (on the default engine: on the host engine
/// it generates nothing), never run: the harness runs the passes itself.
void timeLoops(float *f, float *g, double *d, double *e, const float *k,
               unsigned *u, unsigned *v, long long *l, long long *m, int *n,
               int *o) {
  stencil::Loop3D<> L(9, 2, 2, 9, 2, 2, 9, 2, 2);
  L.repeat(2, Star3d1rF(), stencil::previousLevel(f), stencil::nextLevel(g));
  L.repeat(2, Star3d1rD(), stencil::previousLevel(d), stencil::nextLevel(e));
  L.repeat(2, Box3d1rF(), stencil::previousLevel(f), stencil::nextLevel(g));
  L.repeat(2, Star3d2rF(), stencil::previousLevel(f), stencil::nextLevel(g));
  L.repeat(2, Upwind3F(), stencil::previousLevel(f), k, stencil::nextLevel(g));
  L.repeat(2, Star3dL(), stencil::previousLevel(l), stencil::nextLevel(m));
  L.repeat(2, Star3dI(), stencil::previousLevel(n), stencil::nextLevel(o));
  L.repeat(2, SkewSumD(), stencil::previousLevel(d), stencil::nextLevel(e),
           0.0625);
  L.repeat(2, DownSumF(), stencil::previousLevel(f), stencil::nextLevel(g));
  L.repeat(2, FarAboveF(), stencil::previousLevel(f), stencil::nextLevel(g));
  L.repeat(2, StarOrderedF(), stencil::previousLevel(f), stencil::nextLevel(g));
  L.repeat(2, SubStarF(), stencil::previousLevel(f), stencil::nextLevel(g));
  L.repeat(2, HeldStarF(), stencil::previousLevel(f), stencil::nextLevel(g));
  L.repeat(2, HeldDownF(), stencil::previousLevel(f), stencil::nextLevel(g));
  L.repeat(2, RowStarFD(), stencil::previousLevel(f), stencil::nextLevel(g));
  L.repeat(2, ColumnStarF(), stencil::previousLevel(f), stencil::nextLevel(g));
  stencil::Loop2D<> P(9, 1, 1, 9, 1, 1);
  P.repeat(2, J2d5ptF(), stencil::previousLevel(f), stencil::nextLevel(g));
  P.repeat(2, DivideF(), stencil::previousLevel(f), stencil::nextLevel(g));
  P.repeat(2, QuotientF(), stencil::previousLevel(f), stencil::nextLevel(g));
  P.repeat(2, QuotientBoxF(), stencil::previousLevel(f), stencil::nextLevel(g));
  P.repeat(2, Box2d9F(), stencil::previousLevel(f), stencil::nextLevel(g));
  P.repeat(2, WideStar2F(), stencil::previousLevel(f), k,
           stencil::nextLevel(g));
  P.repeat(2, Upwind2F(), stencil::previousLevel(f), stencil::nextLevel(g));
  P.repeat(2, UpwindQuotient2U(), stencil::previousLevel(u),
           stencil::nextLevel(v));
}

#ifdef STENCILC_CPU_THREADS_KERNELS
#include "../common/cuda_on_cpu.hpp"

namespace cpu_threads {
/// The block's dynamic shared memory (the levels' rings).
unsigned char *shared = nullptr;
} // namespace cpu_threads

using std::max;
using std::min;
#include STENCILC_CPU_THREADS_KERNELS

namespace {

/// The most steps a pass takes here, and the tiles compiled with constant
/// extents (the kernels' BX, BY) in 3-D and 2-D.
constexpr int MostSteps = 4;
constexpr int FixedX3 = 12, FixedY3 = 10, FixedX2 = 40;

/// Instance tables: Table[steps - 1][0: runtime extents, 1: constant];
/// the kernel's template arguments after the tile's: ... (a function
/// pointer, so that either table of a stencil fits one variable).
#define TABLE(NAME, FX, FY, ...)                                               \
  +[](int Steps, bool Fixed) {                                                 \
    using Fn = decltype(&stencilc_##NAME##_temporal0<1, 0, 0>);                \
    static const Fn Table[MostSteps][2] = {                                    \
        {&stencilc_##NAME##_temporal0<1, 0, 0 __VA_ARGS__>,                    \
         &stencilc_##NAME##_temporal0<1, FX, FY __VA_ARGS__>},                 \
        {&stencilc_##NAME##_temporal0<2, 0, 0 __VA_ARGS__>,                    \
         &stencilc_##NAME##_temporal0<2, FX, FY __VA_ARGS__>},                 \
        {&stencilc_##NAME##_temporal0<3, 0, 0 __VA_ARGS__>,                    \
         &stencilc_##NAME##_temporal0<3, FX, FY __VA_ARGS__>},                 \
        {&stencilc_##NAME##_temporal0<4, 0, 0 __VA_ARGS__>,                    \
         &stencilc_##NAME##_temporal0<4, FX, FY __VA_ARGS__>}};                \
    return Table[Steps - 1][Fixed ? 1 : 0];                                    \
  }
#define INSTANCES(NAME, FX, FY) TABLE(NAME, FX, FY, )
/// A 3-D ring pass's instances for \p How: those that take the margin from
/// the level below's centre (CENTRE_MARGIN) or from memory.
#define RINGS(NAME, How)                                                       \
  (How == Margins::Centre ? TABLE(NAME, FixedX3, FixedY3, , true)              \
                          : INSTANCES(NAME, FixedX3, FixedY3))

/// A pass summed by planes: the elements of a plane a thread copies at most
/// (stencilc's PlaneSumPassCopies), the points of a level's border a thread
/// computes at most (PlaneSumPassBorder); its steps (2 to 4), its tiles
/// shrinking or bordered; its points a thread, the generated
/// `..._planes_points` (four, two for an 8-byte star).
constexpr int PlaneCopies = 6, PlaneBorder = 2;
#define PLANES(NAME, BORDERED)                                                 \
  [](int Steps) {                                                              \
    using Fn = decltype(&stencilc_##NAME##_temporal0_planes<2, BORDERED>);     \
    static const Fn Table[3] = {                                               \
        &stencilc_##NAME##_temporal0_planes<2, BORDERED>,                      \
        &stencilc_##NAME##_temporal0_planes<3, BORDERED>,                      \
        &stencilc_##NAME##_temporal0_planes<4, BORDERED>};                     \
    return Table[Steps - 2];                                                   \
  }
/// The same, compiled for a tile of BX x BY threads (constant extents).
#define PLANES_AT(NAME, BORDERED, BX, BY)                                      \
  [](int Steps) {                                                              \
    using Fn = decltype(&stencilc_##NAME##_temporal0_planes<2, BORDERED>);     \
    static const Fn Table[3] = {                                               \
        &stencilc_##NAME##_temporal0_planes<2, BORDERED, BX, BY>,              \
        &stencilc_##NAME##_temporal0_planes<3, BORDERED, BX, BY>,              \
        &stencilc_##NAME##_temporal0_planes<4, BORDERED, BX, BY>};             \
    return Table[Steps - 2];                                                   \
  }

int Checks = 0, Failures = 0;

/// An array whose last element ends where an unreadable page begins.
template <typename T> class GuardedArray {
public:
  explicit GuardedArray(long long N) {
    const std::size_t Page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t Bytes = static_cast<std::size_t>(N) * sizeof(T);
    Pages = (Bytes + Page - 1) / Page * Page;
    Size = Pages + Page;
    Base =
        static_cast<unsigned char *>(mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (Base == MAP_FAILED || mprotect(Base + Pages, Page, PROT_NONE) != 0) {
      std::perror("cpu_threads: guarded array");
      std::exit(2);
    }
    Data = reinterpret_cast<T *>(Base + Pages - Bytes);
  }
  GuardedArray(const GuardedArray &) = delete;
  GuardedArray &operator=(const GuardedArray &) = delete;
  ~GuardedArray() { munmap(Base, Size); }
  T *data() const { return Data; }

private:
  unsigned char *Base = nullptr;
  std::size_t Pages = 0, Size = 0;
  T *Data = nullptr;
};

/// How far one step reads, both sides together, in x and in y (the tile
/// loses this much a step, as the launcher computes).
struct Span {
  int X, Y;
};

/// One pass of \p Steps steps over arrays of \p Ext points (a margin of \p
/// Margin), tile (Bx, By) (By 1 in 2-D), chunk \p Chunk, against the host.
using e2e::Input;

/// How a pass takes each level's margin: from the array holding the level
/// one step at a time (A's and B's differ), or, where the two arrays hold the
/// same margin (B's is made A's), from the level below's centre (the rings'
/// CENTRE_MARGIN instances) or summed by planes, on shrinking or bordered
/// tiles.
enum class Margins { Own, Centre, Planes, Bordered };

/// \p Host runs one step; \p Pass runs a thread of the pass. \p Kind: the
/// input, uniform in [1, 2) or e2e's hostile values or signed zeros.
/// \p How: Margins::Planes or Bordered, a pass summed by planes, takes a
/// tile of (Bx, By) points, \p PlanePoints a thread in y.
template <typename T, int Dims, typename HostF, typename PassF>
void check(const std::string &Name, const long long (&Ext)[3], int Margin,
           Span Reach, int Steps, int Bx, int By, long long Chunk,
           unsigned Seed, HostF Host, PassF Pass, Input Kind = Input::Uniform,
           Margins How = Margins::Own, int PlanePoints = 4) {
  const bool Planes = How == Margins::Planes || How == Margins::Bordered;
  const int M = Dims - 1;
  long long N = 1;
  for (int D = 0; D < Dims; ++D)
    N *= Ext[D];
  std::mt19937 Rng(Seed);
  std::uniform_real_distribution<double> U(1, 2);
  auto Uniform = [&] {
    if constexpr (std::is_integral_v<T>)
      return e2e::integerInput<T>(Rng);
    else
      return T(U(Rng));
  };
  std::vector<T> A(N), B(N);
  for (T &V : A)
    if constexpr (std::is_integral_v<T>)
      V = Uniform(); // Input's other kinds are floats' values
    else
      V = e2e::inputValue<T>(Kind, Rng, Uniform);
  // Another margin: a level takes the right one.
  for (T &V : B)
    V = std::is_integral_v<T> ? T(Uniform() + 3000) : T(U(Rng) + 3);
  stencil::Grid G;
  G.dims = Dims;
  stencil::Region R;
  for (int D = 0; D < Dims; ++D) {
    G.extent[D] = Ext[D];
    R.lo[D] = Margin;
    R.hi[D] = Ext[D] - Margin;
  }
  // The store region: R, or a random box inside it.
  const stencil::Region Store = e2e::storeBox(R, Dims, Rng);
  auto In = [&](long long I, const stencil::Region &Box) {
    return e2e::inBox(I, Ext, Dims, Box);
  };
  auto Inside = [&](long long I) { return In(I, R); };
  if (How != Margins::Own)
    for (long long I = 0; I < N; ++I)
      if (!Inside(I))
        B[I] = A[I];
  // The host: the steps one by one.
  std::vector<T> HA = A, HB = B;
  T *P = HA.data(), *Q = HB.data();
  for (int S = 0; S < Steps; ++S) {
    Host(P, Q);
    std::swap(P, Q);
  }
  // The pass: A into B, B's region poisoned.
  std::vector<T> Out = B;
  for (long long I = 0; I < N; ++I)
    if (Inside(I))
      Out[I] = e2e::poison<T>();
  // A pass summed by planes computes level 1 on its whole tile, and a
  // bordered one stores all of it.
  const int Lost = How == Margins::Bordered ? 0 : Planes ? Steps - 1 : Steps;
  const long long Ux = Bx - Lost * static_cast<long long>(Reach.X);
  const long long Uy =
      Dims == 3 ? By - Lost * static_cast<long long>(Reach.Y) : 1;
  if (Ux <= 0 || Uy <= 0)
    return;
  const long long Gx = (Store.hi[0] - Store.lo[0] + Ux - 1) / Ux;
  const long long Gy =
      Dims == 3 ? (Store.hi[1] - Store.lo[1] + Uy - 1) / Uy : 1;
  const long long Gm = (Store.hi[M] - Store.lo[M] + Chunk - 1) / Chunk;
  const int Threads = Bx * By;
  // Every level's ring: at most 6 planes (radius 2) a level, and the
  // padding on either side (at most 2 + 2 * Bx points).
  // Rings start as garbage, as shared memory does.
  // A pass summed by planes: its input's stages and two planes a level,
  // each at most the tile and Steps times the reach around it (rows one
  // longer where bordered).
  const std::size_t Planar = std::size_t(3 + 2 * Steps) *
                             (By + Steps * Reach.Y) *
                             (Bx + Steps * Reach.X + 1);
  std::vector<unsigned char> Shared(
      std::max(std::size_t(Steps) * 6 * Threads + 4 + 4 * std::size_t(Bx),
               Planar) *
          sizeof(T),
      0xff);
  cpu_threads::shared = Shared.data();
  cuda_on_cpu::SharedWindow = Shared.data();
  // A fiber per CUDA thread; the blocks one after another.
  const dim3 Grid = Dims == 3 ? dim3(Gx, Gy, Gm) : dim3(Gx, Gm, 1);
  const std::vector<T> Before = Out;
  // The input inside the region, level 0's margin outside it, each poisoned
  // where the pass must take the other.
  std::vector<T> InOnly = A, MarginOnly = A;
  for (long long I = 0; I < N; ++I)
    (Inside(I) ? MarginOnly[I] : InOnly[I]) = e2e::poison<T>();
  // Blocks last first in some checks (one storing another's point shows).
  cuda_on_cpu::ReverseBlocks = Rng() % 2;
  const dim3 Block(Bx, Planes ? By / PlanePoints : By, 1);
  cuda_on_cpu::launchTogether(Grid, Block, [&] {
    Pass(G, R, Store, Chunk, MarginOnly.data(), B.data(),
         Planes ? A.data() : InOnly.data(), Out.data());
  });
  ++Checks;
  long long Bad = 0;
  for (long long I = 0; I < N; ++I) {
    // Outside the store region nothing is written: the bits as they were.
    const bool Stored = In(I, Store);
    const bool Ok = Stored ? e2e::sameAsHost(Out[I], P[I])
                           : std::memcmp(&Out[I], &Before[I], sizeof(T)) == 0;
    if (!Ok && Bad++ == 0)
      std::printf("  %s point %lld (%s): pass %.9g, %s %.9g\n", Name.c_str(), I,
                  Stored ? "stored" : "not stored", double(Out[I]),
                  Stored ? "host" : "before",
                  double(Stored ? P[I] : Before[I]));
  }
  if (Bad) {
    ++Failures;
    std::printf("FAIL %s: %lld x %lld x %lld, margin %d, %d steps, tile %d x "
                "%d, chunk %lld, store [%lld, %lld) x [%lld, %lld) x [%lld, "
                "%lld): %lld points differ\n",
                Name.c_str(), Ext[0], Ext[1], Dims == 3 ? Ext[2] : 1, Margin,
                Steps, Bx, By, Chunk, Store.lo[0], Store.hi[0], Store.lo[1],
                Store.hi[1], Store.lo[2], Store.hi[2], Bad);
  }
}

/// One step of \p Stencil on the host over 2-D arrays of \p E, a margin of 1.
template <typename StencilT>
auto host2(const long long (&E)[3], StencilT Stencil) {
  return [&E, Stencil](auto *P, auto *Q) {
    stencil::Loop2D<stencil::HostLoopEngine2D> L(E[0], 1, 1, E[1], 1, 1);
    L.run(Stencil, P, Q);
  };
}

/// One step of \p Stencil on the host over 3-D arrays of \p E, a margin of
/// \p Margin; \p X: the stencil's arguments after the two levels.
template <typename StencilT, typename... Extra>
auto host3(const long long (&E)[3], int Margin, StencilT Stencil, Extra... X) {
  return [&E, Margin, Stencil, X...](auto *P, auto *Q) {
    stencil::Loop3D<stencil::HostLoopEngine3D> L(
        E[0], Margin, Margin, E[1], Margin, Margin, E[2], Margin, Margin);
    L.run(Stencil, P, Q, X...);
  };
}

/// The pass's threads: the instance for (steps, tile) with \p Extra after
/// the previous level (the kernels' parameters follow the stencil's).
template <typename Table, typename... Extra>
auto passOf(Table Instance, int Steps, bool Fixed, Extra... X) {
  return [=](const stencil::Grid &G, const stencil::Region &R,
             const stencil::Region &S, long long C, const auto *M0,
             const auto *M1, const auto *In, auto *Out) {
    Instance(Steps, Fixed)(G, R, S, C, M0, M1, In, X..., Out);
  };
}

/// A pass summed by planes: the instance for \p Steps (its margins are
/// the input's).
template <typename Table, typename... Extra>
auto planesOf(Table Instance, int Steps, Extra... X) {
  return [=](const stencil::Grid &G, const stencil::Region &R,
             const stencil::Region &S, long long C, const auto *, const auto *,
             const auto *In,
             auto *Out) { Instance(Steps)(G, R, S, C, In, Out, X...); };
}

/// A random tile (Bx, By) of points, at most 256 threads where one is
/// (else 512: four steps of a box bordered), for a pass
/// summed by planes of \p Steps steps whose one step reads \p Reach, as the
/// launcher takes them: shrinking, a tile whose useful points are not empty
/// and a thread copying at most PlaneCopies elements of a plane; \p
/// Bordered, a thread copying at most as many of the input's plane STEPS
/// times the reach around the tile (its rows of odd length), and level 1's
/// border at most PlaneBorder points a thread. Then random extents *Ex, *Ey
/// for it, from a part of a tile to about two tiles. \p Only: that tile
/// alone, if the launcher takes it (else false: *Bx, *By left alone).
bool planesTile(int Steps, Span Reach, bool Bordered, std::mt19937 &Rng,
                int *Bx, int *By, long long *Ex, long long *Ey,
                std::pair<int, int> Only = {0, 0}, int PlanePoints = 4) {
  std::vector<std::pair<int, int>> Tiles;
  const int E = Steps - 1;
  for (int Most = 256; Most <= 512 && Tiles.empty(); Most *= 2)
    for (int X = 1; X <= std::max(48, Only.first); ++X)
      for (int Y = PlanePoints; Y <= std::max(48, Only.second);
           Y += PlanePoints) {
        const int Threads = X * Y / PlanePoints;
        const bool Takes =
            Bordered
                ? E * Reach.Y * (X + E * Reach.X) + E * Reach.X * Y <=
                          PlaneBorder * Threads &&
                      (Y + Steps * Reach.Y) * ((X + Steps * Reach.X) | 1) <=
                          PlaneCopies * Threads
                : X > E * Reach.X && Y > E * Reach.Y &&
                      (Y + Reach.Y) * (X + Reach.X) <= PlaneCopies * Threads;
        if (Threads <= Most && Takes &&
            (Only.first == 0 || Only == std::make_pair(X, Y)))
          Tiles.push_back({X, Y});
      }
  if (Tiles.empty() && Only.first != 0)
    return false;
  if (Tiles.empty()) {
    std::printf("FAIL no tile for %d steps\n", Steps);
    std::exit(1);
  }
  const auto T = Tiles[Rng() % Tiles.size()];
  *Bx = T.first;
  *By = T.second;
  auto Pick = [&](long long Lo, long long Hi) {
    return std::uniform_int_distribution<long long>(Lo, Hi)(Rng);
  };
  *Ex = Pick(6, 2 * *Bx + 6);
  *Ey = Pick(6, 2 * *By + 6);
  return true;
}

/// The passes summed by planes, \p Steps (2 to 4) a pass, over \p Ez planes
/// with a margin of \p Margin, on shrinking or bordered tiles (each check its
/// own tile and extents in x and y): the AN5D box, the one-sided f64 sum and
/// the sum with no plane above; the sum 4 planes above, with a margin of 4;
/// stars in the planes' order; sums holding terms of earlier planes (AN5D's
/// star as written among them).
template <bool Bordered>
void checkByPlanes(long long Ez, int Margin, int Steps, long long Chunk,
                   unsigned Seed, std::mt19937 &Rng) {
  const Margins How = Bordered ? Margins::Bordered : Margins::Planes;
  const std::string Way = Bordered ? " by planes, bordered" : " by planes";
  int Bx = 0, By = 0;
  long long E3[3] = {0, 0, Ez};
  planesTile(Steps, {2, 2}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1]);
  check<float, 3>("box27 f32" + Way, E3, Margin, {2, 2}, Steps, Bx, By, Chunk,
                  Seed, host3(E3, Margin, Box3d1rF()),
                  planesOf(PLANES(Box3d1rF, Bordered), Steps), Input::Uniform,
                  How);
  planesTile(Steps, {2, 1}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1]);
  check<double, 3>("skew sum f64" + Way, E3, Margin, {2, 1}, Steps, Bx, By,
                   Chunk, Seed, host3(E3, Margin, SkewSumD(), 0.0625),
                   planesOf(PLANES(SkewSumD, Bordered), Steps, 0.0625),
                   Input::Uniform, How);
  planesTile(Steps, {1, 0}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1]);
  check<float, 3>("down sum f32" + Way, E3, Margin, {1, 0}, Steps, Bx, By,
                  Chunk, Seed, host3(E3, Margin, DownSumF()),
                  planesOf(PLANES(DownSumF, Bordered), Steps), Input::Uniform,
                  How);
  planesTile(Steps, {1, 1}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1]);
  const long long Far = 4 - Margin;
  const long long E4[3] = {E3[0] + 8, E3[1] + 8, E3[2] + 2 * Far};
  check<float, 3>("far-above sum f32" + Way, E4, 4, {1, 1}, Steps, Bx, By,
                  Chunk, Seed, host3(E4, 4, FarAboveF()),
                  planesOf(PLANES(FarAboveF, Bordered), Steps), Input::Uniform,
                  How);
  planesTile(Steps, {2, 2}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1]);
  check<float, 3>("ordered star f32" + Way, E3, Margin, {2, 2}, Steps, Bx, By,
                  Chunk, Seed, host3(E3, Margin, StarOrderedF()),
                  planesOf(PLANES(StarOrderedF, Bordered), Steps),
                  Input::Uniform, How);
  planesTile(Steps, {0, 2}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1]);
  check<float, 3>("column star f32" + Way, E3, Margin, {0, 2}, Steps, Bx, By,
                  Chunk, Seed, host3(E3, Margin, ColumnStarF()),
                  planesOf(PLANES(ColumnStarF, Bordered), Steps),
                  Input::Uniform, How);
  planesTile(Steps, {1, 1}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1]);
  check<float, 3>("star with constants f32" + Way, E3, Margin, {1, 1}, Steps,
                  Bx, By, Chunk, Seed, host3(E3, Margin, SubStarF()),
                  planesOf(PLANES(SubStarF, Bordered), Steps), Input::Uniform,
                  How);
  // Terms held in registers: AN5D's star as written, and two more orders.
  planesTile(Steps, {2, 2}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1]);
  check<float, 3>("AN5D star f32" + Way, E3, Margin, {2, 2}, Steps, Bx, By,
                  Chunk, Seed, host3(E3, Margin, Star3d1rF()),
                  planesOf(PLANES(Star3d1rF, Bordered), Steps), Input::Uniform,
                  How);
  // 8-byte stars (AN5D's f64 one; one over f32 arrays summed in f64): their
  // own points a thread, passes of two steps at most (the launcher's), also
  // on the plan's tile (32 x 16 points).
  constexpr int StarD = stencilc_Star3d1rD_temporal0_planes_points;
  if (Steps == 2) {
    planesTile(Steps, {2, 2}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1], {0, 0},
               StarD);
    check<double, 3>("AN5D star f64" + Way, E3, Margin, {2, 2}, Steps, Bx, By,
                     Chunk, Seed, host3(E3, Margin, Star3d1rD()),
                     planesOf(PLANES(Star3d1rD, Bordered), Steps),
                     Input::Uniform, How, StarD);
  }
  constexpr int RowD = stencilc_RowStarFD_temporal0_planes_points;
  if (Steps == 2) {
    planesTile(Steps, {2, 0}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1], {0, 0},
               RowD);
    check<float, 3>("row star f32 summed in f64" + Way, E3, Margin, {2, 0},
                    Steps, Bx, By, Chunk, Seed, host3(E3, Margin, RowStarFD()),
                    planesOf(PLANES(RowStarFD, Bordered), Steps),
                    Input::Uniform, How, RowD);
  }
  if (Steps == 2 && planesTile(Steps, {2, 2}, Bordered, Rng, &Bx, &By, &E3[0],
                               &E3[1], {32, 16}, StarD))
    check<double, 3>(
        "AN5D star f64, constant tile" + Way, E3, Margin, {2, 2}, Steps, Bx, By,
        Chunk, Seed, host3(E3, Margin, Star3d1rD()),
        planesOf(PLANES_AT(Star3d1rD, Bordered, 32, 16 / StarD), Steps),
        Input::Uniform, How, StarD);
  planesTile(Steps, {2, 2}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1]);
  check<float, 3>("held star f32" + Way, E3, Margin, {2, 2}, Steps, Bx, By,
                  Chunk, Seed, host3(E3, Margin, HeldStarF()),
                  planesOf(PLANES(HeldStarF, Bordered), Steps), Input::Uniform,
                  How);
  planesTile(Steps, {1, 1}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1]);
  check<float, 3>("held down sum f32" + Way, E3, Margin, {1, 1}, Steps, Bx, By,
                  Chunk, Seed, host3(E3, Margin, HeldDownF()),
                  planesOf(PLANES(HeldDownF, Bordered), Steps), Input::Uniform,
                  How);
  // The plan's default tiles, through the instances compiled for them (32 x
  // 8 threads in f32, 32 x 4 in f64), where the launcher takes them.
  if (planesTile(Steps, {2, 2}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1],
                 {32, 32}))
    check<float, 3>("box27 f32, constant tile" + Way, E3, Margin, {2, 2}, Steps,
                    Bx, By, Chunk, Seed, host3(E3, Margin, Box3d1rF()),
                    planesOf(PLANES_AT(Box3d1rF, Bordered, 32, 8), Steps),
                    Input::Uniform, How);
  if (planesTile(Steps, {2, 2}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1],
                 {32, 32}))
    check<float, 3>("ordered star f32, constant tile" + Way, E3, Margin, {2, 2},
                    Steps, Bx, By, Chunk, Seed,
                    host3(E3, Margin, StarOrderedF()),
                    planesOf(PLANES_AT(StarOrderedF, Bordered, 32, 8), Steps),
                    Input::Uniform, How);
  // The tile only the pass summed by planes takes (TemporalPlan::
  // PlanesOnlyTiles: 64 x 32 points, 64 x 8 threads).
  if (planesTile(Steps, {2, 2}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1],
                 {64, 32}))
    check<float, 3>("ordered star f32, planes-only tile" + Way, E3, Margin,
                    {2, 2}, Steps, Bx, By, Chunk, Seed,
                    host3(E3, Margin, StarOrderedF()),
                    planesOf(PLANES_AT(StarOrderedF, Bordered, 64, 8), Steps),
                    Input::Uniform, How);
  if (planesTile(Steps, {2, 1}, Bordered, Rng, &Bx, &By, &E3[0], &E3[1],
                 {32, 16}))
    check<double, 3>(
        "skew sum f64, constant tile" + Way, E3, Margin, {2, 1}, Steps, Bx, By,
        Chunk, Seed, host3(E3, Margin, SkewSumD(), 0.0625),
        planesOf(PLANES_AT(SkewSumD, Bordered, 32, 4), Steps, 0.0625),
        Input::Uniform, How);
}

/// Fills the \p N coefficients of \p K with random multiples of 1 / \p
/// Divisor in [0, 1000 / Divisor]; returns them.
const float *coefficients(GuardedArray<float> &K, long long N, float Divisor,
                          std::mt19937 &Rng) {
  std::uniform_int_distribution<int> Coefficient(0, 1000);
  for (long long I = 0; I < N; ++I)
    K.data()[I] = float(Coefficient(Rng)) / Divisor;
  return K.data();
}

/// \p Name, and how the pass takes its margin where not from memory.
std::string named(const char *Name, Margins How) {
  return std::string(Name) +
         (How == Margins::Centre ? ", the margin from the centre" : "");
}

/// The one-sided stencil with a coefficient array (random, its margin too),
/// which ends where a guard page begins: a read past its end (a thread off
/// the arrays reading it) stops the test.
void checkUpwind(const long long (&E3)[3], int Margin, int Steps, int Bx,
                 int By, long long Chunk, unsigned Seed, bool Fixed,
                 std::mt19937 &Rng, Margins How) {
  GuardedArray<float> K(E3[0] * E3[1] * E3[2]);
  const float *const Kc = coefficients(K, E3[0] * E3[1] * E3[2], 4000, Rng);
  check<float, 3>(
      named("upwind f32", How), E3, Margin, {1, 0}, Steps, Bx, By, Chunk, Seed,
      [&](float *P, float *Q) {
        stencil::Loop3D<stencil::HostLoopEngine3D> L(E3[0], Margin, Margin,
                                                     E3[1], Margin, Margin,
                                                     E3[2], Margin, Margin);
        L.run(Upwind3F(), P, Kc, Q);
      },
      passOf(RINGS(Upwind3F, How), Steps, Fixed, Kc), Input::Uniform, How);
}

/// The wide 2-D star with its coefficients (random, the margin's too) in
/// an array that ends where a guard page begins, margins of 3.
void checkWideStar(const long long (&E)[3], int Steps, int Bx, long long Chunk,
                   unsigned Seed, bool Fixed, std::mt19937 &Rng) {
  GuardedArray<float> K(E[0] * E[1]);
  const float *const Kc = coefficients(K, E[0] * E[1], 8000, Rng);
  check<float, 2>(
      "wide star f32", E, 3, {5, 0}, Steps, Bx, 1, Chunk, Seed,
      [&](float *P, float *Q) {
        stencil::Loop2D<stencil::HostLoopEngine2D> L(E[0], 3, 3, E[1], 3, 3);
        L.run(WideStar2F(), P, Kc, Q);
      },
      passOf(INSTANCES(WideStar2F, FixedX2, 1), Steps, Fixed, Kc));
}

} // namespace

int main(int argc, char **argv) {
  const unsigned Seed = e2e::seedOption(argc, argv);
  std::mt19937 Rng(Seed);
  auto Pick = [&](int Lo, int Hi) {
    return std::uniform_int_distribution<int>(Lo, Hi)(Rng);
  };
  for (int Round = 0; Round < 4; ++Round) {
    const unsigned S = Seed * 100 + Round;
    const bool Fixed = Round % 2 == 0;
    const int Steps = Pick(1, MostSteps);
    const int Bx = Fixed ? FixedX3 : Pick(7, 16),
              By = Fixed ? FixedY3 : Pick(7, 12);
    const long long Chunk = Pick(1, 4) == 1 ? Pick(1, 3) : Pick(12, 32);
    // Margins wider than the reach now and then: the pass reads them.
    const int Margin = Pick(1, 2);
    // Long enough in z for the steady part (chunks of 2 steps' lag and a
    // ring or more) in most rounds.
    const long long E3[3] = {Pick(8, 20), Pick(8, 18), Pick(6, 40)};
    // The 3-D ring passes both ways: each level's margin from memory, and
    // from the level below's centre where the arrays' margins are the same.
    for (const Margins How : {Margins::Own, Margins::Centre}) {
      check<float, 3>(named("star7 f32", How), E3, Margin, {2, 2}, Steps, Bx,
                      By, Chunk, S, host3(E3, Margin, Star3d1rF()),
                      passOf(RINGS(Star3d1rF, How), Steps, Fixed),
                      Input::Uniform, How);
      check<double, 3>(named("star7 f64", How), E3, Margin, {2, 2}, Steps, Bx,
                       By, Chunk, S, host3(E3, Margin, Star3d1rD()),
                       passOf(RINGS(Star3d1rD, How), Steps, Fixed),
                       Input::Uniform, How);
      check<float, 3>(named("box27 f32", How), E3, Margin, {2, 2}, Steps, Bx,
                      By, Chunk, S, host3(E3, Margin, Box3d1rF()),
                      passOf(RINGS(Box3d1rF, How), Steps, Fixed),
                      Input::Uniform, How);
      checkUpwind(E3, Margin, Steps, Bx, By, Chunk, S, Fixed, Rng, How);
      check<long long, 3>(named("star7 i64", How), E3, Margin, {2, 2}, Steps,
                          Bx, By, Chunk, S, host3(E3, Margin, Star3dL()),
                          passOf(RINGS(Star3dL, How), Steps, Fixed),
                          Input::Uniform, How);
      check<int, 3>(named("star7 i32", How), E3, Margin, {2, 2}, Steps, Bx, By,
                    Chunk, S, host3(E3, Margin, Star3dI()),
                    passOf(RINGS(Star3dI, How), Steps, Fixed), Input::Uniform,
                    How);
    }
    for (int Planar = 2; Planar <= MostSteps; ++Planar) {
      checkByPlanes<false>(E3[2], Margin, Planar, Chunk, S, Rng);
      checkByPlanes<true>(E3[2], Margin, Planar, Chunk, S, Rng);
    }
    // Radius 2: the tile loses 4 a step each way, the margin at least 2.
    const long long E13[3] = {E3[0] + 4, E3[1] + 4, E3[2] + 4};
    const int Steps13 = std::min(Steps, 2);
    for (const Margins How : {Margins::Own, Margins::Centre})
      check<float, 3>(named("star13 f32", How), E13, 2, {4, 4}, Steps13,
                      Fixed ? FixedX3 : Bx + 6, Fixed ? FixedY3 : By + 6, Chunk,
                      S, host3(E13, 2, Star3d2rF()),
                      passOf(RINGS(Star3d2rF, How), Steps13, Fixed),
                      Input::Uniform, How);
    // 2-D: rows of a tile, marching along y.
    const long long E2[3] = {Pick(10, 70), Pick(4, 40), 1};
    const int Bx2 = Fixed ? FixedX2 : Pick(12, 48);
    check<float, 2>("jacobi2 f32", E2, 1, {2, 0}, Steps, Bx2, 1, Pick(1, 30), S,
                    host2(E2, J2d5ptF()),
                    passOf(INSTANCES(J2d5ptF, FixedX2, 1), Steps, Fixed));
    for (const Input Kind : {Input::Hostile, Input::SignedZeros})
      check<float, 2>(
          Kind == Input::Hostile ? "divisions f32, hostile values"
                                 : "divisions f32, signed zeros",
          E2, 1, {2, 0}, Steps, Bx2, 1, Pick(1, 30), S, host2(E2, DivideF()),
          passOf(INSTANCES(DivideF, FixedX2, 1), Steps, Fixed), Kind);
    check<float, 2>("quotients f32, tiny values", E2, 1, {1, 0}, Steps, Bx2, 1,
                    Pick(1, 30), S, host2(E2, QuotientF()),
                    passOf(INSTANCES(QuotientF, FixedX2, 1), Steps, Fixed),
                    Input::Tiny);
    // Up to 130 rows (in the middle ones, chunks with no test), tiles
    // that keep 20 columns at four steps or a random 21 to 60.
    checkWideStar({Pick(12, 90), Pick(12, 130), 1}, Steps,
                  Fixed ? FixedX2 : Pick(21, 60), Pick(1, 40), S, Fixed, Rng);
    check<float, 2>("upwind2 f32", E2, 1, {1, 0}, Steps, Bx2, 1, Pick(1, 30), S,
                    host2(E2, Upwind2F()),
                    passOf(INSTANCES(Upwind2F, FixedX2, 1), Steps, Fixed));
    for (const Input Kind : {Input::Uniform, Input::Hostile})
      check<float, 2>("box9 f32", E2, 1, {2, 0}, Steps, Bx2, 1, Pick(1, 30), S,
                      host2(E2, Box2d9F()),
                      passOf(INSTANCES(Box2d9F, FixedX2, 1), Steps, Fixed),
                      Kind);
    check<unsigned, 2>(
        "upwind quotients u32", E2, 1, {2, 0}, Steps, Bx2, 1, Pick(1, 30), S,
        host2(E2, UpwindQuotient2U()),
        passOf(INSTANCES(UpwindQuotient2U, FixedX2, 1), Steps, Fixed));
  }
  // Hostile values and signed zeros where most blocks hold no point of the
  // margin (rows of 160, tiles of 40) and middle chunks no row of it, where
  // the products are taken alone and checked (TemporalPlan::
  // divisionsCheckedAPlane: once a plane in rings, once a chunk in
  // LevelBarrier passes): the random extents above seldom have such.
  for (int Steps = 1; Steps <= MostSteps; ++Steps) {
    const long long E[3] = {160, 100, 1};
    // Tiny values: products that differ from the quotient, unhidden.
    check<float, 2>("quotients f32, blocks inside the region", E, 1, {1, 0},
                    Steps, FixedX2, 1, 32, Seed, host2(E, QuotientF()),
                    passOf(INSTANCES(QuotientF, FixedX2, 1), Steps, true),
                    Input::Tiny);
    check<float, 2>(
        "quotients f32 (rings), blocks inside the region", E, 1, {1, 0}, Steps,
        FixedX2, 1, 32, Seed, host2(E, QuotientBoxF()),
        passOf(INSTANCES(QuotientBoxF, FixedX2, 1), Steps, true), Input::Tiny);
    for (const Input Kind : {Input::Hostile, Input::SignedZeros}) {
      check<float, 2>("divisions f32, blocks inside the region", E, 1, {2, 0},
                      Steps, FixedX2, 1, 32, Seed, host2(E, DivideF()),
                      passOf(INSTANCES(DivideF, FixedX2, 1), Steps, true),
                      Kind);
      check<float, 2>("upwind2 f32, blocks inside the region", E, 1, {1, 0},
                      Steps, FixedX2, 1, 32, Seed, host2(E, Upwind2F()),
                      passOf(INSTANCES(Upwind2F, FixedX2, 1), Steps, true),
                      Kind);
      check<float, 2>("box9 f32, blocks inside the region", E, 1, {2, 0}, Steps,
                      FixedX2, 1, 32, Seed, host2(E, Box2d9F()),
                      passOf(INSTANCES(Box2d9F, FixedX2, 1), Steps, true),
                      Kind);
    }
  }
  // Hostile: tiles taller than the array (4 rows, a margin of 1). The
  // threads past its last row are off the arrays; where they compute too,
  // they must not read the coefficients.
  for (int Steps = 1; Steps <= MostSteps; ++Steps)
    for (const bool Fixed : {true, false})
      for (const Margins How : {Margins::Own, Margins::Centre})
        checkUpwind({10, 4, 40}, 1, Steps, FixedX3, FixedY3 + (Fixed ? 0 : 2),
                    32, Seed, Fixed, Rng, How);
  // The steady part beside the margin, each level's margin the centre of
  // the level below: chunks of 48 planes, every tile holding margin columns
  // (the random extents above seldom reach the steady part at 2 steps or
  // more). A constant tile and one with runtime extents.
  for (int Steps = 2; Steps <= MostSteps; ++Steps)
    for (const bool Fixed : {true, false}) {
      const long long E[3] = {13, 11, 64};
      const int Bx = Fixed ? FixedX3 : 11, By = Fixed ? FixedY3 : 9;
      auto Centred = [&](auto Zero, const char *Name, auto Host, auto Pass) {
        check<decltype(Zero), 3>(
            std::string(Name) + ", the margin from the centre, long chunks", E,
            1, {2, 2}, Steps, Bx, By, 48, Seed * 100 + 10 * Steps + Fixed, Host,
            Pass, Input::Uniform, Margins::Centre);
      };
      Centred(0.0f, "star7 f32", host3(E, 1, Star3d1rF()),
              passOf(RINGS(Star3d1rF, Margins::Centre), Steps, Fixed));
      Centred(0.0, "star7 f64", host3(E, 1, Star3d1rD()),
              passOf(RINGS(Star3d1rD, Margins::Centre), Steps, Fixed));
      Centred(0.0f, "box27 f32", host3(E, 1, Box3d1rF()),
              passOf(RINGS(Box3d1rF, Margins::Centre), Steps, Fixed));
      Centred(0LL, "star7 i64", host3(E, 1, Star3dL()),
              passOf(RINGS(Star3dL, Margins::Centre), Steps, Fixed));
      Centred(0, "star7 i32", host3(E, 1, Star3dI()),
              passOf(RINGS(Star3dI, Margins::Centre), Steps, Fixed));
    }
  // Hostile: the smallest tiles a step leaves a point of (3 x 3 threads,
  // runtime extents), where the rings' padding is wider than a row.
  {
    const long long E[3] = {9, 8, 20};
    check<float, 3>("star7 f32, 3 x 3", E, 1, {2, 2}, 1, 3, 3, 16, Seed,
                    host3(E, 1, Star3d1rF()),
                    passOf(INSTANCES(Star3d1rF, FixedX3, FixedY3), 1, false));
    check<float, 3>("box27 f32, 3 x 3", E, 1, {2, 2}, 1, 3, 3, 16, Seed,
                    host3(E, 1, Box3d1rF()),
                    passOf(INSTANCES(Box3d1rF, FixedX3, FixedY3), 1, false));
  }
  std::printf("%s: %d passes checked, %d failed (seed %u)\n",
              Failures ? "FAIL" : "PASS", Checks, Failures, Seed);
  return Failures ? 1 : 0;
}
#else
int main() {
  std::fprintf(stderr, "cpu_threads: built without the extracted kernels\n");
  return 2;
}
#endif
