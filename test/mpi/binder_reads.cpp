// binder_reads.cpp - what a CompCommBinder's stencils read off the centre,
// on a periodic domain over 1 to 4 ranks, against a serial loop written
// here, value for value:
//   - a pre stencil reading a time level off the centre (the binder
//     exchanges its halo before the pre stencil; the exchange it is given
//     comes after), overlapped and not;
//   - a post stencil reading a constant mask off the centre that no exchange
//     holds (its halo is the one fill() gave it): accepted;
//   - a field written, then appended twice, faces split between the
//     appends, read across two exchanged dimensions: refused (neither append
//     fills the edges between them), as is a time level the exchange does
//     not hold, once the post stencil has written it;
//   - on a domain periodic in z only, a pre stencil reading across a wall
//     and z together, with the ranks along each dimension in turn: the
//     margin beyond the wall at a wrapped z is the one at z's other end,
//     whether or not the walled dimension is split (it was the fill value
//     where it was not).
#include "halo_widths.hpp"
#include "periodic_grid.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

struct Smooth { // pre: v from u, reading u off the centre
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u,
                             double *v) const {
    v[idx.ix()] = 0.5 * u[idx.ix()] + 0.25 * (u[idx.ix<1, 0, 0>()] +
                                              u[idx.ix<0, -1, 0>()]);
  }
};
struct Invert { // writes a mask
  STENCIL_HD void operator()(const stencil::Index3D &idx, const bool *a,
                             bool *b) const {
    b[idx.ix()] = !a[idx.ix()];
  }
};
struct Apply { // post: un from v (exchanged) and a constant mask
  STENCIL_HD void operator()(const stencil::Index3D &idx, const bool *mask,
                             const double *v, double *un) const {
    const double s = v[idx.ix<-1, 0, 0>()] + v[idx.ix<0, 1, 0>()] +
                     v[idx.ix<0, 0, 1>()];
    un[idx.ix()] = mask[idx.ix<1, 1, 0>()] ? s / 3.0 : v[idx.ix()];
  }
};

struct Across { // pre: reads across the walls of x and y and periodic z
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u,
                             double *v) const {
    v[idx.ix()] =
        u[idx.ix<0, -1, 1>()] + 2.0 * u[idx.ix<1, 0, -1>()] + 0.5 * u[idx.ix()];
  }
};
struct Keep { // post: reads v at the centre only
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *v,
                             double *w) const {
    w[idx.ix()] = v[idx.ix()];
  }
};

namespace {
const long long X = 10, Y = 9, Z = 8;
const int steps = 3;
long long wrap(long long a, long long n) { return PeriodicGrid::wrap(a, n); }
bool mask(long long i, long long j, long long k) {
  return (wrap(i, X) * 7 + wrap(j, Y) * 3 + wrap(k, Z)) % 4 != 0;
}
double initial(long long i, long long j, long long k) {
  return double(wrap(i, X) * 13 + wrap(j, Y) * 5 + wrap(k, Z) * 3 % 11) / 7.0;
}

std::vector<double> serial() {
  const PeriodicGrid g{X, Y, Z};
  std::vector<double> u(g.size()), v(g.size()), un(g.size());
  g.forEach([&](long long i, long long j, long long k) {
    u[g.at(i, j, k)] = initial(i, j, k);
  });
  for (int s = 0; s < steps; ++s) {
    g.forEach([&](long long i, long long j, long long k) {
      v[g.at(i, j, k)] = 0.5 * u[g.at(i, j, k)] +
                         0.25 * (u[g.at(i + 1, j, k)] + u[g.at(i, j - 1, k)]);
    });
    g.forEach([&](long long i, long long j, long long k) {
      const double t =
          v[g.at(i - 1, j, k)] + v[g.at(i, j + 1, k)] + v[g.at(i, j, k + 1)];
      un[g.at(i, j, k)] = mask(i + 1, j + 1, k) ? t / 3.0 : v[g.at(i, j, k)];
    });
    u.swap(un);
  }
  return u;
}

std::vector<double> bound(const stencil::Domain &d, bool overlap) {
  const stencil::Halo h = stencil::haloOf(d.backend(), Smooth(), Apply());
  stencil::Field<double> u(d, h, "u"), v(d, h, "v"), un(d, h, "un");
  stencil::Field<bool> m(d, h, "mask");
  u.fill(initial);
  m.fill(mask);
  stencil::DomainLoop loop(d);
  stencil::HaloExchange ex(d);
  ex.append(v);
  stencil::CompCommBinder binder(loop, ex);
  binder.set_pre_func(Smooth(), u, v);
  binder.set_post_func(Apply(), m, v, un);
  for (int s = 0; s < steps; ++s) {
    binder.run(overlap);
    u.swap(un);
  }
  loop.synchronize();
  return u.gather();
}

/// The margins beyond the walls of x and y, and the own points, as the
/// user sets them; what lies beyond z's ends is the exchange's to fill.
double walled(long long i, long long j, long long k) {
  return k < 0 || k >= Z ? -777.0 : double(i * 100 + j * 10 + k) / 8.0;
}

/// Across then Keep on a domain periodic in z only, its ranks laid out
/// along dimension \p Along; false where the result differs from a serial
/// loop (on rank 0).
bool acrossWalls(int Along, bool Overlap) {
  int Size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  stencil::DomainOptions o;
  o.procs[0] = o.procs[1] = o.procs[2] = 1;
  o.procs[Along] = Size;
  o.periodic[2] = true;
  const stencil::Domain d(MPI_COMM_WORLD, {X, Y, Z}, o);
  const stencil::Halo h = stencil::haloOf(d.backend(), Across(), Keep());
  stencil::Field<double> u(d, h, "u"), v(d, h, "v"), w(d, h, "w");
  u.fill(walled);
  stencil::DomainLoop loop(d);
  stencil::HaloExchange ex(d);
  ex.append(v);
  stencil::CompCommBinder binder(loop, ex);
  binder.set_pre_func(Across(), u, v);
  binder.set_post_func(Keep(), v, w);
  binder.run(Overlap);
  loop.synchronize();
  const std::vector<double> got = w.gather();
  if (d.rank() != 0)
    return true;
  std::vector<double> want(got.size());
  auto at = [](long long i, long long j, long long k) {
    return walled(i, j, wrap(k, Z));
  };
  for (long long k = 0; k < Z; ++k)
    for (long long j = 0; j < Y; ++j)
      for (long long i = 0; i < X; ++i)
        want[static_cast<std::size_t>((k * Y + j) * X + i)] =
            at(i, j - 1, k + 1) + 2.0 * at(i + 1, j, k - 1) + 0.5 * at(i, j, k);
  return std::memcmp(got.data(), want.data(), want.size() * sizeof(double)) ==
         0;
}

/// The DomainError text of \p Body, or "" if it throws none.
template <typename F> std::string refusal(F Body) {
  try {
    Body();
  } catch (const stencil::DomainError &E) {
    return E.what();
  }
  return "";
}
} // namespace

int main(int argc, char **argv) {
  return stencil::runMpiMain(argc, argv, [&] {
    const stencil::Domain d(MPI_COMM_WORLD, {X, Y, Z},
                            PeriodicGrid::periodic());
    const std::vector<double> want = serial();
    int failures = 0;
    for (bool overlap : {false, true}) {
      const std::vector<double> got = bound(d, overlap);
      if (d.rank() == 0 &&
          std::memcmp(got.data(), want.data(), want.size() * sizeof(double))) {
        std::printf("pre reading u off the centre, overlap %d: DIFFERS from "
                    "the serial loop\n", int(overlap));
        ++failures;
      }
    }
    for (int along = 0; along < 3; ++along)
      for (bool overlap : {false, true})
        if (!acrossWalls(along, overlap) && d.rank() == 0) {
          std::printf("pre reading across a wall and periodic z, ranks "
                      "along %c, overlap %d: DIFFERS from the serial loop\n",
                      "xyz"[along], int(overlap));
          ++failures;
        }
    // Refusals: faces split over two appends under a diagonal read, and a
    // time level (swapped) the exchange does not hold.
    const stencil::Halo h = stencil::haloOf(d.backend(), Apply());
    stencil::Field<bool> m(d, h, "mask"), m2(d, h, "mask2");
    stencil::Field<double> v(d, h, "v"), un(d, h, "un");
    const std::string split = refusal([&] {
      stencil::DomainLoop loop(d);
      loop.run(Invert(), m2, m); // its halo no longer holds its values
      stencil::HaloExchange ex(d);
      ex.append(m, without(h, {1}));
      ex.append(m, without(h, {0}));
      ex.append(v);
      stencil::CompCommBinder binder(loop, ex);
      binder.set_post_func(Apply(), m, v, un);
      binder.run();
    });
    const std::string missing = refusal([&] {
      stencil::DomainLoop loop(d);
      stencil::HaloExchange ex(d);
      ex.append(m);
      stencil::CompCommBinder binder(loop, ex);
      binder.set_post_func(Apply(), m, v, un);
      binder.run(); // v as filled
      v.swap(un);   // v: what the run wrote
      binder.run();
    });
    const bool splitOk =
        split.find("reads field 'mask'") != std::string::npos &&
        split.find("with corners around a point") != std::string::npos;
    const bool missingOk =
        missing.find("reads field 'v'") != std::string::npos &&
        missing.find("the exchange does not hold it, and its halo holds") !=
            std::string::npos &&
        missing.find("the values stencil 'Apply' (CompCommBinder::run) "
                     "wrote") != std::string::npos;
    if (d.rank() == 0 && (!splitOk || !missingOk)) {
      std::printf("refusals DIFFER from what is expected:\n  split: %s\n  "
                  "missing: %s\n", split.c_str(), missing.c_str());
      ++failures;
    }
    if (d.rank() == 0 && !failures)
      std::printf("binder reads on %d ranks: 8 runs bit-equal to the serial "
                  "loop, 2 refusals\n",
                  d.size());
    return failures ? 1 : 0;
  });
}
