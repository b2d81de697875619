// One array passed for two parameters of a step runs the step call by call;
// where that gives a stencil one array for an input and its output, the
// error names the step as well as the stencil (it named only the stencil
// and its own argument numbers). A null array among a step's arguments is
// refused before any stencil runs, numbered after the stencil::Step, on the
// host engine as on OpenMP (the host named a stencil and its own numbers).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -I %runtime_include
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/step-alias-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s
#include <stencil/dsl.hpp>

#include <cstdio>
#include <stdexcept>
#include <vector>

struct Half {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u,
                             float *v) const {
    v[idx.ix()] = 0.5f * (u[idx.ix<1, 0>()] + u[idx.ix()]);
  }
};

STENCIL_STEP
void twice(stencil::Step2D &s, const float *u, float *v, float *w) {
  s.run(Half(), u, v);
  s.run(Half(), v, w);
}

int main() {
  std::vector<float> a(64, 1.0f), b(64, 0.0f), c(64, 0.0f);
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> loop(8, 0, 1, 8, 0, 0);
  loop.runStep(twice, a.data(), b.data(), c.data());
  std::printf("apart: %g\n", c[9]);
  // CHECK: apart: 1
  try {
    loop.runStep(twice, a.data(), b.data(), b.data());
  } catch (const std::invalid_argument &E) {
    std::printf("%s\n", E.what());
  }
  // CHECK: stencil: step 'twice' (one array passed for two of its parameters, so run call by call): Half (openmp): {{.*}}
  stencil::Loop2D<stencil::HostLoopEngine2D> host(8, 0, 1, 8, 0, 0);
  c[9] = -1.0f;
  for (int Engine = 0; Engine < 2; ++Engine)
    try {
      if (Engine == 0)
        host.runStep(twice, a.data(), nullptr, c.data());
      else
        loop.runStep(twice, a.data(), b.data(), static_cast<float *>(nullptr));
    } catch (const std::invalid_argument &E) {
      std::printf("%s\n", E.what());
    }
  std::printf("untouched: %g\n", c[9]);
  // CHECK: stencil: step twice (host): argument 2 (after the step; an array of float*) is null
  // CHECK: stencil: step twice (openmp): argument 3 (after the step; an array of float*) is null
  // CHECK: untouched: -1
}
