// run_2d.hpp - the lit tests' 2-D runs: a stencil of one input and one
// output array (poisoned with -7) over sin(0.37 p), on one engine, in an
// Nx x Ny grid with margins of MX and MY points on each side.
#include <stencil/dsl.hpp>

#include <cmath>
#include <vector>

template <typename Engine, typename S>
std::vector<float> runOnce2D(S Stencil, int Nx, int Ny, int MX, int MY) {
  const int Count = Nx * Ny;
  std::vector<float> U(Count), A(Count, -7.0f);
  for (int P = 0; P < Count; ++P)
    U[P] = std::sin(0.37f * P);
  stencil::Loop2D<Engine> Loop(Nx, MX, MX, Ny, MY, MY);
  Loop.run(Stencil, U.data(), A.data());
  return A;
}
