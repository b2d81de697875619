// temporal.cpp - time loops (Loop::repeat) against the host reference run
// step by step: 2-D and 3-D, star and box, radius 1 to 4, f32, f64 and
// integers (bit for bit), a
// stencil that reads a second array of its levels' type, an if/else body,
// an asymmetric reach. The two level arrays start with different margins, so
// a margin read from the wrong level shows; the stars, a stencil with a
// coefficient array and the weighted box run again with the same margins,
// where the rings' passes take each level's margin from the level below's
// centre and the passes of 2 to 4 steps of the box and of a star written in
// the planes' order are summed by planes.
//
//   temporal [--backend=host|openmp|cuda|all] [--seed=N]
//
// host: the reference's own checks (the region written, the margins kept,
// the pointers swapped as std::swap after each step would). openmp: the
// generated code step by step, bit for bit. cuda: stencilc's passes at every
// number of steps per pass up to the most, several tiles and chunks, and
// step counts not multiples of it, within 1e-6 relative in float and 1e-12
// in double of the reference (the margins and the pointer variables
// exactly); and one step per pass, which runs the single-step code. Extents
// come from the seed and are multiples of no tile. Exit status 0 when every
// comparison passed, 1 otherwise, 2 for usage, 77 when cuda is asked for
// and there is no GPU.
#include <stencil/autotuning_engine.hpp>
#include <stencil/dsl.hpp>

#include "../common/e2e_case.hpp"
#include "../common/hostile_values.hpp"
#include "divide_stencil.hpp"
#include "integer_stencils.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

// 3-D 7-point, f32 and f64 (AN5D's star3d1r).
struct STENCIL_KERNEL Star7f {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *in,
                             float *out, float c0, float c1) const {
    out[idx.ix()] = c0 * in[idx.ix()] +
                    c1 * (in[idx.ix<-1, 0, 0>()] + in[idx.ix<1, 0, 0>()] +
                          in[idx.ix<0, -1, 0>()] + in[idx.ix<0, 1, 0>()] +
                          in[idx.ix<0, 0, -1>()] + in[idx.ix<0, 0, 1>()]);
  }
};
struct STENCIL_KERNEL Star7d {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *in,
                             double *out, double c0, double c1) const {
    out[idx.ix()] = c0 * in[idx.ix()] +
                    c1 * (in[idx.ix<-1, 0, 0>()] + in[idx.ix<1, 0, 0>()] +
                          in[idx.ix<0, -1, 0>()] + in[idx.ix<0, 1, 0>()] +
                          in[idx.ix<0, 0, -1>()] + in[idx.ix<0, 0, 1>()]);
  }
};

// 3-D 27-point box (a loop over the offsets).
struct STENCIL_KERNEL Box27f {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *in,
                             float *out) const {
    float s = 0.0f;
    s = s + in[idx.ix<-1, -1, -1>()] + in[idx.ix<0, -1, -1>()] +
        in[idx.ix<1, -1, -1>()] + in[idx.ix<-1, 0, -1>()] +
        in[idx.ix<0, 0, -1>()] + in[idx.ix<1, 0, -1>()] +
        in[idx.ix<-1, 1, -1>()] + in[idx.ix<0, 1, -1>()] +
        in[idx.ix<1, 1, -1>()];
    s = s + in[idx.ix<-1, -1, 0>()] + in[idx.ix<0, -1, 0>()] +
        in[idx.ix<1, -1, 0>()] + in[idx.ix<-1, 0, 0>()] + in[idx.ix()] +
        in[idx.ix<1, 0, 0>()] + in[idx.ix<-1, 1, 0>()] + in[idx.ix<0, 1, 0>()] +
        in[idx.ix<1, 1, 0>()];
    s = s + in[idx.ix<-1, -1, 1>()] + in[idx.ix<0, -1, 1>()] +
        in[idx.ix<1, -1, 1>()] + in[idx.ix<-1, 0, 1>()] +
        in[idx.ix<0, 0, 1>()] + in[idx.ix<1, 0, 1>()] + in[idx.ix<-1, 1, 1>()] +
        in[idx.ix<0, 1, 1>()] + in[idx.ix<1, 1, 1>()];
    out[idx.ix()] = s * (1.0f / 27.0f);
  }
};

// A 7-point star, one sum in the order of its planes (z - 1 first): its f32
// passes may be summed by planes (where both arrays hold the same margin).
struct STENCIL_KERNEL StarOrderedF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *in,
                             float *out) const {
    out[idx.ix()] =
        0.125f * in[idx.ix<0, 0, -1>()] + 0.0625f * in[idx.ix<0, -1, 0>()] +
        0.1875f * in[idx.ix<-1, 0, 0>()] + 0.25f * in[idx.ix()] +
        0.125f * in[idx.ix<1, 0, 0>()] + 0.0625f * in[idx.ix<0, 1, 0>()] +
        0.1875f * in[idx.ix<0, 0, 1>()];
  }
};

// Terms of earlier planes after later ones (AN5D's order, z - 1 after the
// centre plane's, and one held two planes): its f32 passes summed by planes
// hold them in registers until the sum reaches them.
struct STENCIL_KERNEL StarHeldF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *in,
                             float *out) const {
    out[idx.ix()] =
        0.25f * in[idx.ix()] + 0.125f * in[idx.ix<-1, 0, 0>()] +
        0.0625f * in[idx.ix<0, 0, -1>()] + 0.1875f * in[idx.ix<0, 1, 1>()] +
        0.125f * in[idx.ix<1, 0, -1>()] + 0.0625f * in[idx.ix<0, -1, 0>()] +
        0.1875f * in[idx.ix<0, 0, 1>()];
  }
};

// The same in f64: its passes summed by planes take two points a thread.
struct STENCIL_KERNEL StarHeldD {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *in,
                             double *out) const {
    out[idx.ix()] =
        0.25 * in[idx.ix()] + 0.125 * in[idx.ix<-1, 0, 0>()] +
        0.0625 * in[idx.ix<0, 0, -1>()] + 0.1875 * in[idx.ix<0, 1, 1>()] +
        0.125 * in[idx.ix<1, 0, -1>()] + 0.0625 * in[idx.ix<0, -1, 0>()] +
        0.1875 * in[idx.ix<0, 0, 1>()];
  }
};

// A weighted 27-point box, one sum in the order of its planes: its passes
// may be summed by planes (where both arrays hold the same margin).
struct STENCIL_KERNEL Box27w {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *in,
                             float *out) const {
    out[idx.ix()] = 21.0f / 1024.0f * in[idx.ix<-1, -1, -1>()] +
                    22.0f / 1024.0f * in[idx.ix<0, -1, -1>()] +
                    23.0f / 1024.0f * in[idx.ix<1, -1, -1>()] +
                    24.0f / 1024.0f * in[idx.ix<-1, 0, -1>()] +
                    25.0f / 1024.0f * in[idx.ix<0, 0, -1>()] +
                    26.0f / 1024.0f * in[idx.ix<1, 0, -1>()] +
                    27.0f / 1024.0f * in[idx.ix<-1, 1, -1>()] +
                    28.0f / 1024.0f * in[idx.ix<0, 1, -1>()] +
                    29.0f / 1024.0f * in[idx.ix<1, 1, -1>()] +
                    30.0f / 1024.0f * in[idx.ix<-1, -1, 0>()] +
                    31.0f / 1024.0f * in[idx.ix<0, -1, 0>()] +
                    32.0f / 1024.0f * in[idx.ix<1, -1, 0>()] +
                    33.0f / 1024.0f * in[idx.ix<-1, 0, 0>()] +
                    34.0f / 1024.0f * in[idx.ix()] +
                    35.0f / 1024.0f * in[idx.ix<1, 0, 0>()] +
                    36.0f / 1024.0f * in[idx.ix<-1, 1, 0>()] +
                    37.0f / 1024.0f * in[idx.ix<0, 1, 0>()] +
                    38.0f / 1024.0f * in[idx.ix<1, 1, 0>()] +
                    39.0f / 1024.0f * in[idx.ix<-1, -1, 1>()] +
                    40.0f / 1024.0f * in[idx.ix<0, -1, 1>()] +
                    41.0f / 1024.0f * in[idx.ix<1, -1, 1>()] +
                    42.0f / 1024.0f * in[idx.ix<-1, 0, 1>()] +
                    43.0f / 1024.0f * in[idx.ix<0, 0, 1>()] +
                    44.0f / 1024.0f * in[idx.ix<1, 0, 1>()] +
                    45.0f / 1024.0f * in[idx.ix<-1, 1, 1>()] +
                    46.0f / 1024.0f * in[idx.ix<0, 1, 1>()] +
                    47.0f / 1024.0f * in[idx.ix<1, 1, 1>()];
  }
};

// 3-D 13-point star, radius 2.
struct STENCIL_KERNEL Star13f {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *in,
                             float *out) const {
    out[idx.ix()] = 0.28f * in[idx.ix()] +
                    0.07f * (in[idx.ix<-1, 0, 0>()] + in[idx.ix<1, 0, 0>()] +
                             in[idx.ix<0, -1, 0>()] + in[idx.ix<0, 1, 0>()] +
                             in[idx.ix<0, 0, -1>()] + in[idx.ix<0, 0, 1>()]) +
                    0.05f * (in[idx.ix<-2, 0, 0>()] + in[idx.ix<2, 0, 0>()] +
                             in[idx.ix<0, -2, 0>()] + in[idx.ix<0, 2, 0>()] +
                             in[idx.ix<0, 0, -2>()] + in[idx.ix<0, 0, 2>()]);
  }
};

// A coefficient array of the levels' type, read off the centre: two arrays
// could be the previous level; the call's marks say which.
struct STENCIL_KERNEL VarCoef {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *k,
                             const double *u, double *un) const {
    un[idx.ix()] =
        u[idx.ix()] +
        0.1 * (k[idx.ix<1, 0, 0>()] * (u[idx.ix<1, 0, 0>()] - u[idx.ix()]) -
               k[idx.ix()] * (u[idx.ix()] - u[idx.ix<-1, 0, 0>()]) +
               k[idx.ix<0, 0, 1>()] * (u[idx.ix<0, 0, 1>()] - u[idx.ix()]) -
               k[idx.ix()] * (u[idx.ix()] - u[idx.ix<0, -1, 0>()]));
  }
};

// 2-D 5-point Jacobi (AN5D's j2d5pt).
struct STENCIL_KERNEL Jacobi2D {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *in,
                             float *out) const {
    out[idx.ix()] =
        0.2f * (in[idx.ix()] + in[idx.ix<-1, 0>()] + in[idx.ix<1, 0>()] +
                in[idx.ix<0, -1>()] + in[idx.ix<0, 1>()]);
  }
};


// 2-D, f64: an asymmetric reach and a branch that stores on both paths.
STENCIL_KERNEL
void upwind2d(const stencil::Index2D &idx, const double *q, double *qn,
              double a) {
  const double d = q[idx.ix<1, 0>()] - q[idx.ix<-2, 0>()];
  if (d > 0.0)
    qn[idx.ix()] = q[idx.ix()] - a * (q[idx.ix()] - q[idx.ix<0, -1>()]);
  else
    qn[idx.ix()] = q[idx.ix()] + a * (q[idx.ix<0, 3>()] - q[idx.ix()]);
}

// 2-D star of radius 4.
struct STENCIL_KERNEL Star2Dr4 {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *in,
                             float *out) const {
    out[idx.ix()] = 0.2f * in[idx.ix()] +
                    0.1f * (in[idx.ix<-4, 0>()] + in[idx.ix<4, 0>()] +
                            in[idx.ix<0, -4>()] + in[idx.ix<0, 4>()]) +
                    0.1f * (in[idx.ix<-1, 0>()] + in[idx.ix<1, 0>()] +
                            in[idx.ix<0, -1>()] + in[idx.ix<0, 1>()]);
  }
};

// Given to repeat() only through a variable that changes: stencilc cannot
// tell which stencil that is, so it plans no passes for it.
STENCIL_KERNEL
void notRepeated(const stencil::Index3D &idx, const float *in, float *out) {
  out[idx.ix()] = in[idx.ix<1, 0, 0>()];
}

namespace {

using e2e::Options;

/// A loop of DeviceAutoTuningLoopEngine in the shape of the other engines'
/// repeat(): its DeviceAutoTuningInfo goes before the stencil's arguments.
template <typename LoopT> struct TunedRepeat {
  LoopT &Loop;
  stencil::DeviceAutoTuningInfo *Info;
  template <typename StencilT, typename... Args>
  void repeat(long long Steps, const StencilT &S, Args &&...A) {
    Loop.repeat(Steps, S, Info, std::forward<Args>(A)...);
  }
};

int Failures = 0, Passes = 0;

/// One time loop: two level arrays (random region, different margins) and
/// one extra input, run \p Steps steps by each engine.
template <typename T, int Dims> class Case {
public:
  /// \p Kind: level 0 uniform in [1, 2), or e2e::hostileValue's (zeros,
  /// subnormals, infinities, NaNs), signed zeros or tiny values, where the
  /// GPU's levels must be the host's bit for bit.
  /// \p SameMargins: level 1's margin is level 0's (the rings' passes then
  /// take each level's margin from the centre below; passes summed by planes
  /// run only so).
  Case(const char *Name, unsigned Seed, const int (&Extent)[Dims], int Margin,
       e2e::Input Kind = e2e::Input::Uniform, bool SameMargins = false)
      : Name(Name), Margin(Margin), Kind(Kind) {
    std::size_t N = 1;
    for (int D = 0; D < Dims; ++D)
      N *= static_cast<std::size_t>(Ext[D] = Extent[D]);
    std::mt19937 Rng(Seed);
    // Integer fields: integer_stencils.hpp's inputs (Kind is for floats).
    auto Dist = [&Rng] {
      if constexpr (std::is_integral_v<T>)
        return e2e::integerInput<T>(Rng);
      else
        return std::uniform_real_distribution<T>(T(1), T(2))(Rng);
    };
    Level0.resize(N);
    Level1.resize(N);
    Extra.resize(N);
    for (std::size_t I = 0; I < N; ++I) {
      if constexpr (std::is_integral_v<T>)
        Level0[I] = Dist();
      else
        Level0[I] = e2e::inputValue<T>(Kind, Rng, Dist);
      Extra[I] = Dist();
      // Level 1's region is overwritten by the first step; its margin is
      // another than level 0's.
      Level1[I] = inside(I)               ? e2e::poison<T>()
                  : SameMargins           ? Level0[I]
                  : std::is_integral_v<T> ? T(3000) + Dist()
                                          : T(3) + Dist();
    }
  }

  /// \p Call(loop, steps, previous, next, extra) runs the time loop.
  template <typename CallF> void run(const Options &O, int Steps, CallF Call) {
    std::vector<T> A = Level0, B = Level1;
    T *Prev = A.data(), *Next = B.data();
    {
      auto Loop =
          e2e::makeLoop<Dims, stencil::HostLoopEngine<Dims>>(Ext, Margin);
      Call(Loop, Steps, Prev, Next, Extra.data());
    }
    // The reference's own checks: pointers as after Steps swaps, margins
    // unchanged, the last level written everywhere in the region.
    const bool Swapped = Steps % 2 == 1;
    Ref[0] = Swapped ? B : A;
    Ref[1] = Swapped ? A : B;
    const std::string What = "host, " + std::to_string(Steps) + " steps";
    if (Prev != (Swapped ? B.data() : A.data()))
      fail(What, "the previous level's pointer is not where swaps leave it");
    checkMargins(What, Ref[0], Swapped ? Level1 : Level0);
    checkMargins(What, Ref[1], Swapped ? Level0 : Level1);
    for (std::size_t I = 0; I < Ref[0].size(); ++I)
      if (inside(I) && e2e::isPoison(Ref[0][I]))
        return fail(What, "a point of the region was not written");
    ++Passes;
    if (O.OpenMP)
      runOpenMP(Steps, Call);
  }

  template <typename CallF> void runOpenMP(int Steps, CallF Call) {
    std::vector<T> A = Level0, B = Level1;
    T *Prev = A.data(), *Next = B.data();
    auto Loop = e2e::makeLoop<
        Dims, stencil::GeneratedLoopEngine<Dims, stencil::Backend::OpenMP>>(
        Ext, Margin);
    Call(Loop, Steps, Prev, Next, Extra.data());
    compare("openmp, " + std::to_string(Steps) + " steps", Prev, Next, A, B, 0);
  }

  /// The auto-tuner's time loop (DeviceAutoTuningLoopEngine::repeat, a
  /// short search: its steps settle within the first call, which then times
  /// the passes), then a second loop from the same start with the choice
  /// kept; each against the reference.
  template <typename CallF> void runTuned(int Steps, CallF Call) {
    stencil::DeviceAutoTuningInfo Info;
    Info.useCache = false;
    Info.search.maxCalls = 3;
    Info.search.finalists = 1;
    Info.search.finalRepeats = 1;
    Info.progress.quiet = true;
    for (int Loop = 0; Loop < 2; ++Loop)
      onDevice(
          std::string("cuda-tuned, ") + std::to_string(Steps) + " steps" +
              (Loop ? ", the choice kept" : ""),
          [&](T *&Prev, T *&Next, const T *X) {
            auto Tuned =
                e2e::makeLoop<Dims, stencil::DeviceAutoTuningLoopEngine<Dims>>(
                    Ext, Margin);
            TunedRepeat<decltype(Tuned)> Engine{Tuned, &Info};
            Call(Engine, Steps, Prev, Next, X);
            if (!Info.chosenPasses())
              throw std::runtime_error("no way chosen for the time loop");
          },
          [&] {
            return " (" + stencil::tuning::temporalText(*Info.chosenPasses()) +
                   ")";
          });
  }

  /// The passes of \p PerPass steps with tile (bx, by) and \p Chunk (0: the
  /// plan's), or one step at a time when PerPass is 1.
  template <typename RepeatF>
  void runCuda(int Steps, int PerPass, int Bx, int By, int Chunk,
               RepeatF Repeat) {
    auto Loop = e2e::makeLoop<Dims, stencil::HostLoopEngine<Dims>>(Ext, Margin);
    stencil::GeneratedLoopEngine<Dims, stencil::Backend::Cuda> E(Loop.ranges());
    E.Temporal.steps = PerPass;
    E.Temporal.block[0] = Bx;
    E.Temporal.block[1] = By;
    E.Temporal.block[2] = Chunk;
    onDevice(
        "cuda, " + std::to_string(Steps) + " steps, " +
            std::to_string(PerPass) + " per pass, tile " + std::to_string(Bx) +
            "x" + std::to_string(By) + " chunk " + std::to_string(Chunk),
        [&](T *&Prev, T *&Next, const T *X) {
          Repeat(E, Steps, Prev, Next, X);
        },
        [] { return std::string(); });
  }

private:
  /// The case's levels and extra input on the GPU: \p Run(previous, next,
  /// extra) runs the time loop there; then the pointers and both levels
  /// against the reference, named \p What and \p Describe()'s words.
  template <typename RunF, typename DescribeF>
  void onDevice(const std::string &What, RunF Run, DescribeF Describe) {
    const std::size_t N = Level0.size();
    stencil::DeviceArray<T> A(N), B(N), X(N);
    A.upload(Level0.data());
    B.upload(Level1.data());
    X.upload(Extra.data());
    T *Prev = A.data(), *Next = B.data();
    std::vector<T> HA(N), HB(N);
    try {
      Run(Prev, Next, static_cast<const T *>(X.data()));
      stencil::deviceSynchronize();
      A.download(HA.data());
      B.download(HB.data());
    } catch (const std::exception &Error) {
      return fail(What, Error.what());
    }
    const bool PrevIsA = Prev == A.data(), NextIsA = Next == A.data();
    if (PrevIsA == NextIsA || (Prev != A.data() && Prev != B.data()))
      return fail(What, "the level pointers do not name the two arrays");
    compareDevice(What + Describe(), PrevIsA ? HA : HB, PrevIsA ? HB : HA);
  }

  bool inside(std::size_t I) const {
    return e2e::inRegion<Dims>(I, Ext, Margin);
  }
  void fail(const std::string &What, const char *Why) {
    std::printf("FAIL %s: %s: %s\n", What.c_str(), Name, Why);
    ++Failures;
  }
  void checkMargins(const std::string &What, const std::vector<T> &Got,
                    const std::vector<T> &Initial) {
    for (std::size_t I = 0; I < Got.size(); ++I)
      if (!inside(I) && !e2e::sameBits(Got[I], Initial[I]))
        return fail(What, "a margin point changed");
  }

  /// The engine's pointers against the reference's, then both arrays.
  void compare(const std::string &What, const T *Prev, const T *Next,
               const std::vector<T> &A, const std::vector<T> &B,
               double Tolerance) {
    if (Prev == Next || (Prev != A.data() && Prev != B.data()))
      return fail(What, "the level pointers do not name the two arrays");
    const bool PrevIsA = Prev == A.data();
    compareArrays(What, PrevIsA ? A : B, PrevIsA ? B : A, Tolerance);
  }

  void compareDevice(const std::string &What, const std::vector<T> &Last,
                     const std::vector<T> &Before) {
    compareArrays(What, Last, Before,
                  Kind != e2e::Input::Uniform || std::is_integral_v<T> ? 0
                  : sizeof(T) == 4                                     ? 1e-6
                                                                       : 1e-12);
  }

  /// The last level and the one before, each against the reference's:
  /// margins bit for bit, the region bit for bit or within \p Tolerance.
  void compareArrays(const std::string &What, const std::vector<T> &Last,
                     const std::vector<T> &Before, double Tolerance) {
    const std::vector<T> *Got[2] = {&Last, &Before};
    for (int L = 0; L < 2; ++L)
      for (std::size_t I = 0; I < Last.size(); ++I) {
        const T R = Ref[L][I], G = (*Got[L])[I];
        // Both NaN (a region no step wrote) is a match too; the poison
        // where the host wrote is not.
        if ((e2e::isPoison(G) && !e2e::isPoison(R)) ||
            (!e2e::sameBits(R, G) &&
             !e2e::matches(R, G, Tolerance == 0 || !inside(I), Tolerance))) {
          std::printf("FAIL %s: %s: %s level, point %zu (%s): host %.17g, "
                      "got %.17g\n",
                      What.c_str(), Name, L ? "the previous" : "the last", I,
                      inside(I) ? "region" : "margin", double(R), double(G));
          ++Failures;
          return;
        }
      }
    ++Passes;
  }

  const char *Name;
  int Ext[Dims] = {};
  int Margin;
  e2e::Input Kind;
  std::vector<T> Level0, Level1, Extra;
  std::vector<T> Ref[2]; ///< The last level and the one before.
};

/// Each case: the reference and OpenMP at several step counts, then on the
/// GPU every steps per pass up to \p MaxSteps at a few tiles and chunks,
/// those a pass fits in: a tile loses \p Reach (both sides' reach in x, and
/// in y in 3-D) per step.
template <typename T, int Dims, typename CallF>
void check(const Options &O, const char *Name, unsigned Seed,
           const int (&Ext)[Dims], int Margin, int MaxSteps,
           const std::array<int, 2> &Reach,
           const std::vector<std::array<int, 3>> &Tiles, CallF Call,
           e2e::Input Kind = e2e::Input::Uniform, bool SameMargins = false) {
  Case<T, Dims> C(Name, Seed, Ext, Margin, Kind, SameMargins);
  for (int Steps : {0, 1, 2, 5, 7, 12}) {
    C.run(O, Steps, Call);
    if (!O.Cuda)
      continue;
    for (int PerPass = 1; PerPass <= MaxSteps; ++PerPass)
      for (const std::array<int, 3> &Tile : Tiles) {
        const bool Fits = Tile[0] > PerPass * Reach[0] &&
                          (Dims == 2 || Tile[1] > PerPass * Reach[1]);
        if (Fits && (Steps >= 5 || PerPass == 2))
          C.runCuda(Steps, PerPass, Tile[0], Tile[1], Tile[2], Call);
      }
    if (Steps == 12)
      C.runTuned(Steps, Call);
  }
}

/// A time loop of \p F through a pointer parameter, its marks swapped:
/// stencilc cannot tell which stencil \p F is, so the engine checks the marks
/// against the stencil's generated code at run time.
template <typename Engine>
void repeatSwapped(Engine &E,
                   void (*F)(const stencil::Index3D &, const float *, float *),
                   float *&X, float *&Y) {
  E.repeat(2, F, stencil::nextLevel(X), stencil::previousLevel(Y));
}

/// What repeat() refuses: a negative count, one array as both levels, level
/// marks the stencil's code contradicts.
void checkRefusals() {
  std::vector<float> A(5 * 5 * 5, 1.0f);
  float *P = A.data(), *Q = A.data();
  stencil::Loop3D<stencil::HostLoopEngine3D> Loop(5, 1, 1, 5, 1, 1, 5, 1, 1);
  auto Refused = [](const char *What, auto Run) {
    try {
      Run();
    } catch (const std::invalid_argument &) {
      ++Passes;
      return;
    }
    std::printf("FAIL refusal: %s was accepted\n", What);
    ++Failures;
  };
  float *R = A.data() + 1;
  Refused("a negative step count", [&] {
    Loop.repeat(-1, Star7f(), stencil::previousLevel(P), stencil::nextLevel(R),
                0.5f, 0.1f);
  });
  // An unsigned count past LLONG_MAX arrives negative: the message says so.
  Refused("an unsigned count past LLONG_MAX", [&] {
    const unsigned long long Huge = ~0ull;
    try {
      Loop.repeat(Huge, Star7f(), stencil::previousLevel(P),
                  stencil::nextLevel(R), 0.5f, 0.1f);
    } catch (const std::invalid_argument &E) {
      if (!std::strstr(E.what(), "an unsigned count above"))
        throw std::logic_error(std::string("unexplained: ") + E.what());
      throw;
    }
  });
  // A copy of a level's pointer (a cast) stays on its array: refused before
  // any step where a later step would write it; the level's variable itself
  // follows the swap, and one step never swaps.
  {
    std::vector<double> B0(A.size(), 1.0), B1(A.size(), 2.0);
    double *D0 = B0.data(), *D1 = B1.data();
    Refused("a cast copy of the previous level as another argument", [&] {
      Loop.repeat(3, VarCoef(), static_cast<const double *>(D0),
                  stencil::previousLevel(D0), stencil::nextLevel(D1));
    });
    Loop.repeat(1, VarCoef(), static_cast<const double *>(D0),
                stencil::previousLevel(D0), stencil::nextLevel(D1));
    Loop.repeat(3, VarCoef(), D0, stencil::previousLevel(D0),
                stencil::nextLevel(D1));
  }
  Refused("one array as both levels", [&] {
    Loop.repeat(3, Star7f(), stencil::previousLevel(P), stencil::nextLevel(Q),
                0.5f, 0.1f);
  });
  Refused("one array as both levels, no steps", [&] {
    Loop.repeat(0, Star7f(), stencil::previousLevel(P), stencil::nextLevel(Q),
                0.5f, 0.1f);
  });
  // The engines' own repeat() refuses alike (not only Loop's).
  stencil::OpenMPLoopEngine3D OpenMP(Loop.ranges());
  stencil::AutoLoopEngine3D Auto(Loop.ranges());
  Refused("a negative step count, OpenMP engine", [&] {
    OpenMP.repeat(-1, Star7f(), stencil::previousLevel(P),
                  stencil::nextLevel(R), 0.5f, 0.1f);
  });
  Refused("one array as both levels, no steps, OpenMP engine", [&] {
    OpenMP.repeat(0, Star7f(), stencil::previousLevel(P), stencil::nextLevel(Q),
                  0.5f, 0.1f);
  });
  Refused("a negative step count, AutoLoopEngine", [&] {
    Auto.repeat(-5, Star7f(), stencil::previousLevel(P), stencil::nextLevel(R),
                0.5f, 0.1f);
  });
  Refused("one array as both levels, AutoLoopEngine", [&] {
    Auto.repeat(2, Star7f(), stencil::previousLevel(P), stencil::nextLevel(Q),
                0.5f, 0.1f);
  });
  std::vector<float> Xs(A.size(), 0.0f), Ys(A.size(), 0.0f);
  float *X = Xs.data(), *Y = Ys.data();
  if (stencil::generatedFor(stencil::Backend::OpenMP, &notRepeated))
    Refused("marks swapped through a pointer, OpenMP engine",
            [&] { repeatSwapped(OpenMP, &notRepeated, X, Y); });
  if (stencil::generatedFor(stencil::Backend::Cuda, &notRepeated)) {
    stencil::DeviceLoopEngine3D Device(Loop.ranges());
    Refused("marks swapped through a pointer, CUDA engine",
            [&] { repeatSwapped(Device, &notRepeated, X, Y); });
  }
  // Passes asked of a stencil that has CUDA code but none: refused before
  // anything runs (no GPU needed). Without CUDA code there is nothing to ask.
  void (*F)(const stencil::Index3D &, const float *, float *) = nullptr;
  F = &notRepeated;
  if (stencil::generatedFor(stencil::Backend::Cuda, F)) {
    stencil::GeneratedLoopEngine<3, stencil::Backend::Cuda> E(Loop.ranges());
    E.Temporal.steps = 2;
    Refused("passes stencilc did not generate", [&] {
      E.repeat(3, F, stencil::previousLevel(P), stencil::nextLevel(R));
    });
    Refused("a negative step count, CUDA engine", [&] {
      E.repeat(-2, F, stencil::previousLevel(P), stencil::nextLevel(R));
    });
  }
}

} // namespace

int main(int Argc, char **Argv) {
  const Options O = e2e::parseOptions(Argc, Argv);
  if (O.Cuda && !stencil::deviceAvailable()) {
    std::printf("SKIP: --backend=cuda or all asked for, but there is no GPU\n");
    return 77;
  }
  checkRefusals();
  std::mt19937 Rng(O.Seed);
  auto Extent3 = [&](int Margin) {
    return std::array<int, 3>{e2e::uniform(Rng, 2 * Margin + 9, 75),
                              e2e::uniform(Rng, 2 * Margin + 5, 41),
                              e2e::uniform(Rng, 2 * Margin + 3, 29)};
  };
  // (bx, by, chunk); 0 leaves one to the plan. 64 x 32: more points than a
  // block of the rings has threads (taken in halves), which a pass summed by
  // planes takes (TemporalPlan::PlanesOnlyTiles).
  const std::vector<std::array<int, 3>> Tiles3 = {
      {32, 32, 0}, {32, 16, 7}, {64, 8, 64}, {64, 32, 0}};
  const std::vector<std::array<int, 3>> Tiles2 = {
      {256, 1, 0}, {128, 1, 13}, {96, 1, 300}};
  {
    const std::array<int, 3> E = Extent3(1);
    const int Ext[3] = {E[0], E[1], E[2]};
    // With the same margins in both arrays the passes of the tiles with
    // constant extents take each level's margin from the level below's
    // centre (TemporalPlan::CentreMarginUpTo).
    for (const bool Same : {false, true}) {
      check<float, 3>(
          O, Same ? "Star7f, the same margins" : "Star7f", O.Seed, Ext, 1, 8,
          {2, 2}, Tiles3,
          [](auto &Loop, int N, float *&P, float *&Q, const float *) {
            Loop.repeat(N, Star7f(), stencil::previousLevel(P),
                        stencil::nextLevel(Q), 0.4f, 0.1f);
          },
          e2e::Input::Uniform, Same);
      check<double, 3>(
          O, Same ? "Star7d, the same margins" : "Star7d", O.Seed + 1, Ext, 1,
          4, {2, 2}, Tiles3,
          [](auto &Loop, int N, double *&P, double *&Q, const double *) {
            Loop.repeat(N, Star7d(), stencil::previousLevel(P),
                        stencil::nextLevel(Q), 0.4, 0.1);
          },
          e2e::Input::Uniform, Same);
      check<double, 3>(
          O, Same ? "VarCoef, the same margins" : "VarCoef", O.Seed + 2, Ext, 1,
          4, {2, 2}, Tiles3,
          [](auto &Loop, int N, double *&P, double *&Q, const double *K) {
            Loop.repeat(N, VarCoef(), K, stencil::previousLevel(P),
                        stencil::nextLevel(Q));
          },
          e2e::Input::Uniform, Same);
    }
    check<float, 3>(O, "Box27f", O.Seed + 3, Ext, 1, 4, {2, 2}, Tiles3,
                    [](auto &Loop, int N, float *&P, float *&Q, const float *) {
                      Loop.repeat(N, Box27f(), stencil::previousLevel(P),
                                  stencil::nextLevel(Q));
                    });
    for (const bool Same : {false, true})
      check<float, 3>(
          O, Same ? "StarOrderedF, the same margins" : "StarOrderedF",
          O.Seed + 13, Ext, 1, 4, {2, 2}, Tiles3,
          [](auto &Loop, int N, float *&P, float *&Q, const float *) {
            Loop.repeat(N, StarOrderedF(), stencil::previousLevel(P),
                        stencil::nextLevel(Q));
          },
          e2e::Input::Uniform, Same);
    for (const bool Same : {false, true}) {
      check<float, 3>(
          O, Same ? "StarHeldF, the same margins" : "StarHeldF", O.Seed + 14,
          Ext, 1, 4, {2, 2}, Tiles3,
          [](auto &Loop, int N, float *&P, float *&Q, const float *) {
            Loop.repeat(N, StarHeldF(), stencil::previousLevel(P),
                        stencil::nextLevel(Q));
          },
          e2e::Input::Uniform, Same);
      check<double, 3>(
          O, Same ? "StarHeldD, the same margins" : "StarHeldD", O.Seed + 15,
          Ext, 1, 4, {2, 2}, Tiles3,
          [](auto &Loop, int N, double *&P, double *&Q, const double *) {
            Loop.repeat(N, StarHeldD(), stencil::previousLevel(P),
                        stencil::nextLevel(Q));
          },
          e2e::Input::Uniform, Same);
    }
    for (const bool Same : {false, true})
      check<float, 3>(
          O, Same ? "Box27w, the same margins" : "Box27w", O.Seed + 9, Ext, 1,
          4, {2, 2}, Tiles3,
          [](auto &Loop, int N, float *&P, float *&Q, const float *) {
            Loop.repeat(N, Box27w(), stencil::previousLevel(P),
                        stencil::nextLevel(Q));
          },
          e2e::Input::Uniform, Same);
  }
  {
    const std::array<int, 3> E = Extent3(2);
    const int Ext[3] = {E[0], E[1], E[2]};
    check<float, 3>(O, "Star13f", O.Seed + 4, Ext, 2, 3, {4, 4}, Tiles3,
                    [](auto &Loop, int N, float *&P, float *&Q, const float *) {
                      Loop.repeat(N, Star13f(), stencil::previousLevel(P),
                                  stencil::nextLevel(Q));
                    });
  }
  {
    const int Ext[2] = {e2e::uniform(Rng, 40, 700), e2e::uniform(Rng, 11, 90)};
    check<float, 2>(O, "Jacobi2D", O.Seed + 5, Ext, 1, 16, {2, 0}, Tiles2,
                    [](auto &Loop, int N, float *&P, float *&Q, const float *) {
                      Loop.repeat(N, Jacobi2D(), stencil::previousLevel(P),
                                  stencil::nextLevel(Q));
                    });
  }
  for (const e2e::Input Kind : {e2e::Input::Hostile, e2e::Input::SignedZeros}) {
    const int Ext[2] = {e2e::uniform(Rng, 40, 500), e2e::uniform(Rng, 11, 60)};
    check<float, 2>(
        O,
        Kind == e2e::Input::Hostile ? "DivideF (hostile values)"
                                    : "DivideF (signed zeros)",
        O.Seed + 8, Ext, 1, 16, {2, 0}, Tiles2,
        [](auto &Loop, int N, float *&P, float *&Q, const float *) {
          Loop.repeat(N, DivideF(), stencil::previousLevel(P),
                      stencil::nextLevel(Q));
        },
        Kind);
  }
  {
    // Tiny values: products that differ from the quotient, which a pass's
    // chunk must compute again (a barrier a level; rings of rows).
    const int Ext[2] = {e2e::uniform(Rng, 40, 500), e2e::uniform(Rng, 11, 60)};
    check<float, 2>(
        O, "QuotientF (tiny values)", O.Seed + 9, Ext, 1, 16, {1, 0}, Tiles2,
        [](auto &Loop, int N, float *&P, float *&Q, const float *) {
          Loop.repeat(N, QuotientF(), stencil::previousLevel(P),
                      stencil::nextLevel(Q));
        },
        e2e::Input::Tiny);
    check<float, 2>(
        O, "QuotientBoxF (tiny values)", O.Seed + 10, Ext, 1, 16, {1, 0},
        Tiles2,
        [](auto &Loop, int N, float *&P, float *&Q, const float *) {
          Loop.repeat(N, QuotientBoxF(), stencil::previousLevel(P),
                      stencil::nextLevel(Q));
        },
        e2e::Input::Tiny);
  }
  {
    const int Ext[2] = {e2e::uniform(Rng, 40, 500), e2e::uniform(Rng, 17, 70)};
    check<double, 2>(
        O, "upwind2d", O.Seed + 6, Ext, 3, 8, {3, 0}, Tiles2,
        [](auto &Loop, int N, double *&P, double *&Q, const double *) {
          Loop.repeat(N, upwind2d, stencil::previousLevel(P),
                      stencil::nextLevel(Q), 0.3);
        });
  }
  {
    const int Ext[2] = {e2e::uniform(Rng, 60, 500), e2e::uniform(Rng, 20, 70)};
    check<float, 2>(O, "Star2Dr4", O.Seed + 7, Ext, 4, 4, {8, 0}, Tiles2,
                    [](auto &Loop, int N, float *&P, float *&Q, const float *) {
                      Loop.repeat(N, Star2Dr4(), stencil::previousLevel(P),
                                  stencil::nextLevel(Q));
                    });
  }
  {
    // Integer fields, bit for bit (integer_stencils.hpp).
    const std::array<int, 3> E = Extent3(1);
    const int Ext3[3] = {E[0], E[1], E[2]};
    check<long long, 3>(
        O, "Star3dL", O.Seed + 11, Ext3, 1, 4, {2, 2}, Tiles3,
        [](auto &Loop, int N, long long *&P, long long *&Q, const long long *) {
          Loop.repeat(N, Star3dL(), stencil::previousLevel(P),
                      stencil::nextLevel(Q));
        });
    const int Ext2[2] = {e2e::uniform(Rng, 40, 500), e2e::uniform(Rng, 11, 60)};
    check<unsigned, 2>(
        O, "UpwindQuotient2U", O.Seed + 12, Ext2, 1, 8, {2, 0}, Tiles2,
        [](auto &Loop, int N, unsigned *&P, unsigned *&Q, const unsigned *) {
          Loop.repeat(N, UpwindQuotient2U(), stencil::previousLevel(P),
                      stencil::nextLevel(Q));
        });
  }
  std::printf("%s: %d passed, %d failed\n", Failures ? "FAIL" : "PASS", Passes,
              Failures);
  return Failures ? 1 : 0;
}
