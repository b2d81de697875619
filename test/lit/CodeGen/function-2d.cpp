// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s
// RUN: rm -rf %t && %stencilc %s --emit=cpu -o %t -- -I %mock_include
// RUN: c++ -std=c++17 -fopenmp -Wall -Wextra -Werror -fsyntax-only -I %runtime_include %t/function-2d.stencil.cpp
//
// A free-function stencil is found by its address: the generated file
// declares it in its namespace. Coordinates add the region's origin.
#include <cmath>
#include <stencil/dsl.hpp>

namespace physics {
STENCIL_KERNEL void clampedHeat(const stencil::Index2D &idx, int nx, float a, const double *u, double *out) {
  double lap = u[idx.ix<-1, 0>()] + u[idx.ix<1, 0>()] + u[idx.ix<0, -1>()] + u[idx.ix<0, 1>()] - 4.0 * u[idx.ix()];
  out[idx.ix()] = idx.i() == 0 || idx.i() == nx - 1 ? 0.0 : u[idx.ix()] + a * std::fabs(lap);
}
} // namespace physics

// CHECK:      namespace physics {
// CHECK-NEXT: void clampedHeat(const stencil::Index<2> &, int, float, const double *, double *);
// CHECK-NEXT: } // namespace physics
// CHECK:      #pragma omp parallel for schedule(static) num_threads(stencil::openmpThreads())
// CHECK-NEXT: for (long long j = r.lo[1]; j < r.hi[1]; ++j) {
// CHECK-NEXT:   #pragma omp simd
// CHECK-NEXT:   for (long long i = r.lo[0]; i < r.hi[0]; ++i) {
// CHECK-NEXT:     const long long c = i + j * sy;
// CHECK-NEXT:     double lap = (((u[c - 1] + u[c + 1]) + u[c - sy]) + u[c + sy]) - (4.0 * u[c]);
// CHECK-NEXT:     out[c] = ((static_cast<int>(g.origin[0] + i) == 0) || (static_cast<int>(g.origin[0] + i) == (nx_ - 1))) ? 0.0 : (u[c] + (static_cast<double>(a) * std::fabs(lap)));
// CHECK:      /*typeKey=*/nullptr,
// CHECK-NEXT: /*functionKey=*/reinterpret_cast<const void *>(static_cast<void (*)(const stencil::Index<2> &, int, float, const double *, double *)>(&::physics::clampedHeat)),
// CHECK:      /*dims=*/2,
// CHECK-NEXT: /*signature=*/&typeid(void(int, float, const double *, double *)),
