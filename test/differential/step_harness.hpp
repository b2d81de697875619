// step_harness.hpp - what every program of gen_steps.py runs per step: the
// host reference (HostLoopEngine: the step function, each stencil over every
// point in turn), then the OpenMP engine with stencilc's plan of the step and
// with STENCIL_STEP_PLAN=multi-kernel (each stencil's own code), on copies of
// the same arrays (every one random in [1, 2), margins included: steps read
// intermediates' margins). EVERY array is compared bit for bit, the region
// and the margins. Also checks that the OpenMP plan run found a registered
// step entry (else the plan run would only repeat the multi-kernel one).
// Plain C++17 plus the runtime headers.
#ifndef STENCIL_STEP_HARNESS_HPP
#define STENCIL_STEP_HARNESS_HPP

#include "diff_harness.hpp" // diff::loopOf, diff::sameBits

#include <cstdio>
#include <cstdlib>
#include <exception>
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

/// One step's run: the loop's extents (margin included) and margin, and the
/// sizes of the step's arrays (full ones and arrays of lower rank).
template <typename T, int Dims> class StepCase {
public:
  StepCase(const char *Name, unsigned Seed, const int (&Extent)[Dims], int Margin,
           std::vector<std::size_t> Sizes)
      : Name(Name), Margin(Margin) {
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
    const stencil::GeneratedStep *E =
        stencil::findGeneratedStep(stencil::Backend::OpenMP, reinterpret_cast<const void *>(Step));
    std::printf("%s: %s\n", Name, E ? E->plan : "(no generated step)");
    if (!E) {
      std::printf("FAIL %s: no OpenMP entry registered for the step\n", Name);
      ++failures();
    }
    std::vector<std::vector<T>> Ref;
    if (!runEngine<stencil::HostLoopEngine<Dims>>("host", Step, Args, Ref))
      return;
    for (const char *Plan : {"", "multi-kernel"}) {
      setenv("STENCIL_STEP_PLAN", Plan, 1);
      std::vector<std::vector<T>> Got;
      const std::string Label = std::string("openmp ") + (*Plan ? "multi-kernel" : "plan");
      if (runEngine<stencil::GeneratedLoopEngine<Dims, stencil::Backend::OpenMP>>(
              Label.c_str(), Step, Args, Got))
        compare(Label.c_str(), Ref, Got);
    }
    setenv("STENCIL_STEP_PLAN", "", 1);
  }

private:
  template <typename Engine, typename F, typename ArgsF>
  bool runEngine(const char *Label, F *Step, ArgsF &Args, std::vector<std::vector<T>> &Out) {
    Out = Data;
    std::vector<T *> P;
    for (auto &A : Out)
      P.push_back(A.data());
    try {
      auto Loop = diff::loopOf<Dims, Engine>(Ext, Margin);
      std::apply([&](auto... A) { Loop.runStep(Step, A...); }, Args(P.data()));
    } catch (const std::exception &X) {
      std::printf("FAIL %s: step %s threw: %s\n", Label, Name, X.what());
      ++failures();
      return false;
    }
    return true;
  }

  std::string where(std::size_t A, std::size_t I) const {
    if (Data[A].size() != Data[0].size())
      return "lower-rank array";
    bool In = true;
    std::string S = "(";
    for (int D = 0; D < Dims; ++D) {
      const int P = static_cast<int>(I % Ext[D]);
      I /= Ext[D];
      In = In && P >= Margin && P < Ext[D] - Margin;
      S += std::to_string(P) + (D + 1 < Dims ? "," : ")");
    }
    return S + (In ? " region" : " margin");
  }

  void compare(const char *Label, const std::vector<std::vector<T>> &Ref,
               const std::vector<std::vector<T>> &Got) {
    bool Ok = true;
    for (std::size_t A = 0; A < Ref.size(); ++A)
      for (std::size_t I = 0; I < Ref[A].size(); ++I)
        if (!diff::sameBits(Ref[A][I], Got[A][I])) {
          std::printf("FAIL %s: step %s array A[%zu] element %zu %s: host %.17g, got %.17g\n",
                      Label, Name, A, I, where(A, I).c_str(), double(Ref[A][I]),
                      double(Got[A][I]));
          Ok = false;
          break;
        }
    ++(Ok ? passes() : failures());
  }

  const char *Name;
  int Ext[Dims] = {};
  int Margin;
  std::vector<std::vector<T>> Data;
};

inline int summary(unsigned Seed) {
  std::printf("steps: seed %u: %d passed, %d failed\n", Seed, passes(), failures());
  return failures() ? 1 : 0;
}

} // namespace stepdiff

#endif // STENCIL_STEP_HARNESS_HPP
