// halo_state.cpp - the runtime refuses to run a stencil that would read a
// halo older than the own points around it (a forgotten or narrow exchange,
// one still in flight), on every rank alike, and accepts every program that
// reads current halos. On a domain periodic in x and z and walled in y, over
// 1 to 4 ranks (y exchanges only where it is split), each case's verdict is
// compared with the one expected (the values of accepted programs are the
// other MPI tests' concern: bit-equal to serial loops).
#include "halo_widths.hpp"
#include "periodic_grid.hpp"

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

struct Scale { // u from w at the centre: writes u, reads no halo
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *w,
                             double *u) const {
    u[idx.ix()] = 0.5 * w[idx.ix()] + 1.0;
  }
};
struct Lap { // v from u's six neighbours
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u,
                             double *v) const {
    v[idx.ix()] = u[idx.ix<-1, 0, 0>()] + u[idx.ix<1, 0, 0>()] +
                  u[idx.ix<0, -1, 0>()] + u[idx.ix<0, 1, 0>()] +
                  u[idx.ix<0, 0, -1>()] + u[idx.ix<0, 0, 1>()] -
                  6.0 * u[idx.ix()];
  }
};
struct AlongY { // v from u's neighbours in y only (a wall on few ranks)
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u,
                             double *v) const {
    v[idx.ix()] = u[idx.ix<0, -1, 0>()] - u[idx.ix<0, 1, 0>()];
  }
};
struct Diag { // v from u across x and z together: edges of the halo
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u,
                             double *v) const {
    v[idx.ix()] = u[idx.ix<1, 0, 1>()] - u[idx.ix()];
  }
};

struct Count { // a time loop's third field, counted up in place
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u,
                             double *un, double *w) const {
    w[idx.ix()] = w[idx.ix()] + 1.0;
    un[idx.ix()] = u[idx.ix()];
  }
};

STENCIL_STEP
void scaleStep(stencil::Step3D &s, const double *w, double *u) {
  s.run(Scale(), w, u);
}

namespace {
const long long X = 10, Y = 9, Z = 8;
long long wrap(long long a, long long n) { return PeriodicGrid::wrap(a, n); }
double initial(long long i, long long j, long long k) {
  return double(wrap(i, X) * 13 + j * 5 + wrap(k, Z) * 3 % 11) / 7.0;
}

/// The DomainError text of \p Body, or "" if it throws none.
std::string refusal(const std::function<void()> &Body) {
  try {
    Body();
  } catch (const stencil::DomainError &E) {
    return E.what();
  }
  return "";
}

stencil::DomainOptions options() {
  stencil::DomainOptions O;
  O.periodic[0] = O.periodic[2] = true;
  return O;
}
} // namespace

int main(int argc, char **argv) {
  return stencil::runMpiMain(argc, argv, [&] {
    const stencil::Domain d(MPI_COMM_WORLD, {X, Y, Z}, options());
    const stencil::Halo h =
        stencil::haloOf(d.backend(), Lap(), AlongY(), Diag(), Scale());
    stencil::Field<double> w(d, h, "w"), u(d, h, "u"), v(d, h, "v"),
        un(d, h, "un");
    w.fill(initial);
    stencil::DomainLoop loop(d);
    int failures = 0, cases = 0;
    // Runs \p Body and compares its refusal with \p Expect ("" for none):
    // every fragment of \p Expect must be in the message.
    auto expect = [&](const char *Case, std::vector<std::string> Expect,
                      const std::function<void()> &Body) {
      const std::string Got = refusal(Body);
      bool Ok = Got.empty() == Expect.empty();
      for (const std::string &Part : Expect)
        Ok = Ok && Got.find(Part) != std::string::npos;
      ++cases;
      if (!Ok) {
        ++failures;
        std::printf("rank %d, case %s: the verdict DIFFERS: got \"%s\"\n",
                    d.rank(), Case, Got.c_str());
      }
    };
    auto written = [&] { loop.run(Scale(), w, u); };
    const std::string lapReads =
        "stencil 'Lap' (DomainLoop::run) reads field 'u' x:1/1 y:" +
        std::string(d.exchanges(1) ? "1/1" : "0/0") + " z:1/1 around a point";

    expect("new field", {}, [&] { loop.run(Lap(), u, v); });
    expect("written, not exchanged",
           {lapReads, "its halo holds x:0/0",
            "of the values stencil 'Scale' "
            "(DomainLoop::run) wrote",
            "exchange it first"},
           [&] {
             written();
             loop.run(Lap(), u, v);
           });
    expect("written, exchanged", {}, [&] {
      written();
      stencil::HaloExchange ex(d);
      ex.append(u);
      ex.transfer();
      loop.run(Lap(), u, v);
    });
    expect("exchanged narrower than read",
           {lapReads, "its halo holds x:1/1 y:0/0 z:0/0"}, [&] {
             written();
             stencil::HaloExchange ex(d);
             ex.append(u, without(h, {1, 2}));
             ex.transfer();
             loop.run(Lap(), u, v);
           });
    {
      stencil::HaloExchange ex(d);
      ex.append(u);
      expect("read in flight",
             {lapReads, "an exchange filling that halo was started and not "
                        "completed"},
             [&] {
               written();
               ex.start();
               loop.run(Lap(), u, v);
             });
      expect("written in flight",
             {"stencil 'Scale' (DomainLoop::run) writes field 'u', whose "
              "exchange was started and not completed"},
             [&] { loop.run(Scale(), w, u); });
      ex.wait();
      expect("read after wait()", {}, [&] { loop.run(Lap(), u, v); });
    }
    expect("a centre-only read of a written field", {}, [&] {
      written();
      loop.run(Scale(), u, v);
    });
    expect("filled after written", {}, [&] {
      written();
      u.fill(initial);
      loop.run(Lap(), u, v);
    });
    expect("marked filled by the program", {}, [&] {
      written();
      u.markHaloFilled();
      loop.run(Lap(), u, v);
    });
    expect("the state follows swap()", {lapReads, "its halo holds x:0/0"}, [&] {
      u.fill(initial);
      loop.run(Scale(), w, un); // un written, u current
      u.swap(un);
      loop.run(Lap(), u, v);
    });
    // Only a dimension that exchanges can hold an old halo: y is a wall
    // unless it is split over ranks.
    std::vector<std::string> yReads;
    if (d.exchanges(1))
      yReads = {"stencil 'AlongY' (DomainLoop::run) reads field 'u' x:0/0 "
                "y:1/1 z:0/0 around a point"};
    expect("read along a wall", yReads, [&] {
      written();
      loop.run(AlongY(), u, v);
    });
    // Diag after u is written and exchanged with or without corners.
    auto diagAfterExchange = [&](bool corners) {
      written();
      stencil::HaloExchange ex(d);
      stencil::Halo widths = h;
      widths.corners = corners;
      ex.append(u, widths);
      ex.transfer();
      loop.run(Diag(), u, v);
    };
    expect("diagonal, faces only exchanged",
           {"stencil 'Diag' (DomainLoop::run) reads field 'u' x:0/1 y:0/0 "
            "z:0/1 with corners around a point",
            "without those corners"},
           [&] { diagAfterExchange(false); });
    expect("diagonal, corners exchanged", {}, [&] { diagAfterExchange(true); });
    expect("widths with corners, a field without",
           {"field 'nc' has halo x:1/1", "without corners", "ask for corners"},
           [&] {
             const stencil::Halo faces =
                 stencil::Halo::of({{1, 1}, {1, 1}, {1, 1}, {0, 0}}, false);
             stencil::Field<double> nc(d, faces, "nc");
             stencil::HaloExchange ex(d);
             stencil::Halo widths = faces;
             widths.corners = true;
             ex.append(nc, widths);
           });
    expect("written by a step",
           {lapReads, "of the values step 'scaleStep' (DomainStep::run) "
                      "wrote"},
           [&] {
             u.fill(initial);
             stencil::DomainStep step(loop);
             step.run(scaleStep, w, u);
             loop.run(Lap(), u, v);
           });
    expect("read by a step, not written", {}, [&] {
      w.fill(initial);
      stencil::DomainStep step(loop);
      step.run(scaleStep, w, u);
      loop.run(Lap(), w, v);
    });
    expect("a time loop's levels",
           {lapReads, "of the values stencil 'Lap' (DomainLoop::repeat) "
                      "wrote"},
           [&] {
             u.fill(initial);
             loop.repeat(2, Lap(), stencil::previousLevel(u),
                         stencil::nextLevel(un));
             loop.run(Lap(), u, v);
           });
    expect("a time loop's third field",
           {"stencil 'Lap' (DomainLoop::run) reads field 'w'",
            "of the values stencil 'Count' (DomainLoop::repeat) wrote"},
           [&] {
             w.fill(initial);
             loop.repeat(2, Count(), stencil::previousLevel(u),
                         stencil::nextLevel(un), w);
             loop.run(Lap(), w, v);
           });
    // Exchanges by dimension: one in flight blocks only the reads of the
    // halo it fills; corners from two appends each hold their own.
    {
      stencil::HaloExchange x(d), y(d), z(d);
      stencil::HaloExchange *byDim[3] = {&x, &y, &z};
      for (int a = 0; a < 3; ++a) {
        stencil::Halo only = without(h, {(a + 1) % 3, (a + 2) % 3});
        only.corners = false;
        byDim[a]->append(u, only);
      }
      expect("another dimension in flight", {}, [&] {
        written();
        byDim[1]->transfer();
        byDim[0]->start();
        loop.run(AlongY(), u, v);
        byDim[0]->wait();
        byDim[2]->transfer();
        loop.run(Lap(), u, v);
      });
      std::vector<std::string> yFlying;
      if (d.exchanges(1))
        yFlying = {"stencil 'AlongY'",
                   "an exchange filling that halo was started"};
      expect("the dimension read in flight", yFlying, [&] {
        written();
        byDim[0]->transfer();
        byDim[1]->start();
        loop.run(AlongY(), u, v);
      });
      byDim[1]->wait();
    }
    expect("corners from two appends", {}, [&] {
      written();
      stencil::HaloExchange ex(d);
      ex.append(u, without(h, {2}));
      ex.append(u, without(h, {1}));
      ex.transfer();
      loop.run(Diag(), u, v);
    });
    // Storage changed, or an exchange misused, while one is in flight.
    {
      stencil::HaloExchange ex(d);
      ex.append(u);
      ex.start();
      expect("swap in flight",
             {"swap of field 'u', whose exchange was started and not "
              "completed"},
             [&] { u.swap(un); });
      expect("fill in flight", {"fill or upload of field 'u', whose exchange"},
             [&] { u.fill(initial); });
      expect("start twice", {"HaloExchange: start() again before wait()"},
             [&] { ex.start(); });
      expect("a time loop writing a level in flight",
             {"stencil 'Lap' (DomainLoop::repeat) writes field 'u', whose "
              "exchange"},
             [&] {
               loop.repeat(1, Lap(), stencil::previousLevel(un),
                           stencil::nextLevel(u));
             });
      ex.wait();
      expect("wait without start", {"HaloExchange: wait() without start()"},
             [&] { ex.wait(); });
    }

    // A CompCommBinder: what its exchange does not fill must be current.
    // (A field never swapped, which the binder's own check passes.)
    expect("binder, a field written elsewhere and not exchanged",
           {"CompCommBinder: stencil 'Lap' reads field 'g'",
            "but the exchange does not hold it, and its halo holds",
            "of the values stencil 'Scale' (DomainLoop::run) wrote"},
           [&] {
             stencil::Field<double> g(d, h, "g");
             loop.run(Scale(), w, g);
             stencil::HaloExchange ex(d);
             ex.append(w);
             stencil::CompCommBinder binder(loop, ex);
             binder.set_post_func(Lap(), g, v);
             binder.run();
           });
    expect("binder, the field exchanged", {}, [&] {
      written();
      stencil::HaloExchange ex(d);
      ex.append(u);
      stencil::CompCommBinder binder(loop, ex);
      binder.set_post_func(Lap(), u, v);
      binder.run();
      binder.run(false);
    });

    if (d.rank() == 0 && !failures)
      std::printf("halo state on %d ranks: %d verdicts as expected\n", d.size(),
                  cases);
    return failures ? 1 : 0;
  });
}
