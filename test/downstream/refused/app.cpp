// app.cpp - a DSL source for the refused calls (configured, never built).
#include <stencil/dsl.hpp>

#ifndef APP_SCALE
#define APP_SCALE 1.0f
#endif

struct STENCIL_KERNEL Copy {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *v) const {
    v[idx.ix()] = APP_SCALE * u[idx.ix<-1, 0>()];
  }
};

int main() {}
