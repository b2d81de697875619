// constant_fold.cpp - math calls on arguments that are constants in the host
// reference but not in the generated OpenMP code (issue 9, item 5).
//
// The host engine inlines the stencil into the loop, so a literal scalar
// passed to loop.run() reaches tanh() as a constant and GCC evaluates the call
// at compile time (correctly rounded, with MPFR); the generated code receives
// the scalar through the launcher's argument array and calls glibc at run
// time, which may differ in the last bit. stencilc_add_sources compiles the
// target with -frounding-math under GCC, which keeps GCC from folding inexact
// results; without it this test fails (tanhf(0.7f) differs by one ulp).
// Each stencil is called once per engine, so that GCC inlines the host
// engine's loop (one instantiation per stencil type) into main.
#include <stencil/dsl.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

struct STENCIL_KERNEL TanhF {
  void operator()(const stencil::Index2D &idx, float s, const float *in, float *out) const {
    out[idx.ix()] = std::tanh(s) + in[idx.ix()];
  }
};
struct STENCIL_KERNEL MathF {
  void operator()(const stencil::Index2D &idx, float s, const float *in, float *out) const {
    out[idx.ix()] = std::exp(s) * std::sin(s) + std::cbrt(s) + std::atan2(s, 3.0f) +
                    std::pow(s, 1.3f) + std::log1p(s) + std::cosh(s) + in[idx.ix()];
  }
};
struct STENCIL_KERNEL TanhD {
  void operator()(const stencil::Index2D &idx, double s, const double *in, double *out) const {
    out[idx.ix()] = std::tanh(s) + in[idx.ix()];
  }
};
struct STENCIL_KERNEL MathD {
  void operator()(const stencil::Index2D &idx, double s, const double *in, double *out) const {
    out[idx.ix()] = std::exp(s) * std::sin(s) + std::cbrt(s) + std::atan2(s, 3.0) +
                    std::pow(s, 1.3) + std::log1p(s) + std::cosh(s) + in[idx.ix()];
  }
};
STENCIL_KERNEL
void tanhFree(const stencil::Index2D &idx, float s, const float *in, float *out) {
  out[idx.ix()] = tanhf(s) + in[idx.ix()];
}

namespace {

int Failures = 0, Checks = 0;

template <typename T> void compare(const char *What, const std::vector<T> &Ref,
                                   const std::vector<T> &Got) {
  ++Checks;
  for (std::size_t I = 0; I < Ref.size(); ++I)
    if (std::memcmp(&Ref[I], &Got[I], sizeof(T)) != 0) {
      ++Failures;
      std::printf("FAIL %s: point %zu: host %a, openmp %a\n", What, I, double(Ref[I]),
                  double(Got[I]));
      return;
    }
}

/// Runs \p K with the literal \p S on both engines (outputs poisoned).
template <typename T, typename K> void check(const char *What, const K &Kernel, T S) {
  std::vector<T> In(64, T(0.25)), Ref(64, std::numeric_limits<T>::quiet_NaN()), Got = Ref;
  stencil::Loop2D<stencil::HostLoopEngine2D>(8, 1, 1, 8, 1, 1).run(Kernel, S, In.data(),
                                                                   Ref.data());
  stencil::Loop2D<stencil::OpenMPLoopEngine2D>(8, 1, 1, 8, 1, 1).run(Kernel, S, In.data(),
                                                                     Got.data());
  compare(What, Ref, Got);
}

} // namespace

int main() {
  check("TanhF(0.7f)", TanhF(), 0.7f);
  check("MathF(1.3f)", MathF(), 1.3f);
  check("TanhD(0.7)", TanhD(), 0.7);
  check("MathD(2.1)", MathD(), 2.1);
  check("tanhFree(0.7f)", tanhFree, 0.7f);
  std::printf("constant_fold: %d of %d stencils bit-exact\n", Checks - Failures, Checks);
  return Failures ? 1 : 0;
}
