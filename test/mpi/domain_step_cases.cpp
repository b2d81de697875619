// domain_step_cases.cpp - steps written by hand for what DomainStep's fused
// groups must get right, each checked as gen_domain_steps.py's random ones
// are (domain_step_harness.hpp: host reference, one rank, every
// decomposition, periodic or not, overlap or not, plan and multi-kernel,
// fields one short of the plan, one Field for two arrays); one DomainStep
// over fields made again where the last were, with a wider halo; a measured
// choice among a fused group's ways (an alternative registered by hand); and
// bad input that must fail on every rank (--error, expect_error.cmake).
//
//   mpirun -np P domain_step_cases
//   mpirun -np 2 domain_step_cases --error step-plan-one-rank|
//       step-halo-one-rank|step-step-disagree|step-calls-halo|step-four-d|
//       step-timed-one-rank|step-recomputed-halo
#include "domain_step_harness.hpp"

#include <stencil/profile.hpp>

#include <optional>
#include <sstream>
#include <stdexcept>

// --- One producer, two consumers: the first fuses, the second reads what the
// producer stored (exchanged after the group).
STENCIL_KERNEL
void shiftX(const stencil::Index3D &idx, const double *a, double *x) {
  x[idx.ix()] = 0.5 * a[idx.ix<1, 0, 0>()] + a[idx.ix()];
}
STENCIL_KERNEL
void backX(const stencil::Index3D &idx, const double *x, double *y) {
  y[idx.ix()] = x[idx.ix<-1, 0, 0>()] + 0.25 * x[idx.ix<1, 0, 0>()];
}
STENCIL_KERNEL
void upY(const stencil::Index3D &idx, const double *x, const double *y,
         double *z) {
  z[idx.ix()] = x[idx.ix<0, 1, 0>()] * y[idx.ix()] + x[idx.ix<0, 0, -1>()];
}
STENCIL_STEP
void twoConsumers(stencil::Step3D &s, const double *a, double *x, double *y,
                  double *z) {
  s.run(shiftX, a, x);
  s.run(backX, x, y);
  s.run(upY, x, y, z);
}
template <typename R>
void twoConsumersRef(const R &s, const double *a, double *x, double *y,
                     double *z) {
  s.run(shiftX, a, x);
  s.run(backX, x, y);
  s.run(upY, x, y, z);
}

// --- A consumer reading its producer's output only at the centre (loaded
// where the producer just stored it), and another array off the centre.
STENCIL_KERNEL
void diag(const stencil::Index2D &idx, const float *a, float *x) {
  x[idx.ix()] = a[idx.ix<1, 1>()] - 0.5f * a[idx.ix<-1, 1>()];
}
STENCIL_KERNEL
void centreOnly(const stencil::Index2D &idx, const float *x, const float *b,
                float *y) {
  y[idx.ix()] = x[idx.ix()] * b[idx.ix<-1, 0>()] + b[idx.ix<0, 2>()];
}
STENCIL_STEP
void atCentre(stencil::Step2D &s, const float *a, const float *b, float *x,
              float *y) {
  s.run(diag, a, x);
  s.run(centreOnly, x, b, y);
}
template <typename R>
void atCentreRef(const R &s, const float *a, const float *b, float *x,
                 float *y) {
  s.run(diag, a, x);
  s.run(centreOnly, x, b, y);
}

// --- Two producers, not adjacent to their consumer (an unrelated call
// between), one of them reading a diagonal two points out; then the arrays a
// producer read are rewritten (anti dependence), and the consumer's output
// is updated in place.
STENCIL_KERNEL
void p1(const stencil::Index3D &idx, const float *a, float *x) {
  x[idx.ix()] = a[idx.ix<2, 0, -2>()] + a[idx.ix()];
}
STENCIL_KERNEL
void p2(const stencil::Index3D &idx, const float *b, float *z) {
  z[idx.ix()] = 0.75f * b[idx.ix<0, -1, 0>()];
}
STENCIL_KERNEL
void other(const stencil::Index3D &idx, const float *c, float *w) {
  w[idx.ix()] = c[idx.ix<0, 0, 1>()] * 1.25f;
}
STENCIL_KERNEL
void gather3(const stencil::Index3D &idx, const float *x, const float *z,
             const float *w, float *y) {
  y[idx.ix()] =
      x[idx.ix<-1, 0, 0>()] + z[idx.ix<0, 1, 1>()] + w[idx.ix()] + x[idx.ix()];
}
STENCIL_KERNEL
void rewrite(const stencil::Index3D &idx, const float *y, float *a, float *b) {
  a[idx.ix()] = y[idx.ix<0, -1, 0>()];
  b[idx.ix()] = 0.5f * y[idx.ix<1, 0, 0>()];
}
STENCIL_KERNEL
void inPlace(const stencil::Index3D &idx, const float *a, float *y) {
  y[idx.ix()] = 0.5f * y[idx.ix()] + a[idx.ix<0, 0, -1>()];
}
STENCIL_STEP
void fanIn(stencil::Step3D &s, float *a, float *b, const float *c, float *x,
           float *z, float *w, float *y) {
  s.run(p1, a, x);
  s.run(other, c, w);
  s.run(p2, b, z);
  s.run(gather3, x, z, w, y);
  s.run(rewrite, y, a, b);
  s.run(inPlace, a, y);
}
template <typename R>
void fanInRef(const R &s, float *a, float *b, const float *c, float *x,
              float *z, float *w, float *y) {
  s.run(p1, a, x);
  s.run(other, c, w);
  s.run(p2, b, z);
  s.run(gather3, x, z, w, y);
  s.run(rewrite, y, a, b);
  s.run(inPlace, a, y);
}

// --- A chain: the consumer of one group is read off the centre by the next
// call, which is itself fused with a producer of its own; profiles along z
// and in x and y, read off the centre by consumers, at the centre by a
// producer.
STENCIL_KERNEL
void withProfile(const stencil::Index3D &idx, const double *rho,
                 const double *a, double *x) {
  x[idx.ix()] = rho[idx.ix_z()] * a[idx.ix<0, 1, 0>()];
}
STENCIL_KERNEL
void useProfile(const stencil::Index3D &idx, const double *rho, const double *x,
                double *y) {
  y[idx.ix()] = rho[idx.ix_z<1>()] * x[idx.ix<0, -1, 0>()] +
                rho[idx.ix_z<-1>()] * x[idx.ix()];
}
STENCIL_KERNEL
void surface(const stencil::Index3D &idx, const double *ps, const double *b,
             double *z) {
  z[idx.ix()] = ps[idx.ix_xy()] + b[idx.ix<1, 0, 0>()];
}
STENCIL_KERNEL
void last(const stencil::Index3D &idx, const double *ps, const double *y,
          const double *z, double *out) {
  out[idx.ix()] =
      y[idx.ix<1, 1, 0>()] + z[idx.ix<-1, 0, 1>()] * ps[idx.ix_xy<1, -1>()];
}
STENCIL_STEP
void chain(stencil::Step3D &s, const double *rho, const double *ps,
           const double *a, const double *b, double *x, double *y, double *z,
           double *out) {
  s.run(withProfile, rho, a, x);
  s.run(useProfile, rho, x, y);
  s.run(surface, ps, b, z);
  s.run(last, ps, y, z, out);
}
template <typename R>
void chainRef(const R &s, const double *rho, const double *ps, const double *a,
              const double *b, double *x, double *y, double *z, double *out) {
  s.run(withProfile, rho, a, x);
  s.run(useProfile, rho, x, y);
  s.run(surface, ps, b, z);
  s.run(last, ps, y, z, out);
}

// --- A producer reading a profile along z two levels up, recomputed one
// level up by its consumer: the plan reads the rank's piece of the profile
// three levels beyond the own points (the fields' halo must say so).
STENCIL_KERNEL
void profileUp(const stencil::Index3D &idx, const float *rho, const float *a,
               float *x) {
  x[idx.ix()] = a[idx.ix()] * rho[idx.ix_z<2>()];
}
STENCIL_KERNEL
void levelUp(const stencil::Index3D &idx, const float *x, float *y) {
  y[idx.ix()] = x[idx.ix<0, 0, 1>()] + x[idx.ix()];
}
STENCIL_STEP
void profileReach(stencil::Step3D &s, const float *rho, const float *a,
                  float *x, float *y) {
  s.run(profileUp, rho, a, x);
  s.run(levelUp, x, y);
}
template <typename R>
void profileReachRef(const R &s, const float *rho, const float *a, float *x,
                     float *y) {
  s.run(profileUp, rho, a, x);
  s.run(levelUp, x, y);
}

// --- 2-D, radius 2 on the diagonals of producer and consumer (a halo of 4
// with corners), one-sided widths, a stencil run twice in a row.
STENCIL_KERNEL
void far(const stencil::Index2D &idx, const float *a, float *x) {
  x[idx.ix()] = a[idx.ix<2, 2>()] + a[idx.ix<-2, -2>()] + a[idx.ix<2, 0>()];
}
STENCIL_KERNEL
void farUse(const stencil::Index2D &idx, const float *x, float *y) {
  y[idx.ix()] = x[idx.ix<2, -2>()] * 0.5f + x[idx.ix<-2, 2>()];
}
STENCIL_KERNEL
void ahead(const stencil::Index2D &idx, const float *u, float *out) {
  out[idx.ix()] = u[idx.ix<1, 0>()] + 0.125f * u[idx.ix()];
}
STENCIL_STEP
void deep(stencil::Step2D &s, const float *a, float *x, float *y, float *p,
          float *q) {
  s.run(far, a, x);
  s.run(farUse, x, y);
  s.run(ahead, y, p);
  s.run(ahead, p, q);
}
template <typename R>
void deepRef(const R &s, const float *a, float *x, float *y, float *p,
             float *q) {
  s.run(far, a, x);
  s.run(farUse, x, y);
  s.run(ahead, y, p);
  s.run(ahead, p, q);
}

// --- Two read-only arrays, both read off the centre by one call (passed as
// one Field, the exchange appends it twice), and a 4-D step for --error.
STENCIL_KERNEL
void both(const stencil::Index3D &idx, const float *u, const float *q,
          float *x) {
  x[idx.ix()] = u[idx.ix<1, 0, 0>()] + 2.0f * q[idx.ix<0, 0, -1>()];
}
STENCIL_KERNEL
void after(const stencil::Index3D &idx, const float *x, const float *q,
           float *y) {
  y[idx.ix()] = x[idx.ix<0, 1, 0>()] + q[idx.ix<-1, 0, 0>()];
}
STENCIL_STEP
void readTwice(stencil::Step3D &s, const float *u, const float *v, float *x,
               float *y) {
  s.run(both, u, v, x);
  s.run(after, x, v, y);
}
template <typename R>
void readTwiceRef(const R &s, const float *u, const float *v, float *x,
                  float *y) {
  s.run(both, u, v, x);
  s.run(after, x, v, y);
}

// --- One Field for a read-only array and one a later call writes (no call
// reads one and writes the other): the graph's exchanges follow parameters,
// so p's halo along y went stale after q rewrote it through r.
STENCIL_KERNEL
void diffX(const stencil::Index3D &idx, const double *p, double *q) {
  q[idx.ix()] =
      p[idx.ix<1, 0, 0>()] - p[idx.ix<-1, 0, 0>()] + 0.5 * p[idx.ix()];
}
STENCIL_KERNEL
void sumYZ(const stencil::Index3D &idx, const double *q, double *r) {
  r[idx.ix()] = q[idx.ix<0, 1, 0>()] + q[idx.ix<0, 0, -1>()] * 0.25;
}
STENCIL_KERNEL
void mixY(const stencil::Index3D &idx, const double *p, const double *r,
          double *out) {
  out[idx.ix()] = p[idx.ix<0, -1, 0>()] * 3.0 + r[idx.ix<1, 0, 0>()];
}
STENCIL_STEP
void rewrittenAlias(stencil::Step3D &s, const double *p, double *q, double *r,
                    double *out) {
  s.run(diffX, p, q);
  s.run(sumYZ, q, r);
  s.run(mixY, p, r, out);
}
template <typename R>
void rewrittenAliasRef(const R &s, const double *p, double *q, double *r,
                       double *out) {
  s.run(diffX, p, q);
  s.run(sumYZ, q, r);
  s.run(mixY, p, r, out);
}

STENCIL_KERNEL
void w4(const stencil::Index4D &idx, const float *a, float *x) {
  x[idx.ix()] = a[idx.ix<0, 0, 0, 1>()];
}
STENCIL_KERNEL
void w4use(const stencil::Index4D &idx, const float *x, float *y) {
  y[idx.ix()] = x[idx.ix<1, 0, 0, -1>()];
}
STENCIL_STEP
void fourD(stencil::Step4D &s, const float *a, float *x, float *y) {
  s.run(w4, a, x);
  s.run(w4use, x, y);
}

// --- A fused group over fields whose halo holds what its rounds read (a at
// z 0..+1: f recomputed at k and k - 1 reads a at k + 1 and k) but not what
// its consumer reads of f (k - 1), which it reads from memory at the edge of
// what its producer's values are defined on: an error (--error
// step-recomputed-halo), not reads below the field.
STENCIL_KERNEL
void fluxZ(const stencil::Index3D &idx, const double *a, double *f) {
  f[idx.ix()] = 2.0 * a[idx.ix<0, 0, 1>()];
}
STENCIL_KERNEL
void divZ(const stencil::Index3D &idx, const double *f, const double *a,
          double *b) {
  b[idx.ix()] = a[idx.ix()] + 0.1 * (f[idx.ix()] - f[idx.ix<0, 0, -1>()]);
}
STENCIL_STEP
void fluxStep(stencil::Step3D &s, const double *a, double *f, double *b) {
  s.run(fluxZ, a, f);
  s.run(divZ, f, a, b);
}

namespace {

void runCases() {
  constexpr unsigned All3 = 7, All2 = 3;
  {
    const long long Ext[3] = {18, 17, 16};
    dstest::Case<double, 3> C("twoConsumers", 1u, Ext, {All3, All3, All3, All3},
                              {"a", "x", "y", "z"}, {});
    C.run(
        &twoConsumers,
        [](stencil::DomainStep &S, auto &A, bool O) {
          dstest::call(S, O, &twoConsumers, A.f(0), A.f(1), A.f(2), A.f(3));
        },
        [](const auto &R, auto &A) {
          twoConsumersRef(R, A.p(0), A.p(1), A.p(2), A.p(3));
        });
  }
  {
    const long long Ext[2] = {21, 18};
    dstest::Case<float, 2> C("atCentre", 2u, Ext, {All2, All2, All2, All2},
                             {"a", "b", "x", "y"}, {0, 1});
    C.run(
        &atCentre,
        [](stencil::DomainStep &S, auto &A, bool O) {
          dstest::call(S, O, &atCentre, A.f(0), A.f(1), A.f(2), A.f(3));
        },
        [](const auto &R, auto &A) {
          atCentreRef(R, A.p(0), A.p(1), A.p(2), A.p(3));
        });
  }
  {
    const long long Ext[3] = {17, 16, 19};
    dstest::Case<float, 3> C("fanIn", 3u, Ext,
                             {All3, All3, All3, All3, All3, All3, All3},
                             {"a", "b", "c", "x", "z", "w", "y"}, {});
    C.run(
        &fanIn,
        [](stencil::DomainStep &S, auto &A, bool O) {
          dstest::call(S, O, &fanIn, A.f(0), A.f(1), A.f(2), A.f(3), A.f(4),
                       A.f(5), A.f(6));
        },
        [](const auto &R, auto &A) {
          fanInRef(R, A.p(0), A.p(1), A.p(2), A.p(3), A.p(4), A.p(5), A.p(6));
        });
  }
  {
    const long long Ext[3] = {16, 18, 17};
    dstest::Case<double, 3> C(
        "chain", 4u, Ext, {4, 3, All3, All3, All3, All3, All3, All3},
        {"rho", "ps", "a", "b", "x", "y", "z", "out"}, {2, 3});
    C.run(
        &chain,
        [](stencil::DomainStep &S, auto &A, bool O) {
          dstest::call(S, O, &chain, static_cast<const double *>(A.p(0)),
                       static_cast<const double *>(A.p(1)), A.f(2), A.f(3),
                       A.f(4), A.f(5), A.f(6), A.f(7));
        },
        [](const auto &R, auto &A) {
          chainRef(R, A.p(0), A.p(1), A.p(2), A.p(3), A.p(4), A.p(5), A.p(6),
                   A.p(7));
        });
  }
  {
    const long long Ext[3] = {16, 16, 17};
    dstest::Case<float, 3> C("profileReach", 7u, Ext, {4, All3, All3, All3},
                             {"rho", "a", "x", "y"}, {});
    C.run(
        &profileReach,
        [](stencil::DomainStep &S, auto &A, bool O) {
          dstest::call(S, O, &profileReach, static_cast<const float *>(A.p(0)),
                       A.f(1), A.f(2), A.f(3));
        },
        [](const auto &R, auto &A) {
          profileReachRef(R, A.p(0), A.p(1), A.p(2), A.p(3));
        });
  }
  {
    const long long Ext[2] = {26, 20};
    dstest::Case<float, 2> C("deep", 5u, Ext, {All2, All2, All2, All2, All2},
                             {"a", "x", "y", "p", "q"}, {});
    C.run(
        &deep,
        [](stencil::DomainStep &S, auto &A, bool O) {
          dstest::call(S, O, &deep, A.f(0), A.f(1), A.f(2), A.f(3), A.f(4));
        },
        [](const auto &R, auto &A) {
          deepRef(R, A.p(0), A.p(1), A.p(2), A.p(3), A.p(4));
        });
  }
  {
    const long long Ext[3] = {16, 17, 16};
    dstest::Case<double, 3> C("rewrittenAlias", 8u, Ext,
                              {All3, All3, All3, All3}, {"p", "q", "r", "out"},
                              {0, 2});
    C.run(
        &rewrittenAlias,
        [](stencil::DomainStep &S, auto &A, bool O) {
          dstest::call(S, O, &rewrittenAlias, A.f(0), A.f(1), A.f(2), A.f(3));
        },
        [](const auto &R, auto &A) {
          rewrittenAliasRef(R, A.p(0), A.p(1), A.p(2), A.p(3));
        });
  }
  {
    const long long Ext[3] = {16, 16, 16};
    dstest::Case<float, 3> C("readTwice", 6u, Ext, {All3, All3, All3, All3},
                             {"u", "v", "x", "y"}, {0, 1});
    C.run(
        &readTwice,
        [](stencil::DomainStep &S, auto &A, bool O) {
          dstest::call(S, O, &readTwice, A.f(0), A.f(1), A.f(2), A.f(3));
        },
        [](const auto &R, auto &A) {
          readTwiceRef(R, A.p(0), A.p(1), A.p(2), A.p(3));
        });
  }
}

/// One DomainStep over fields made anew where the last ones were (the same
/// addresses) with a wider halo: the same bits as the first fields (its
/// exchanges must not be those of the first fields' halo).
void runFieldsMadeAgain() {
  stencil::DomainOptions O;
  O.periodic[0] = O.periodic[2] = true;
  const stencil::Domain D(MPI_COMM_WORLD, {16, 17, 18}, O);
  stencil::DomainLoop L(D);
  stencil::DomainStep S(L);
  std::optional<stencil::Field<double>> A, X, Y, Z;
  std::vector<double> Out[2];
  for (int Round = 0; Round < 2; ++Round) {
    stencil::Halo H = stencil::DomainStep::haloOf(D.backend(), &twoConsumers);
    for (int Ax = 0; Round == 1 && Ax < 3; ++Ax)
      ++H.lo[Ax], ++H.hi[Ax];
    A.reset(), X.reset(), Y.reset(), Z.reset();
    A.emplace(D, H, "a"), X.emplace(D, H, "x"), Y.emplace(D, H, "y"),
        Z.emplace(D, H, "z");
    A->fill([](long long I, long long J, long long K) {
      const long long G[4] = {(I + 16) % 16, J, (K + 18) % 18, 0};
      return dstest::valueAt(9, 0, G);
    });
    S.run(&twoConsumers, *A, *X, *Y, *Z);
    Out[Round] = Z->gather();
  }
  int Ok = D.rank() != 0 || std::memcmp(Out[0].data(), Out[1].data(),
                                        Out[0].size() * sizeof(double)) == 0;
  MPI_Bcast(&Ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  dstest::record(Ok, "twoConsumers, fields made again with a wider halo");
}

// --- DomainStep's measured choice among a fused group's ways. The OpenMP
// backend compiles no alternative strategy, so twoConsumers' entry is
// registered again for twinStep (the same function, not annotated) with an
// alternative for each fused group: its own kernel under the number N + g.
namespace twin {
stencil::GeneratedStep Real; ///< A copy: the registry may move its entries.
std::vector<stencil::GeneratedStepRound> Rounds;
long AlternativeLaunches = 0;
const char *launchGroup(int Group, const stencil::Grid &G, const stencil::Region &R,
                        const stencil::Region &V, const stencil::LaunchConfig &C,
                        void *const *Args) {
  if (Group >= Real.roundCount) {
    ++AlternativeLaunches;
    Group -= Real.roundCount;
  }
  return Real.launchGroup(Group, G, R, V, C, Args);
}
} // namespace twin
void twinStep(stencil::Step3D &s, const double *a, double *x, double *y, double *z) {
  twoConsumers(s, a, x, y, z);
}

void runAlternativeChoice() {
  stencil::DomainOptions O;
  O.periodic[2] = true;
  const stencil::Domain D(MPI_COMM_WORLD, {16, 17, 18}, O);
  const stencil::GeneratedStep *E =
      stencil::findGeneratedStep(D.backend(), reinterpret_cast<const void *>(&twoConsumers));
  if (!E)
    throw std::runtime_error("error: no generated entry for twoConsumers");
  twin::Real = *E;
  twin::Rounds.assign(E->rounds, E->rounds + E->roundCount);
  int Fused = 0;
  for (stencil::GeneratedStepRound &R : twin::Rounds)
    if (R.group >= 0) {
      R.alternative = E->roundCount + R.group;
      R.alternativeLabel = "twin";
      ++Fused;
    }
  stencil::GeneratedStep Twin = *E;
  Twin.functionKey = reinterpret_cast<const void *>(&twinStep);
  Twin.launchGroup = &twin::launchGroup;
  Twin.rounds = twin::Rounds.data();
  stencil::registerGeneratedStep(stencil::GeneratedAbiVersion, Twin);

  const stencil::Halo H = stencil::DomainStep::haloOf(D.backend(), &twoConsumers);
  stencil::Field<double> A(D, H, "a"), X(D, H, "x"), Y(D, H, "y"), Z(D, H, "z");
  stencil::Field<double> X2(D, H, "x2"), Y2(D, H, "y2"), Z2(D, H, "z2");
  A.fill([](long long I, long long J, long long K) {
    const long long G[4] = {I, J, (K + 18) % 18, 0};
    return dstest::valueAt(11, 0, G);
  });
  stencil::DomainLoop L(D);
  stencil::DomainStep Plain(L), Timed(L);
  const int Trials = 2;
  Timed.chooseByTiming(Trials, /*CachePath=*/""); // measured every time
  // One run before the measuring (it sets the choices up), three ways times
  // Trials, then runs the kept way.
  int Ok = Fused > 0;
  for (int Run = 0; Run < 1 + 3 * Trials + 2; ++Run) {
    Plain.run(&twoConsumers, A, X2, Y2, Z2);
    Timed.run(&twinStep, A, X, Y, Z);
    for (auto *F : {&X, &Y, &Z}) {
      const std::vector<double> Got = F->gather();
      const std::vector<double> Want = (F == &X ? X2 : F == &Y ? Y2 : Z2).gather();
      Ok = Ok && (D.rank() != 0 || std::memcmp(Got.data(), Want.data(),
                                               Got.size() * sizeof(double)) == 0);
    }
  }
  const auto &Choices = Timed.choices(&twinStep);
  for (int R = 0; R < E->roundCount; ++R) {
    if (E->rounds[R].group < 0)
      continue;
    const stencil::DomainStep::GroupChoice &C = Choices.at(R);
    Ok = Ok && C.decided && C.eligible[1] && C.eligible[2];
    for (int W = 0; W < 3; ++W)
      Ok = Ok && C.runs[W] == Trials && C.seconds[C.way] <= C.seconds[W];
  }
  // Each fused group ran its alternative Trials times, over one part or more.
  Ok = Ok && twin::AlternativeLaunches >= long(Fused) * Trials;
  MPI_Allreduce(MPI_IN_PLACE, &Ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  dstest::record(Ok, "twoConsumers measured as planned, by an alternative and apart");
}

/// twoConsumers over a 16^3 domain without wraps, its fields made.
struct TwoConsumersRun {
  const stencil::Domain D{MPI_COMM_WORLD, {16, 16, 16}, {}};
  const stencil::Halo H =
      stencil::DomainStep::haloOf(D.backend(), &twoConsumers);
  stencil::DomainLoop L{D};
  stencil::DomainStep S{L};
  stencil::Field<double> A{D, H, "a"}, X{D, H, "x"}, Y{D, H, "y"}, Z{D, H, "z"};
  void run() { S.run(&twoConsumers, A, X, Y, Z); }
};

/// STENCIL_STEP_PLAN empty on rank 0 and unset on the others: one setting
/// (dsl-reference.md), not ranks that disagree.
void runEmptyIsUnset() {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  TwoConsumersRun R;
  if (Rank == 0)
    setenv("STENCIL_STEP_PLAN", "", 1);
  else
    unsetenv("STENCIL_STEP_PLAN");
  R.run();
  unsetenv("STENCIL_STEP_PLAN");
  dstest::record(R.S.ranPlan(),
                 "STENCIL_STEP_PLAN empty on rank 0, unset elsewhere");
}

/// The profile's summary says how many DomainStep runs it has no row for,
/// call by call as by the plan: it said "0 launches" and nothing more for
/// runs call by call (their calls are the step's code, not the stencils').
void runProfiled() {
  TwoConsumersRun R;
  stencil::profile::enable();
  stencil::profile::reset();
  setenv("STENCIL_STEP_PLAN", "multi-kernel", 1);
  R.run();
  R.run();
  unsetenv("STENCIL_STEP_PLAN");
  R.run();
  std::ostringstream Summary;
  stencil::profile::report(Summary);
  stencil::profile::reset();
  stencil::profile::disable();
  dstest::record(Summary.str().find("not in the rows: 3 runs of steps over "
                                    "ranks (DomainStep") != std::string::npos,
                 "the profile says 3 DomainStep runs have no row");
  // Each rank's summary says whose it is (where there are several).
  int Rank = 0, Ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Ranks);
  const std::string Whose = Ranks > 1 ? "stencil profile (rank " +
                                            std::to_string(Rank) + " of " +
                                            std::to_string(Ranks) + "): "
                                      : "stencil profile: ";
  dstest::record(Summary.str().rfind(Whose, 0) == 0,
                 "the profile's summary begins '" + Whose + "'");
}

/// Bad input: every rank must report it (runMpiMain: "rank R: error:
/// stencil: ...") and exit non-zero, never hang.
void runError(const std::string &What) {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  stencil::DomainOptions O;
  O.periodic[0] = true;
  const stencil::Domain D(MPI_COMM_WORLD, {16, 16, 16}, O);
  const stencil::Halo H =
      stencil::DomainStep::haloOf(D.backend(), &twoConsumers);
  stencil::DomainLoop L(D);
  stencil::DomainStep S(L);
  if (What == "step-plan-one-rank" || What == "step-halo-one-rank") {
    // Rank 0 alone runs call by call: it would exchange other arrays at
    // other times than the others.
    stencil::Halo Mine = H;
    if (What == "step-halo-one-rank" && Rank == 0)
      Mine.hi[0] = 1; // the plan reads a 2 ahead in x (shiftX recomputed at +1)
    if (What == "step-plan-one-rank" && Rank == 0)
      setenv("STENCIL_STEP_PLAN", "multi-kernel", 1);
    stencil::Field<double> A(D, Mine, "a"), X(D, Mine, "x"), Y(D, Mine, "y"),
        Z(D, Mine, "z");
    S.run(&twoConsumers, A, X, Y, Z);
  } else if (What == "step-step-disagree") {
    stencil::Field<double> A(D, H, "a"), X(D, H, "x"), Y(D, H, "y"),
        Z(D, H, "z");
    if (Rank == 0)
      S.run(&twoConsumers, A, X, Y, Z);
    else
      S.run(&chain, static_cast<const double *>(nullptr),
            static_cast<const double *>(nullptr), A, X, Y, Z, Z, Z);
  } else if (What == "step-calls-halo") {
    // Thinner than what a call alone reads (x: 1 on each side): neither the
    // plan nor call by call can run.
    stencil::Halo Thin = H;
    Thin.hi[0] = 0;
    stencil::Field<double> A(D, Thin, "a"), X(D, Thin, "x"), Y(D, Thin, "y"),
        Z(D, Thin, "z");
    S.run(&twoConsumers, A, X, Y, Z);
  } else if (What == "step-recomputed-halo") {
    stencil::Halo Rounds;
    Rounds.hi[2] = 1;
    stencil::Field<double> A(D, Rounds, "a"), F(D, Rounds, "f"),
        B(D, Rounds, "b");
    S.run(&fluxStep, A, F, B);
  } else if (What == "step-timed-one-rank") {
    // Rank 0 alone measures its groups: it would wait in collectives the
    // others never enter.
    if (Rank == 0)
      S.chooseByTiming(3, /*CachePath=*/"");
    stencil::Field<double> A(D, H, "a"), X(D, H, "x"), Y(D, H, "y"),
        Z(D, H, "z");
    for (int Run = 0; Run < 12; ++Run)
      S.run(&twoConsumers, A, X, Y, Z);
  } else if (What == "step-four-d") {
    // DomainStep's domains have 1-3 dimensions.
    stencil::Field<float> A(D, H, "a"), X(D, H, "x"), Y(D, H, "y");
    S.run(&fourD, A, X, Y);
  } else {
    throw std::runtime_error("unknown --error '" + What + "'");
  }
}

} // namespace

int main(int argc, char **argv) {
  return stencil::runMpiMain(argc, argv, [&] {
    if (argc == 3 && std::string(argv[1]) == "--error") {
      runError(argv[2]);
      return 0;
    }
    runCases();
    runFieldsMadeAgain();
    runAlternativeChoice();
    runEmptyIsUnset();
    runProfiled();
    return dstest::summary("written by hand");
  });
}
