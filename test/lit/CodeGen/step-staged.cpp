// Fused groups staged on chip (--step-strategy=staged): per recomputed
// array a ring of z planes in shared memory, as wide as the tile plus the
// consumer's reach (fx: x -1, two planes; fz: z -1..+1, four planes: the
// reach and one to spare, so one barrier a plane), filled with the
// producer's value in v and the array's margin outside; a producer that
// writes only staged arrays stores them from its ring, one that also writes
// another array (FluxZ's aux) runs its body; the consumer reads the rings,
// without names for the staged arrays, and its parameter named like the
// kernel's own locals is renamed. A 2-D
// step stages one plane; a 4-D step and rings over 48 KiB stay recomputed,
// saying why. The OpenMP code of a staged group is the recomputed one.
// RUN: %stencilc %s --emit=plan --step-strategy=staged -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=cuda --step-strategy=staged --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
// RUN: %stencilc %s --emit=cpu --step-strategy=staged --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
// The model's pick (auto) compiles the other fused way too on CUDA, as
// group N + g, for the runtime's measured choice; not on OpenMP. A kernel
// fused by recomputation runs blocks of 32 x 4 x 2 threads plane by plane,
// 32 x 2 x 4 down the columns (32 x 4 x 1 in 2-D).
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=ALT
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s --check-prefix=ALT-PLAN
// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=ALT-CPU
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL FluxX {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u, double *fx) const {
    fx[idx.ix()] = 0.5 * (u[idx.ix<1, 0, 0>()] + u[idx.ix()]);
  }
};
struct STENCIL_KERNEL FluxZ {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u, double *fz,
                             double *aux) const {
    fz[idx.ix()] = u[idx.ix<0, 0, 1>()] - u[idx.ix()];
    aux[idx.ix()] = 2.0 * u[idx.ix()];
  }
};
struct STENCIL_KERNEL Div {
  STENCIL_HD void operator()(const stencil::Index3D &idx, int stencilc_kb, const double *fx,
                             const double *fz, double *un) const {
    un[idx.ix()] = stencilc_kb * (fx[idx.ix()] - fx[idx.ix<-1, 0, 0>()]) +
                   fz[idx.ix<0, 0, 1>()] - fz[idx.ix<0, 0, -1>()];
  }
};

STENCIL_STEP
void staged3(stencil::Step3D &s, int n, const double *u, double *fx, double *fz, double *aux,
             double *un) {
  s.run(FluxX(), u, fx);
  s.run(FluxZ(), u, fz, aux);
  s.run(Div(), n, fx, fz, un);
}

struct STENCIL_KERNEL Grad2 {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *gy) const {
    gy[idx.ix()] = u[idx.ix<0, 1>()] - u[idx.ix()];
  }
};
struct STENCIL_KERNEL Lap2 {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *gy, float *out) const {
    out[idx.ix()] = gy[idx.ix()] - gy[idx.ix<0, -2>()];
  }
};

STENCIL_STEP
void staged2(stencil::Step2D &s, const float *u, float *gy, float *out) {
  s.run(Grad2(), u, gy);
  s.run(Lap2(), gy, out);
}

struct STENCIL_KERNEL Copy4 {
  STENCIL_HD void operator()(const stencil::Index4D &idx, const float *u, float *a) const {
    a[idx.ix()] = u[idx.ix()];
  }
};
struct STENCIL_KERNEL Shift4 {
  STENCIL_HD void operator()(const stencil::Index4D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix<0, 0, 0, 1>()];
  }
};

STENCIL_STEP
void flat4(stencil::Step4D &s, const float *u, float *a, float *b) {
  s.run(Copy4(), u, a);
  s.run(Shift4(), a, b);
}

struct STENCIL_KERNEL Wide {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *f, double *out) const {
    out[idx.ix()] = f[idx.ix<-8, -8, -8>()] + f[idx.ix<8, 8, 8>()];
  }
};

STENCIL_STEP
void wide(stencil::Step3D &s, const double *u, double *fx, double *out) {
  s.run(FluxX(), u, fx);
  s.run(Wide(), fx, out);
}

// PLAN:      step staged3 ({{.*}}step-staged.cpp:{{[0-9]+}}), 3-D, 3 stencils
// PLAN-NEXT:   staged: 0 FluxX 1 FluxZ 2 Div (cost {{.*}}, recompute {{.*}}, multi-kernel {{.*}}); stages fx fz
// PLAN-NEXT:   over ranks, before group 0: u exchanged (x -1..+1 z -1..+2)
// PLAN-NEXT: step staged2 ({{.*}}), 2-D, 2 stencils
// PLAN-NEXT:   staged: 0 Grad2 1 Lap2 (cost {{.*}}); stages gy
// PLAN-NEXT:   over ranks, before group 0: u exchanged (y -2..+1)
// PLAN-NEXT: step flat4 ({{.*}}), 4-D, 2 stencils
// PLAN-NEXT:   recompute: 0 Copy4 1 Shift4 (cost {{.*}}, multi-kernel {{.*}}); recomputes a; not staged: a 4-D step
// PLAN:      step wide
// PLAN-NEXT:   recompute: 0 FluxX 1 Wide (cost {{.*}}, multi-kernel {{.*}}); recomputes fx; not staged: its tiles need 165888 bytes of shared memory, over 49152

// CUDA-LABEL: __global__ void __launch_bounds__(256, 4) stencilc_step_staged3_g0(const stencil::Grid g, const stencil::Region r, const stencil::Region v, int stencilc_s1,
// CUDA:        const long long stencilc_kb = r.lo[2] + blockIdx.z * 16LL;
// CUDA:        __shared__ double stencilc_ring3[2][8][33];
// CUDA-NEXT:   __shared__ double stencilc_ring4[4][8][32];
// CUDA:        const auto stencilc_stage3 = [&](const long long sk) {
// CUDA-NEXT:     for (int s = stencilc_t; s < 264; s += 256) {
// CUDA-NEXT:       const long long si = stencilc_i0 - 1 + s % 33, sj = stencilc_j0 - 0 + s / 33;
// CUDA-NEXT:       if (si >= r.hi[0] + 0 || sj >= r.hi[1] + 0)
// CUDA-NEXT:         continue;
// CUDA-NEXT:       stencilc_ring3[static_cast<int>(sk - stencilc_kb + 0) % 2][s / 33][s % 33] =
// CUDA-NEXT:           si >= v.lo[0] && si < v.hi[0] && sj >= v.lo[1] && sj < v.hi[1] && sk >= v.lo[2] && sk < v.hi[2] ? stencilc_step_staged3_g0_recompute3(g, si, sj, sk, stencilc_s2)
// CUDA-NEXT:           : stencilc_s3[si + sj * sy + sk * sz];
// CUDA:        stencilc_ring4[static_cast<int>(sk - stencilc_kb + 1) % 4][s / 32][s % 32] =
// CUDA:        for (long long sk = stencilc_kb - 1; sk < stencilc_kb + 1; ++sk) stencilc_stage4(sk);
// CUDA-NEXT:   for (long long k = stencilc_kb; k < stencilc_ke; ++k) {
// CUDA-NEXT:     stencilc_stage3(k + 0);
// CUDA-NEXT:     stencilc_stage4(k + 1);
// CUDA-NEXT:     __syncthreads();
// CUDA-NEXT:     if (stencilc_own) {
// CUDA-NEXT:       const long long c = i + j * sy + k * sz;
// CUDA-NEXT:       // 'FluxX' stores what its ring holds here.
// CUDA-NEXT:       stencilc_s3[c] = stencilc_ring3[static_cast<int>(k - stencilc_kb + 0) % 2][threadIdx.y + 0][threadIdx.x + 1];
// CUDA-NEXT:       { // 'FluxZ' at this point
// CUDA:              aux[c] = 2.0 * u[c];
// CUDA:            { // 'Div' at this point, reading what 'FluxX', 'FluxZ' stores from the rings
// CUDA-NEXT:         const int u_stencilc_kb = static_cast<int>(stencilc_s1);
// CUDA-NEXT:         double *const un = stencilc_s6;
// CUDA-NEXT:         un[c] = ((static_cast<double>(u_stencilc_kb) * (stencilc_ring3[static_cast<int>(k - stencilc_kb + 0) % 2][threadIdx.y + 0][threadIdx.x + 1] - stencilc_ring3[static_cast<int>(k - stencilc_kb + 0) % 2][threadIdx.y + 0][threadIdx.x + 0])) + stencilc_ring4[static_cast<int>(k - stencilc_kb + 2) % 4][threadIdx.y + 0][threadIdx.x + 0]) - stencilc_ring4[static_cast<int>(k - stencilc_kb + 0) % 4][threadIdx.y + 0][threadIdx.x + 0];
// CUDA-NEXT:       }
// CUDA-NEXT:     }
// CUDA-NEXT:   }
// CUDA-NEXT: }
// CUDA:      { // staged on chip: a tile of 32 x 8 per block, 16 planes of z
// CUDA-NEXT:   const dim3 block(32, 8, 1);
// CUDA:        const long long gz = (nz + 15) / 16;
// CUDA:        stencilc_step_staged3_g0<<<grid, block, 0, static_cast<cudaStream_t>(cfg.stream)>>>(g, r, v, stencilc_s1,

// CUDA-LABEL: stencilc_step_staged2_g0(
// CUDA:        __shared__ float stencilc_ring2[1][10][32];
// CUDA:        const auto stencilc_stage2 = [&]() {
// CUDA:            si >= v.lo[0] && si < v.hi[0] && sj >= v.lo[1] && sj < v.hi[1] ? stencilc_step_staged2_g0_recompute2(g, si, sj, stencilc_s1)
// CUDA-NEXT:       : stencilc_s2[si + sj * sy];
// CUDA:        stencilc_stage2();
// CUDA-NEXT:   __syncthreads();
// CUDA-NEXT:   if (stencilc_own) {
// CUDA-NEXT:     const long long c = i + j * sy;
// CUDA:            out[c] = stencilc_ring2[0][threadIdx.y + 2][threadIdx.x + 0] - stencilc_ring2[0][threadIdx.y + 0][threadIdx.x + 0];
// CUDA:      { // staged on chip: a tile of 32 x 8 per block
// CUDA:        const long long gz = 1;

// CPU-LABEL: static const char *stencilc_step_staged3_openmp(
// CPU:         { // fused by recomputation
// CPU:         (i - 1 >= v.lo[0] ? stencilc_step_staged3_g0_recompute3(g, i - 1, j, k, stencilc_s2) : fx[c - 1])

// ALT:       __global__ void __launch_bounds__(256, 5) stencilc_step_staged3_g0(const stencil::Grid g,
// ALT-SAME:      const bool stencilc_zfirst,
// Blocks in x, then along z where stencilc_zfirst, then in y.
// ALT-NEXT:    const long long i = r.lo[0] + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
// ALT-NEXT:    const long long j = r.lo[1] + (stencilc_zfirst ? blockIdx.z : blockIdx.y) * static_cast<long long>(blockDim.y) + threadIdx.y;
// ALT-NEXT:    const long long k = r.lo[2] + (stencilc_zfirst ? blockIdx.y : blockIdx.z) * static_cast<long long>(blockDim.z) + threadIdx.z;
// ALT:       __global__ void __launch_bounds__(256, 4) stencilc_step_staged3_g0_alt(
// ALT:       // Group 1 + g: group g by its alternative strategy.
// ALT:           case 0:
// ALT:             { // fused by recomputation, one thread per point
// ALT-NEXT:          unsigned stencilc_bx = 32;
// ALT-NEXT:          while (stencilc_bx > 2 && stencilc_bx / 2 >= nx)
// ALT-NEXT:            stencilc_bx /= 2;
// FluxZ reads u at z and z + 1, the divergence fz at k - 1: a block of two
// planes reads five of u (8 bytes each), and blocks go down the columns
// first where that many bytes a point of a plane outgrow half the L2.
// ALT-NEXT:          // Down the columns first where the planes a pass plane by plane reads
// ALT-NEXT:          // (40 bytes a point) outgrow 1/2 of the L2 cache.
// ALT-NEXT:          const long long stencilc_l2 = stencil::cuda_ops::l2CacheBytes();
// ALT-NEXT:          const bool stencilc_zfirst = stencilc_l2 > 0 && nx * ny > stencilc_l2 / 80;
// ALT-NEXT:          const dim3 block(stencilc_bx, (stencilc_zfirst ? 2 : 4) * (32 / stencilc_bx), (stencilc_zfirst ? 4 : 2));
// ALT-NEXT:          const long long gx = (nx + block.x - 1) / block.x;
// ALT-NEXT:          const long long gy = (ny + block.y - 1) / block.y;
// ALT-NEXT:          const long long gz = (nz + block.z - 1) / block.z;
// ALT-NEXT:          if (gx > 2147483647LL || gy > 65535 || gz > 65535)
// ALT-NEXT:            return "region too large for one launch of the grid variant";
// ALT-NEXT:          const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(stencilc_zfirst ? gz : gy), static_cast<unsigned>(stencilc_zfirst ? gy : gz));
// ALT-NEXT:          stencilc_step_staged3_g0<<<grid, block, 0, static_cast<cudaStream_t>(cfg.stream)>>>(g, r, v, stencilc_zfirst,
// ALT:           case 1:
// ALT-NEXT:        {
// ALT:             stencilc_step_staged3_g0_alt<<<grid, block
// ALT:       stencilc_step_staged3_round0_recomputed, 2, 0u, 1, "staged(FluxX, FluxZ, Div)", 2},
// A 2-D step: one plane, no order to choose.
// ALT:       const bool stencilc_zfirst = false;
// ALT-NEXT:  const dim3 block(stencilc_bx, 4 * (32 / stencilc_bx), 1);
// ALT:       stencilc_step_staged2_g0<<<grid, block
// ALT:       stencilc_step_flat4_round0_recomputed, 1, 0u, -1, nullptr, 1},

// ALT-CPU-NOT: Group 1 + g
// ALT-CPU:     stencilc_step_staged3_round0_recomputed, 2, 0u, -1, nullptr, 2},

// The planes a block of two planes reads along z, for the order of the blocks
// of the kernel fused by recomputation: u at z -1 .. +2, five planes of 8 bytes
// (staged3); none in 2-D (staged2) and 4-D reads along w only (flat4).
// ALT-PLAN-LABEL: step staged3
// ALT-PLAN:       recompute: 0 FluxX 1 FluxZ 2 Div
// ALT-PLAN-NEXT:    CUDA blocks: down the columns first where the planes read along z (40 bytes a point of a plane) outgrow 1/2 of L2
// ALT-PLAN-LABEL: step staged2
// ALT-PLAN-NOT:   CUDA blocks
// ALT-PLAN-LABEL: step flat4
// ALT-PLAN-NOT:   CUDA blocks
// ALT-PLAN-LABEL: step wide
// ALT-PLAN:       (144 bytes a point of a plane)
