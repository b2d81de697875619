// Must not compile: DomainLoop::repeat's two time levels are Fields of
// different element types. One error, the runtime's static_assert, located
// at the call by the compiler's "in instantiation" note
// (mpi.compile-error.repeat-level-types, by the C++ compiler and stencilc).
#include <stencil/dsl.hpp>
#include <stencil/mpi.hpp>

struct STENCIL_KERNEL Widen {
  void operator()(const stencil::Index3D &idx, const float *f,
                  double *fn) const {
    fn[idx.ix()] = f[idx.ix<0, 0, 1>()];
  }
};

void advance(stencil::Domain &D, stencil::Field<float> &U,
             stencil::Field<double> &Un) {
  stencil::DomainLoop Loop(D);
  Loop.repeat(2, Widen(), stencil::previousLevel(U), stencil::nextLevel(Un));
}
