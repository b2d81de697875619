// step.cpp - steps (STENCIL_STEP) of several dependent stencils, run by
// loop.runStep on the host reference and on the OpenMP and CUDA engines,
// which run stencilc's plan of each step (fused pairs by recomputation,
// single stencils through their own code) or, with
// STENCIL_STEP_PLAN=multi-kernel, each stencil's own code in turn. Every array
// a step touches (inputs, intermediates with their margins, outputs) is
// compared after the step: the OpenMP runs bit for bit, CUDA within 1e-6
// relative in float and 1e-12 in double in the region (every term positive)
// and bit for bit in the margins. Extents come from the seed and divide by
// no block.
//
//   step [--backend=host|openmp|cuda|all] [--seed=N]
//
// host runs the reference alone (a build with g++ alone: runStep calls the
// step function, which runs each stencil on the host engine).
// Prints each step's registered plan; exit status 0 when every comparison
// passed, 1 otherwise, 2 for usage, 77 when cuda is asked for without a GPU.
#include <stencil/dsl.hpp>

#include "../common/e2e_case.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

// --- A: a flux and its divergence (the pair the cost model fuses). ---------
struct STENCIL_KERNEL Flux {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *fx) const {
    fx[idx.ix()] = 0.5f * (u[idx.ix<1, 0, 0>()] + u[idx.ix()]);
  }
};
struct STENCIL_KERNEL Divergence {
  STENCIL_HD void operator()(const stencil::Index3D &idx, float dt, const float *fx,
                             const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix()] + dt * (fx[idx.ix()] + fx[idx.ix<-1, 0, 0>()]);
  }
};
STENCIL_STEP
void advance(stencil::Step3D &s, float dt, const float *u, float *fx, float *un) {
  s.run(Flux(), u, fx);
  s.run(Divergence(), dt, fx, u, un);
}

// --- B: a profile, constants, a double scalar passed to a float stencil, and
// a later stencil that writes an array an earlier one read. ------------------
struct STENCIL_KERNEL Gradient {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *rho0, const float *p,
                             float *gz) const {
    gz[idx.ix()] = rho0[idx.ix_z<1>()] * (p[idx.ix<0, 0, 1>()] + p[idx.ix()]);
  }
};
// Tendency takes the profile and does not read it: its parameter (all of
// the dimensions) says nothing of the profile's shape.
struct STENCIL_KERNEL Tendency {
  STENCIL_HD void operator()(const stencil::Index3D &idx, float a,
                             [[maybe_unused]] const float *rho0, const float *gz,
                             const float *w, float *wt) const {
    wt[idx.ix()] = w[idx.ix()] + a * (gz[idx.ix()] + gz[idx.ix<0, 0, -1>()]);
  }
};
STENCIL_KERNEL
void smoothXY(const stencil::Index3D &idx, float c, const float *wt, float *p) {
  p[idx.ix()] = c * (wt[idx.ix<1, 0, 0>()] + wt[idx.ix<0, -1, 0>()] + wt[idx.ix<1, 1, 0>()]);
}
STENCIL_STEP
void chain(stencil::Step3D &s, double a, const float *rho0, float *p, float *gz, const float *w,
           float *wt) {
  s.run(Gradient(), rho0, p, gz);
  s.run(Tendency(), a, rho0, gz, w, wt);
  s.run(smoothXY, 0.25f, wt, p);
}

// --- C: 2-D, a producer of two arrays read at diagonal offsets. -------------
STENCIL_KERNEL
void split(const stencil::Index2D &idx, const double *q, double *a, double *b) {
  a[idx.ix()] = q[idx.ix()] * q[idx.ix<1, 0>()];
  b[idx.ix()] = q[idx.ix()] + q[idx.ix<0, 1>()];
}
STENCIL_KERNEL
void combine(const stencil::Index2D &idx, const double *a, const double *b, double *out) {
  out[idx.ix()] = a[idx.ix<1, 1>()] + b[idx.ix<-1, 0>()] * a[idx.ix()] + b[idx.ix<0, -1>()];
}
STENCIL_STEP
void pair2d(stencil::Step2D &s, const double *q, double *a, double *b, double *out) {
  s.run(split, q, a, b);
  s.run(combine, a, b, out);
}

// --- D: a producer that stores only where an if holds (kept multi-kernel:
// elsewhere the consumer reads what the array held), and one that reads what
// it writes (inout). ----------------------------------------------------------
struct STENCIL_KERNEL Branchy {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *t) const {
    if (u[idx.ix()] > 1.5f)
      t[idx.ix()] = u[idx.ix<0, 1, 0>()];
  }
};
struct STENCIL_KERNEL Accumulate {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *t, float *acc) const {
    acc[idx.ix()] = acc[idx.ix()] + t[idx.ix<0, -1, 0>()];
  }
};
STENCIL_STEP
void kept(stencil::Step3D &s, const float *u, float *t, float *acc, float *v) {
  s.run(Branchy(), u, t);
  s.run(Accumulate(), t, acc);
  s.run(Flux(), acc, v);
}

// --- E: 4-D. -----------------------------------------------------------------
STENCIL_KERNEL
void average4(const stencil::Index4D &idx, const float *f, float *m) {
  m[idx.ix()] = 0.5f * (f[idx.ix<0, 0, 0, 1>()] + f[idx.ix<0, 0, 0, -1>()]);
}
STENCIL_KERNEL
void laplace4(const stencil::Index4D &idx, const float *m, float *out) {
  out[idx.ix()] = m[idx.ix<0, 0, 0, 1>()] + m[idx.ix<0, 0, 0, -1>()] + m[idx.ix<1, 0, 0, 0>()];
}
STENCIL_STEP
void step4d(stencil::Step4D &s, const float *f, float *m, float *out) {
  s.run(average4, f, m);
  s.run(laplace4, m, out);
}

// --- F: a step taking a const Step, overloaded in 2-D, and run with one array
// passed for two of its parameters (each launch still gets distinct arrays;
// the engines then run the stencils one by one). --------------------------
STENCIL_KERNEL
void back3(const stencil::Index3D &idx, const float *u, float *fx) {
  fx[idx.ix()] = 0.5f * (u[idx.ix<-1, 0, 0>()] + u[idx.ix()]);
}
STENCIL_KERNEL
void back2(const stencil::Index2D &idx, const float *u, float *fx) {
  fx[idx.ix()] = 0.5f * (u[idx.ix<-1, 0>()] + u[idx.ix()]);
}
STENCIL_STEP
void twice(const stencil::Step3D &s, const float *u, float *fx, float *un) {
  s.run(back3, u, fx);
  s.run(back3, fx, un);
}
STENCIL_STEP
void twice(const stencil::Step2D &s, const float *u, float *fx, float *un) {
  s.run(back2, u, fx);
  s.run(back2, fx, un);
}
// --- G: constants the step passes (a literal exponent, a literal argument to
// tanh): the fused code gets them as the host engine does, values known at
// run time only. Written into the fused loop, GCC made pow(u, 2.0f) u * u
// (-O3) and folded tanh(0.7f) with MPFR, where the host called glibc: the
// last bit differed at about one point in a thousand. -------------------------
STENCIL_KERNEL
void power(const stencil::Index3D &idx, float e, float c, const float *u,
           float *p) {
  p[idx.ix()] = std::pow(u[idx.ix()], e) + std::tanh(c);
}
STENCIL_KERNEL
void spread(const stencil::Index3D &idx, float e, const float *p, float *q) {
  q[idx.ix()] = std::pow(p[idx.ix<1, 0, 0>()], e) + p[idx.ix<-1, 0, 0>()];
}
STENCIL_STEP
void literals(stencil::Step3D &s, const float *u, float *p, float *q) {
  s.run(power, 2.0f, 0.7f, u, p);
  s.run(spread, -1.0f, p, q);
}

using Twice3 = void(const stencil::Step3D &, const float *, float *, float *);
using Twice2 = void(const stencil::Step2D &, const float *, float *, float *);

namespace {

using e2e::Options;
int Failures = 0, Passes = 0;

/// One step's arrays (all of the full extents; a profile uses its first
/// elements), random in [1, 2) from the seed.
template <typename T, int Dims> class Case {
public:
  Case(const char *Name, unsigned Seed, const int (&Extent)[Dims], int Margin, int Arrays)
      : Name(Name), Margin(Margin) {
    Count = 1;
    for (int D = 0; D < Dims; ++D)
      Count *= static_cast<std::size_t>(Ext[D] = Extent[D]);
    std::mt19937 Rng(Seed);
    std::uniform_real_distribution<T> Dist(T(1), T(2));
    Data.assign(Arrays, std::vector<T>(Count));
    for (auto &A : Data)
      for (T &V : A)
        V = Dist(Rng);
  }

  /// Runs step \p F with the arguments \p Args(arrays) on each engine.
  template <typename F, typename ArgsF> void run(const Options &O, F *Step, ArgsF Args) {
    const auto Ref = runHost<stencil::HostLoopEngine<Dims>>(Step, Args);
    if (O.OpenMP)
      for (const char *Plan : {"", "multi-kernel"}) {
        setenv("STENCIL_STEP_PLAN", Plan, 1);
        compare((std::string("openmp") + (*Plan ? " multi-kernel" : " plan")).c_str(), Ref,
                runHost<stencil::GeneratedLoopEngine<Dims, stencil::Backend::OpenMP>>(Step, Args),
                0);
      }
    if (O.Cuda)
      for (const char *Plan : {"", "multi-kernel"}) {
        setenv("STENCIL_STEP_PLAN", Plan, 1);
        compare((std::string("cuda") + (*Plan ? " multi-kernel" : " plan")).c_str(), Ref,
                runCuda(Step, Args), sizeof(T) == 4 ? 1e-6 : 1e-12);
      }
    setenv("STENCIL_STEP_PLAN", "", 1);
  }

private:
  template <typename Engine> stencil::Loop<Dims, Engine> makeLoop() const {
    return e2e::makeLoop<Dims, Engine>(Ext, Margin);
  }

  template <typename Engine, typename F, typename ArgsF>
  std::vector<std::vector<T>> runHost(F *Step, ArgsF &Args) {
    std::vector<std::vector<T>> Copy = Data;
    std::vector<T *> P;
    for (auto &A : Copy)
      P.push_back(A.data());
    auto Loop = makeLoop<Engine>();
    std::apply([&](auto... A) { Loop.runStep(Step, A...); }, Args(P.data()));
    return Copy;
  }

  template <typename F, typename ArgsF> std::vector<std::vector<T>> runCuda(F *Step, ArgsF &Args) {
    std::vector<std::unique_ptr<stencil::DeviceArray<T>>> Dev;
    std::vector<T *> P;
    for (const auto &A : Data) {
      Dev.push_back(std::make_unique<stencil::DeviceArray<T>>(Count));
      Dev.back()->upload(A.data());
      P.push_back(Dev.back()->data());
    }
    auto Loop = makeLoop<stencil::GeneratedLoopEngine<Dims, stencil::Backend::Cuda>>();
    std::apply([&](auto... A) { Loop.runStep(Step, A...); }, Args(P.data()));
    stencil::deviceSynchronize();
    std::vector<std::vector<T>> Out(Data.size(), std::vector<T>(Count));
    for (size_t I = 0; I < Dev.size(); ++I)
      Dev[I]->download(Out[I].data());
    return Out;
  }

  bool inside(std::size_t Linear) const {
    return e2e::inRegion<Dims>(Linear, Ext, Margin);
  }

  void compare(const char *Engine, const std::vector<std::vector<T>> &Ref,
               const std::vector<std::vector<T>> &Got, double Tolerance) {
    for (size_t A = 0; A < Ref.size(); ++A)
      for (std::size_t I = 0; I < Count; ++I) {
        const T R = Ref[A][I], G = Got[A][I];
        if (!e2e::matches(R, G, Tolerance == 0 || !inside(I), Tolerance)) {
          std::printf("FAIL %s: step %s array %zu point %zu (%s): host %.17g, got %.17g\n", Engine,
                      Name, A, I, inside(I) ? "region" : "margin", double(R), double(G));
          ++Failures;
          return;
        }
      }
    ++Passes;
  }

  const char *Name;
  int Ext[Dims] = {};
  int Margin;
  std::size_t Count = 0;
  std::vector<std::vector<T>> Data;
};

/// "advance: recompute(Flux, Divergence)": the plan each backend registered.
template <typename F> void printPlans(const char *Name, F *Step) {
  for (stencil::Backend B : {stencil::Backend::OpenMP, stencil::Backend::Cuda})
    if (const stencil::GeneratedStep *E =
            stencil::findGeneratedStep(B, reinterpret_cast<const void *>(Step)))
      std::printf("%s (%s): %s\n", Name, stencil::backendName(B), E->plan);
}

} // namespace

int main(int Argc, char **Argv) {
  const Options O = e2e::parseOptions(Argc, Argv);
  if (O.Cuda && !stencil::deviceAvailable()) {
    std::printf("SKIP: cuda asked for, but there is no GPU or no generated CUDA code\n");
    return 77;
  }
  printPlans("advance", &advance);
  printPlans("chain", &chain);
  printPlans("pair2d", &pair2d);
  printPlans("kept", &kept);
  printPlans("step4d", &step4d);
  printPlans("twice", static_cast<Twice3 *>(&twice));
  printPlans("literals", &literals);
  printPlans("twice2d", static_cast<Twice2 *>(&twice));
  std::mt19937 Rng(O.Seed);
  {
    const int Ext[3] = {e2e::uniform(Rng, 9, 70), e2e::uniform(Rng, 5, 40),
                        e2e::uniform(Rng, 5, 30)};
    Case<float, 3> C("advance", O.Seed, Ext, 1, 3);
    C.run(O, &advance, [](float **A) { return std::make_tuple(0.125f, A[0], A[1], A[2]); });
  }
  {
    const int Ext[3] = {e2e::uniform(Rng, 9, 50), e2e::uniform(Rng, 5, 33),
                        e2e::uniform(Rng, 6, 25)};
    Case<float, 3> C("chain", O.Seed + 1, Ext, 1, 5);
    C.run(O, &chain,
          [](float **A) { return std::make_tuple(0.375, A[0], A[1], A[2], A[3], A[4]); });
  }
  {
    const int Ext[2] = {e2e::uniform(Rng, 9, 300), e2e::uniform(Rng, 9, 90)};
    Case<double, 2> C("pair2d", O.Seed + 2, Ext, 2, 4);
    C.run(O, &pair2d, [](double **A) { return std::make_tuple(A[0], A[1], A[2], A[3]); });
  }
  {
    const int Ext[3] = {e2e::uniform(Rng, 9, 40), e2e::uniform(Rng, 5, 30),
                        e2e::uniform(Rng, 5, 20)};
    Case<float, 3> C("kept", O.Seed + 3, Ext, 1, 4);
    C.run(O, &kept, [](float **A) { return std::make_tuple(A[0], A[1], A[2], A[3]); });
  }
  {
    const int Ext[4] = {e2e::uniform(Rng, 5, 20), e2e::uniform(Rng, 4, 12),
                        e2e::uniform(Rng, 4, 9), e2e::uniform(Rng, 5, 9)};
    Case<float, 4> C("step4d", O.Seed + 4, Ext, 1, 3);
    C.run(O, &step4d, [](float **A) { return std::make_tuple(A[0], A[1], A[2]); });
  }
  {
    const int Ext[3] = {e2e::uniform(Rng, 9, 40), e2e::uniform(Rng, 5, 20), e2e::uniform(Rng, 5, 20)};
    Case<float, 3> C("twice", O.Seed + 5, Ext, 1, 3);
    C.run(O, static_cast<Twice3 *>(&twice),
          [](float **A) { return std::make_tuple(A[0], A[1], A[2]); });
    C.run(O, static_cast<Twice3 *>(&twice),
          [](float **A) { return std::make_tuple(A[0], A[1], A[0]); });
  }
  {
    // Enough points that about one in a thousand shows.
    const int Ext[3] = {e2e::uniform(Rng, 40, 64), e2e::uniform(Rng, 20, 32),
                        e2e::uniform(Rng, 12, 16)};
    Case<float, 3> C("literals", O.Seed + 7, Ext, 1, 3);
    C.run(O, &literals,
          [](float **A) { return std::make_tuple(A[0], A[1], A[2]); });
  }
  {
    const int Ext[2] = {e2e::uniform(Rng, 9, 100), e2e::uniform(Rng, 9, 50)};
    Case<float, 2> C("twice2d", O.Seed + 6, Ext, 1, 3);
    C.run(O, static_cast<Twice2 *>(&twice),
          [](float **A) { return std::make_tuple(A[0], A[1], A[2]); });
  }
  // One array for the read and the written parameter of one call (u and fx
  // of back3): refused, not run (each call is checked where the step's
  // arrays are shared). Through variables: stencilc sees no aliasing.
  if (stencil::generatedFor(stencil::Backend::OpenMP, &back3)) {
    std::vector<float> U(9 * 9 * 9, 1.0f), N(U.size(), 0.0f);
    float *P = U.data(), *Q = P;
    stencil::Loop3D<stencil::OpenMPLoopEngine3D> L(9, 1, 1, 9, 1, 1, 9, 1, 1);
    try {
      L.runStep(static_cast<Twice3 *>(&twice), P, Q, N.data());
      std::printf("FAIL refusal: one array read and written by one call ran\n");
      ++Failures;
    } catch (const std::invalid_argument &) {
      ++Passes;
    }
  }
  // Run call by call (STENCIL_STEP_PLAN=multi-kernel), a step whose last
  // stencil reads past the loop's margin is refused before the first
  // stencil writes: Flux reads x + 1, and x has no margin.
  if (stencil::generatedFor(stencil::Backend::OpenMP, Flux())) {
    std::vector<float> U(6 * 6 * 6, 2.0f), T(U.size(), 0.0f), Acc(T), V(T);
    stencil::Loop3D<stencil::OpenMPLoopEngine3D> L(6, 0, 0, 6, 1, 1, 6, 0, 0);
    setenv("STENCIL_STEP_PLAN", "multi-kernel", 1);
    try {
      L.runStep(&kept, U.data(), T.data(), Acc.data(), V.data());
      std::printf("FAIL refusal: a step reading past the margin ran\n");
      ++Failures;
    } catch (const std::runtime_error &X) {
      const std::vector<float> Zero(U.size(), 0.0f);
      if (T == Zero && Acc == Zero && V == Zero) {
        ++Passes;
      } else {
        std::printf("FAIL refusal: refused (%s) after writing\n", X.what());
        ++Failures;
      }
    }
    unsetenv("STENCIL_STEP_PLAN");
  }
  // A bad STENCIL_STEP_PLAN is refused however the step runs: with one
  // array for two of its parameters (call by call) it was not read at all.
  if (stencil::generatedFor(stencil::Backend::OpenMP, &split)) {
    std::vector<double> Q(8 * 8, 1.0), A(Q.size()), B(Q.size());
    stencil::Loop2D<stencil::OpenMPLoopEngine2D> L(6, 1, 1, 6, 1, 1);
    setenv("STENCIL_STEP_PLAN", "bogus", 1);
    try {
      L.runStep(&pair2d, Q.data(), A.data(), B.data(), Q.data());
      std::printf(
          "FAIL refusal: STENCIL_STEP_PLAN=bogus ran a step call by call\n");
      ++Failures;
    } catch (const std::invalid_argument &X) {
      if (std::strstr(X.what(), "STENCIL_STEP_PLAN is 'bogus'")) {
        ++Passes;
      } else {
        std::printf("FAIL refusal: STENCIL_STEP_PLAN=bogus: %s\n", X.what());
        ++Failures;
      }
    }
    unsetenv("STENCIL_STEP_PLAN");
  }
  std::printf("step: seed %u: %d passed, %d failed\n", O.Seed, Passes, Failures);
  return Failures ? 1 : 0;
}
