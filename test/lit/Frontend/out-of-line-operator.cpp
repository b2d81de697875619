// An annotated functor whose operator() another source defines (the usual
// header and source): stencilc generates it in the file that defines it and
// passes over it in the others, as an annotated function declared in a
// header (it refused every file that included the header: "call to
// 'OutOfLine::operator()', which has no visible definition"). One run here
// without the annotation warns, as a function defined elsewhere does.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --list -- -std=c++17 -I %runtime_include 2>&1 | FileCheck %s --check-prefix=USER
// RUN: %stencilc %s --list -- -std=c++17 -I %runtime_include -DDEFINE_IT 2>&1 | FileCheck %s --check-prefix=DEF
#include "Inputs/out-of-line-operator.hpp"

#ifdef DEFINE_IT
void OutOfLine::operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
  fn[idx.ix()] = 2.0f * f[idx.ix<1, 0>()];
}
// DEF: out-of-line-operator.hpp:4: OutOfLine (functor, 2-D): halo x[0,1] y[0,0]
// DEF-NOT: warning
#else
STENCIL_KERNEL void own(const stencil::Index2D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<-1, 0>()];
}
void runBoth(float *f, float *fn) {
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Loop(8, 1, 1, 8, 0, 0);
  Loop.run(OutOfLine(), f, fn);
  Loop.run(Unannotated(), f, fn);
}
// USER-NOT: error
// USER: warning: stencil 'Unannotated' passed to run() is defined in another file, where stencilc does not know it is a stencil; annotate its declaration with STENCIL_KERNEL [warn_run_stencil_defined_elsewhere]
// USER-NOT: OutOfLine
// USER: out-of-line-operator.cpp:{{[0-9]+}}: own (function, 2-D)
// USER-NOT: OutOfLine
#endif
