// cuda_on_cpu.cpp - stencilc's CUDA kernels of fused step groups run on the
// CPU: no GPU is needed, so CI checks what the kernels and their launchers
// compute (the block's position, the order of the blocks, the grid, the
// recomputations, the staged rings) bit for bit against the host reference,
// which the GPU test can only do on a GPU.
//
// The build runs stencilc on this file (--emit=cuda, --step-strategy=auto,
// recompute or staged), extract_kernels.py --steps takes out the
// recomputations, the kernels and each step's group launcher, and this file
// includes them (STENCILC_CUDA_ON_CPU_KERNELS; ../common/cuda_on_cpu.hpp
// runs them: a block's threads one after another, a staged kernel's as
// std::threads meeting at a barrier). Each step runs twice: with no L2 cache
// (its blocks plane by plane) and with one of a byte (down the columns first
// wherever a group reads along z). Per seed: random extents and margins; the
// arrays the steps write are poisoned inside the region first. The steps:
// five of this file (3-D, 4-D, 2-D; two with fused groups that share an
// input, together in one kernel as the model plans them) and the dycore's
// Runge-Kutta stage (dsl-examples/dycore: 13 stencils in f64, a group of three
// together and four fused, which the model's plan runs together). The summary
// says how many fused groups each step's plan has.
//
//   step_cuda_on_cpu_<strategy> [--seed=N]
#include <stencil/dsl.hpp>

#include "../../../dsl-examples/dycore/dycore_stage.hpp"
#include "../common/e2e_case.hpp"
#include "../common/seed_option.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

/// Fluxes in x and z of u, and their divergence.
struct STENCIL_KERNEL FluxX {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u,
                             double *fx) const {
    fx[idx.ix()] = 0.5 * (u[idx.ix<1, 0, 0>()] + u[idx.ix()]);
  }
};
struct STENCIL_KERNEL FluxZ {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u,
                             double *fz) const {
    fz[idx.ix()] = u[idx.ix<0, 0, 1>()] - 0.25 * u[idx.ix<0, 1, 0>()];
  }
};
struct STENCIL_KERNEL Divergence {
  STENCIL_HD void operator()(const stencil::Index3D &idx, double dt,
                             const double *fx, const double *fz,
                             const double *u, double *out) const {
    out[idx.ix()] = u[idx.ix()] - dt * ((fx[idx.ix()] - fx[idx.ix<-1, 0, 0>()]) +
                                        (fz[idx.ix()] - fz[idx.ix<0, 0, -1>()]));
  }
};
/// Two stencils with no dependence that read u: together.
struct STENCIL_KERNEL Below {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u,
                             double *a) const {
    a[idx.ix()] = u[idx.ix<0, 0, -2>()] + u[idx.ix<0, -1, 0>()];
  }
};
struct STENCIL_KERNEL Above {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u,
                             double *b) const {
    b[idx.ix()] = u[idx.ix<0, 0, 1>()] * u[idx.ix()];
  }
};
STENCIL_STEP
void column(stencil::Step3D &s, double dt, const double *u,
            STENCIL_SCRATCH double *fx, double *fz, double *out, double *a,
            double *b) {
  s.run(FluxX(), u, fx);
  s.run(FluxZ(), u, fz);
  s.run(Divergence(), dt, fx, fz, u, out);
  s.run(Below(), u, a);
  s.run(Above(), u, b);
}

/// 4-D: a mean along z, and what reads it along z and w.
STENCIL_KERNEL
void meanZ4(const stencil::Index4D &idx, const float *f, float *m) {
  m[idx.ix()] = 0.5f * (f[idx.ix<0, 0, 1, 0>()] + f[idx.ix<0, 0, -1, 0>()]);
}
STENCIL_KERNEL
void spread4(const stencil::Index4D &idx, const float *m, float *out) {
  out[idx.ix()] = m[idx.ix<0, 0, -1, 0>()] + m[idx.ix<0, 0, 0, 1>()] -
                  m[idx.ix<1, 0, 0, 0>()];
}
STENCIL_STEP
void hyper(stencil::Step4D &s, const float *f, float *m, float *out) {
  s.run(meanZ4, f, m);
  s.run(spread4, m, out);
}

/// 2-D: one plane, no order to choose.
STENCIL_KERNEL
void gradY2(const stencil::Index2D &idx, const float *u, float *gy) {
  gy[idx.ix()] = u[idx.ix<0, 1>()] - u[idx.ix()];
}
STENCIL_KERNEL
void lapY2(const stencil::Index2D &idx, const float *gy, float *out) {
  out[idx.ix()] = gy[idx.ix()] - gy[idx.ix<0, -1>()] + gy[idx.ix<1, 0>()];
}
STENCIL_STEP
void plane(stencil::Step2D &s, const float *u, float *gy, float *out) {
  s.run(gradY2, u, gy);
  s.run(lapY2, gy, out);
}

/// Two fused groups that read u and depend on neither, x and z fluxes of u
/// and w (the model's plan runs them in one kernel with Below and Above; a
/// forced strategy runs them apart, Below and Above together).
STENCIL_STEP
void pairs(stencil::Step3D &s, double dt, const double *u, const double *w,
           STENCIL_SCRATCH double *fx, double *fz, STENCIL_SCRATCH double *gx,
           double *gz, double *out, double *out2, double *a, double *b) {
  s.run(FluxX(), u, fx);
  s.run(FluxZ(), u, fz);
  s.run(FluxX(), w, gx);
  s.run(FluxZ(), w, gz);
  s.run(Divergence(), dt, fx, fz, u, out);
  s.run(Divergence(), dt, gx, gz, u, out2);
  s.run(Below(), u, a);
  s.run(Above(), u, b);
}

/// The same in 2-D: two gradients of u, each recomputed by its Laplacian.
STENCIL_STEP
void pairs2(stencil::Step2D &s, const float *u, float *gy, float *gz,
            float *out, float *out2) {
  s.run(gradY2, u, gy);
  s.run(gradY2, u, gz);
  s.run(lapY2, gy, out);
  s.run(lapY2, gz, out2);
}

#ifdef STENCILC_CUDA_ON_CPU_KERNELS
#include "../common/cuda_on_cpu.hpp"
#include STENCILC_CUDA_ON_CPU_KERNELS

namespace {

int Checks = 0, Failures = 0;

std::string GroupCounts; ///< "column 2, ...": each step's fused groups.

/// Step \p Step over arrays of \p Ext points (margin \p Margin) whose
/// arguments \p Args makes from the arrays, every group of its plan fused
/// (launched by its extracted group launcher); arrays \p Compared (by
/// index) are compared, after the host reference and the emulated CUDA
/// groups, with L2 caches of 0 and 1 byte.
template <typename T, int Dims, typename F, typename ArgsF>
void check(const char *Name, const int (&Ext)[Dims], int Margin, int Arrays,
           std::vector<int> Compared, unsigned Seed, F *Step, ArgsF Args) {
  const cuda_on_cpu::StepEntry *Entry =
      cuda_on_cpu::entryOf(reinterpret_cast<const void *>(Step));
  if (!Entry || Entry->Groups == 0) {
    std::printf("FAIL %s: no fused group extracted\n", Name);
    std::exit(1);
  }
  if (GroupCounts.find(Name) == std::string::npos)
    GroupCounts += std::string(GroupCounts.empty() ? "" : ", ") + Name + " " +
                   std::to_string(Entry->Groups);
  long long N = 1;
  for (int D = 0; D < Dims; ++D)
    N *= Ext[D];
  std::mt19937 Rng(Seed);
  std::uniform_real_distribution<double> U(1, 2);
  std::vector<std::vector<T>> Data(Arrays, std::vector<T>(N));
  for (auto &A : Data)
    for (T &V : A)
      V = T(U(Rng));
  auto Inside = [&](long long I) {
    return e2e::inRegion<Dims>(I, Ext, Margin);
  };
  std::vector<std::vector<T>> Ref = Data;
  {
    std::vector<T *> P;
    for (auto &A : Ref)
      P.push_back(A.data());
    auto Loop = e2e::makeLoop<Dims, stencil::HostLoopEngine<Dims>>(Ext, Margin);
    std::apply([&](auto... A) { Loop.runStep(Step, A...); }, Args(P.data()));
  }
  stencil::Grid G;
  G.dims = Dims;
  stencil::Region R;
  for (int D = 0; D < Dims; ++D) {
    G.extent[D] = Ext[D];
    R.lo[D] = Margin;
    R.hi[D] = Ext[D] - Margin;
  }
  for (long long L2 : {0LL, 1LL}) {
    cuda_on_cpu::L2 = L2;
    std::vector<std::vector<T>> Out = Data;
    for (int C : Compared)
      for (long long I = 0; I < N; ++I)
        if (Inside(I))
          Out[C][I] = T(NAN);
    std::vector<T *> P;
    for (auto &A : Out)
      P.push_back(A.data());
    auto Values = Args(P.data());
    std::apply(
        [&](auto... A) {
          void *Ptrs[] = {&A...};
          const stencil::LaunchConfig Cfg{};
          for (int Gr = 0; Gr < Entry->Groups; ++Gr)
            if (const char *E = Entry->Group(Gr, G, R, R, Cfg, Ptrs)) {
              std::printf("FAIL %s: group %d: %s\n", Name, Gr, E);
              std::exit(1);
            }
        },
        Values);
    ++Checks;
    long long Bad = 0;
    for (int C : Compared)
      for (long long I = 0; I < N; ++I)
        if (Inside(I) && std::memcmp(&Out[C][I], &Ref[C][I], sizeof(T)) != 0 &&
            Bad++ == 0)
          std::printf("  %s array %d point %lld: CUDA %.9g, host %.9g\n", Name,
                      C, I, double(Out[C][I]), double(Ref[C][I]));
    if (Bad) {
      ++Failures;
      std::printf("FAIL %s (L2 %lld): %lld points differ\n", Name, L2, Bad);
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  const unsigned Seed = e2e::seedOption(argc, argv);
  std::mt19937 Rng(Seed);
  auto Pick = [&](int Lo, int Hi) { return e2e::uniform(Rng, Lo, Hi); };
  for (int Round = 0; Round < 3; ++Round) {
    const unsigned S = Seed * 100 + Round;
    // Some regions thinner than a block in x (the launcher narrows it).
    const int M3 = Pick(2, 3);
    const int E3[3] = {Pick(1, 3) == 1 ? 2 * M3 + Pick(1, 6) : Pick(10, 70),
                       Pick(7, 30), Pick(7, 30)};
    check<double, 3>(
        "column", E3, M3, 6, {2, 3, 4, 5}, S, column, [](double **P) {
          return std::make_tuple(0.125, static_cast<const double *>(P[0]),
                                 P[1], P[2], P[3], P[4], P[5]);
        });
    const int E4[4] = {Pick(4, 40), Pick(4, 12), Pick(4, 12), Pick(4, 9)};
    check<float, 4>("hyper", E4, 1, 3, {1, 2}, S, hyper, [](float **P) {
      return std::make_tuple(static_cast<const float *>(P[0]), P[1], P[2]);
    });
    // The dycore's stage on random values: 3 profiles and the surface field
    // (arrays 0-2), Qn, Qs (3-14), Out (15-20), the diagnostics (21-26),
    // the fluxes (27-41, scratch). kb and kt: the first and last own plane.
    const int ED[3] = {Pick(5, 40), Pick(5, 30), Pick(6, 20)};
    const int Kb = 2, Kt = ED[2] - 3;
    check<double, 3>(
        "dycore", ED, 2, 42, {15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26},
        S, dycore::rungeKuttaStage, [Kb, Kt](double **P) {
          const double *const *C = P;
          return std::tuple_cat(
              std::make_tuple(0.25, 0.75, 0.5, 0.01, 0.02, 0.03, Kb, Kt, 1e5,
                              287.0, 1.4, 9.81),
              std::make_tuple(C[0], C[1], C[2], C[3], C[4], C[5], C[6], C[7],
                              C[8], C[9], C[10], C[11], C[12], C[13], C[14]),
              std::make_tuple(P[15], P[16], P[17], P[18], P[19], P[20], P[21],
                              P[22], P[23], P[24], P[25], P[26], P[27], P[28],
                              P[29], P[30], P[31], P[32], P[33], P[34], P[35],
                              P[36], P[37], P[38], P[39], P[40], P[41]));
        });
    const int E2[2] = {Pick(4, 80), Pick(4, 40)};
    check<float, 2>("plane", E2, 1, 3, {1, 2}, S, plane, [](float **P) {
      return std::make_tuple(static_cast<const float *>(P[0]), P[1], P[2]);
    });
    check<double, 3>(
        "pairs", E3, M3, 10, {3, 5, 6, 7, 8, 9}, S, pairs, [](double **P) {
          return std::make_tuple(0.25, static_cast<const double *>(P[0]),
                                 static_cast<const double *>(P[1]), P[2], P[3],
                                 P[4], P[5], P[6], P[7], P[8], P[9]);
        });
    check<float, 2>("pairs2", E2, 1, 5, {1, 2, 3, 4}, S, pairs2, [](float **P) {
      return std::make_tuple(static_cast<const float *>(P[0]), P[1], P[2], P[3],
                             P[4]);
    });
  }
  std::printf("%s: %d steps checked, %d failed, %lld launches, %lld staged "
              "launches (seed %u); fused groups: %s\n",
              Failures ? "FAIL" : "PASS", Checks, Failures,
              cuda_on_cpu::Launches, cuda_on_cpu::Staged, Seed,
              GroupCounts.c_str());
  return Failures ? 1 : 0;
}
#else
int main() {
  std::fprintf(stderr, "cuda_on_cpu: built without the extracted kernels\n");
  return 2;
}
#endif
