// A repeat() in a generic lambda or a template, called with the serial host
// engine and with another: the call's instances share one argument, and the
// one on the host must not take the passes from the others (it did: only the
// first instance was kept, and on the GPU the passes of such a stencil were
// "asked for, but stencilc generated no passes"). The host engine alone
// gets none: it calls the user's code.
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s
#include <stencil/dsl.hpp>

STENCIL_KERNEL
void smooth2d(const stencil::Index2D &idx, const double *q, double *qn,
              double a) {
  qn[idx.ix()] = q[idx.ix()] + a * (q[idx.ix<1, 0>()] - q[idx.ix<0, -1>()]);
}

struct STENCIL_KERNEL Smooth3d {
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = 0.5f * (f[idx.ix<0, 0, 1>()] + f[idx.ix<-1, 0, 0>()]);
  }
};

STENCIL_KERNEL
void hostOnly(const stencil::Index2D &idx, const double *q, double *qn) {
  qn[idx.ix()] = q[idx.ix<0, 1>()];
}

template <typename LoopT> void advance(LoopT &Loop, float *&f, float *&fn) {
  Loop.repeat(4, Smooth3d(), stencil::previousLevel(f), stencil::nextLevel(fn));
}

void run(double *q, double *qn, float *f, float *fn) {
  auto Each = [&](auto &Loop) {
    Loop.repeat(8, smooth2d, stencil::previousLevel(q), stencil::nextLevel(qn),
                0.3);
  };
  stencil::Loop<2, stencil::HostLoopEngine<2>> Host2;
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Parallel2;
  Each(Host2); // the host's instance first
  Each(Parallel2);
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> Parallel3;
  stencil::Loop3D<stencil::HostLoopEngine3D> Host3;
  advance(Parallel3, f, fn); // the host's instance last
  advance(Host3, f, fn);
  Host2.repeat(2, hostOnly, stencil::previousLevel(q), stencil::nextLevel(qn));
}

// CHECK-LABEL: stencil smooth2d
// CHECK: temporal (CUDA): q -> qn, up to
// CHECK-LABEL: stencil Smooth3d
// CHECK: temporal (CUDA): f -> fn, up to
// CHECK-LABEL: stencil hostOnly
// CHECK-NOT: {{^  temporal}}
