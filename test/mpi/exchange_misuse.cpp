// exchange_misuse.cpp - exchanges used in ways that waste memory or wait,
// where the runtime must say so and still compute (two ranks, host memory):
//
//   exchange_misuse in-the-loop     seed 001's `domain.exchange()` made every
//                                   step: rank 0 warns at the 1024th
//   exchange_misuse late-neighbour  rank 1 reaches an exchange 3 s after
//                                   rank 0, which says (after
//                                   STENCIL_MPI_HANG_WARN seconds) whom it
//                                   waits for, then completes
//   exchange_misuse late-first      the same at an exchange's first
//                                   transfer(), where the ranks check
//                                   that they exchange alike: rank 0 says
//                                   what it waits for there
//   exchange_misuse destroyed-in-flight  an exchange destroyed between
//                                   start() and wait() (as by an exception):
//                                   memory allocated after it keeps its
//                                   values (its receives were left posted
//                                   into its freed buffer), and a new
//                                   exchange of the field fills its halo
//   exchange_misuse interleaved     two exchanges of same-shaped fields,
//                                   started and waited in another order on
//                                   rank 1: each fills its own field's halo
//                                   (their messages matched each other's)
//
// Each ends with "done" on rank 0 after the halos hold the neighbours'
// values.
#include <stencil/mpi.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {
float value(long long i, long long j, long long k) {
  return static_cast<float>(i + 100 * j + 10000 * k);
}
/// 1 if \p f's halo point at x = -1 (local (0, 1, 1)) holds its periodic
/// neighbour's value, which fill() did not put there.
int haloHolds(const stencil::Field<float> &f, const stencil::Domain &d) {
  const std::vector<float> v = f.values();
  const stencil::Grid &g = f.grid();
  const long long nx = d.globalExtent(0);
  const long long i = ((g.origin[0] % nx) + nx) % nx;
  const float want = value(i, g.origin[1] + 1, g.origin[2] + 1);
  return v[static_cast<std::size_t>(g.extent[1] * g.extent[0] + g.extent[0])] ==
         want;
}
/// How many of \p f's face halo points (outside the own points along one
/// dimension) do not hold the periodic neighbour's value (times \p sign).
long wrongFaces(const stencil::Field<float> &f, const stencil::Domain &d,
                float sign) {
  const std::vector<float> v = f.values();
  const stencil::Grid &g = f.grid();
  long wrong = 0;
  std::size_t n = 0;
  for (long long k = 0; k < g.extent[2]; ++k)
    for (long long j = 0; j < g.extent[1]; ++j)
      for (long long i = 0; i < g.extent[0]; ++i, ++n) {
        const long long at[3] = {i, j, k};
        long long global[3];
        int outside = 0;
        for (int a = 0; a < 3; ++a) {
          outside += at[a] < 1 || at[a] >= g.extent[a] - 1; // halo 1
          const long long e = d.globalExtent(a);
          global[a] = ((g.origin[a] + at[a]) % e + e) % e;
        }
        wrong += outside == 1 &&
                 v[n] != sign * value(global[0], global[1], global[2]);
      }
  return wrong;
}
} // namespace

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  return stencil::runMpiMain(argc, argv, [&] {
    stencil::DomainOptions periodic;
    for (bool &p : periodic.periodic)
      p = true;
    const stencil::Domain domain(MPI_COMM_WORLD, {16, 6, 5}, periodic);
    const stencil::Halo h =
        stencil::Halo::of({{1, 1}, {1, 1}, {1, 1}, {0, 0}}, false);
    stencil::Field<float> f(domain, h, "f");
    f.fill(value);
    if (mode == "in-the-loop") {
      for (int step = 0; step < 1100; ++step) {
        stencil::HaloExchange *exchange = domain.exchange();
        exchange->append(f);
        exchange->transfer();
      }
    } else if (mode == "late-neighbour" || mode == "late-first") {
      stencil::HaloExchange exchange(domain);
      exchange.append(f);
      if (mode == "late-neighbour")
        exchange.transfer(); // (the first agrees on the exchange: a collective)
      if (domain.rank() == 1)
        std::this_thread::sleep_for(std::chrono::seconds(3));
      exchange.transfer();
    } else if (mode == "destroyed-in-flight") {
      {
        stencil::HaloExchange exchange(domain);
        exchange.append(f);
        exchange.transfer(); // set up: its buffers are allocated
        if (domain.rank() == 1)
          std::this_thread::sleep_for(std::chrono::milliseconds(300));
        exchange.start();
      } // destroyed in flight, on every rank
      std::vector<std::vector<float>> mine;
      for (int n = 16; n < 2048; ++n)
        mine.emplace_back(n, 42.0f);
      MPI_Barrier(MPI_COMM_WORLD);
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      MPI_Barrier(MPI_COMM_WORLD);
      long changed = 0;
      for (const std::vector<float> &v : mine)
        for (float x : v)
          changed += x != 42.0f;
      if (changed)
        std::printf("rank %d: %ld values of memory allocated after the "
                    "exchange DIFFER\n",
                    domain.rank(), changed);
      f.fill(value); // the halo as fill() leaves it: only an exchange wraps
      stencil::HaloExchange again(domain);
      again.append(f);
      again.transfer();
    } else if (mode == "interleaved") {
      const auto negative = [](long long i, long long j, long long k) {
        return -value(i, j, k);
      };
      stencil::Field<float> g(domain, h, "g");
      g.fill(negative);
      stencil::HaloExchange exchangeF(domain), exchangeG(domain);
      exchangeF.append(f);
      exchangeG.append(g);
      exchangeF.transfer(); // first transfers alike: the ranks agree
      exchangeG.transfer();
      f.fill(value); // the halos as fill() leaves them again
      g.fill(negative);
      if (domain.rank() == 1) {
        exchangeG.start();
        exchangeF.transfer();
        exchangeG.wait();
      } else {
        exchangeF.transfer();
        exchangeG.transfer();
      }
      const long wrongF = wrongFaces(f, domain, 1.0f),
                 wrongG = wrongFaces(g, domain, -1.0f);
      if (wrongF || wrongG)
        std::printf("rank %d: %ld of f's and %ld of g's halo points DIFFER\n",
                    domain.rank(), wrongF, wrongG);
    } else {
      throw std::invalid_argument("mode: in-the-loop, late-neighbour, "
                                  "late-first, destroyed-in-flight or "
                                  "interleaved");
    }
    const int holds = haloHolds(f, domain);
    int all = 0;
    MPI_Allreduce(&holds, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (domain.rank() == 0)
      std::printf(all ? "done\n" : "the halo DIFFERS\n");
    return all ? 0 : 1;
  });
}
