// diffusion3d_mpi.cpp - the diffusion3d example on many ranks (and GPUs):
// seed 000's Diffusion3d functor, unchanged, on a Domain split over MPI ranks,
// with HaloExchange and CompCommBinder (seed 001).
//
//   mpirun -np P diffusion3d_mpi [--size=X,Y,Z] [--procs=A,B,C] [--periodic]
//       [--steps=N] [--memory=host|device] [--mode=check|bench|time-loop]
//       [--block=X,Y,Z] [--variant=grid|zmarch|zmarch2|smem]
//       [--per-exchange=K,...] [--pass=BX,BY,CHUNK] [--no-repeat-overlap]
//
// --variant     the variant of stencilc's CUDA code (default grid); for the
//               marching ones --block's third number is the z chunk, e.g.
//               --variant=zmarch2 --block=128,2,2.
//
// --mode=check  runs N overlapped steps and prints a checksum of the whole
//               result, identical for every rank count and decomposition
//               (u = 0 beyond non-periodic walls; the start is a hash of the
//               global coordinates).
// --mode=bench  times, per step and as the slowest rank sees it: compute only
//               (no exchange), exchange only, compute then exchange
//               (non-overlapped) and the one-divided-kernel overlap, like
//               seed 001's Fig. 4.
// --mode=time-loop  the steps as one time loop (DomainLoop::repeat), with
//               halos as deep as the largest K of --per-exchange (default
//               1,2,3,4): for each K, N steps exchanging every K steps (on a
//               GPU, passes of K steps where stencilc made them; --pass sets
//               their tile and chunk), timed after one warm-up loop, with
//               the checksum of both levels (identical for every rank count
//               and decomposition at one K). K = 0: the loop times each K
//               the halo allows (chooseStepsByTiming) and keeps the fastest.
//               Each exchange overlaps the steps (or the pass) of the
//               interior; --no-repeat-overlap: not (setRepeatOverlap).
#include <stencil/dsl.hpp>
#include <stencil/mpi.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

struct STENCIL_KERNEL Diffusion3d {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float ce, float cw,
                             float cn, float cs, float ct, float cb, float cc,
                             const float *f, float *fn) const {
    fn[idx.ix()] = cc * f[idx.ix()] + ce * f[idx.ix<1, 0, 0>()] +
                   cw * f[idx.ix<-1, 0, 0>()] + cn * f[idx.ix<0, 1, 0>()] +
                   cs * f[idx.ix<0, -1, 0>()] + ct * f[idx.ix<0, 0, 1>()] +
                   cb * f[idx.ix<0, 0, -1>()];
  }
};

namespace {

struct Options {
  std::vector<long long> size = {128, 128, 128};
  int procs[3] = {0, 0, 0};
  int block[3] = {64, 4, 1};
  bool periodic = false;
  int steps = 20;
  stencil::Memory memory = stencil::Memory::Host;
  std::string mode = "check";
  std::string variant = "grid";
  std::vector<long long> perExchange = {1, 2, 3, 4};
  int pass[3] = {0, 0, 0};
  bool repeatOverlap = true;
};

std::vector<long long> numbers(const std::string &Text) {
  std::vector<long long> V;
  std::stringstream S(Text);
  std::string Item;
  while (std::getline(S, Item, ','))
    V.push_back(std::stoll(Item));
  return V;
}

Options parse(int argc, char **argv) {
  Options O;
  for (int I = 1; I < argc; ++I) {
    const std::string A = argv[I];
    const std::string V =
        A.find('=') == std::string::npos ? "" : A.substr(A.find('=') + 1);
    if (A.rfind("--size=", 0) == 0) {
      O.size = numbers(V);
      if (O.size.size() == 1)
        O.size.assign(3, O.size[0]);
    } else if (A.rfind("--procs=", 0) == 0 || A.rfind("--block=", 0) == 0 ||
               A.rfind("--pass=", 0) == 0) {
      const std::vector<long long> N = numbers(V);
      int *To = A[2] == 'b' ? O.block : A[3] == 'r' ? O.procs : O.pass;
      for (int D = 0; D < 3 && D < static_cast<int>(N.size()); ++D)
        To[D] = static_cast<int>(N[D]);
    } else if (A.rfind("--per-exchange=", 0) == 0) {
      O.perExchange = numbers(V);
      for (long long K : O.perExchange)
        if (K < 0 || K > 16)
          throw std::runtime_error(
              "--per-exchange takes steps from 1 to 16, or 0 (timed)");
    } else if (A == "--periodic") {
      O.periodic = true;
    } else if (A == "--no-repeat-overlap") {
      O.repeatOverlap = false;
    } else if (A.rfind("--steps=", 0) == 0) {
      O.steps = std::atoi(V.c_str());
    } else if (A.rfind("--memory=", 0) == 0) {
      O.memory =
          V == "device" ? stencil::Memory::Device : stencil::Memory::Host;
    } else if (A.rfind("--mode=", 0) == 0 &&
               (V == "check" || V == "bench" || V == "time-loop")) {
      O.mode = V;
    } else if (A.rfind("--variant=", 0) == 0 && !V.empty()) {
      O.variant = V;
    } else {
      throw std::runtime_error(
          "usage: diffusion3d_mpi [--size=X,Y,Z] [--procs=A,B,C] "
          "[--periodic] [--steps=N] [--memory=host|device] "
          "[--mode=check|bench|time-loop] [--block=X,Y,Z] [--variant=NAME] "
          "[--per-exchange=K,...] [--pass=BX,BY,CHUNK] "
          "[--no-repeat-overlap] (got '" +
          A + "')");
    }
  }
  if (O.size.size() != 3)
    throw std::runtime_error("--size takes one or three extents");
  return O;
}

float initial(long long I, long long J, long long K, const stencil::Domain &D) {
  for (int A = 0; A < 3; ++A) {
    const long long G = A == 0 ? I : A == 1 ? J : K;
    if (!D.periodic(A) && (G < 0 || G >= D.globalExtent(A)))
      return 0.0f; // the walls
  }
  std::uint64_t H = static_cast<std::uint64_t>(I) * 73856093u ^
                    static_cast<std::uint64_t>(J) * 19349663u ^
                    static_cast<std::uint64_t>(K) * 83492791u;
  H *= 0x9E3779B97F4A7C15ull;
  return static_cast<float>((H >> 40) % 1000) / 1000.0f;
}

std::uint64_t fnv1a(const std::vector<float> &V) {
  std::uint64_t H = 1469598103934665603ull;
  const unsigned char *P = reinterpret_cast<const unsigned char *>(V.data());
  for (std::size_t I = 0; I < V.size() * sizeof(float); ++I)
    H = (H ^ P[I]) * 1099511628211ull;
  return H;
}

/// " (timed: K)", and the passes' tile and chunk where timed with them.
std::string timedText(const stencil::TemporalConfig &C) {
  std::string Text = " (timed: " + std::to_string(C.steps);
  if (C.block[0] > 0)
    Text += ", tile " + std::to_string(C.block[0]) + "x" +
            std::to_string(C.block[1]) + ", chunk " +
            std::to_string(C.block[2]);
  return Text + ")";
}

/// --mode=time-loop: for each K, the steps as one DomainLoop::repeat,
/// exchanging every K steps; ms per step (the slowest rank's) and the
/// checksum of both levels.
void timeLoops(const stencil::Domain &D, const Options &O) {
  long long Deepest = 1; // K = 0 (timed) chooses within the others' halo
  for (long long K : O.perExchange)
    Deepest = std::max(Deepest, K);
  const stencil::Halo H = stencil::deepHaloOf(
      D.backend(), static_cast<int>(Deepest), Diffusion3d());
  stencil::Field<float> U(D, H, "u"), Un(D, H, "un");
  stencil::DomainLoop Loop(D);
  Loop.setBlock(O.block[0], O.block[1], O.block[2]);
  Loop.setVariant(O.variant);
  Loop.setRepeatOverlap(O.repeatOverlap);
  const float Ce = 0.1f, Cc = 1.0f - 6.0f * Ce;
  const double Points = double(O.size[0]) * O.size[1] * O.size[2];
  for (long long K : O.perExchange) {
    stencil::TemporalConfig C;
    C.steps = static_cast<int>(K);
    for (int X = 0; X < 3; ++X)
      C.block[X] = O.pass[X];
    Loop.setTemporal(C);
    Loop.chooseStepsByTiming(K == 0); // in the warm-up loop
    double Ms = 0;
    for (int Run = 0; Run < 2; ++Run) { // a warm-up, then the timed one
      auto Start = [&](long long I, long long J, long long Kz) {
        return initial(I, J, Kz, D);
      };
      U.fill(Start);
      Un.fill(Start);
      Loop.synchronize();
      MPI_Barrier(D.comm());
      const auto T0 = std::chrono::steady_clock::now();
      Loop.repeat(O.steps, Diffusion3d(), Ce, Ce, Ce, Ce, Ce, Ce, Cc,
                  stencil::previousLevel(U), stencil::nextLevel(Un));
      Loop.synchronize();
      Ms = std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - T0)
               .count() /
           O.steps;
    }
    MPI_Allreduce(MPI_IN_PLACE, &Ms, 1, MPI_DOUBLE, MPI_MAX, D.comm());
    std::vector<float> Both = U.gather();
    const std::vector<float> Before = Un.gather();
    Both.insert(Both.end(), Before.begin(), Before.end());
    if (D.rank() == 0)
      std::printf("time-loop: ranks %d (%s) steps %d per-exchange %lld%s "
                  "overlap %s ms/step %.4f GCells/s %.1f checksum: %016llx\n",
                  D.size(), D.procsText().c_str(), O.steps, K,
                  K ? "" : timedText(Loop.lastTemporal()).c_str(),
                  O.repeatOverlap ? "on" : "off", Ms,
                  Points / (Ms * 1e-3) / 1e9,
                  static_cast<unsigned long long>(fnv1a(Both)));
  }
}

/// Milliseconds per call of Step, the slowest rank's.
template <typename Fn>
double timePerStep(const stencil::Domain &D, const stencil::DomainLoop &L,
                   int Steps, Fn Step) {
  for (int I = 0; I < 3; ++I)
    Step();
  L.synchronize();
  MPI_Barrier(D.comm());
  const auto T0 = std::chrono::steady_clock::now();
  for (int I = 0; I < Steps; ++I)
    Step();
  L.synchronize();
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - T0)
                  .count() /
              Steps;
  MPI_Allreduce(MPI_IN_PLACE, &Ms, 1, MPI_DOUBLE, MPI_MAX, D.comm());
  return Ms;
}

} // namespace

int main(int argc, char **argv) {
  return stencil::runMpiMain(argc, argv, [&] {
    const Options O = parse(argc, argv);
    stencil::DomainOptions DO;
    for (int A = 0; A < 3; ++A) {
      DO.procs[A] = O.procs[A];
      DO.periodic[A] = O.periodic;
    }
    DO.memory = O.memory;
    const stencil::Domain D(MPI_COMM_WORLD, O.size, DO);
    if (O.mode == "time-loop") {
      timeLoops(D, O);
      return 0;
    }
    stencil::Halo H = stencil::haloOf(D.backend(), Diffusion3d());
    H.corners = false; // a 7-point stencil reads no diagonal: faces only
    stencil::Field<float> U(D, H, "u"), Un(D, H, "un");
    auto Start = [&](long long I, long long J, long long K) {
      return initial(I, J, K, D);
    };
    U.fill(Start);
    Un.fill(Start);

    stencil::DomainLoop Loop(D);
    Loop.setBlock(O.block[0], O.block[1], O.block[2]);
    Loop.setVariant(O.variant);
    stencil::HaloExchange Exchange(D);
    Exchange.append(U);
    stencil::CompCommBinder Binder(Loop, Exchange);
    const float Ce = 0.1f, Cc = 1.0f - 6.0f * Ce;
    Binder.set_post_func(Diffusion3d(), Ce, Ce, Ce, Ce, Ce, Ce, Cc, U, Un);

    Exchange.transfer(Loop.stream()); // sets up buffers (and the transport)
    Loop.synchronize();
    if (D.rank() == 0)
      std::printf(
          "domain: %lldx%lldx%lld over %s ranks (%s), %s memory, kernel "
          "%s:%d,%d,%d, transport %s, %zu messages and %.3f MB sent per rank 0 "
          "exchange\n",
          O.size[0], O.size[1], O.size[2], D.procsText().c_str(),
          O.periodic ? "periodic" : "walls",
          O.memory == stencil::Memory::Device ? "device" : "host",
          O.variant.c_str(), O.block[0], O.block[1], O.block[2],
          stencil::transportName(Exchange.transport()), Exchange.messages(),
          Exchange.bytesSent() / 1e6);

    if (O.mode == "check") {
      for (int S = 0; S < O.steps; ++S) {
        Binder.run(true);
        U.swap(Un);
      }
      Loop.synchronize();
      const std::vector<float> All = U.gather();
      if (D.rank() == 0)
        std::printf("checksum: %016llx after %d steps\n",
                    static_cast<unsigned long long>(fnv1a(All)), O.steps);
      return 0;
    }

    // The computation alone, reading halos no exchange refreshed: a bound
    // stencil launched by hand (run() would refuse the old halos).
    const stencil::BoundStencil Alone =
        Loop.bind(Diffusion3d(), Ce, Ce, Ce, Ce, Ce, Ce, Cc, U, Un);
    const double Compute = timePerStep(D, Loop, O.steps, [&] {
      Loop.launch(Alone, Alone.own);
      U.swap(Un);
    });
    const double Exch = timePerStep(D, Loop, O.steps,
                                    [&] { Exchange.transfer(Loop.stream()); });
    const double Plain = timePerStep(D, Loop, O.steps, [&] {
      Binder.run(false);
      U.swap(Un);
    });
    const double Overlap = timePerStep(D, Loop, O.steps, [&] {
      Binder.run(true);
      U.swap(Un);
    });
    if (D.rank() == 0) {
      const double Points = double(O.size[0]) * O.size[1] * O.size[2];
      std::printf("bench: ranks %d steps %d ms/step: compute-only %.4f "
                  "exchange-only %.4f "
                  "non-overlapped %.4f overlapped %.4f\n",
                  D.size(), O.steps, Compute, Exch, Plain, Overlap);
      std::printf("bench: overlapped / max(compute, exchange) = %.3f; %.1f "
                  "GPoint/s overlapped\n",
                  Overlap / std::max(Compute, Exch),
                  Points / (Overlap * 1e-3) / 1e9);
    }
    return 0;
  });
}
