// temporal_benchmark.cpp - time loops on the GPU: stencilc's passes of
// several steps (Loop::repeat) against the same stencil one step at a time,
// on AN5D's stencils and sizes (3-D at 512^3, 2-D at 16384^2 points inside
// a margin of the radius; see tools/temporal_gpu_run.sh, which times AN5D's
// own kernels in the same run).
//
//   temporal_benchmark [--cases=a,b] [--steps=N] [--quick] [--decayed]
//                      [--passes=T,U] [--chunks=C,D] [--tiles=XxY,...]
//                      [--size=N] [--tuned=N]
//
// A pass row's steps/pass is the most a pass takes: the N steps run as
// passes as even as can be and one step alone (the schedule is printed), as
// a time loop of N steps runs them.
//
// Per case: one step at a time (the plan's single-step variant), the plan's
// default pass, a search over steps per pass, tiles and chunks (--quick:
// the tuner's tiles and the plan's chunk; --passes, --chunks and --tiles:
// only those steps per pass, those chunks, those tiles), and the tuner's choice
// (DeviceAutoTuningLoopEngine, no cache: its time loops repeated until it has
// chosen, then timed); each the median of three runs of N steps after one
// warm-up run. Prints one line per configuration and a summary line per case,
// in GCells/s per time step (points inside the margin x steps / seconds).
// --tuned=N: only the tuner's choice, N times, each with a fresh tuner (how
// steady its choice is from run to run).
//
// Every run starts from the same input, uploaded before it: j2d5pt's weights
// sum to 0.42, so a field stepped on from run to run decays to denormals and
// zeros, where an IEEE division takes its slow path (more than twice the
// instructions of a pass). --decayed keeps the old way (each run goes on
// from the last) to show that.
#include <stencil/autotuning_engine.hpp>
#include <stencil/dsl.hpp>

#include "an5d_stencils.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Options {
  std::vector<std::string> Cases;
  int Steps = 0; // 0: per case
  long long Size = 0; // points a side inside the margin; 0: per case
  bool Quick = false;
  bool Decayed = false; // runs go on from the last run's field
  std::vector<int> Passes, Chunks; // empty: all steps per pass, per case
  std::vector<std::array<int, 2>> Tiles; // empty: per case
  int Tuned = 0; // > 0: only the tuner's choice, this many times
};

/// "a,b,c" split at its commas.
std::vector<std::string> splitList(const std::string &List) {
  std::vector<std::string> Out;
  for (std::size_t At = 0; At <= List.size();) {
    const std::size_t Comma = std::min(List.find(',', At), List.size());
    Out.push_back(List.substr(At, Comma - At));
    At = Comma + 1;
  }
  return Out;
}

/// "2,3" as numbers, each at least 1; false where one is not.
bool numberList(const std::string &List, std::vector<int> *Out) {
  for (const std::string &Item : splitList(List)) {
    char *End = nullptr;
    const long V = std::strtol(Item.c_str(), &End, 10);
    if (Item.empty() || *End != '\0' || V < 1 || V > 1 << 20)
      return false;
    Out->push_back(static_cast<int>(V));
  }
  return true;
}

/// "32x32,36x36" as tiles; false where one is not two numbers.
bool tileList(const std::string &List, std::vector<std::array<int, 2>> *Out) {
  for (const std::string &Item : splitList(List)) {
    const std::size_t X = Item.find('x');
    std::vector<int> Extents;
    if (X == std::string::npos ||
        !numberList(Item.substr(0, X) + "," + Item.substr(X + 1), &Extents))
      return false;
    Out->push_back({Extents[0], Extents[1]});
  }
  return true;
}

bool wanted(const Options &O, const std::string &Name) {
  return O.Cases.empty() ||
         std::find(O.Cases.begin(), O.Cases.end(), Name) != O.Cases.end();
}

/// One case: arrays of n^Dims points inside a margin of Radius, timed.
template <typename T, int Dims, typename StencilT> class Case {
public:
  Case(const char *Name, long long N, int Radius, int Steps, bool Decayed)
      : Name(Name), N(N), Radius(Radius), Steps(Steps), Decayed(Decayed) {
    Extent = N + 2 * Radius;
    long long Count = 1;
    for (int D = 0; D < Dims; ++D)
      Count *= Extent;
    Init.resize(static_cast<std::size_t>(Count));
    for (std::size_t I = 0; I < Init.size(); ++I)
      Init[I] = T(1) + T((I * 2654435761u) % 1000) / T(1000);
    A = std::make_unique<stencil::DeviceArray<T>>(Init.size());
    B = std::make_unique<stencil::DeviceArray<T>>(Init.size());
    reset(true);
  }

  /// Both arrays back to the input (unless runs go on decaying).
  void reset(bool Always = false) {
    if (Decayed && !Always)
      return;
    A->upload(Init.data());
    B->upload(Init.data());
  }

  /// GCells/s of Steps steps with \p PerPass (1: one at a time; 0: the
  /// plan's pass) and tile (bx, by, chunk), median of three after a warm-up.
  double time(int PerPass, int Bx, int By, int Chunk) {
    auto Loop = makeLoop<stencil::HostLoopEngine<Dims>>();
    stencil::GeneratedLoopEngine<Dims, stencil::Backend::Cuda> E(Loop.ranges());
    E.Temporal.steps = PerPass;
    E.Temporal.block[0] = Bx;
    E.Temporal.block[1] = By;
    E.Temporal.block[2] = Chunk;
    return rate([&](T *&P, T *&Q) {
      E.repeat(Steps, StencilT(), stencil::previousLevel(P),
               stencil::nextLevel(Q));
    });
  }

  /// The tuner's time loop (no cache): repeated until it has chosen how to
  /// run the steps (single steps tuned, then passes or not), then timed as
  /// time() times; \p Choice says what it chose.
  double tuned(std::string *Choice) {
    stencil::DeviceAutoTuningInfo Info;
    Info.useCache = false;
    Info.progress.quiet = true;
    auto Loop = makeLoop<stencil::DeviceAutoTuningLoopEngine<Dims>>();
    auto Repeat = [&](T *&P, T *&Q) {
      Loop.repeat(Steps, StencilT(), &Info, stencil::previousLevel(P),
                  stencil::nextLevel(Q));
    };
    for (int Call = 0; Call < 1000 && !Info.chosenPasses(); ++Call) {
      reset();
      T *P = A->data(), *Q = B->data();
      Repeat(P, Q);
    }
    if (!Info.chosenPasses())
      throw std::runtime_error("the tuner chose no way in 1000 time loops");
    *Choice = stencil::tuning::temporalText(*Info.chosenPasses());
    return rate(Repeat);
  }

  /// GCells/s of \p Repeat (Steps steps from A into B), the median of three
  /// runs after a warm-up.
  template <typename RepeatF> double rate(RepeatF Repeat) {
    std::vector<double> Times;
    for (int Run = 0; Run < 4; ++Run) {
      reset();
      T *P = A->data(), *Q = B->data();
      stencil::deviceSynchronize();
      const double Start = seconds();
      Repeat(P, Q);
      stencil::deviceSynchronize();
      if (Run > 0)
        Times.push_back(seconds() - Start);
    }
    std::sort(Times.begin(), Times.end());
    double Cells = 1;
    for (int D = 0; D < Dims; ++D)
      Cells *= double(N);
    return Cells * Steps / Times[1] / 1e9;
  }

  /// How the Steps steps run at \p PerPass a pass: passes as even as can
  /// be, so some may be shorter ("passes 17x3 + 4x2, 1 step alone").
  std::string scheduleText(int PerPass) const {
    std::vector<std::pair<int, int>> Runs; // (steps a pass, passes)
    for (int P : stencil::detail::passSchedule(Steps, PerPass)) {
      if (Runs.empty() || Runs.back().first != P)
        Runs.push_back({P, 0});
      ++Runs.back().second;
    }
    std::string Text = "passes";
    for (std::size_t I = 0; I < Runs.size(); ++I)
      Text += (I ? " + " : " ") + std::to_string(Runs[I].second) + "x" +
              std::to_string(Runs[I].first);
    return Text + ", 1 step alone";
  }
  /// Prints and returns the rate, or 0 where the configuration fails.
  double row(const char *Kind, int PerPass, int Bx, int By, int Chunk) {
    double Rate = 0;
    try {
      Rate = time(PerPass, Bx, By, Chunk);
    } catch (const std::exception &Error) {
      std::printf("%s %s steps/pass %d tile %dx%d chunk %d: failed: %s\n", Name,
                  Kind, PerPass, Bx, By, Chunk, Error.what());
      return 0;
    }
    // The pass kernel's registers and shared memory (the tuner's query).
    std::string Resources;
    stencil::KernelAttributes K;
    if (Temporal && PerPass > 1 && !Temporal->query(Bx, By, PerPass, &K))
      Resources = ", " + std::to_string(K.registers) + " registers, " +
                  std::to_string(K.sharedBytes / 1024) + " KiB shared";
    if (PerPass > 1)
      Resources += ", " + scheduleText(PerPass);
    std::printf("%s %s steps/pass %d tile %dx%d chunk %d: %.1f GCells/s%s\n",
                Name, Kind, PerPass, Bx, By, Chunk, Rate, Resources.c_str());
    std::fflush(stdout);
    return Rate;
  }

  void run(const Options &O) {
    const stencil::GeneratedStencil *E =
        stencil::generatedFor(stencil::Backend::Cuda, StencilT());
    const stencil::GeneratedTemporal *TE =
        E ? stencil::findGeneratedTemporal(*E, 0, 1) : nullptr;
    Temporal = TE;
    if (!TE) {
      std::printf("%s: no temporal code\n", Name);
      return;
    }
    if (O.Tuned > 0) {
      std::vector<double> Rates;
      for (int Run = 1; Run <= O.Tuned; ++Run) {
        std::string Choice;
        Rates.push_back(tuned(&Choice));
        std::printf("%s tuned, tuner %d of %d: %.1f GCells/s (%s)\n", Name, Run,
                    O.Tuned, Rates.back(), Choice.c_str());
        std::fflush(stdout);
      }
      std::sort(Rates.begin(), Rates.end());
      std::printf("SUMMARY %s: %d tuners, least %.1f, median %.1f, most %.1f "
                  "GCells/s\n",
                  Name, O.Tuned, Rates.front(), Rates[Rates.size() / 2],
                  Rates.back());
      return;
    }
    const double Single = row("single", 1, 0, 0, 0);
    const double Default = row("default", 0, 0, 0, 0);
    double Best = Default;
    std::string BestText = "default";
    std::vector<std::array<int, 2>> Tiles =
        Dims == 3
            ? std::vector<std::array<int, 2>>{{32, 32},
                                              {64, 16},
                                              {32, 16},
                                              {64, 8}}
            : std::vector<std::array<int, 2>>{{256, 1}, {512, 1}, {1024, 1}};
    std::vector<int> Chunks = Dims == 3 ? std::vector<int>{64, 128, 512}
                                        : std::vector<int>{128, 256, 512};
    if (O.Quick) {
      // The tiles the tuner tries (compiled with constant extents), the
      // plan's chunk.
      Tiles = stencil::tuning::temporalTiles(*TE);
      Chunks = {TE->defaultBlock[2]};
    }
    if (!O.Chunks.empty())
      Chunks = O.Chunks;
    if (!O.Tiles.empty())
      Tiles = O.Tiles;
    for (int PerPass : O.Passes)
      if (PerPass < 2 || PerPass > TE->maxSteps)
        std::printf("%s: no passes of %d steps (stencilc's take 2 to %d)\n",
                    Name, PerPass, TE->maxSteps);
    for (int PerPass = 2; PerPass <= TE->maxSteps; ++PerPass)
      for (const auto &Tile : Tiles)
        for (int Chunk : Chunks) {
          if (!O.Passes.empty() && std::find(O.Passes.begin(), O.Passes.end(),
                                             PerPass) == O.Passes.end())
            continue;
          const double Rate = row("pass", PerPass, Tile[0], Tile[1], Chunk);
          if (Rate > Best) {
            Best = Rate;
            BestText = std::to_string(PerPass) + " steps/pass, tile " +
                       std::to_string(Tile[0]) + "x" + std::to_string(Tile[1]) +
                       ", chunk " + std::to_string(Chunk);
          }
        }
    std::string Choice = "failed";
    double Tuned = 0;
    try {
      Tuned = tuned(&Choice);
    } catch (const std::exception &Error) {
      Choice = std::string("failed: ") + Error.what();
    }
    std::printf("%s tuned: %.1f GCells/s (%s)\n", Name, Tuned, Choice.c_str());
    std::printf("SUMMARY %s: one step at a time %.1f, plan's default pass "
                "%.1f, best %.1f GCells/s (%s); best/one-step %.2f; tuned "
                "%.1f (%s), tuned/best %.2f\n",
                Name, Single, Default, Best, BestText.c_str(), Best / Single,
                Tuned, Choice.c_str(), Tuned / Best);
  }

private:
  template <typename Engine> auto makeLoop() const {
    const long long M = Radius, X = Extent;
    if constexpr (Dims == 2)
      return stencil::Loop2D<Engine>(X, M, M, X, M, M);
    else
      return stencil::Loop3D<Engine>(X, M, M, X, M, M, X, M, M);
  }

  const char *Name;
  long long N, Extent;
  int Radius, Steps;
  bool Decayed;
  std::vector<T> Init;
  std::unique_ptr<stencil::DeviceArray<T>> A, B;
  const stencil::GeneratedTemporal *Temporal = nullptr;
};

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    const std::string Arg = Argv[I];
    bool Bad = false;
    if (Arg.rfind("--cases=", 0) == 0) {
      O.Cases = splitList(Arg.substr(8));
    } else if (Arg.rfind("--passes=", 0) == 0) {
      Bad = !numberList(Arg.substr(9), &O.Passes);
    } else if (Arg.rfind("--chunks=", 0) == 0) {
      Bad = !numberList(Arg.substr(9), &O.Chunks);
    } else if (Arg.rfind("--tiles=", 0) == 0) {
      Bad = !tileList(Arg.substr(8), &O.Tiles);
    } else if (Arg.rfind("--size=", 0) == 0) {
      std::vector<int> Size;
      Bad = !numberList(Arg.substr(7), &Size) || Size.size() != 1;
      O.Size = Bad ? 0 : Size[0];
    } else if (Arg.rfind("--steps=", 0) == 0) {
      O.Steps = std::atoi(Arg.c_str() + 8);
    } else if (Arg.rfind("--tuned=", 0) == 0) {
      std::vector<int> Tuned;
      Bad = !numberList(Arg.substr(8), &Tuned) || Tuned.size() != 1;
      O.Tuned = Bad ? 0 : Tuned[0];
    } else if (Arg == "--quick") {
      O.Quick = true;
    } else if (Arg == "--decayed") {
      O.Decayed = true;
    } else {
      Bad = true;
    }
    if (Bad) {
      std::fprintf(
          stderr,
          "usage: %s [--cases=a,b] [--steps=N] [--quick] [--decayed] "
          "[--passes=T,U] [--chunks=C,D] [--tiles=XxY,...] [--size=N] "
          "[--tuned=N]\n",
          Argv[0]);
      return 2;
    }
  }
  if (!stencil::deviceAvailable()) {
    std::printf("temporal_benchmark: needs a GPU\n");
    return 2;
  }
  auto Steps = [&](int Default) { return O.Steps > 0 ? O.Steps : Default; };
  auto Size = [&](long long Default) { return O.Size > 0 ? O.Size : Default; };
  if (wanted(O, "star3d1r-f32"))
    Case<float, 3, Star3d1rF>("star3d1r-f32", Size(512), 1, Steps(60),
                              O.Decayed)
        .run(O);
  if (wanted(O, "star3d1r-f64"))
    Case<double, 3, Star3d1rD>("star3d1r-f64", Size(512), 1, Steps(40),
                               O.Decayed)
        .run(O);
  if (wanted(O, "box3d1r-f32"))
    Case<float, 3, Box3d1rF>("box3d1r-f32", Size(512), 1, Steps(40), O.Decayed)
        .run(O);
  if (wanted(O, "star3d2r-f32"))
    Case<float, 3, Star3d2rF>("star3d2r-f32", Size(512), 2, Steps(40),
                              O.Decayed)
        .run(O);
  if (wanted(O, "j2d5pt-f32"))
    // 60 steps: 0.42^60 of the input is still far from the denormals.
    Case<float, 2, J2d5ptF>("j2d5pt-f32", Size(16384), 1, Steps(60), O.Decayed)
        .run(O);
  return 0;
}
