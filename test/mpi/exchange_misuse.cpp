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
//
// Each ends with "done" on rank 0 after the halos hold the neighbours'
// values.
#include <stencil/mpi.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

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
    } else {
      throw std::invalid_argument(
          "mode: in-the-loop, late-neighbour or late-first");
    }
    const int holds = haloHolds(f, domain);
    int all = 0;
    MPI_Allreduce(&holds, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (domain.rank() == 0)
      std::printf(all ? "done\n" : "the halo DIFFERS\n");
    return all ? 0 : 1;
  });
}
