// varcoef3d.cpp - diffusion with a spatially varying conductivity, fixed wall
// temperatures and a cubic sink, in 3-D.
//
//   du/dt = div(kappa grad u) - rate u^3
//
// kappa is an array read at the neighbours (face values are harmonic means),
// the outermost interior planes hold fixed temperatures (hot at the bottom
// k = 1, cold elsewhere), chosen inside the stencil from the point's global
// coordinates, and the sink is treated implicitly with a fixed number of
// Newton iterations. It exercises what the DSL allows beyond a plain
// constant-coefficient stencil: idx.i()/j()/k(), if/else, ?:, an inline
// helper, a loop with a constant trip count and integer parameters.
#include <stencil/dsl.hpp>

#include "../common/example_harness.hpp"

#include <utility>

/// Conductance of the face between two cells: the harmonic mean of their
/// conductivities (zero when either is zero, as for an insulating wall).
STENCIL_HD inline float faceKappa(float Ka, float Kb) { return 2.0f * Ka * Kb / (Ka + Kb); }

struct STENCIL_KERNEL VarCoef3d {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, int nx, int ny, int nz, float r, float rate,
                             float hot, float cold, const float *kappa, const float *u,
                             float *un) const {
    const int i = idx.i(), j = idx.j(), k = idx.k();
    if (i == 1 || i == nx || j == 1 || j == ny || k == 1 || k == nz) {
      // Dirichlet planes: the wall temperature, hot at the bottom.
      un[idx.ix()] = k == 1 ? hot : cold;
    } else {
      const float kc = kappa[idx.ix()];
      const float uc = u[idx.ix()];
      const float flux = faceKappa(kc, kappa[idx.ix<1, 0, 0>()]) * (u[idx.ix<1, 0, 0>()] - uc) +
                         faceKappa(kc, kappa[idx.ix<-1, 0, 0>()]) * (u[idx.ix<-1, 0, 0>()] - uc) +
                         faceKappa(kc, kappa[idx.ix<0, 1, 0>()]) * (u[idx.ix<0, 1, 0>()] - uc) +
                         faceKappa(kc, kappa[idx.ix<0, -1, 0>()]) * (u[idx.ix<0, -1, 0>()] - uc) +
                         faceKappa(kc, kappa[idx.ix<0, 0, 1>()]) * (u[idx.ix<0, 0, 1>()] - uc) +
                         faceKappa(kc, kappa[idx.ix<0, 0, -1>()]) * (u[idx.ix<0, 0, -1>()] - uc);
      const float v = uc + r * flux;
      // Implicit sink: solve g + rate g^3 = v by Newton's method from g = v.
      float g = v;
      for (int it = 0; it < 3; ++it)
        g = g - (g + rate * g * g * g - v) / (1.0f + 3.0f * rate * g * g);
      un[idx.ix()] = g;
    }
  }
};

namespace {

using example::Backend;
using example::Field;

/// nx*ny*nz interior points (the outermost of which are the walls) and a
/// one-point margin, which the stencil reads nowhere but is allocated so
/// every array has the same extents.
struct Grid {
  int Nx, Ny, Nz;
  int mx() const { return Nx + 2; }
  int my() const { return Ny + 2; }
  int mz() const { return Nz + 2; }
  std::size_t count() const { return std::size_t(mx()) * my() * mz(); }
};

/// r = dt/dx^2 with kappa <= 1.5 keeps the explicit part stable (6 r kappa < 1).
struct Parameters {
  float R = 0.1f, Rate = 0.5f, Hot = 1.0f, Cold = 0.0f;
};

std::vector<float> run(Backend B, const Grid &G, const Parameters &P,
                       const std::vector<float> &Kappa, const std::vector<float> &U0, int Steps,
                       double *Seconds = nullptr) {
  Field<float> K(G.count(), B), F(G.count(), B), Fn(G.count(), B);
  K.assign(Kappa);
  F.assign(U0);
  // Margin values of the second array are never read or written; NaN everywhere.
  Fn.assign(example::poisoned<float>(G.count()));
  std::vector<float> Result;
  example::withEngine<3>(B, [&](auto Tag) {
    using E = typename decltype(Tag)::type;
    stencil::Loop3D<E> Loop(G.mx(), 1, 1, G.my(), 1, 1, G.mz(), 1, 1);
    Field<float> *Cur = &F, *Next = &Fn;
    example::Stopwatch Clock;
    for (int S = 0; S < Steps; ++S) {
      // cuda-tuned's engine times one candidate (variant, block) per call until it settles,
      // then runs the fastest, cached in STENCIL_TUNING_CACHE (~/.cache/stencilc/tuning.json).
      if constexpr (example::isAutoTuning<E>)
        Loop.run(VarCoef3d(), &example::tuning(), G.Nx, G.Ny, G.Nz, P.R, P.Rate, P.Hot, P.Cold,
                 K.data(), Cur->data(), Next->data());
      else // cuda's DeviceLoopEngine (one fixed configuration), openmp, host
        Loop.run(VarCoef3d(), G.Nx, G.Ny, G.Nz, P.R, P.Rate, P.Hot, P.Cold, K.data(),
                 Cur->data(), Next->data());
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
  const example::ExampleInfo Info = {
      "varcoef3d", "3-D diffusion, varying conductivity, fixed walls, implicit cubic sink",
      {128, 128, 128}, 50};
  const example::Options O = example::parseOptions(Info, argc, argv);
  return example::guardedMain(Info, [&] {
    Backend B;
    if (!example::resolveBackend(Info, O.Requested, B))
      return 2;
    example::printHeader(Info, O, B);
    const Grid G{O.Size[0], O.Size[1], O.Size[2]};
    const Parameters P;
    bool Pass = true;

    std::mt19937 Rng(O.Seed);
    const std::vector<float> Kappa = example::randomValues<float>(G.count(), Rng, 0.5f, 1.5f);
    const std::vector<float> U0 = example::randomValues<float>(G.count(), Rng, 0.0f, 1.0f);
    double Seconds = 0;
    const std::vector<float> Ref = run(Backend::Host, G, P, Kappa, U0, O.Steps, &Seconds);
    if (B == Backend::Host) {
      std::printf("check: u: host is the reference: no comparison\n");
    } else {
      Pass &= example::reportCheck("u", B, Ref, run(B, G, P, Kappa, U0, O.Steps));
      example::settleTuning(B, O.Steps, [&] { run(B, G, P, Kappa, U0, O.Steps); });
      run(B, G, P, Kappa, U0, O.Steps, &Seconds);
    }
    // Reads kappa at 7 points and u at 7, writes un: 3 arrays of traffic per point.
    example::reportTime(B, Seconds, O.Steps, double(G.Nx) * G.Ny * G.Nz, 3.0 * sizeof(float));
    example::reportTuning(B);

    std::printf("result: %s\n", Pass ? "PASS" : "FAIL");
    return O.Check && !Pass ? 1 : 0;
  });
}
