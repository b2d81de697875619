// seed001.cpp - seed 001's listings over MPI ranks: its Diffusion3d functor
// (section 5.1.1, with seed 000's coefficients where the extracted text
// repeats `ce*`; see test/e2e/seed) and its exchange (section 5.1.3) as
// printed,
//
//   BoundaryExchange *exchange = domain.exchange();
//   exchange->append(array1); ... exchange->transfer();
//
// with the arrays Fields of the domain and unqualified names from
// <stencil/seed_compat.hpp>, included before or after <stencil/mpi.hpp>
// (SEED001_MPI_FIRST). The functor has no STENCIL_KERNEL and reaches the
// runtime through CompCommBinder (section 5.1.4's overlap) and haloOf only:
// stencilc finds it there. Steps of the exchange and the binder, with and
// without overlap, are compared bit for bit with a serial loop over the
// periodic grid written here.
#ifdef SEED001_MPI_FIRST
#include <stencil/mpi.hpp>
#include <stencil/seed_compat.hpp>
#else
#include <stencil/mpi.hpp>
#include <stencil/seed_compat.hpp>
#endif

#include "periodic_grid.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

// clang-format off
// ---- seed 001, section 5.1.1 (coefficients as seed 000's) ----
struct Diffusion3d {
  __host__ __device__
  void operator()(const ArrayIndex3D &idx,
    float ce, float cw, float cn, float cs,
    float ct, float cb, float cc,
    const float *f, float *fn) {
    fn[idx.ix()] = cc*f[idx.ix()]
    +ce*f[idx.ix<1,0,0>()]+cw*f[idx.ix<-1,0,0>()]
    +cn*f[idx.ix<0,1,0>()]+cs*f[idx.ix<0,-1,0>()]
    +ct*f[idx.ix<0,0,1>()]+cb*f[idx.ix<0,0,-1>()];
  }
};
// ---- end of the listing ----
// clang-format on

// The same update, run by a DomainLoop after the exchange: Diffusion3d
// itself reaches the runtime only through the binder and haloOf.
void diffusion3dLoop(const ArrayIndex3D &idx, float ce, float cw, float cn,
                     float cs, float ct, float cb, float cc, const float *f,
                     float *fn) {
  fn[idx.ix()] = cc * f[idx.ix()] + ce * f[idx.ix<1, 0, 0>()] +
                 cw * f[idx.ix<-1, 0, 0>()] + cn * f[idx.ix<0, 1, 0>()] +
                 cs * f[idx.ix<0, -1, 0>()] + ct * f[idx.ix<0, 0, 1>()] +
                 cb * f[idx.ix<0, 0, -1>()];
}

namespace {
const long long nx = 13, ny = 7, nz = 5;
const int steps = 4;
const float ce = 0.11f, cw = 0.12f, cn = 0.13f, cs = 0.14f, ct = 0.15f,
            cb = 0.16f, cc = 1.0f - (ce + cw + cn + cs + ct + cb);

float initial(long long i, long long j, long long k) {
  // Periodic: a halo point outside [0, n) has the value of its image.
  i = PeriodicGrid::wrap(i, nx), j = PeriodicGrid::wrap(j, ny),
  k = PeriodicGrid::wrap(k, nz);
  return float((i * 31 + j * 17 + k * 7) % 23) / 23.0f;
}

/// The same steps by a plain loop over the periodic grid.
std::vector<float> serial() {
  const PeriodicGrid g{nx, ny, nz};
  std::vector<float> f(g.size()), fn(g.size());
  g.forEach([&](long long i, long long j, long long k) {
    f[g.at(i, j, k)] = initial(i, j, k);
  });
  for (int s = 0; s < steps; ++s) {
    g.forEach([&](long long i, long long j, long long k) {
      fn[g.at(i, j, k)] = cc * f[g.at(i, j, k)] + ce * f[g.at(i + 1, j, k)] +
                          cw * f[g.at(i - 1, j, k)] +
                          cn * f[g.at(i, j + 1, k)] +
                          cs * f[g.at(i, j - 1, k)] +
                          ct * f[g.at(i, j, k + 1)] + cb * f[g.at(i, j, k - 1)];
    });
    f.swap(fn);
  }
  return f;
}

/// \p steps steps on \p domain: the exchange and a loop (Overlap < 0), or
/// the binder with (1) or without (0) overlap.
std::vector<float> distributed(const Domain &domain, int Overlap) {
  const stencil::Halo h = stencil::haloOf(domain.backend(), Diffusion3d());
  stencil::Field<float> array1(domain, h, "f"), array2(domain, h, "fn");
  array1.fill(initial);
  array2.fill(initial);
  BoundaryExchange *exchange = domain.exchange();
  exchange->append(array1);
  stencil::DomainLoop loop(domain);
  CompCommBinder binder(loop, *exchange);
  binder.set_post_func(Diffusion3d(), ce, cw, cn, cs, ct, cb, cc, array1,
                       array2);
  for (int s = 0; s < steps; ++s) {
    if (Overlap < 0) {
      exchange->transfer();
      loop.run(diffusion3dLoop, ce, cw, cn, cs, ct, cb, cc, array1, array2);
    } else {
      binder.run(Overlap == 1);
    }
    array1.swap(array2);
  }
  loop.synchronize();
  return array1.gather();
}
} // namespace

int main(int argc, char **argv) {
  return stencil::runMpiMain(argc, argv, [&] {
    const Domain domain(MPI_COMM_WORLD, {nx, ny, nz}, PeriodicGrid::periodic());
    const std::vector<float> want =
        domain.rank() == 0 ? serial() : std::vector<float>();
    int failures = 0;
    for (int Overlap : {-1, 0, 1}) {
      const std::vector<float> got = distributed(domain, Overlap);
      if (domain.rank() == 0 &&
          (got.size() != want.size() ||
           std::memcmp(got.data(), want.data(), want.size() * sizeof(float)))) {
        std::printf("seed 001, %s: DIFFERS from the serial loop\n",
                    Overlap < 0 ? "exchange and loop"
                    : Overlap   ? "binder"
                                : "binder, no overlap");
        ++failures;
      }
    }
    if (domain.rank() == 0 && failures == 0)
      std::printf(
          "seed 001 on %d ranks: 3 checks bit-equal to the serial loop\n",
          domain.size());
    return failures ? 1 : 0;
  });
}
