// step_harness.hpp - what every program of gen_steps.py runs per step: the
// host reference (HostLoopEngine: the step function, each stencil over every
// point in turn), then the OpenMP engine with stencilc's plan of the step and
// with STENCIL_STEP_PLAN=multi-kernel (each stencil's own code), on copies of
// the same arrays (every one random in [1, 2), margins included: steps read
// intermediates' margins). EVERY array is compared bit for bit, the region
// and the margins, but the region of a scratch array (STENCIL_SCRATCH). Also
// checks that the OpenMP plan run found a registered step entry (else the plan
// run would only repeat the multi-kernel one).
//
// With --backend=cuda or all (parseOptions; the GPU bundle of gen_steps.py),
// each step also runs on the CUDA engine over device arrays, planned and
// multi-kernel, and must have a CUDA step entry. The GPU contracts a*b+c into
// one rounding where the host rounds twice, so the region of full arrays is
// compared within a relative tolerance (of max(|host|, 1): every value is a
// positive sum or product); margins and arrays of lower rank, which no step
// writes, bit for bit. Its totals are a line of their own ("cuda: seed ..."),
// so a CPU-only run prints what it always did.
//
// Built with STENCILC_CUDA_ON_CPU_KERNELS (gen_steps.py --cuda-on-cpu: the
// program's CUDA group kernels extracted, test/e2e/common/cuda_on_cpu.hpp),
// each step also runs as the CUDA engine runs stencilc's plan, its fused
// groups' CUDA kernels on the CPU, blocks plane by plane and down the
// columns: bit for bit against the host (the same operations, no GPU to
// contract them). Its totals are a line of their own ("cuda on cpu: ..."),
// with the steps with no fused group counted apart, not as passes.
// Plain C++17 plus the runtime headers.
#ifndef STENCIL_STEP_HARNESS_HPP
#define STENCIL_STEP_HARNESS_HPP

#include "diff_harness.hpp" // diff::loopOf, diff::sameBits
#ifdef STENCILC_CUDA_ON_CPU_KERNELS
#include "cuda_on_cpu.hpp" // test/e2e/common
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace stepdiff {

inline int &failures() {
  static int F = 0;
  return F;
}
inline int &passes() {
  static int P = 0;
  return P;
}

/// The CUDA runs' totals, apart from the OpenMP ones.
struct CudaTotals {
  int Passes = 0, Failures = 0;
  double WorstRatio = 0; ///< Largest error over tolerance seen.
};
inline CudaTotals &cudaTotals() {
  static CudaTotals T;
  return T;
}

/// The CUDA kernels' runs on the CPU: passes, failures, steps with no
/// fused group, runs with a staged one.
struct CpuTotals {
  int Passes = 0, Failures = 0, Unfused = 0, Staged = 0;
};
inline CpuTotals &cpuTotals() {
  static CpuTotals T;
  return T;
}

/// Which engines run: OpenMP alone unless main passed --backend=cuda|all.
inline diff::Options &options() {
  static diff::Options O;
  return O;
}

/// Reads --backend=openmp|cuda|all; exits 1 when CUDA is asked for and no
/// GPU or no generated CUDA code is present (a GPU run must not pass on the
/// OpenMP engine alone).
inline void parseOptions(int Argc, char **Argv) {
  options() = diff::parseOptions(Argc, Argv);
  if (options().RequireCuda && !stencil::deviceAvailable()) {
    std::printf("FAIL: --backend=cuda or all asked for, but no GPU or no generated CUDA code "
                "is present\n");
    std::exit(1);
  }
}

/// Relative tolerance of the CUDA runs: a few hundred roundings of float,
/// ten thousand of double.
template <typename T> constexpr double cudaTolerance() { return sizeof(T) == 4 ? 1e-5 : 1e-12; }

/// One step's run: the loop's extents (margin included) and margin, and the
/// sizes of the step's arrays (full ones and arrays of lower rank).
template <typename T, int Dims> class StepCase {
public:
  /// \p Scratch: per array, marked STENCIL_SCRATCH (its region is the
  /// step's own, unspecified after it: not compared; its margin is).
  StepCase(const char *Name, unsigned Seed, const int (&Extent)[Dims],
           int Margin, std::vector<std::size_t> Sizes,
           std::vector<bool> Scratch = {})
      : Name(Name), Margin(Margin), Scratch(std::move(Scratch)) {
    this->Scratch.resize(Sizes.size(), false);
    for (int D = 0; D < Dims; ++D)
      Ext[D] = Extent[D];
    std::mt19937 Rng(Seed);
    std::uniform_real_distribution<T> Dist(T(1), T(2));
    for (std::size_t S : Sizes) {
      Data.emplace_back(S);
      for (T &V : Data.back())
        V = Dist(Rng);
    }
  }

  template <typename F, typename ArgsF> void run(F *Step, ArgsF Args) {
    const diff::Options &O = options();
    checkEntry(stencil::Backend::OpenMP, "", "OpenMP", Step, failures());
    if (O.Cuda)
      checkEntry(stencil::Backend::Cuda, " (cuda)", "CUDA", Step, cudaTotals().Failures);
    std::vector<std::vector<T>> Ref;
    if (!runEngine<stencil::HostLoopEngine<Dims>>("host", Step, Args, Ref, failures()))
      return;
    for (const char *Plan : {"", "multi-kernel"}) {
      setenv("STENCIL_STEP_PLAN", Plan, 1);
      if (O.OpenMP) {
        std::vector<std::vector<T>> Got;
        const std::string Label = std::string("openmp ") + (*Plan ? "multi-kernel" : "plan");
        if (runEngine<stencil::GeneratedLoopEngine<Dims, stencil::Backend::OpenMP>>(
                Label.c_str(), Step, Args, Got, failures()))
          ++(compare(Label.c_str(), Ref, Got, 0) ? passes() : failures());
      }
      if (O.Cuda) {
        std::vector<std::vector<T>> Got;
        const std::string Label = std::string("cuda ") + (*Plan ? "multi-kernel" : "plan");
        if (runDevice(Label.c_str(), Step, Args, Got))
          ++(compare(Label.c_str(), Ref, Got, cudaTolerance<T>()) ? cudaTotals().Passes
                                                                   : cudaTotals().Failures);
      }
    }
    setenv("STENCIL_STEP_PLAN", "", 1);
#ifdef STENCILC_CUDA_ON_CPU_KERNELS
    for (long long L2 : {0LL, 1LL})
      runOnCpu(Step, Args, Ref, L2);
#endif
  }

private:
#ifdef STENCILC_CUDA_ON_CPU_KERNELS
  /// The step as the CUDA engine runs the plan, its kernels on the CPU,
  /// with an L2 cache of \p L2 bytes (0: blocks plane by plane; 1: down the
  /// columns wherever a group reads along z), against \p Ref.
  template <typename F, typename ArgsF>
  void runOnCpu(F *Step, ArgsF &Args, const std::vector<std::vector<T>> &Ref, long long L2) {
    CpuTotals &Tot = cpuTotals();
    const std::string Label =
        std::string("cuda on cpu, blocks ") + (L2 ? "down the columns" : "plane by plane");
    std::vector<std::vector<T>> Got = Data;
    std::vector<T *> P;
    for (auto &A : Got)
      P.push_back(A.data());
    cuda_on_cpu::L2 = L2;
    const long long Staged = cuda_on_cpu::Staged;
    bool Ran = false;
    if (!guarded(Label.c_str(), Tot.Failures, [&] {
          auto Loop = diff::loopOf<Dims, stencil::HostLoopEngine<Dims>>(Ext, Margin);
          Ran = std::apply([&](auto... A) { return cuda_on_cpu::runStep(Loop, Step, A...); },
                           Args(P.data()));
        }))
      return;
    if (!Ran) {
      ++Tot.Unfused;
      return;
    }
    Tot.Staged += cuda_on_cpu::Staged != Staged;
    ++(compare(Label.c_str(), Ref, Got, 0) ? Tot.Passes : Tot.Failures);
  }
#endif

  /// Prints the plan \p B registered for \p Step ("step0 (cuda): ..."); a
  /// failure without one (the plan run would only repeat the multi-kernel one).
  template <typename F>
  void checkEntry(stencil::Backend B, const char *Tag, const char *Backend, F *Step,
                  int &Failures) const {
    const stencil::GeneratedStep *E =
        stencil::findGeneratedStep(B, reinterpret_cast<const void *>(Step));
    std::printf("%s%s: %s\n", Name, Tag, E ? E->plan : "(no generated step)");
    if (!E) {
      std::printf("FAIL %s: no %s entry registered for the step\n", Name, Backend);
      ++Failures;
    }
  }

  /// Calls \p Run; a failure of \p Label if it throws.
  template <typename Body> bool guarded(const char *Label, int &Failures, Body &&Run) const {
    try {
      Run();
    } catch (const std::exception &X) {
      std::printf("FAIL %s: step %s threw: %s\n", Label, Name, X.what());
      ++Failures;
      return false;
    }
    return true;
  }

  template <typename Engine, typename F, typename ArgsF>
  bool runEngine(const char *Label, F *Step, ArgsF &Args, std::vector<std::vector<T>> &Out,
                 int &Failures) {
    Out = Data;
    std::vector<T *> P;
    for (auto &A : Out)
      P.push_back(A.data());
    return guarded(Label, Failures, [&] {
      auto Loop = diff::loopOf<Dims, Engine>(Ext, Margin);
      std::apply([&](auto... A) { Loop.runStep(Step, A...); }, Args(P.data()));
    });
  }

  /// The step on the CUDA engine over device copies of the arrays.
  template <typename F, typename ArgsF>
  bool runDevice(const char *Label, F *Step, ArgsF &Args, std::vector<std::vector<T>> &Out) {
    return guarded(Label, cudaTotals().Failures, [&] {
      std::vector<std::unique_ptr<stencil::DeviceArray<T>>> Dev;
      std::vector<T *> P;
      for (const auto &A : Data) {
        Dev.push_back(std::make_unique<stencil::DeviceArray<T>>(A.size()));
        Dev.back()->upload(A.data());
        P.push_back(Dev.back()->data());
      }
      auto Loop =
          diff::loopOf<Dims, stencil::GeneratedLoopEngine<Dims, stencil::Backend::Cuda>>(Ext,
                                                                                          Margin);
      std::apply([&](auto... A) { Loop.runStep(Step, A...); }, Args(P.data()));
      stencil::deviceSynchronize();
      Out = Data;
      for (std::size_t A = 0; A < Dev.size(); ++A)
        Dev[A]->download(Out[A].data());
    });
  }

  /// Elements of a full array (the loop's extents); arrays of lower rank
  /// are smaller.
  std::size_t fullSize() const {
    std::size_t N = 1;
    for (int D = 0; D < Dims; ++D)
      N *= static_cast<std::size_t>(Ext[D]);
    return N;
  }

  /// True for element \p I of a full array in the region (not the margin).
  bool inRegion(std::size_t A, std::size_t I) const {
    if (Data[A].size() != fullSize())
      return false;
    for (int D = 0; D < Dims; ++D) {
      const int P = static_cast<int>(I % Ext[D]);
      I /= Ext[D];
      if (P < Margin || P >= Ext[D] - Margin)
        return false;
    }
    return true;
  }

  std::string where(std::size_t A, std::size_t I) const {
    if (Data[A].size() != fullSize())
      return "lower-rank array";
    const bool In = inRegion(A, I);
    std::string S = "(";
    for (int D = 0; D < Dims; ++D) {
      S += std::to_string(I % Ext[D]) + (D + 1 < Dims ? "," : ")");
      I /= Ext[D];
    }
    return S + (In ? " region" : " margin");
  }

  /// Every element of every array: bit for bit if \p Tolerance is 0, else
  /// the region within \p Tolerance relative and the rest bit for bit.
  /// Prints the first mismatch.
  bool compare(const char *Label, const std::vector<std::vector<T>> &Ref,
               const std::vector<std::vector<T>> &Got, double Tolerance) {
    for (std::size_t A = 0; A < Ref.size(); ++A)
      for (std::size_t I = 0; I < Ref[A].size(); ++I) {
        const T R = Ref[A][I], G = Got[A][I];
        if (Scratch[A] && inRegion(A, I))
          continue;
        if (Tolerance == 0 || !inRegion(A, I)) {
          if (diff::sameBits(R, G))
            continue;
          std::printf("FAIL %s: step %s array A[%zu] element %zu %s: host %.17g, got %.17g\n",
                      Label, Name, A, I, where(A, I).c_str(), double(R), double(G));
          return false;
        }
        const double Err = std::fabs(double(G) - double(R));
        const double Bound = Tolerance * std::max(std::fabs(double(R)), 1.0);
        cudaTotals().WorstRatio = std::max(cudaTotals().WorstRatio, Err / Bound);
        if (!(Err <= Bound)) {
          std::printf("FAIL %s: step %s array A[%zu] element %zu %s: host %.17g, got %.17g "
                      "(relative error %.3g > tolerance %.3g)\n",
                      Label, Name, A, I, where(A, I).c_str(), double(R), double(G),
                      Err / std::max(std::fabs(double(R)), 1.0), Tolerance);
          return false;
        }
      }
    return true;
  }

  const char *Name;
  int Ext[Dims] = {};
  int Margin;
  std::vector<bool> Scratch;
  std::vector<std::vector<T>> Data;
};

inline int summary(unsigned Seed) {
  std::printf("steps: seed %u: %d passed, %d failed\n", Seed, passes(), failures());
  const CudaTotals &C = cudaTotals();
  if (options().Cuda)
    std::printf("cuda: seed %u: %d passed, %d failed, worst error/tolerance %.3g\n", Seed,
                C.Passes, C.Failures, C.WorstRatio);
  const CpuTotals &E = cpuTotals();
#ifdef STENCILC_CUDA_ON_CPU_KERNELS
  std::printf(
      "cuda on cpu: seed %u: %d passed, %d failed (%d with a staged group), %d "
      "without a fused group\n",
      Seed, E.Passes, E.Failures, E.Staged, E.Unfused);
#endif
  return failures() || C.Failures || E.Failures ? 1 : 0;
}

} // namespace stepdiff

#endif // STENCIL_STEP_HARNESS_HPP
