// step_benchmark.cpp - times steps of several dependent stencils on the GPU:
// stencilc's plan of each step (what loop.runStep launches) against running
// its stencils one kernel each (STENCIL_STEP_PLAN=multi-kernel), both as
// milliseconds per step and as the bandwidth of the step's compulsory
// traffic (every array the step reads read once, every array it writes
// written once) over the device-to-device copy bandwidth of the same run.
// Built twice by the benchmark bundle: with stencilc's cost model (auto) and
// with every fusible pair fused (--step-strategy=recompute), so that both
// strategies of each pair are timed.
//
//   step_benchmark --copy-gbs=G [--size=X,Y,Z] [--reps=N] [--label=L]
//
// Before timing, the plan's result is compared with the multi-kernel one
// (within 1e-5 relative: every term positive, FMA contraction may differ).
#include <stencil/dsl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

// A flux and its divergence: the intermediate costs a write and a read.
struct STENCIL_KERNEL BFlux {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *fx) const {
    fx[idx.ix()] = 0.5f * (u[idx.ix<1, 0, 0>()] + u[idx.ix()]);
  }
};
struct STENCIL_KERNEL BDivergence {
  STENCIL_HD void operator()(const stencil::Index3D &idx, float dt, const float *fx,
                             const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix()] + dt * (fx[idx.ix()] + fx[idx.ix<-1, 0, 0>()]);
  }
};
STENCIL_STEP
void benchAdvance(stencil::Step3D &s, float dt, const float *u, float *fx, float *un) {
  s.run(BFlux(), u, fx);
  s.run(BDivergence(), dt, fx, u, un);
}

// A vertical gradient against a base-state profile, its tendency, and a
// horizontal smoothing that writes the array the gradient read.
struct STENCIL_KERNEL BGradient {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *rho0, const float *p,
                             float *gz) const {
    gz[idx.ix()] = rho0[idx.ix_z<1>()] * (p[idx.ix<0, 0, 1>()] + p[idx.ix()]);
  }
};
struct STENCIL_KERNEL BTendency {
  STENCIL_HD void operator()(const stencil::Index3D &idx, float a, const float *gz,
                             const float *w, float *wt) const {
    wt[idx.ix()] = w[idx.ix()] + a * (gz[idx.ix()] + gz[idx.ix<0, 0, -1>()]);
  }
};
struct STENCIL_KERNEL BSmooth {
  STENCIL_HD void operator()(const stencil::Index3D &idx, float c, const float *wt,
                             float *p) const {
    p[idx.ix()] = c * (wt[idx.ix<1, 0, 0>()] + wt[idx.ix<0, 1, 0>()] + wt[idx.ix()]);
  }
};
STENCIL_STEP
void benchChain(stencil::Step3D &s, float a, const float *rho0, float *p, float *gz,
                const float *w, float *wt) {
  s.run(BGradient(), rho0, p, gz);
  s.run(BTendency(), a, gz, w, wt);
  s.run(BSmooth(), 0.25f, wt, p);
}

// An expensive producer read by a 7-point star: recomputing it seven times
// costs more than its round trip through memory.
struct STENCIL_KERNEL BHeavy {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *h) const {
    float x = u[idx.ix()];
    for (int n = 0; n < 16; ++n)
      x = std::sqrt(x * x + 0.5f) * 0.75f + std::exp(-x) * 0.25f;
    h[idx.ix()] = x;
  }
};
struct STENCIL_KERNEL BStar {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *h, float *out) const {
    out[idx.ix()] = h[idx.ix()] + h[idx.ix<1, 0, 0>()] + h[idx.ix<-1, 0, 0>()] +
                    h[idx.ix<0, 1, 0>()] + h[idx.ix<0, -1, 0>()] + h[idx.ix<0, 0, 1>()] +
                    h[idx.ix<0, 0, -1>()];
  }
};
STENCIL_STEP
void benchHeavy(stencil::Step3D &s, const float *u, float *h, float *out) {
  s.run(BHeavy(), u, h);
  s.run(BStar(), h, out);
}

namespace {

struct Options {
  int N[3] = {512, 512, 256};
  int Reps = 20;
  double CopyGBs = 0;
  std::string Label = "auto";
};

using Loop = stencil::Loop3D<stencil::DeviceLoopEngine3D>;

/// Device arrays of the full extents, filled with values in [1, 2).
struct Arrays {
  std::vector<std::unique_ptr<stencil::DeviceArray<float>>> A;
  Arrays(int Count, std::size_t Points) {
    std::vector<float> Host(Points);
    for (int I = 0; I < Count; ++I) {
      for (std::size_t P = 0; P < Points; ++P)
        Host[P] = 1.0f + static_cast<float>((P * 2654435761u + I * 97u) % 1000u) / 1000.0f;
      A.push_back(std::make_unique<stencil::DeviceArray<float>>(Points));
      A.back()->upload(Host.data());
    }
  }
  float *operator[](int I) { return A[I]->data(); }
};

/// Milliseconds per call of \p Run: the median of 5 timings of Reps calls.
template <typename F> double time(const Options &O, F Run) {
  for (int W = 0; W < 3; ++W)
    Run();
  stencil::deviceSynchronize();
  std::vector<double> Ms;
  for (int T = 0; T < 5; ++T) {
    const auto Start = std::chrono::steady_clock::now();
    for (int R = 0; R < O.Reps; ++R)
      Run();
    stencil::deviceSynchronize();
    Ms.push_back(std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - Start)
                     .count() /
                 O.Reps);
  }
  std::sort(Ms.begin(), Ms.end());
  return Ms[2];
}

/// Runs \p Step on fresh arrays with the plan and multi-kernel, checks that
/// they agree on \p Out, and prints both timings.
template <typename F, typename ArgsF>
bool bench(const Options &O, const char *Name, F *Step, int NArrays,
           std::vector<int> Outputs, double CompulsoryArrays, ArgsF Args) {
  const std::size_t Points =
      static_cast<std::size_t>(O.N[0] + 2) * (O.N[1] + 2) * (O.N[2] + 2);
  Loop L(O.N[0] + 2, 1, 1, O.N[1] + 2, 1, 1, O.N[2] + 2, 1, 1);
  const stencil::GeneratedStep *E =
      stencil::findGeneratedStep(stencil::Backend::Cuda, reinterpret_cast<const void *>(Step));
  const std::string Plan = E ? E->plan : "none (no generated step code)";
  std::vector<std::vector<float>> Results[2];
  double Ms[2];
  for (int Multi = 0; Multi < 2; ++Multi) {
    setenv("STENCIL_STEP_PLAN", Multi ? "multi-kernel" : "", 1);
    Arrays A(NArrays, Points);
    auto Run = [&] { std::apply([&](auto... X) { L.runStep(Step, X...); }, Args(A)); };
    Run();
    stencil::deviceSynchronize();
    for (int Out : Outputs) {
      Results[Multi].emplace_back(Points);
      A.A[Out]->download(Results[Multi].back().data());
    }
    Ms[Multi] = time(O, Run);
  }
  setenv("STENCIL_STEP_PLAN", "", 1);
  double Worst = 0;
  for (size_t K = 0; K < Results[0].size(); ++K)
    for (std::size_t P = 0; P < Points; ++P)
      Worst = std::max(Worst, std::fabs(double(Results[0][K][P]) - Results[1][K][P]) /
                                  std::max(1e-30, std::fabs(double(Results[1][K][P]))));
  const double Interior = double(O.N[0]) * O.N[1] * O.N[2];
  const double Bytes = CompulsoryArrays * Interior * sizeof(float);
  for (int Multi = 0; Multi < 2; ++Multi) {
    const double GBs = Bytes / (Ms[Multi] * 1e-3) / 1e9;
    std::printf("step %-13s %-8s %-12s %9.4f ms %8.1f GB/s compulsory %6.3f of copy  %s\n", Name,
                O.Label.c_str(), Multi ? "multi-kernel" : "plan", Ms[Multi], GBs,
                O.CopyGBs > 0 ? GBs / O.CopyGBs : 0.0,
                Multi ? "" : ("(" + Plan + ")").c_str());
  }
  std::printf("step %-13s %-8s plan/multi-kernel speedup %.3f, largest relative difference %.2e\n",
              Name, O.Label.c_str(), Ms[1] / Ms[0], Worst);
  return Worst <= 1e-5;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    const std::string A = Argv[I];
    if (A.rfind("--size=", 0) == 0)
      std::sscanf(A.c_str() + 7, "%d,%d,%d", &O.N[0], &O.N[1], &O.N[2]);
    else if (A.rfind("--reps=", 0) == 0)
      O.Reps = std::atoi(A.c_str() + 7);
    else if (A.rfind("--copy-gbs=", 0) == 0)
      O.CopyGBs = std::atof(A.c_str() + 11);
    else if (A.rfind("--label=", 0) == 0)
      O.Label = A.substr(8);
    else {
      std::fprintf(stderr, "usage: %s [--size=X,Y,Z] [--reps=N] [--copy-gbs=G] [--label=L]\n",
                   Argv[0]);
      return 2;
    }
  }
  if (!stencil::deviceAvailable()) {
    std::printf("step_benchmark: no GPU\n");
    return 1;
  }
  std::printf("step_benchmark: %dx%dx%d points, %d reps, label %s\n", O.N[0], O.N[1], O.N[2],
              O.Reps, O.Label.c_str());
  bool Ok = true;
  // advance: u read; fx, un written.
  Ok &= bench(O, "advance", &benchAdvance, 3, {1, 2}, 3,
              [](Arrays &A) { return std::make_tuple(0.125f, A[0], A[1], A[2]); });
  // chain: p read and written; gz, wt written; w read (rho0 is a profile).
  Ok &= bench(O, "chain", &benchChain, 5, {1, 2, 4}, 5, [](Arrays &A) {
    return std::make_tuple(0.375f, A[0], A[1], A[2], A[3], A[4]);
  });
  // heavy: u read; h, out written.
  Ok &= bench(O, "heavy", &benchHeavy, 3, {1, 2}, 3,
              [](Arrays &A) { return std::make_tuple(A[0], A[1], A[2]); });
  std::printf("step_benchmark: %s\n", Ok ? "results agree" : "RESULTS DIFFER");
  return Ok ? 0 : 1;
}
