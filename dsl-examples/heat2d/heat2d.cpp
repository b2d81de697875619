// heat2d.cpp - 2-D heat equation, 5-point stencil, double precision, written
// as a free function.
//
// du/dt = kappa (d2u/dx2 + d2u/dy2) on a rectangle with fixed wall values,
// explicit Euler, anisotropic grid (dy = 2 dx). main() checks the chosen
// backend against the host reference on random inputs and reports the time
// per step.
#include <stencil/dsl.hpp>

#include "../common/example_harness.hpp"

#include <utility>

// A free-function stencil: stencilc's generated code calls it by address, so
// it has external linkage and is not inline.
STENCIL_KERNEL
void heat2d(const stencil::Index2D &idx, double cx, double cy, double cc, const double *u,
            double *un) {
  un[idx.ix()] = cc * u[idx.ix()] + cx * (u[idx.ix<-1, 0>()] + u[idx.ix<1, 0>()]) +
                 cy * (u[idx.ix<0, -1>()] + u[idx.ix<0, 1>()]);
}

namespace {

using example::Backend;
using example::Field;

/// nx*ny interior points and a one-point margin holding the wall values.
struct Grid {
  int Nx, Ny;
  int mx() const { return Nx + 2; }
  int my() const { return Ny + 2; }
  std::size_t count() const { return std::size_t(mx()) * my(); }
  std::size_t at(int I, int J) const { return std::size_t(J) * mx() + I; }
};

/// dx = 1/(nx+1), dy = 2 dx, dt at 90% of the stability limit
/// 1 / (2 kappa (1/dx^2 + 1/dy^2)).
struct Coefficients {
  double Cx, Cy, Cc;
  explicit Coefficients(const Grid &G) {
    const double Kappa = 1.0, Dx = 1.0 / (G.Nx + 1), Dy = 2 * Dx;
    const double Dt = 0.9 / (2 * Kappa * (1 / (Dx * Dx) + 1 / (Dy * Dy)));
    Cx = Kappa * Dt / (Dx * Dx);
    Cy = Kappa * Dt / (Dy * Dy);
    Cc = 1 - 2 * Cx - 2 * Cy;
  }
};

/// Runs Steps steps on backend B from U0; the second array starts as NaN
/// inside and with U0's wall values. Returns the result and the time taken.
std::vector<double> run(Backend B, const Grid &G, const std::vector<double> &U0, int Steps,
                        double *Seconds = nullptr) {
  const Coefficients C(G);
  std::vector<double> U1 = example::poisoned<double>(G.count());
  for (int J = 0; J < G.my(); ++J)
    for (int I = 0; I < G.mx(); ++I)
      if (I == 0 || J == 0 || I == G.mx() - 1 || J == G.my() - 1)
        U1[G.at(I, J)] = U0[G.at(I, J)];
  Field<double> F(G.count(), B), Fn(G.count(), B);
  F.assign(U0);
  Fn.assign(U1);
  std::vector<double> Result;
  example::withEngine<2>(B, [&](auto Tag) {
    using E = typename decltype(Tag)::type;
    stencil::Loop2D<E> Loop(G.mx(), 1, 1, G.my(), 1, 1);
    Field<double> *Cur = &F, *Next = &Fn;
    example::Stopwatch Clock;
    for (int S = 0; S < Steps; ++S) {
      // cuda-tuned's engine times one candidate (variant, block) per call until it settles,
      // then runs the fastest, cached in STENCIL_TUNING_CACHE (~/.cache/stencilc/tuning.json).
      if constexpr (example::isAutoTuning<E>)
        Loop.run(heat2d, &example::tuning(), C.Cx, C.Cy, C.Cc, Cur->data(), Next->data());
      else // cuda's DeviceLoopEngine (one fixed configuration), openmp, host
        Loop.run(heat2d, C.Cx, C.Cy, C.Cc, Cur->data(), Next->data());
      std::swap(Cur, Next);
    }
    example::synchronize(B);
    if (Seconds)
      *Seconds = Clock.seconds();
    Result = Cur->values();
  });
  return Result;
}

} // namespace

int main(int argc, char **argv) {
  const example::ExampleInfo Info = {"heat2d", "2-D heat equation, 5-point stencil, double",
                                     {1024, 1024}, 50};
  const example::Options O = example::parseOptions(Info, argc, argv);
  return example::guardedMain(Info, [&] {
    Backend B;
    if (!example::resolveBackend(Info, O.Requested, B))
      return 2;
    example::printHeader(Info, O, B);
    const Grid G{O.Size[0], O.Size[1]};
    bool Pass = true;

    std::mt19937 Rng(O.Seed);
    const std::vector<double> U0 = example::randomValues<double>(G.count(), Rng, 0.0, 1.0);
    double Seconds = 0;
    const std::vector<double> Ref = run(Backend::Host, G, U0, O.Steps, &Seconds);
    if (B == Backend::Host) {
      std::printf("check: u: host is the reference: no comparison\n");
    } else {
      Pass &= example::reportCheck("u", B, Ref, run(B, G, U0, O.Steps));
      // Timed again, now that the generated code is loaded and warm (and,
      // on cuda-tuned, the tuner has settled).
      example::settleTuning(B, O.Steps, [&] { run(B, G, U0, O.Steps); });
      run(B, G, U0, O.Steps, &Seconds);
    }
    example::reportTime(B, Seconds, O.Steps, double(G.Nx) * G.Ny, 2.0 * sizeof(double));
    example::reportTuning(B);

    std::printf("result: %s\n", Pass ? "PASS" : "FAIL");
    return O.Check && !Pass ? 1 : 0;
  });
}
