// e2e_case.hpp - what the end-to-end test programs that compare engines
// share: their command line, the loop over a case's extents and margin,
// which points are in the region, bit-for-bit comparison.
#ifndef STENCILC_TEST_E2E_CASE_HPP
#define STENCILC_TEST_E2E_CASE_HPP

#include <stencil/dsl.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

namespace e2e {

/// --backend=host|openmp|cuda|all (host: the reference alone) and --seed=N.
struct Options {
  bool OpenMP = true, Cuda = false;
  unsigned Seed = 1;
};

/// Exits 2 with \p Program's usage on anything else.
inline Options parseOptions(int Argc, char **Argv) {
  Options O;
  for (int A = 1; A < Argc; ++A) {
    const std::string Arg = Argv[A];
    if (Arg == "--backend=host")
      O.OpenMP = O.Cuda = false;
    else if (Arg == "--backend=openmp")
      O.OpenMP = true, O.Cuda = false;
    else if (Arg == "--backend=cuda")
      O.OpenMP = false, O.Cuda = true;
    else if (Arg == "--backend=all")
      O.OpenMP = O.Cuda = true;
    else if (Arg.rfind("--seed=", 0) == 0)
      O.Seed =
          static_cast<unsigned>(std::strtoul(Arg.c_str() + 7, nullptr, 10));
    else {
      std::fprintf(stderr,
                   "usage: %s [--backend=host|openmp|cuda|all] [--seed=N]\n",
                   Argv[0]);
      std::exit(2);
    }
  }
  return O;
}

/// A NaN equals any NaN (payloads are not compared); otherwise the bits.
template <typename T> bool sameBits(T A, T B) {
  if (A != A && B != B)
    return true;
  return std::memcmp(&A, &B, sizeof(T)) == 0;
}

/// True if \p Got may stand for \p Ref: the same bits when \p Exact (a NaN
/// matches any NaN), else within \p Tolerance of |Ref| (a NaN matches
/// nothing).
template <typename T> bool matches(T Ref, T Got, bool Exact, double Tolerance) {
  if (Exact)
    return sameBits(Ref, Got);
  return Ref == Ref && std::fabs(double(Got) - double(Ref)) <=
                           Tolerance * std::fabs(double(Ref));
}

/// A loop over arrays of extents \p Ext with margin \p Margin on every side.
template <int Dims, typename Engine>
stencil::Loop<Dims, Engine> makeLoop(const int (&Ext)[Dims], int Margin) {
  const int M = Margin;
  if constexpr (Dims == 2)
    return stencil::Loop<Dims, Engine>(Ext[0], M, M, Ext[1], M, M);
  else if constexpr (Dims == 3)
    return stencil::Loop<Dims, Engine>(Ext[0], M, M, Ext[1], M, M, Ext[2], M,
                                       M);
  else
    return stencil::Loop<Dims, Engine>(Ext[0], M, M, Ext[1], M, M, Ext[2], M, M,
                                       Ext[3], M, M);
}

/// True if element \p Linear of such arrays is in the region, not the margin.
template <int Dims>
bool inRegion(std::size_t Linear, const int (&Ext)[Dims], int Margin) {
  for (int D = 0; D < Dims; ++D) {
    const int P = static_cast<int>(Linear % Ext[D]);
    Linear /= Ext[D];
    if (P < Margin || P >= Ext[D] - Margin)
      return false;
  }
  return true;
}

inline int uniform(std::mt19937 &Rng, int Lo, int Hi) {
  return std::uniform_int_distribution<int>(Lo, Hi)(Rng);
}

} // namespace e2e

#endif // STENCILC_TEST_E2E_CASE_HPP
