// diffusion3d.cpp - heat diffusion in a cube, 7-point stencil (seed 000's Diffusion3d).
//
// du/dt = kappa * laplacian(u) on the unit cube, u = 0 on the walls, explicit
// Euler in time. The stencil is the seed framework's functor unchanged; main()
// checks the chosen backend against the host reference on random inputs, then
// runs a sine mode whose exact decay is known and reports the error and the
// time per step.
#include <stencil/dsl.hpp>

#include "../common/example_harness.hpp"

#include <utility>

struct STENCIL_KERNEL Diffusion3d {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float ce, float cw, float cn, float cs,
                             float ct, float cb, float cc, const float *f, float *fn) const {
    fn[idx.ix()] = cc * f[idx.ix()] + ce * f[idx.ix<1, 0, 0>()] + cw * f[idx.ix<-1, 0, 0>()] +
                   cn * f[idx.ix<0, 1, 0>()] + cs * f[idx.ix<0, -1, 0>()] +
                   ct * f[idx.ix<0, 0, 1>()] + cb * f[idx.ix<0, 0, -1>()];
  }
};

namespace {

using example::Backend;
using example::Field;

/// The grid: nx*ny*nz interior points and a margin (halo) of one point on
/// each side, which holds the wall values and is never written.
struct Grid {
  int Nx, Ny, Nz;
  int mx() const { return Nx + 2; }
  int my() const { return Ny + 2; }
  int mz() const { return Nz + 2; }
  std::size_t count() const { return std::size_t(mx()) * my() * mz(); }
  std::size_t at(int I, int J, int K) const { return (std::size_t(K) * my() + J) * mx() + I; }
  bool interior(int I, int J, int K) const {
    return I >= 1 && I <= Nx && J >= 1 && J <= Ny && K >= 1 && K <= Nz;
  }
};

/// Physical set-up: grid spacing dx = 1/(nx+1) in every direction (so the
/// box is 1 x (ny+1)dx x (nz+1)dx), dt at 60% of the stability limit
/// dx^2/(6 kappa). This gives the seed's coefficients: ce = kappa dt/dx^2 = 0.1,
/// cc = 1 - 6 ce.
struct Physics {
  double Kappa = 0.1;
  double Dx, Dt;
  float Ce, Cc;
  explicit Physics(const Grid &G) {
    Dx = 1.0 / (G.Nx + 1);
    Dt = 0.6 * Dx * Dx / (6.0 * Kappa);
    Ce = static_cast<float>(Kappa * Dt / (Dx * Dx));
    Cc = 1.0f - 6.0f * Ce;
  }
};

/// Runs Steps steps with engine E from (F, Fn); returns the field that holds the result.
template <typename E>
Field<float> &advance(const Grid &G, const Physics &P, Field<float> &F, Field<float> &Fn,
                      int Steps) {
  stencil::Loop3D<E> Loop(G.mx(), 1, 1, G.my(), 1, 1, G.mz(), 1, 1);
  Field<float> *Cur = &F, *Next = &Fn;
  const float C = P.Ce;
  for (int S = 0; S < Steps; ++S) {
    // cuda-tuned's engine times one candidate (variant, block) per call until it settles,
    // then runs the fastest, cached in STENCIL_TUNING_CACHE (~/.cache/stencilc/tuning.json).
    if constexpr (example::isAutoTuning<E>)
      Loop.run(Diffusion3d(), &example::tuning(), C, C, C, C, C, C, P.Cc, Cur->data(),
               Next->data());
    else // cuda's DeviceLoopEngine (one fixed configuration), openmp, host
      Loop.run(Diffusion3d(), C, C, C, C, C, C, P.Cc, Cur->data(), Next->data());
    std::swap(Cur, Next);
  }
  return *Cur;
}

/// Runs Steps steps on backend B from U0; the second array starts as NaN
/// inside and with U0's wall values. Returns the result and the time taken.
std::vector<float> run(Backend B, const Grid &G, const Physics &P, const std::vector<float> &U0,
                       int Steps, double *Seconds = nullptr) {
  std::vector<float> U1 = example::poisoned<float>(G.count());
  for (int K = 0; K < G.mz(); ++K)
    for (int J = 0; J < G.my(); ++J)
      for (int I = 0; I < G.mx(); ++I)
        if (!G.interior(I, J, K))
          U1[G.at(I, J, K)] = U0[G.at(I, J, K)];
  Field<float> F(G.count(), B), Fn(G.count(), B);
  F.assign(U0);
  Fn.assign(U1);
  std::vector<float> Result;
  example::withEngine<3>(B, [&](auto Tag) {
    using E = typename decltype(Tag)::type;
    example::Stopwatch Clock;
    Field<float> &Out = advance<E>(G, P, F, Fn, Steps);
    example::synchronize(B);
    if (Seconds)
      *Seconds = Clock.seconds();
    Result = Out.values();
  });
  return Result;
}

const double Pi = 3.14159265358979323846;

} // namespace

int main(int argc, char **argv) {
  const example::ExampleInfo Info = {"diffusion3d", "3-D heat diffusion, 7-point stencil",
                                     {128, 128, 128}, 50};
  const example::Options O = example::parseOptions(Info, argc, argv);
  return example::guardedMain(Info, [&] {
    Backend B;
    if (!example::resolveBackend(Info, O.Requested, B))
      return 2;
    example::printHeader(Info, O, B);
    const Grid G{O.Size[0], O.Size[1], O.Size[2]};
    const Physics P(G);
    bool Pass = true;

    // 1. The chosen backend against the host reference, on random inputs
    //    (wall values random too).
    std::mt19937 Rng(O.Seed);
    const std::vector<float> U0 = example::randomValues<float>(G.count(), Rng, 0.0f, 1.0f);
    const std::vector<float> Ref = run(Backend::Host, G, P, U0, O.Steps);
    if (B == Backend::Host)
      std::printf("check: u: host is the reference: no comparison\n");
    else
      Pass &= example::reportCheck("u", B, Ref, run(B, G, P, U0, O.Steps));

    // 2. A sine mode, zero on the walls: u = A(t) sin(pi x/Lx) sin(pi y/Ly) sin(pi z/Lz).
    //    It is an eigenvector of the discrete Laplacian, so the discrete
    //    solution is known exactly: A(n) = g^n with g = 1 - 4 ce sum sin^2(pi dx/2L).
    //    The continuous solution decays as exp(-kappa pi^2 sum 1/L^2 t).
    const double L[3] = {(G.Nx + 1) * P.Dx, (G.Ny + 1) * P.Dx, (G.Nz + 1) * P.Dx};
    std::vector<float> Mode(G.count());
    for (int K = 0; K < G.mz(); ++K)
      for (int J = 0; J < G.my(); ++J)
        for (int I = 0; I < G.mx(); ++I)
          Mode[G.at(I, J, K)] = static_cast<float>(std::sin(Pi * I * P.Dx / L[0]) *
                                                   std::sin(Pi * J * P.Dx / L[1]) *
                                                   std::sin(Pi * K * P.Dx / L[2]));
    double Seconds = 0;
    example::settleTuning(B, O.Steps, [&] { run(B, G, P, Mode, O.Steps); });
    const std::vector<float> U = run(B, G, P, Mode, O.Steps, &Seconds);
    double SumInvL2 = 0, SumSin2 = 0;
    for (double Ld : L) {
      SumInvL2 += 1.0 / (Ld * Ld);
      SumSin2 += std::pow(std::sin(Pi * P.Dx / (2 * Ld)), 2);
    }
    const double T = O.Steps * P.Dt;
    const double Analytic = std::exp(-P.Kappa * Pi * Pi * SumInvL2 * T);
    const double Discrete = std::pow(1.0 - 4.0 * P.Ce * SumSin2, O.Steps);
    double ErrAnalytic = 0, ErrDiscrete = 0;
    for (std::size_t N = 0; N < U.size(); ++N) {
      const double Shape = static_cast<double>(Mode[N]);
      ErrAnalytic = std::max(ErrAnalytic, std::fabs(U[N] - Analytic * Shape));
      ErrDiscrete = std::max(ErrDiscrete, std::fabs(U[N] - Discrete * Shape));
    }
    if (std::isnan(ErrDiscrete) || !std::isfinite(ErrAnalytic))
      ErrAnalytic = ErrDiscrete = std::numeric_limits<double>::infinity();
    // Float rounding over the run, far below the discretisation error.
    const bool Consistent = ErrDiscrete <= 1e-5 + 1e-7 * O.Steps;
    std::printf("physics: kappa %g, dx %.4g, dt %.4g, t %.4g: amplitude %.6f "
                "(exact continuous %.6f, exact discrete %.6f)\n",
                P.Kappa, P.Dx, P.Dt, T, U[G.at((G.Nx + 1) / 2, (G.Ny + 1) / 2, (G.Nz + 1) / 2)] /
                    std::max(1e-30, static_cast<double>(Mode[G.at((G.Nx + 1) / 2, (G.Ny + 1) / 2,
                                                                  (G.Nz + 1) / 2)])),
                Analytic, Discrete);
    std::printf("physics: max error vs continuous solution %.3g (discretisation, O(dx^2)), "
                "vs discrete solution %.3g (rounding): %s\n",
                ErrAnalytic, ErrDiscrete, Consistent ? "PASS" : "FAIL");
    Pass &= Consistent;
    example::reportTime(B, Seconds, O.Steps, double(G.Nx) * G.Ny * G.Nz, 2.0 * sizeof(float));
    example::reportTuning(B);

    std::printf("result: %s\n", Pass ? "PASS" : "FAIL");
    return O.Check && !Pass ? 1 : 0;
  });
}
