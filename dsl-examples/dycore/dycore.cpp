// dycore.cpp - a 3-D non-hydrostatic dynamical core in the stencilc DSL:
// the compressible Euler equations in flux form for rho, rho u, rho v,
// rho w, rho theta and a tracer rho q on a C-grid, periodic in x and y,
// between a rigid ground and lid, with a limited upwind advection, pressure
// gradient and buoyancy against a 1-D base state, a 2-D surface heat flux,
// and SSP-RK3 in time (README.md).
//
//   dycore [--case=bubble|tracer|gravity-wave|acoustic-wave|rest]
//          [--size=X,Y,Z] [--steps=N] [--backend=auto|host|openmp|cuda]
//          [--procs=A,B,C] [--block=X,Y,Z] [--check]
//          [--test=mass|tracer|wave|rest] [--rounds]
//   mpirun -np P dycore ...          (openmp and cuda: one rank per GPU)
//
// A plain run prints the time per step and a checksum of the final state
// (the same for every rank count and decomposition). --check also runs the
// serial host reference on rank 0 and compares every prognostic array:
// bit-exact for openmp, within CudaTolerance for cuda. --test runs a
// physical check instead: mass (a), tracer (b), wave (c) or rest (the base
// state stays at rest). Exit status 0 when it passed, 1 when a check failed
// or on an error, 2 for bad options. --rounds then runs as many steps again
// with each round of a stage (a stencil alone, or a group stencilc fused)
// timed alone, and prints its mean time.
#include "dycore_checks.hpp"
#include "dycore_reference.hpp"
#if DYCORE_WITH_MPI
#include "dycore_distributed.hpp"
#endif

#include "../common/example_harness.hpp"

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using example::Backend;
using namespace dycore;

const example::ExampleInfo Info = {
    "dycore",
    "3-D compressible non-hydrostatic dynamical core",
    {32, 32, 16},
    10};

/// CUDA against the host reference, relative to each array's largest value.
/// p' is the difference of two pressures of 1e5 Pa, so a few ulp of CUDA's
/// pow and of FMA contraction (about 1e-11 Pa) are ~1e-11 of a perturbation
/// of a few Pa, and the momenta it drives inherit that; ten steps of three
/// stages add up thirty such errors (README).
constexpr double CudaTolerance = 1e-9;

struct Options {
  CaseKind Kind = CaseKind::Bubble;
  std::vector<long long> Size; ///< empty: the case's default
  int Steps = -1; ///< -1: 10, or 1000 for --test=mass, 200 for rest
  Backend Requested = Backend::Auto;
  bool Check = false;
  std::string Test; ///< "", mass, tracer or wave
  int Procs[3] = {0, 0, 0};
  int Block[3] = {64, 4, 1};
  bool Rounds = false;
  bool Overlap = true;
};

void printUsage(std::FILE *Out) {
  std::fprintf(
      Out,
      "%s: %s\n"
      "usage: dycore [--case=bubble|tracer|gravity-wave|acoustic-wave|rest]\n"
      "              [--size=X,Y,Z] [--steps=N] "
      "[--backend=auto|host|openmp|cuda]\n"
      "              [--procs=A,B,C] [--block=X,Y,Z] [--check]\n"
      "              [--test=mass|tracer|wave|rest] [--rounds] [--no-overlap]\n"
      "  --case     what a plain run or --check computes (default bubble)\n"
      "  --size     grid points per dimension, x first (default: the case's)\n"
      "  --steps    time steps (default 10; 1000 for --test=mass, 200 for "
      "rest)\n"
      "  --backend  auto: cuda when a GPU is present, else openmp; host: the\n"
      "             serial reference (one process)\n"
      "  --procs    MPI ranks per dimension (0 = any, default 0,0,0)\n"
      "  --block    CUDA block of the launches (default 64,4,1)\n"
      "  --check    compare with the host reference (exit 1 if it differs)\n"
      "  --test     a physical check: mass (a) conservation, tracer (b) one\n"
      "             revolution, wave (c) gravity and acoustic frequencies,\n"
      "             rest: the base state stays at rest\n"
      "  --rounds   then time each round of a stage alone (a stencil, or a\n"
      "             fused group; openmp and cuda)\n"
      "  --no-overlap  each exchange completes before the round that needs it\n"
      "             (default: the round's interior runs while it travels)\n",
      Info.Name, Info.Summary);
}

[[noreturn]] void usageError(const std::string &Message) {
  std::fprintf(stderr, "dycore: error: %s\n", Message.c_str());
  printUsage(stderr);
  std::exit(2);
}

std::vector<long long> numbers(const std::string &Option,
                               const std::string &Text, long long Min) {
  std::vector<long long> V;
  std::size_t Start = 0;
  while (Start <= Text.size()) {
    std::size_t Comma = Text.find(',', Start);
    if (Comma == std::string::npos)
      Comma = Text.size();
    long long N = 0;
    if (!example::parseInt(Text.substr(Start, Comma - Start), Min, N))
      usageError("bad " + Option + " '" + Text + "'");
    V.push_back(N);
    Start = Comma + 1;
  }
  return V;
}

Options parse(int Argc, char **Argv) {
  Options O;
  for (int A = 1; A < Argc; ++A) {
    const std::string Arg = Argv[A];
    const std::size_t Eq = Arg.find('=');
    const std::string Name = Arg.substr(0, Eq);
    const std::string Value = Eq == std::string::npos ? "" : Arg.substr(Eq + 1);
    if (Arg == "--help" || Arg == "-h") {
      printUsage(stdout);
      std::exit(0);
    } else if (Arg == "--check") {
      O.Check = true;
    } else if (Arg == "--rounds") {
      O.Rounds = true;
    } else if (Arg == "--no-overlap") {
      O.Overlap = false;
    } else if (Name == "--case") {
      bool Known = false;
      for (CaseKind K : AllCases)
        if (Value == caseName(K))
          O.Kind = K, Known = true;
      if (!Known)
        usageError("unknown case '" + Value + "'");
    } else if (Name == "--size") {
      O.Size = numbers(Name, Value, 1);
      if (O.Size.size() == 1)
        O.Size.assign(3, O.Size[0]);
      if (O.Size.size() != 3)
        usageError("--size takes 1 or 3 values");
    } else if (Name == "--steps") {
      O.Steps = static_cast<int>(numbers(Name, Value, 0).at(0));
    } else if (Name == "--procs" || Name == "--block") {
      const std::vector<long long> N =
          numbers(Name, Value, Name == "--procs" ? 0 : 1);
      if (N.size() != 3)
        usageError(Name + " takes 3 values");
      for (int D = 0; D < 3; ++D)
        (Name == "--procs" ? O.Procs : O.Block)[D] = static_cast<int>(N[D]);
    } else if (Name == "--backend") {
      // cuda-tuned is refused once the binary is known (run()).
      if (!example::parseBackend(Value, O.Requested))
        usageError("unknown backend '" + Value +
                   "' (auto, host, openmp or cuda)");
    } else if (Name == "--test") {
      if (Value != "mass" && Value != "tracer" && Value != "wave" &&
          Value != "rest")
        usageError("unknown test '" + Value + "' (mass, tracer, wave or rest)");
      O.Test = Value;
    } else {
      usageError("unknown option '" + Arg + "'");
    }
  }
  if (O.Check && !O.Test.empty())
    usageError("--check and --test are separate runs");
  if (O.Steps < 0)
    O.Steps = O.Test == "mass" ? 1000 : O.Test == "rest" ? 200 : 10;
  return O;
}

void printHeader(const Case &C, Backend B, const std::string &Where) {
  std::printf("dycore: case %s, %lldx%lldx%lld points (%.4g x %.4g x %.4g m), "
              "dt %.4g s, backend %s%s\n",
              caseName(C.kind()), C.extent(0), C.extent(1), C.extent(2),
              C.spacing(0), C.spacing(1), C.spacing(2), C.dt(),
              example::backendName(B), Where.c_str());
}

/// A plain run (or --check): time the steps, print a checksum of the state,
/// and with --check compare it with the host reference's.
template <typename Model>
int simulate(Model &M, const Case &C, const Options &O, Backend B) {
  initialize(M, C);
  // The first step makes the exchanges (buffers, and between GPUs the peer
  // mappings: tens of ms that vary from run to run), so with two steps or
  // more it runs before the clock starts.
  const int Untimed = O.Steps > 1 ? 1 : 0;
  for (int S = 0; S < Untimed; ++S)
    step(M);
  M.synchronize();
  const example::Stopwatch Clock;
  for (int S = Untimed; S < O.Steps; ++S)
    step(M);
  M.synchronize();
  const double Seconds = Clock.seconds();
  Global State = gatherState(M);
  if (!M.root())
    return 0;
  const int Timed = O.Steps - Untimed;
  std::printf("time per step: %.4f ms (%d steps%s, 13 stencils x 3 stages)\n",
              Timed ? Seconds / Timed * 1e3 : 0.0, Timed,
              Untimed ? " after the first" : "");
  std::printf("checksum: %016llx after %d steps\n",
              static_cast<unsigned long long>(checksum(State)), O.Steps);
  if (!O.Check)
    return 0;
  if (B == Backend::Host) {
    std::printf("check: host is the reference itself: nothing to compare\n");
    return 0;
  }
  ReferenceModel R(C);
  initialize(R, C);
  for (int S = 0; S < O.Steps; ++S)
    step(R);
  Global Ref = gatherState(R);
  const double Tolerance = example::runsOnGpu(B) ? CudaTolerance : 0.0;
  return compareWithReference(State, Ref, example::backendName(B), Tolerance)
             ? 0
             : 1;
}

/// --rounds: O.Steps more steps with each round of a stage timed alone.
template <typename Model> void timeRounds(Model &M, const Options &O) {
#if DYCORE_WITH_MPI
  if constexpr (std::is_same_v<Model, DistributedModel>) {
    M.timeRounds(true);
    for (int S = 0; S < O.Steps; ++S)
      step(M);
    if (M.root())
      for (const stencil::DomainStep::RoundTime &T : M.roundTimes())
        std::printf("round: %.4f ms %s (%ld runs)\n",
                    T.calls ? T.seconds / T.calls * 1e3 : 0.0, T.label.c_str(),
                    T.calls);
    M.timeRounds(false);
    return;
  }
#endif
  (void)O;
  if (M.root())
    std::printf("round: the host reference has no rounds\n");
}

/// Runs \p Body(model) for case \p C on backend \p B; returns rank 0's
/// status on every rank.
template <typename Fn>
int withModel(const Options &O, Backend B, const Case &C, Fn Body) {
  if (B == Backend::Host) {
    printHeader(C, B, " (serial reference)");
    ReferenceModel M(C);
    return Body(M);
  }
#if DYCORE_WITH_MPI
  stencil::DomainOptions DO;
  for (int D = 0; D < 3; ++D)
    DO.procs[D] = O.Procs[D];
  DO.periodic[0] = DO.periodic[1] = true;
  DO.memory =
      example::runsOnGpu(B) ? stencil::Memory::Device : stencil::Memory::Host;
  const stencil::Domain D(MPI_COMM_WORLD,
                          {C.extent(0), C.extent(1), C.extent(2)}, DO);
  DistributedModel M(D, C);
  M.loop().setBlock(O.Block[0], O.Block[1], O.Block[2]);
  M.overlap(O.Overlap);
  if (D.rank() == 0)
    printHeader(C, B,
                ", " + std::to_string(D.size()) + " ranks (" + D.procsText() +
                    "), halo " + M.halo().str(3) +
                    (M.halo().corners ? " with corners" : "") +
                    (example::runsOnGpu(B) ? ", GPU " + stencil::deviceName()
                                           : std::string()));
  int Status = Body(M);
  if (D.rank() == 0) {
    const stencil::GeneratedStep *E = stencil::findGeneratedStep(
        D.backend(), reinterpret_cast<const void *>(&rungeKuttaStage));
    std::printf("stage: %s, %s\n", E ? E->plan : "(no generated step)",
                !M.ran()      ? "not run (no step)"
                : M.ranPlan() ? "run as planned"
                              : "run call by call");
    std::printf("exchanges: rank 0 sends %zu bytes a stage, %d exchanges "
                "overlapped two-divided\n",
                M.bytesSent(), M.twoDivided());
    // STENCIL_STEP_PLAN=timed: each fused group as planned, by its
    // alternative strategy and as its calls alone.
    const auto &Choices = M.choices();
    for (std::size_t R = 0; E && R < Choices.size(); ++R) {
      const auto &C = Choices[R];
      const char *Names[] = {E->rounds[R].label, E->rounds[R].alternativeLabel, "apart"};
      if (C.cached)
        std::printf("choice: %s: kept in the tuning cache: %s\n", Names[0],
                    stencil::detail::StepWayNames[C.way]);
      if (!C.decided || !C.runs[0])
        continue;
      std::printf("choice:");
      for (int W = 0; W < 3; ++W)
        if (C.runs[W])
          std::printf(" %s %.4f ms,", Names[W], C.seconds[W] / C.runs[W] * 1e3);
      std::printf(" chosen %s\n", Names[C.way]);
    }
  }
  MPI_Bcast(&Status, 1, MPI_INT, 0, D.comm());
  return Status;
#else
  (void)O, (void)C, (void)Body;
  return 2; // resolveBackend admitted only host
#endif
}

int run(const Options &O) {
  Backend B = Backend::Host;
  if (!example::resolveBackend(Info, O.Requested, B))
    return 2;
  if (B == Backend::CudaTuned) {
    std::fprintf(stderr, "dycore: the distributed loop does not tune: use "
                         "--backend=cuda (and --block)\n");
    return 2;
  }
#if DYCORE_WITH_MPI
  int Ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &Ranks);
  if (B == Backend::Host && Ranks > 1)
    throw std::runtime_error("--backend=host is the serial reference: run it "
                             "on one rank");
#endif
  if (O.Test.empty()) {
    const Case C(O.Kind, O.Size);
    return withModel(O, B, C, [&](auto &M) {
      const int Status = simulate(M, C, O, B);
      if (O.Rounds)
        timeRounds(M, O);
      return Status;
    });
  }
  if (O.Test == "mass") {
    const Case C(CaseKind::Bubble, O.Size);
    return withModel(O, B, C, [&](auto &M) {
      return checkConservation(M, C, O.Steps) ? 0 : 1;
    });
  }
  if (O.Test == "rest") {
    const Case C(CaseKind::Rest, O.Size);
    return withModel(O, B, C,
                     [&](auto &M) { return checkRest(M, C, O.Steps) ? 0 : 1; });
  }
  if (O.Test == "tracer") {
    const Case C(CaseKind::Tracer, O.Size);
    return withModel(O, B, C,
                     [&](auto &M) { return checkTracer(M, C) ? 0 : 1; });
  }
  int Status = 0;
  for (CaseKind K : {CaseKind::GravityWave, CaseKind::AcousticWave}) {
    const Case C(K, O.Size);
    Status |=
        withModel(O, B, C, [&](auto &M) { return checkWave(M, C) ? 0 : 1; });
  }
  return Status;
}

} // namespace

int main(int argc, char **argv) {
  const Options O = parse(argc, argv);
#if DYCORE_WITH_MPI
  return stencil::runMpiMain(argc, argv, [&] { return run(O); });
#else
  return example::guardedMain(Info, [&] { return run(O); });
#endif
}
