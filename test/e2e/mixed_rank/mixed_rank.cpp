// mixed_rank.cpp - stencils that read arrays of lower rank (1-D profiles, 2-D
// planes, in 2-D, 3-D and 4-D stencils) beside full arrays, run by the host
// reference, the generated OpenMP code (bit for bit) and, on a GPU, every
// generated CUDA variant at several blocks and chunks (within 1e-6 relative
// in float, 1e-12 in double: every term is positive, so FMA contraction
// changes a result by a few units in the last place at most). Outputs are
// poisoned with NaN before each run; the margin must stay NaN. Extents come
// from the seed and are multiples of no block.
//
//   mixed_rank [--backend=host|openmp|cuda|all] [--seed=N]
//
// host runs the reference alone (a build with g++ alone) and checks that it
// wrote the region and nothing else. Exit status 0 when every comparison
// passed, 1 otherwise, 2 for usage, 77 when cuda is asked for and there is no
// GPU (or no generated CUDA code).
#include <stencil/dsl.hpp>

#include "../common/e2e_case.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

// A base state along z, a surface field, map factors along x and y, and
// planes that span x-z and y-z, around a 3-D star.
struct STENCIL_KERNEL Buoyancy {
  STENCIL_HD void operator()(const stencil::Index3D &idx, float g,
                             const float *th, const float *th0, const float *ps,
                             const float *mx, const float *my, const float *xz,
                             const float *yz, float *out) const {
    const float anomaly =
        th[idx.ix()] * th0[idx.ix_z()] + th0[idx.ix_z<1>()] * 0.5f;
    out[idx.ix()] = g * anomaly + th[idx.ix<1, 0, 0>()] * mx[idx.ix_x<1>()] +
                    th[idx.ix<-1, 0, 0>()] * mx[idx.ix_x<-1>()] +
                    th[idx.ix<0, 1, 0>()] * my[idx.ix_y()] +
                    th[idx.ix<0, 0, -1>()] * th0[idx.ix_z<-1>()] +
                    ps[idx.ix_xy()] * ps[idx.ix_xy<1, 0>()] +
                    ps[idx.ix_xy<0, -1>()] + xz[idx.ix_xz<1, -1>()] +
                    yz[idx.ix_yz<0, 1>()] + yz[idx.ix_yz<-1, 0>()];
  }
};

// Only arrays of lower rank are read: no queue of a full array, no tile.
struct STENCIL_KERNEL ProfilesOnly {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *rho0,
                             const double *topo, double *out) const {
    out[idx.ix()] = rho0[idx.ix_z<2>()] * topo[idx.ix_xy()] +
                    rho0[idx.ix_z<-1>()] + topo[idx.ix_xy<-1, 1>()];
  }
};

// A box stencil (its in-plane neighbours make the smem variant tile th) with
// a profile read at several offsets.
struct STENCIL_KERNEL BoxWithProfile {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *th,
                             const float *w0, float *out) const {
    float s = 0.0f;
    for (int n = 0; n < 2; ++n)
      s = s + w0[idx.ix_z<1>()] * 0.25f;
    out[idx.ix()] =
        th[idx.ix<1, 1, 0>()] * w0[idx.ix_z()] + th[idx.ix<-1, -1, 1>()] +
        th[idx.ix<0, 1, 0>()] * w0[idx.ix_z<-2>()] + th[idx.ix<1, 0, -1>()] + s;
  }
};

// 2-D: a profile along x and one along y (the marching dimension).
struct STENCIL_KERNEL Profiles2D {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *f,
                             const float *px, const float *py,
                             float *out) const {
    out[idx.ix()] =
        f[idx.ix()] * px[idx.ix_x()] + f[idx.ix<0, 1>()] * py[idx.ix_y<1>()] +
        f[idx.ix<-1, 0>()] * px[idx.ix_x<-1>()] + py[idx.ix_y<-1>()];
  }
};

// 4-D: a z profile, a 3-D x-y-z array, an x-w plane and a w profile.
struct STENCIL_KERNEL Mixed4D {
  STENCIL_HD void operator()(const stencil::Index4D &idx, const double *f,
                             const double *pz, const double *xyz,
                             const double *xw, const double *pw,
                             double *out) const {
    out[idx.ix()] = f[idx.ix<0, 0, 0, 1>()] * pz[idx.ix_z<1>()] +
                    xyz[idx.ix_xyz<1, 0, -1>()] +
                    xw[idx.ix_xw<0, 1>()] * pw[idx.ix_w()] + f[idx.ix()];
  }
};

// Arrays of lower rank passed on to a helper.
inline float weighted(const stencil::Index3D &idx, const float *q,
                      const float *q0) {
  return q[idx.ix<0, 0, 1>()] * q0[idx.ix_z<1>()] +
         q[idx.ix()] * q0[idx.ix_z()];
}

STENCIL_KERNEL
void helperProfile(const stencil::Index3D &idx, const float *q, const float *q0,
                   const float *sfc, float *out) {
  out[idx.ix()] = weighted(idx, q, q0) + sfc[idx.ix_xy<0, 1>()];
}

namespace {

using e2e::Options;

int Failures = 0, Passes = 0;

/// An array of lower rank or not: which dimensions it spans (bit d).
struct ArraySpec {
  unsigned Axes;
};

/// One stencil's arrays: inputs of the given shapes, one output, random
/// values in [1, 2) from the seed; runs and compares every engine.
template <typename T, int Dims> class Case {
public:
  Case(const char *Name, unsigned Seed, const int (&Extent)[Dims], int Margin,
       std::vector<ArraySpec> Inputs)
      : Name(Name), Margin(Margin), Specs(std::move(Inputs)) {
    for (int D = 0; D < Dims; ++D)
      Ext[D] = Extent[D];
    std::mt19937 Rng(Seed);
    std::uniform_real_distribution<T> Dist(T(1), T(2));
    for (const ArraySpec &S : Specs) {
      In.emplace_back(count(S.Axes));
      for (T &V : In.back())
        V = Dist(Rng);
    }
  }

  /// The elements of an array spanning \p Axes.
  std::size_t count(unsigned Axes) const {
    std::size_t N = 1;
    for (int D = 0; D < Dims; ++D)
      if ((Axes >> D) & 1)
        N *= static_cast<std::size_t>(Ext[D]);
    return N;
  }

  /// Runs \p S with the arguments \p Args(inputs, output) returns (a tuple)
  /// on the host reference, the OpenMP code, and each CUDA variant at
  /// several launches.
  template <typename StencilT, typename F>
  void run(const Options &O, const StencilT &S, F &&Args) {
    const std::vector<T> Ref = runHost<stencil::HostLoopEngine<Dims>>(S, Args);
    // The reference itself: every point of the region written (inputs in
    // [1, 2) give no NaN), the margin left poisoned.
    std::vector<T> Expected(Ref.size(), std::numeric_limits<T>::quiet_NaN());
    for (std::size_t I = 0; I < Ref.size(); ++I)
      if (inside(I) && !std::isnan(Ref[I]))
        Expected[I] = Ref[I];
    compare("host", Expected, Ref, 0);
    if (O.OpenMP)
      compare(
          "openmp", Ref,
          runHost<stencil::GeneratedLoopEngine<Dims, stencil::Backend::OpenMP>>(
              S, Args),
          0);
    if (O.Cuda)
      runCuda(S, Ref, Args);
  }

private:
  template <typename Engine> stencil::Loop<Dims, Engine> makeLoop() const {
    return e2e::makeLoop<Dims, Engine>(Ext, Margin);
  }

  template <typename Engine, typename StencilT, typename F>
  std::vector<T> runHost(const StencilT &S, F &Args) {
    std::vector<const T *> InPtr;
    for (const std::vector<T> &A : In)
      InPtr.push_back(A.data());
    std::vector<T> Out(count(~0u), std::numeric_limits<T>::quiet_NaN());
    auto Loop = makeLoop<Engine>();
    std::apply([&](auto... A) { Loop.run(S, A...); },
               Args(InPtr.data(), Out.data()));
    return Out;
  }

  /// Every CUDA variant of \p S, each at a few blocks (for marching
  /// variants block[2] is the chunk).
  template <typename StencilT, typename F>
  void runCuda(const StencilT &S, const std::vector<T> &Ref, F &Args) {
    using Params = typename stencil::detail::StencilTraits<StencilT>::Params;
    const stencil::GeneratedStencil *First =
        stencil::generatedFor(stencil::Backend::Cuda, S);
    if (!First) {
      std::printf("FAIL cuda: %s has no generated CUDA code\n", Name);
      ++Failures;
      return;
    }
    std::vector<std::unique_ptr<stencil::DeviceArray<T>>> DIn;
    std::vector<const T *> InPtr;
    for (const std::vector<T> &A : In) {
      DIn.push_back(std::make_unique<stencil::DeviceArray<T>>(A.size()));
      DIn.back()->upload(A.data());
      InPtr.push_back(DIn.back()->data());
    }
    const std::vector<T> Poison(count(~0u),
                                std::numeric_limits<T>::quiet_NaN());
    stencil::DeviceArray<T> DOut(Poison.size());
    // A grid variant's block is (x, y, z) threads; a marching variant's
    // block[2] is the chunk it marches.
    static const int GridBlocks[][3] = {
        {32, 4, 2}, {64, 2, 1}, {8, 8, 8}, {128, 1, 1}};
    static const int MarchBlocks[][3] = {
        {32, 4, 1}, {64, 2, 3}, {128, 1, 8}, {16, 8, 64}};
    for (const stencil::GeneratedStencil *E :
         stencil::generatedVariants(*First))
      for (const auto &B : E->marchDim >= 0 ? MarchBlocks : GridBlocks) {
        stencil::Grid G;
        stencil::Region R;
        auto Loop = makeLoop<stencil::HostLoopEngine<Dims>>();
        stencil::loopGeometry(Dims, Loop.ranges(), &G, &R);
        stencil::LaunchConfig C;
        for (int D = 0; D < 3; ++D)
          C.block[D] = B[D];
        const std::string What = std::string("cuda ") + E->variant + " block " +
                                 std::to_string(B[0]) + "," +
                                 std::to_string(B[1]) + "," +
                                 std::to_string(B[2]);
        DOut.upload(Poison.data());
        try {
          std::apply(
              [&](auto... A) {
                stencil::detail::runEntry(*E, Params(), G, R, C, A...);
              },
              Args(InPtr.data(), DOut.data()));
          stencil::deviceSynchronize();
        } catch (const std::exception &Error) {
          std::printf("FAIL %s: %s: %s\n", What.c_str(), Name, Error.what());
          ++Failures;
          continue;
        }
        std::vector<T> Got(Poison.size());
        DOut.download(Got.data());
        compare(What.c_str(), Ref, Got, sizeof(T) == 4 ? 1e-6 : 1e-12);
      }
  }

  bool inside(std::size_t Linear) const {
    return e2e::inRegion<Dims>(Linear, Ext, Margin);
  }

  /// Bit for bit when \p Tolerance is 0; the margin always bit for bit.
  void compare(const char *Engine, const std::vector<T> &Ref,
               const std::vector<T> &Got, double Tolerance) {
    for (std::size_t I = 0; I < Ref.size(); ++I) {
      if (!e2e::matches(Ref[I], Got[I], Tolerance == 0 || !inside(I),
                        Tolerance)) {
        std::printf("FAIL %s: %s point %zu (%s): host %.17g, got %.17g\n",
                    Engine, Name, I, inside(I) ? "region" : "margin",
                    double(Ref[I]), double(Got[I]));
        ++Failures;
        return;
      }
    }
    ++Passes;
  }

  const char *Name;
  int Ext[Dims] = {};
  int Margin;
  std::vector<ArraySpec> Specs;
  std::vector<std::vector<T>> In;
};

} // namespace

int main(int Argc, char **Argv) {
  const Options O = e2e::parseOptions(Argc, Argv);
  if (O.Cuda && !stencil::deviceAvailable()) {
    std::printf("SKIP: --backend=cuda or all asked for, but there is no GPU or "
                "no generated "
                "CUDA code\n");
    return 77;
  }
  std::mt19937 Rng(O.Seed);
  const unsigned X = 1, Y = 2, Z = 4, W = 8, XYZ = 7, XY = 3, XZ = 5, YZ = 6,
                 XW = 9;
  {
    const int Ext[3] = {e2e::uniform(Rng, 11, 70), e2e::uniform(Rng, 7, 40),
                        e2e::uniform(Rng, 5, 30)};
    Case<float, 3> C("Buoyancy", O.Seed, Ext, 1,
                     {{XYZ}, {Z}, {XY}, {X}, {Y}, {XZ}, {YZ}});
    const float g = 0.75f;
    C.run(O, Buoyancy(), [&](auto In, auto Out) {
      return std::make_tuple(g, In[0], In[1], In[2], In[3], In[4], In[5], In[6],
                             Out);
    });
  }
  {
    const int Ext[3] = {e2e::uniform(Rng, 5, 50), e2e::uniform(Rng, 5, 33),
                        e2e::uniform(Rng, 6, 25)};
    Case<double, 3> C("ProfilesOnly", O.Seed + 1, Ext, 2, {{Z}, {XY}});
    C.run(O, ProfilesOnly(),
          [](auto In, auto Out) { return std::make_tuple(In[0], In[1], Out); });
  }
  {
    const int Ext[3] = {e2e::uniform(Rng, 9, 66), e2e::uniform(Rng, 9, 35),
                        e2e::uniform(Rng, 7, 21)};
    Case<float, 3> C("BoxWithProfile", O.Seed + 2, Ext, 2, {{XYZ}, {Z}});
    C.run(O, BoxWithProfile(),
          [](auto In, auto Out) { return std::make_tuple(In[0], In[1], Out); });
  }
  {
    const int Ext[2] = {e2e::uniform(Rng, 9, 300), e2e::uniform(Rng, 9, 90)};
    Case<float, 2> C("Profiles2D", O.Seed + 3, Ext, 1, {{XY}, {X}, {Y}});
    C.run(O, Profiles2D(), [](auto In, auto Out) {
      return std::make_tuple(In[0], In[1], In[2], Out);
    });
  }
  {
    const int Ext[4] = {e2e::uniform(Rng, 5, 20), e2e::uniform(Rng, 4, 12),
                        e2e::uniform(Rng, 5, 11), e2e::uniform(Rng, 4, 7)};
    Case<double, 4> C("Mixed4D", O.Seed + 4, Ext, 1,
                      {{15}, {Z}, {XYZ}, {XW}, {W}});
    C.run(O, Mixed4D(), [](auto In, auto Out) {
      return std::make_tuple(In[0], In[1], In[2], In[3], In[4], Out);
    });
  }
  {
    const int Ext[3] = {e2e::uniform(Rng, 9, 45), e2e::uniform(Rng, 9, 31),
                        e2e::uniform(Rng, 7, 19)};
    Case<float, 3> C("helperProfile", O.Seed + 5, Ext, 1, {{XYZ}, {Z}, {XY}});
    C.run(O, &helperProfile, [](auto In, auto Out) {
      return std::make_tuple(In[0], In[1], In[2], Out);
    });
  }
  std::printf("mixed_rank: seed %u: %d passed, %d failed\n", O.Seed, Passes,
              Failures);
  return Failures ? 1 : 0;
}
