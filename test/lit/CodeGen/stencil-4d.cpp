// RUN: %stencilc %s --emit=cuda -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
// RUN: %stencilc %s --emit=cpu -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
//
// 4-D (seed 004's plasma stencils): z and w share CUDA's third grid dimension.
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Advect4d {
  void operator()(const stencil::Index4D &idx, float v, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix()] - v * (f[idx.ix<0, 0, 0, 1>()] - f[idx.ix<0, 0, 0, -1>()] + f[idx.ix<1, -1, 0, 1>()]);
  }
};

// CUDA:      const long long zblocks = (r.hi[2] - r.lo[2] + blockDim.z - 1) / blockDim.z;
// CUDA-NEXT: const long long k = r.lo[2] + (blockIdx.z % zblocks) * static_cast<long long>(blockDim.z) + threadIdx.z;
// CUDA-NEXT: const long long w = r.lo[3] + blockIdx.z / zblocks;
// CUDA:      const long long sw = sz * g.extent[2];
// A parameter named v is renamed: v is the region of a fused step group.
// CUDA:      fn[c] = f[c] - (v_ * ((f[c + sw] - f[c - sw]) + f[c + 1 - sy + sw]));
// CPU:       #pragma omp parallel for collapse(3) schedule(static)
// CPU-NEXT:  for (long long w = r.lo[3]; w < r.hi[3]; ++w) {
