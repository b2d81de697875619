// example_harness.hpp - what every dsl-example's main() shares: options,
// choice of backend, storage in host or GPU memory, checks against the host
// reference, and timing. Plain C++17: it builds with g++ alone.
//
// Options understood by every example:
//   --size=N[,N...]    interior points per dimension, x first (one value: all equal)
//   --steps=N          time steps
//   --backend=B        auto (cuda when a GPU and generated CUDA code are present,
//                      else openmp), openmp, cuda, cuda-tuned or host
//   --check            exit 1 when the chosen backend disagrees with the reference
//   --seed=N           reproduce a run (the default seed comes from std::random_device)
#ifndef STENCIL_EXAMPLE_HARNESS_HPP
#define STENCIL_EXAMPLE_HARNESS_HPP

#include <stencil/autotuning_engine.hpp>
#include <stencil/dsl.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace example {

/// Cuda runs the fixed-configuration engine (DeviceLoopEngine), CudaTuned
/// the auto-tuning one (DeviceAutoTuningLoopEngine); both the same generated
/// CUDA code on arrays in GPU memory.
enum class Backend { Auto, Host, OpenMP, Cuda, CudaTuned };

inline const char *backendName(Backend B) {
  switch (B) {
  case Backend::Auto:
    return "auto";
  case Backend::Host:
    return "host";
  case Backend::OpenMP:
    return "openmp";
  case Backend::Cuda:
    return "cuda";
  case Backend::CudaTuned:
    return "cuda-tuned";
  }
  return "?";
}

/// The backend named \p Value (as backendName spells it); false if none is.
inline bool parseBackend(const std::string &Value, Backend &B) {
  for (Backend Each : {Backend::Auto, Backend::Host, Backend::OpenMP, Backend::Cuda,
                       Backend::CudaTuned})
    if (Value == backendName(Each)) {
      B = Each;
      return true;
    }
  return false;
}

/// True for the backends that run generated CUDA code on arrays in GPU memory.
inline bool runsOnGpu(Backend B) { return B == Backend::Cuda || B == Backend::CudaTuned; }

/// What an example is and its defaults, for --help and option parsing.
struct ExampleInfo {
  const char *Name;
  const char *Summary;
  std::vector<int> DefaultSize; ///< Interior points per dimension; its length is the dimension.
  int DefaultSteps;
};

struct Options {
  std::vector<int> Size;
  int Steps = 0;
  Backend Requested = Backend::Auto;
  bool Check = false;
  unsigned Seed = 0;
};

inline void printUsage(const ExampleInfo &Info, std::FILE *Out) {
  std::string Def;
  for (std::size_t D = 0; D < Info.DefaultSize.size(); ++D)
    Def += (D ? "," : "") + std::to_string(Info.DefaultSize[D]);
  std::fprintf(Out,
               "%s: %s\n"
               "usage: %s [--size=N[,N...]] [--steps=N]\n"
               "          [--backend=auto|openmp|cuda|cuda-tuned|host] [--check] [--seed=N]\n"
               "  --size     interior points per dimension, x first (default %s)\n"
               "  --steps    time steps (default %d)\n"
               "  --backend  auto: cuda when a GPU is present, else openmp (default auto);\n"
               "             cuda: one fixed launch configuration (DeviceLoopEngine);\n"
               "             cuda-tuned: the auto-tuner picks the fastest configuration\n"
               "             (DeviceAutoTuningLoopEngine, cached in STENCIL_TUNING_CACHE,\n"
               "             default ~/.cache/stencilc/tuning.json)\n"
               "  --check    exit 1 when the backend disagrees with the host reference\n"
               "  --seed     seed of the random inputs (default: from std::random_device)\n",
               Info.Name, Info.Summary, Info.Name, Def.c_str(), Info.DefaultSteps);
}

[[noreturn]] inline void usageError(const ExampleInfo &Info, const std::string &Message) {
  std::fprintf(stderr, "%s: error: %s\n", Info.Name, Message.c_str());
  printUsage(Info, stderr);
  std::exit(2);
}

inline bool parseInt(const std::string &Text, long long Min, long long &Value) {
  char *End = nullptr;
  errno = 0;
  Value = std::strtoll(Text.c_str(), &End, 10);
  return !Text.empty() && *End == '\0' && errno == 0 && Value >= Min && Value <= 1000000000LL;
}

/// Parses the command line; prints usage and exits 2 on a bad option.
inline Options parseOptions(const ExampleInfo &Info, int Argc, char **Argv) {
  Options O;
  O.Size = Info.DefaultSize;
  O.Steps = Info.DefaultSteps;
  O.Seed = std::random_device()();
  for (int A = 1; A < Argc; ++A) {
    std::string Arg = Argv[A];
    std::string Value;
    const std::size_t Eq = Arg.find('=');
    const bool Takes = Arg.rfind("--size", 0) == 0 || Arg.rfind("--steps", 0) == 0 ||
                       Arg.rfind("--backend", 0) == 0 || Arg.rfind("--seed", 0) == 0;
    if (Eq != std::string::npos) {
      Value = Arg.substr(Eq + 1);
      Arg = Arg.substr(0, Eq);
    } else if (Takes && (Arg == "--size" || Arg == "--steps" || Arg == "--backend" ||
                         Arg == "--seed")) {
      if (A + 1 >= Argc)
        usageError(Info, "option '" + Arg + "' needs a value");
      Value = Argv[++A];
    }
    long long N = 0;
    if (Arg == "--help" || Arg == "-h") {
      printUsage(Info, stdout);
      std::exit(0);
    } else if (Arg == "--check" && Eq == std::string::npos) {
      O.Check = true;
    } else if (Arg == "--steps") {
      if (!parseInt(Value, 0, N))
        usageError(Info, "bad --steps '" + Value + "'");
      O.Steps = static_cast<int>(N);
    } else if (Arg == "--seed") {
      if (!parseInt(Value, 0, N) || N > 0xffffffffLL)
        usageError(Info, "bad --seed '" + Value + "'");
      O.Seed = static_cast<unsigned>(N);
    } else if (Arg == "--backend") {
      if (!parseBackend(Value, O.Requested))
        usageError(Info,
                   "unknown backend '" + Value + "' (auto, openmp, cuda, cuda-tuned or host)");
    } else if (Arg == "--size") {
      std::vector<int> Size;
      std::size_t Start = 0;
      while (Start <= Value.size()) {
        std::size_t Comma = Value.find(',', Start);
        if (Comma == std::string::npos)
          Comma = Value.size();
        if (!parseInt(Value.substr(Start, Comma - Start), 1, N))
          usageError(Info, "bad --size '" + Value + "'");
        Size.push_back(static_cast<int>(N));
        Start = Comma + 1;
      }
      if (Size.size() == 1)
        Size.assign(Info.DefaultSize.size(), Size[0]);
      if (Size.size() != Info.DefaultSize.size())
        usageError(Info, "--size takes 1 or " + std::to_string(Info.DefaultSize.size()) +
                             " values");
      O.Size = Size;
    } else {
      usageError(Info, "unknown option '" + std::string(Argv[A]) + "'");
    }
  }
  return O;
}

inline bool hasGeneratedCode(stencil::Backend B) {
  for (const stencil::GeneratedStencil &E : stencil::generatedStencils())
    if (E.backend == B)
      return true;
  return false;
}

/// Turns --backend=auto into a backend this binary can run, or explains on
/// stderr why the requested one cannot run here and returns false.
inline bool resolveBackend(const ExampleInfo &Info, Backend Requested, Backend &Chosen) {
  Chosen = Requested;
  if (Requested == Backend::Auto)
    Chosen = stencil::deviceAvailable() ? Backend::Cuda : Backend::OpenMP;
  if (Chosen == Backend::Host)
    return true;
  const bool Gpu = runsOnGpu(Chosen);
  const stencil::Backend Generated = Gpu ? stencil::Backend::Cuda : stencil::Backend::OpenMP;
  // The generated code's backend: cuda-tuned runs the cuda code.
  const char *GeneratedName = Gpu ? "cuda" : "openmp";
  if (stencil::generatedStencils().empty()) {
    std::fprintf(stderr,
                 "%s: backend '%s' needs stencilc's generated code, and this binary has none "
                 "(it was built without stencilc, e.g. with a C++ compiler alone): only "
                 "--backend=host runs here. Build it with CMake (stencilc_add_sources) to get "
                 "the openmp, cuda and cuda-tuned backends.\n",
                 Info.Name, backendName(Requested));
    return false;
  }
  if (!hasGeneratedCode(Generated)) {
    std::fprintf(stderr,
                 "%s: this binary has no generated %s code: build it with "
                 "stencilc_add_sources(... BACKENDS %s)%s\n",
                 Info.Name, GeneratedName, GeneratedName,
                 Gpu ? " in a project that enabled CUDA" : "");
    return false;
  }
  if (Gpu && !stencil::deviceAvailable()) {
    std::fprintf(stderr, "%s: backend '%s' needs a GPU, and none was found\n", Info.Name,
                 backendName(Chosen));
    return false;
  }
  return true;
}

/// One array, in host memory (host and openmp backends) or GPU memory (cuda,
/// cuda-tuned).
template <typename T> class Field {
public:
  Field(std::size_t Count, Backend Where) : count_(Count) {
    if (runsOnGpu(Where))
      device_ = std::make_unique<stencil::DeviceArray<T>>(Count);
    else
      host_.resize(Count);
  }
  T *data() { return device_ ? device_->data() : host_.data(); }
  void assign(const std::vector<T> &Values) {
    if (device_)
      device_->upload(Values.data());
    else
      host_ = Values;
  }
  std::vector<T> values() const {
    if (!device_)
      return host_;
    std::vector<T> Values(count_);
    device_->download(Values.data());
    return Values;
  }

private:
  std::size_t count_;
  std::vector<T> host_;
  std::unique_ptr<stencil::DeviceArray<T>> device_;
};

template <typename Engine> struct EngineTag {
  using type = Engine;
};

/// True for the auto-tuning engine, whose run() takes a DeviceAutoTuningInfo *
/// right after the stencil.
template <typename Engine> constexpr bool isAutoTuning = false;
template <int Dims>
constexpr bool isAutoTuning<stencil::DeviceAutoTuningLoopEngine<Dims>> = true;

/// The auto-tuner's state, one for the program: a later run of the same
/// stencil over the same region starts from what an earlier one tuned.
inline stencil::DeviceAutoTuningInfo &tuning() {
  static stencil::DeviceAutoTuningInfo Info;
  return Info;
}

/// Calls Body(EngineTag<E>()) with the engine E of backend B for Dims dimensions.
template <int Dims, typename F> void withEngine(Backend B, F &&Body) {
  switch (B) {
  case Backend::Cuda:
    Body(EngineTag<stencil::GeneratedLoopEngine<Dims, stencil::Backend::Cuda>>());
    break;
  case Backend::CudaTuned:
    Body(EngineTag<stencil::DeviceAutoTuningLoopEngine<Dims>>());
    break;
  case Backend::OpenMP:
    Body(EngineTag<stencil::GeneratedLoopEngine<Dims, stencil::Backend::OpenMP>>());
    break;
  default:
    Body(EngineTag<stencil::HostLoopEngine<Dims>>());
    break;
  }
}

/// Waits for the GPU when the backend launches asynchronously.
inline void synchronize(Backend B) {
  if (runsOnGpu(B))
    stencil::deviceSynchronize();
}

/// Before a timed run on cuda-tuned: repeats \p Run (a whole run, untimed)
/// until the auto-tuner has settled, so the time is the chosen configuration's
/// and not the candidates'. Nothing to do on the other backends, or once the
/// configuration came from the cache.
template <typename F> void settleTuning(Backend B, int Steps, F &&Run) {
  if (B != Backend::CudaTuned || Steps <= 0)
    return;
  // The tuner settles after at most OnlineTuner::Options::maxCalls calls;
  // the bound only guards against a tuner that never does.
  for (int Calls = 0; !tuning().settled() && Calls <= 4 * tuning().search.maxCalls;
       Calls += Steps)
    Run();
}

/// Prints what the auto-tuner chose for the last stencil run, and where from.
inline void reportTuning(Backend B) {
  if (B != Backend::CudaTuned)
    return;
  const stencil::DeviceAutoTuningInfo &T = tuning();
  using Source = stencil::DeviceAutoTuningInfo::Source;
  const stencil::tuning::Candidate *Chosen = T.chosen();
  if (!Chosen) {
    std::printf(T.settled() ? "auto-tuning: no configuration could run (%d calls)\n"
                            : "auto-tuning: not settled after %d calls\n",
                T.tuningCalls());
    return;
  }
  const std::string Name = stencil::tuning::toString(*Chosen);
  if (T.source() == Source::Cache)
    std::printf("auto-tuning: %s, from the tuning cache %s\n", Name.c_str(),
                T.cachePath.empty() ? stencil::tuning::defaultCachePath().c_str()
                                    : T.cachePath.c_str());
  else if (T.source() == Source::Forced)
    std::printf("auto-tuning: %s, forced by STENCIL_TUNING_FORCE\n", Name.c_str());
  else
    std::printf("auto-tuning: %s, tuned in %d calls\n", Name.c_str(), T.tuningCalls());
}

/// An output array before a run: NaN everywhere, so a point the generated
/// code fails to write cannot pass the check.
template <typename T> std::vector<T> poisoned(std::size_t Count) {
  return std::vector<T>(Count, std::numeric_limits<T>::quiet_NaN());
}

/// Random values in [Lo, Hi).
template <typename T> std::vector<T> randomValues(std::size_t Count, std::mt19937 &Rng, T Lo, T Hi) {
  std::uniform_real_distribution<double> Dist(Lo, Hi);
  std::vector<T> Values(Count);
  for (T &V : Values)
    V = static_cast<T>(Dist(Rng));
  return Values;
}

/// How far a result is from the reference. The relative error of a value is
/// |got - ref| / max|ref| over the array (the array's scale), so values near
/// zero do not inflate it.
struct Comparison {
  std::size_t Count = 0;
  std::size_t Differing = 0; ///< Values whose bits differ.
  std::size_t NonFinite = 0; ///< Values that are NaN or inf where the reference is finite.
  double MaxRelError = 0;
  std::size_t Worst = 0; ///< Index of the largest error.
  bool bitExact() const { return Differing == 0; }
};

template <typename T> Comparison compareArrays(const std::vector<T> &Ref, const std::vector<T> &Got) {
  Comparison C;
  C.Count = Ref.size();
  if (Got.size() != Ref.size()) {
    C.Differing = C.Count;
    C.MaxRelError = std::numeric_limits<double>::infinity();
    return C;
  }
  double Scale = 0;
  for (T V : Ref)
    if (std::isfinite(V))
      Scale = std::max(Scale, std::fabs(static_cast<double>(V)));
  if (Scale == 0)
    Scale = 1;
  for (std::size_t I = 0; I < Ref.size(); ++I) {
    if (std::memcmp(&Ref[I], &Got[I], sizeof(T)) == 0)
      continue;
    ++C.Differing;
    double Error;
    if (std::isfinite(Ref[I]) && !std::isfinite(Got[I])) {
      ++C.NonFinite;
      Error = std::numeric_limits<double>::infinity();
    } else {
      Error = std::fabs(static_cast<double>(Got[I]) - static_cast<double>(Ref[I])) / Scale;
      if (std::isnan(Error))
        Error = std::numeric_limits<double>::infinity();
    }
    if (Error > C.MaxRelError || C.Differing == 1) {
      C.MaxRelError = Error;
      C.Worst = I;
    }
  }
  return C;
}

/// The pass criterion: OpenMP runs the reference's operations in the same
/// order, so it must be bit-exact; nvcc contracts a*b+c into FMA, so CUDA may
/// differ by rounding.
template <typename T> double tolerance(Backend B) {
  if (!runsOnGpu(B))
    return 0;
  return sizeof(T) == sizeof(float) ? 1e-6 : 1e-12;
}

/// Prints the check of one array; returns whether it passed.
template <typename T>
bool reportCheck(const char *What, Backend B, const std::vector<T> &Ref, const std::vector<T> &Got) {
  const Comparison C = compareArrays(Ref, Got);
  const double Tol = tolerance<T>(B);
  const bool Pass = C.bitExact() || (C.NonFinite == 0 && C.MaxRelError <= Tol);
  if (C.bitExact()) {
    std::printf("check: %s: %s vs host reference: bit-exact (%zu values): PASS\n", What,
                backendName(B), C.Count);
  } else {
    std::printf("check: %s: %s vs host reference: %zu of %zu values differ, %zu not finite, "
                "max relative error %.3g at index %zu (tolerance %s): %s\n",
                What, backendName(B), C.Differing, C.Count, C.NonFinite, C.MaxRelError, C.Worst,
                Tol == 0 ? "bit-exact" : (sizeof(T) == sizeof(float) ? "1e-6" : "1e-12"),
                Pass ? "PASS" : "FAIL");
  }
  return Pass;
}

/// Prints the time per step of a run of \p Steps steps over \p Points points
/// that moved \p BytesPerPoint bytes per point and step.
inline void reportTime(Backend B, double Seconds, int Steps, double Points, double BytesPerPoint) {
  if (Steps <= 0) {
    std::printf("time per step: no steps run\n");
    return;
  }
  const double PerStep = Seconds / Steps;
  std::printf("time per step: %.4f ms (%s, %.1f Mpoint/s, %.1f GB/s effective)\n",
              PerStep * 1e3, backendName(B), Points / PerStep * 1e-6,
              Points * BytesPerPoint / PerStep * 1e-9);
}

class Stopwatch {
public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

private:
  std::chrono::steady_clock::time_point start_;
};

inline std::string sizeText(const std::vector<int> &Size) {
  std::string Text;
  for (std::size_t D = 0; D < Size.size(); ++D)
    Text += (D ? "x" : "") + std::to_string(Size[D]);
  return Text;
}

/// Prints the run's header: what runs where, and the seed to reproduce it.
inline void printHeader(const ExampleInfo &Info, const Options &O, Backend B) {
  std::printf("%s: %s\n", Info.Name, Info.Summary);
  std::printf("size %s (interior points), %d steps, backend %s", sizeText(O.Size).c_str(),
              O.Steps, backendName(B));
  if (O.Requested == Backend::Auto)
    std::printf(" (auto)");
  if (runsOnGpu(B))
    std::printf(", GPU: %s", stencil::deviceName().c_str());
  std::printf(", seed %u\n", O.Seed);
}

/// Runs the example's main body, turning runtime errors into a message and exit code 1.
template <typename F> int guardedMain(const ExampleInfo &Info, F &&Body) {
  try {
    return Body();
  } catch (const std::exception &E) {
    std::fprintf(stderr, "%s: error: %s\n", Info.Name, E.what());
    return 1;
  }
}

} // namespace example

#endif // STENCIL_EXAMPLE_HARNESS_HPP
