// A functor whose operator() one source defines (out-of-line-operator.cpp
// with -DDEFINE_IT); the others include this header only.
#include <stencil/dsl.hpp>
struct STENCIL_KERNEL OutOfLine {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *f, float *fn) const;
};
struct Unannotated {
  void operator()(const stencil::Index2D &idx, const float *f, float *fn) const;
};
