// misuse.cpp - mistakes a C++ compiler alone must refuse with the runtime's
// one message (each case a -DCASE=N build): each compiled before, and the
// generated engines ran it wrong, or the host reference ran it wrong, or the
// message was buried in template errors. CASE 0 is the right program.
#include <stencil/dsl.hpp>
#include <vector>

struct Blur2 { // a 2-D stencil
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u,
                             float *un) const {
    un[idx.ix()] = 0.5f * (u[idx.ix<1, 0>()] + u[idx.ix<0, 1>()]);
  }
};
struct Heat {
  STENCIL_HD void operator()(const stencil::Index2D &idx, float r,
                             const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix()] + r * (u[idx.ix<1, 0>()] - u[idx.ix()]);
  }
};
STENCIL_STEP void heatStep(stencil::Step2D &s, const float *u, float *un) {
  s.run(Heat(), 0.1f, u, un);
}

int main() {
  std::vector<float> a(216, 1.0f), b(216, 0.0f);
  float *f = a.data(), *fn = b.data();
  stencil::Loop2D<stencil::HostLoopEngine2D> loop(6, 1, 1, 6, 1, 1);
#if CASE == 1 // a 2-D stencil in a 3-D loop (the OpenMP engine: one plane)
  stencil::Loop3D<stencil::HostLoopEngine3D> loop3(6, 1, 1, 6, 1, 1, 6, 1, 1);
  loop3.run(Blur2(), f, fn);
#elif CASE == 2 // the levels' marks swapped (the host ran it backwards)
  loop.repeat(10, Heat(), 0.1f, stencil::nextLevel(fn),
              stencil::previousLevel(f));
#elif CASE == 3 // a stencil given to runStep
  loop.runStep(Heat(), 0.1f, f, fn);
#elif CASE == 5 // an engine of other dimensions (it read ranges[3] of 3)
  stencil::Loop3D<stencil::HostLoopEngine4D> wide(6, 1, 1, 6, 1, 1, 6, 1, 1);
  (void)wide;
#elif CASE == 6 // a step's hook form over a loop of other dimensions (read
                // ranges[3] of 3)
  stencil::Loop3D<stencil::HostLoopEngine3D> loop3(6, 1, 1, 6, 1, 1, 6, 1, 1);
  stencil::Step4D step(loop3.ranges(), stencil::StepEngine::Host);
  (void)step;
#elif CASE == 7 // an engine made from a loop of other dimensions
  stencil::HostLoopEngine3D engine(loop.ranges());
  (void)engine;
#elif CASE == 8 // a 2-D step over a 3-D loop (said only "runStep runs a
                // step function")
  stencil::Loop3D<stencil::HostLoopEngine3D> loop3(6, 1, 1, 6, 1, 1, 6, 1, 1);
  loop3.runStep(heatStep, f, fn);
#elif CASE == 4 // the array written given as const (std::tuple's error)
  const float *out = fn;
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> openmp(6, 1, 1, 6, 1, 1);
  openmp.run(Heat(), 0.1f, f, out);
#else
  loop.runStep(heatStep, f, fn);
  loop.repeat(10, Heat(), 0.1f, stencil::previousLevel(f),
              stencil::nextLevel(fn));
  loop.run(Blur2(), f, fn);
  stencil::Step2D step(loop.ranges(), stencil::StepEngine::Host);
  heatStep(step, f, fn);
  const stencil::LoopRange *ranges = loop.ranges();
  stencil::HostLoopEngine2D engine(ranges);
  engine(Blur2(), f, fn);
  stencil::OpenMPLoopEngine2D{loop.ranges()};
#endif
  return 0;
}
