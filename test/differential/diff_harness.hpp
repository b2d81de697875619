// diff_harness.hpp - what every generated differential program shares: one
// Case per stencil runs the host reference, the generated OpenMP code and (when
// linked in and a GPU is present) the generated CUDA code on the same random
// inputs, every output poisoned with NaN before each run, and compares:
//   OpenMP  bit for bit (a NaN equals any NaN: payloads are not compared);
//   CUDA    within the stencil's relative tolerance, which the generator
//           derives from the operations it emitted (docs/correctness.md);
//           points outside the region must stay NaN, bit for bit.
// Plain C++17 plus the runtime headers: builds with g++ alone for the host
// part, with nvcc for the CUDA part.
#ifndef STENCIL_DIFF_HARNESS_HPP
#define STENCIL_DIFF_HARNESS_HPP

#include <stencil/dsl.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace diff {

struct Options {
  bool OpenMP = true;
  bool Cuda = false;
  bool RequireCuda = false;
};

inline Options parseOptions(int Argc, char **Argv) {
  Options O;
  for (int A = 1; A < Argc; ++A) {
    std::string Arg = Argv[A];
    if (Arg == "--backend=openmp") {
      O.OpenMP = true;
      O.Cuda = false;
    } else if (Arg == "--backend=cuda") {
      O.OpenMP = false;
      O.Cuda = O.RequireCuda = true;
    } else if (Arg == "--backend=all") {
      O.OpenMP = O.Cuda = O.RequireCuda = true;
    } else {
      std::fprintf(stderr, "usage: %s [--backend=openmp|cuda|all]\n", Argv[0]);
      std::exit(2);
    }
  }
  return O;
}

/// Totals over one program, printed by summary().
struct Totals {
  int Stencils = 0, OpenMPPass = 0, OpenMPFail = 0, CudaPass = 0, CudaFail = 0;
  double WorstCudaRatio = 0; ///< Largest observed error over tolerance.
};
inline Totals &totals() {
  static Totals T;
  return T;
}

template <typename T> bool sameBits(T A, T B) {
  if (std::isnan(A) && std::isnan(B))
    return true;
  return std::memcmp(&A, &B, sizeof(T)) == 0;
}

/// A loop over extents \p Ext (margins included) with margin \p M on every side.
template <int Dims, typename Engine>
stencil::Loop<Dims, Engine> loopOf(const int *Ext, int M) {
  if constexpr (Dims == 2)
    return stencil::Loop<Dims, Engine>(Ext[0], M, M, Ext[1], M, M);
  else if constexpr (Dims == 3)
    return stencil::Loop<Dims, Engine>(Ext[0], M, M, Ext[1], M, M, Ext[2], M, M);
  else
    return stencil::Loop<Dims, Engine>(Ext[0], M, M, Ext[1], M, M, Ext[2], M, M, Ext[3], M, M);
}

/// One stencil's run: extents (margin included), margin, NIn input arrays and
/// NOut output arrays of T, NScalar scalars; all values from Seed.
template <typename T, int Dims> class Case {
public:
  Case(const char *Name, unsigned Seed, const int (&Extent)[Dims], int Margin, int NIn, int NOut,
       int NScalar, double CudaTolerance)
      : Name(Name), Seed(Seed), Margin(Margin), Tolerance(CudaTolerance) {
    Count = 1;
    for (int D = 0; D < Dims; ++D) {
      Ext[D] = Extent[D];
      Count *= static_cast<std::size_t>(Extent[D]);
    }
    std::mt19937 Rng(Seed);
    // Inputs in [1, 2): positive and away from zero, so the generator's
    // error analysis holds; scalars in [0.5, 1.5).
    std::uniform_real_distribution<T> InDist(T(1), T(2)), ScalarDist(T(0.5), T(1.5));
    In.assign(NIn, std::vector<T>(Count));
    for (auto &A : In)
      for (T &V : A)
        V = InDist(Rng);
    for (int S = 0; S < NScalar; ++S)
      Scalar.push_back(ScalarDist(Rng));
    this->NOut = NOut;
  }

  /// Runs \p Launch(loop, inputs, outputs) on every enabled engine.
  template <typename F> void run(const Options &O, F &&Launch) {
    ++totals().Stencils;
    std::vector<std::vector<T>> Ref = runHost<stencil::HostLoopEngine<Dims>>(Launch);
    if (O.OpenMP) {
      std::vector<std::vector<T>> Got =
          runHost<stencil::GeneratedLoopEngine<Dims, stencil::Backend::OpenMP>>(Launch);
      if (compareExact(Ref, Got))
        ++totals().OpenMPPass;
      else
        ++totals().OpenMPFail;
    }
    if (O.Cuda && stencil::deviceAvailable()) {
      std::vector<std::vector<T>> Got = runDevice(Launch);
      if (compareTolerance(Ref, Got))
        ++totals().CudaPass;
      else
        ++totals().CudaFail;
    }
  }

  std::vector<T> Scalar;

private:
  template <typename Engine> stencil::Loop<Dims, Engine> makeLoop() const {
    return loopOf<Dims, Engine>(Ext, Margin);
  }

  template <typename Engine, typename F> std::vector<std::vector<T>> runHost(F &Launch) {
    std::vector<std::vector<T>> InCopy = In;
    std::vector<std::vector<T>> Out(NOut, std::vector<T>(Count, std::numeric_limits<T>::quiet_NaN()));
    std::vector<const T *> InPtr;
    std::vector<T *> OutPtr;
    for (auto &A : InCopy)
      InPtr.push_back(A.data());
    for (auto &A : Out)
      OutPtr.push_back(A.data());
    auto Loop = makeLoop<Engine>();
    Launch(Loop, InPtr.data(), OutPtr.data());
    return Out;
  }

  template <typename F> std::vector<std::vector<T>> runDevice(F &Launch) {
    std::vector<std::unique_ptr<stencil::DeviceArray<T>>> DIn, DOut;
    std::vector<const T *> InPtr;
    std::vector<T *> OutPtr;
    const std::vector<T> Poison(Count, std::numeric_limits<T>::quiet_NaN());
    for (auto &A : In) {
      DIn.push_back(std::make_unique<stencil::DeviceArray<T>>(Count));
      DIn.back()->upload(A.data());
      InPtr.push_back(DIn.back()->data());
    }
    for (int I = 0; I < NOut; ++I) {
      DOut.push_back(std::make_unique<stencil::DeviceArray<T>>(Count));
      DOut.back()->upload(Poison.data());
      OutPtr.push_back(DOut.back()->data());
    }
    auto Loop = makeLoop<stencil::GeneratedLoopEngine<Dims, stencil::Backend::Cuda>>();
    Launch(Loop, InPtr.data(), OutPtr.data());
    stencil::deviceSynchronize();
    std::vector<std::vector<T>> Out(NOut, std::vector<T>(Count));
    for (int I = 0; I < NOut; ++I)
      DOut[I]->download(Out[I].data());
    return Out;
  }

  bool inside(std::size_t Linear) const {
    for (int D = 0; D < Dims; ++D) {
      const int P = static_cast<int>(Linear % Ext[D]);
      Linear /= Ext[D];
      if (P < Margin || P >= Ext[D] - Margin)
        return false;
    }
    return true;
  }

  void report(const char *Backend, int Array, std::size_t Linear, T Ref, T Got,
              const char *Why) const {
    std::printf("FAIL %s: stencil %s (seed %u) array out%d point %zu (%s): host %.17g, %s %.17g%s\n",
                Backend, Name, Seed, Array, Linear, inside(Linear) ? "region" : "margin",
                static_cast<double>(Ref), Backend, static_cast<double>(Got), Why);
  }

  bool compareExact(const std::vector<std::vector<T>> &Ref,
                    const std::vector<std::vector<T>> &Got) const {
    for (int A = 0; A < NOut; ++A)
      for (std::size_t I = 0; I < Count; ++I)
        if (!sameBits(Ref[A][I], Got[A][I])) {
          report("openmp", A, I, Ref[A][I], Got[A][I], " (not bit-exact)");
          return false;
        }
    return true;
  }

  bool compareTolerance(const std::vector<std::vector<T>> &Ref,
                        const std::vector<std::vector<T>> &Got) const {
    for (int A = 0; A < NOut; ++A)
      for (std::size_t I = 0; I < Count; ++I) {
        const T R = Ref[A][I], G = Got[A][I];
        if (!inside(I) || std::isnan(R)) {
          if (!sameBits(R, G)) {
            report("cuda", A, I, R, G, inside(I) ? " (host NaN)" : " (margin written)");
            return false;
          }
          continue;
        }
        const double Err = std::fabs(double(G) - double(R));
        const double Bound = Tolerance * std::fabs(double(R));
        if (Bound > 0 && Err / Bound > totals().WorstCudaRatio)
          totals().WorstCudaRatio = Err / Bound;
        if (!(Err <= Bound)) {
          char Why[96];
          std::snprintf(Why, sizeof(Why), " (relative error %.3g > tolerance %.3g)",
                        Err / std::fabs(double(R)), Tolerance);
          report("cuda", A, I, R, G, Why);
          return false;
        }
      }
    return true;
  }

  const char *Name;
  unsigned Seed;
  int Ext[Dims] = {};
  int Margin;
  double Tolerance;
  std::size_t Count = 0;
  int NOut = 0;
  std::vector<std::vector<T>> In;
};

/// Prints the program's totals; the exit status for main().
inline int summary(const Options &O) {
  const Totals &T = totals();
  if (O.RequireCuda && !stencil::deviceAvailable()) {
    std::printf("FAIL: --backend=cuda asked for, but %s\n",
                "no GPU or no generated CUDA code is present");
    return 1;
  }
  std::printf("stencils %d openmp %d/%d cuda %d/%d worst-cuda-error/tolerance %.3g\n", T.Stencils,
              T.OpenMPPass, T.OpenMPPass + T.OpenMPFail, T.CudaPass, T.CudaPass + T.CudaFail,
              T.WorstCudaRatio);
  return T.OpenMPFail || T.CudaFail ? 1 : 0;
}

} // namespace diff

#endif // STENCIL_DIFF_HARNESS_HPP
