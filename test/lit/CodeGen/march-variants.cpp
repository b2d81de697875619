// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s
// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
//
// The marching variants: column loads come from a register queue that
// shifts each step, in-plane neighbours from a shared-memory tile (smem) or
// from memory (zmarch, zmarch2: plain loads, no __ldg), arrays the stencil
// writes straight from memory.
// Block shape and chunk are launch parameters: one kernel per variant.
#include <stencil/dsl.hpp>

// Radius 2 in z: a queue of five registers, one load per step.
struct STENCIL_KERNEL Star13 {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float a, float b, const float *f, float *fn) const {
    fn[idx.ix()] = a * f[idx.ix()] + b * (f[idx.ix<0, 0, -2>()] + f[idx.ix<0, 0, 2>()] +
                                          f[idx.ix<-2, 0, 0>()] + f[idx.ix<0, 1, 0>()] +
                                          f[idx.ix<1, 0, 1>()]);
  }
};

// CHECK:      // Stencil 'Star13' from {{.*}}march-variants.cpp:12, variant zmarch
// CHECK-NEXT: __global__ void stencilc_Star13_zmarch(const stencil::Grid g, const stencil::Region r, const long long stencilc_chunk, float a, float b, const float *__restrict__ f, float *__restrict__ fn) {
// CHECK:        const long long stencilc_m0 = r.lo[2] + blockIdx.z * stencilc_chunk;
// CHECK:        if (i >= r.hi[0] || j >= r.hi[1])
// CHECK-NEXT:     return;
// CHECK:        float stencilc_q3_0{}, stencilc_q3_1{}, stencilc_q3_2{}, stencilc_q3_3{}, stencilc_q3_4{};
// CHECK-NEXT:   stencilc_q3_0 = f[c - 2 * sz];
// CHECK-NEXT:   stencilc_q3_1 = f[c - sz];
// CHECK-NEXT:   stencilc_q3_2 = f[c];
// CHECK-NEXT:   stencilc_q3_3 = f[c + sz];
// CHECK-NEXT:   #pragma unroll 4
// CHECK-NEXT:   for (long long k = stencilc_m0; k < stencilc_m1; ++k, c += sz) {
// CHECK-NEXT:     stencilc_q3_4 = f[c + 2 * sz];
// CHECK-NEXT:     fn[c] = (a * stencilc_q3_2) + (b * ((((stencilc_q3_0 + stencilc_q3_4) + f[c - 2]) + f[c + sy]) + f[c + 1 + sz]));
// CHECK-NEXT:     stencilc_q3_0 = stencilc_q3_1;
// CHECK-NEXT:     stencilc_q3_1 = stencilc_q3_2;
// CHECK-NEXT:     stencilc_q3_2 = stencilc_q3_3;
// CHECK-NEXT:     stencilc_q3_3 = stencilc_q3_4;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK:      // cfg.block[2] is the chunk of z each thread marches.
// CHECK:      /*variant=*/"zmarch",
// CHECK:      /*query=*/&stencilc_Star13_zmarch_query,
// CHECK-NEXT: /*marchDim=*/2,
// CHECK-NEXT: /*unit=*/__FILE__,
// CHECK-NEXT: /*defaultBlock=*/{0, 0, 0},

// Two points per thread, adjacent in y: the second at a distance every
// thread shares (so the compiler can merge the points' common loads) and
// skipped past the region; register arrays indexed by an unrolled loop.
// All points' queues load before the bodies and shift after them, so the
// first point reads its y + 1 neighbour from the second point's queue.
// CHECK:      // Stencil 'Star13' from {{.*}}, variant zmarch2
// CHECK-NEXT: __global__ void stencilc_Star13_zmarch2(
// CHECK:        const long long stencilc_j0 = r.lo[1] + (blockIdx.y * static_cast<long long>(blockDim.y) + threadIdx.y) * 2;
// CHECK:        if (i >= r.hi[0] || stencilc_j0 >= r.hi[1])
// CHECK:        long long stencilc_c = i + stencilc_j0 * sy + stencilc_m0 * sz;
// CHECK-NEXT:   const long long stencilc_dp = 1;
// CHECK-NEXT:   int stencilc_n = 1;
// CHECK-NEXT:   while (stencilc_n < 2 && stencilc_j0 + stencilc_n * stencilc_dp < r.hi[1])
// CHECK-NEXT:     ++stencilc_n;
// CHECK-NEXT:   float stencilc_q3_0[2]{}, stencilc_q3_1[2]{}, stencilc_q3_2[2]{}, stencilc_q3_3[2]{}, stencilc_q3_4[2]{};
// CHECK:        #pragma unroll 2
// CHECK-NEXT:   for (long long k = stencilc_m0; k < stencilc_m1; ++k, stencilc_c += sz) {
// CHECK-NEXT:     #pragma unroll
// CHECK-NEXT:     for (int stencilc_p = 0; stencilc_p < 2; ++stencilc_p) {
// CHECK-NEXT:       if (stencilc_p < stencilc_n) {
// CHECK-NEXT:         {{\[\[}}maybe_unused]] const long long c = stencilc_c + stencilc_p * stencilc_dp * sy;
// CHECK-NEXT:         {{\[\[}}maybe_unused]] const long long j = stencilc_j0 + stencilc_p * stencilc_dp;
// CHECK-NEXT:         stencilc_q3_4[stencilc_p] = f[c + 2 * sz];
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     #pragma unroll
// CHECK-NEXT:     for (int stencilc_p = 0; stencilc_p < 2; ++stencilc_p) {
// CHECK-NEXT:       if (stencilc_p < stencilc_n) {
// CHECK-NEXT:         {{\[\[}}maybe_unused]] const long long c = stencilc_c + stencilc_p * stencilc_dp * sy;
// CHECK-NEXT:         {{\[\[}}maybe_unused]] const long long j = stencilc_j0 + stencilc_p * stencilc_dp;
// CHECK-NEXT:         fn[c] = (a * stencilc_q3_2[stencilc_p]) + (b * ((((stencilc_q3_0[stencilc_p] + stencilc_q3_4[stencilc_p]) + f[c - 2]) + (stencilc_p + 1 < stencilc_n ? stencilc_q3_2[(stencilc_p + 3) % 2] : f[c + sy])) + f[c + 1 + sz]));
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     #pragma unroll
// CHECK-NEXT:     for (int stencilc_p = 0; stencilc_p < 2; ++stencilc_p) {
// CHECK-NEXT:       stencilc_q3_0[stencilc_p] = stencilc_q3_1[stencilc_p];
// CHECK:        const long long gy = (ny + 2LL * block.y - 1) / (2LL * block.y);
// CHECK:      /*variant=*/"zmarch2",

// The tile: halo 2 left in x, 1 up in y; a pitch that keeps narrow blocks'
// rows in separate banks; two barriers per step; box offsets from memory.
// CHECK:      // Stencil 'Star13' from {{.*}}, variant smem
// CHECK:        return bx < 32u ? bx + 32u * ((2u + 31u) / 32u) : bx + 2u;
// CHECK:        return (stencilc_Star13_tile_pitch(bx) * static_cast<unsigned long long>(by + 1u) * elem + 15u) / 16u * 16u;
// CHECK:      __global__ void stencilc_Star13_smem(
// CHECK:        const bool stencilc_active = !(i >= r.hi[0] || j >= r.hi[1]);
// CHECK:        extern __shared__ __align__(16) unsigned char stencilc_smem[];
// CHECK:        const int stencilc_tc = (threadIdx.y + 0) * stencilc_pitch + threadIdx.x + 2;
// CHECK:        for (long long k = stencilc_m0; k < stencilc_m1; ++k, c += sz) {
// CHECK:          __syncthreads(); // the previous step has read the tile
// CHECK-NEXT:     if (stencilc_active)
// CHECK-NEXT:       stencilc_t3[stencilc_tc] = stencilc_q3_2;
// CHECK-NEXT:     else if (i < stencilc_ie && j < stencilc_je)
// CHECK-NEXT:       stencilc_t3[stencilc_tc] = f[c];
// CHECK-NEXT:     for (unsigned stencilc_e = threadIdx.y * blockDim.x + threadIdx.x; stencilc_e < stencilc_tw * 1u + blockDim.y * 2u; stencilc_e += blockDim.x * blockDim.y) {
// CHECK:              stencilc_tj = stencilc_row + blockDim.y;
// CHECK:              stencilc_ti = stencilc_col < 2u ? stencilc_col : stencilc_col + blockDim.x;
// CHECK:            stencilc_t3[stencilc_tj * stencilc_pitch + stencilc_ti] = f[stencilc_g];
// CHECK:          __syncthreads(); // the tile holds this step's plane
// CHECK-NEXT:     if (stencilc_active) {
// CHECK-NEXT:       fn[c] = (a * stencilc_q3_2) + (b * ((((stencilc_q3_0 + stencilc_q3_4) + stencilc_t3[stencilc_tc - 2]) + stencilc_t3[stencilc_tc + 1 * stencilc_pitch]) + f[c + 1 + sz]));
// CHECK:        stencilc_Star13_smem<<<grid, block, stencilc_shared, static_cast<cudaStream_t>(cfg.stream)>>>(g, r, stencilc_chunk, a, b, f, fn);
// CHECK:        out->sharedBytes = static_cast<long long>(a.sharedSizeBytes + stencilc_Star13_smem_bytes(static_cast<unsigned>(bx), static_cast<unsigned>(by)));

// An array the stencil also writes is read from memory as written; a
// without in-plane neighbours no smem variant.
struct STENCIL_KERNEL Accumulate {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, float *acc, float *g) const {
    acc[idx.ix()] = acc[idx.ix()] + g[idx.ix<0, 0, 1>()];
  }
};
// CHECK:      __global__ void stencilc_Accumulate_zmarch(
// CHECK:        float stencilc_q2_0{};
// CHECK-NEXT:   #pragma unroll 4
// CHECK-NEXT:   for (long long k = stencilc_m0; k < stencilc_m1; ++k, c += sz) {
// CHECK-NEXT:     stencilc_q2_0 = g_[c + sz];
// CHECK-NEXT:     acc[c] = acc[c] + stencilc_q2_0;
// CHECK-NEXT:   }
// CHECK-NOT:  stencilc_Accumulate_smem
// CHECK:      /*variant=*/"zmarch",

// A column other than the centre read at several z offsets gets a queue of
// its own; in zmarch2 a load one row up is the next point's queue register.
struct STENCIL_KERNEL Columns {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<1, 0, -1>()] + f[idx.ix<1, 0, 1>()] + f[idx.ix<1, 1, 1>()] + f[idx.ix<0, 2, 0>()];
  }
};
// CHECK:      __global__ void stencilc_Columns_zmarch(
// CHECK:        // A queue of f at c + 1, z offsets -1 .. +1.
// CHECK-NEXT:   float stencilc_q1c0_0{}, stencilc_q1c0_1{}, stencilc_q1c0_2{};
// CHECK-NEXT:   stencilc_q1c0_0 = f[c + 1 - sz];
// CHECK-NEXT:   stencilc_q1c0_1 = f[c + 1];
// CHECK-NEXT:   #pragma unroll 4
// CHECK-NEXT:   for (long long k = stencilc_m0; k < stencilc_m1; ++k, c += sz) {
// CHECK-NEXT:     stencilc_q1c0_2 = f[c + 1 + sz];
// CHECK-NEXT:     fn[c] = ((stencilc_q1c0_0 + stencilc_q1c0_2) + f[c + 1 + sy + sz]) + f[c + 2 * sy];
// CHECK-NEXT:     stencilc_q1c0_0 = stencilc_q1c0_1;
// CHECK-NEXT:     stencilc_q1c0_1 = stencilc_q1c0_2;
// CHECK-NEXT:   }
// CHECK:      __global__ void stencilc_Columns_zmarch2(
// CHECK:        fn[c] = ((stencilc_q1c0_0[stencilc_p] + stencilc_q1c0_2[stencilc_p]) + (stencilc_p + 1 < stencilc_n ? stencilc_q1c0_2[(stencilc_p + 3) % 2] : f[c + 1 + sy + sz])) + f[c + 2 * sy];
// CHECK:      __global__ void stencilc_Columns_smem(

// 2-D: the block is one row of x, each thread marches y.
STENCIL_KERNEL void heat(const stencil::Index2D &idx, double c, const double *u, double *un) {
  un[idx.ix()] = u[idx.ix()] + c * (u[idx.ix<-1, 0>()] + u[idx.ix<1, 0>()] + u[idx.ix<0, -1>()] + u[idx.ix<0, 1>()]);
}
// CHECK:      __global__ void stencilc_heat_zmarch(
// CHECK:        const long long stencilc_m0 = r.lo[1] + blockIdx.y * stencilc_chunk;
// CHECK:        for (long long j = stencilc_m0; j < stencilc_m1; ++j, c += sy) {
// CHECK:      const dim3 block(cfg.block[0], 1, 1);
// CHECK:      __global__ void stencilc_heat_zmarch2(
// CHECK:        const long long stencilc_i0 = r.lo[0] + blockIdx.x * 2LL * blockDim.x + threadIdx.x;
// CHECK:        const long long stencilc_dp = blockDim.x;
// CHECK:      const long long gx = (nx + 2LL * block.x - 1) / (2LL * block.x);
// CHECK:      __global__ void stencilc_heat_smem(
// CHECK:        const int stencilc_tc = threadIdx.x + 1;
// CHECK:          for (unsigned stencilc_e = threadIdx.x; stencilc_e < 2u; stencilc_e += blockDim.x) {
// CHECK-NEXT:       const unsigned stencilc_ti = stencilc_e < 1u ? stencilc_e : stencilc_e + blockDim.x;
// CHECK:            stencilc_t2[stencilc_ti] = u[stencilc_g];
// CHECK:            un[c] = stencilc_q2_1 + (c_ * (((stencilc_t2[stencilc_tc - 1] + stencilc_t2[stencilc_tc + 1]) + stencilc_q2_0) + stencilc_q2_2));

// CPU-NOT: zmarch
// CPU-NOT: smem
// CPU:     /*variant=*/"grid",
// CPU-NOT: zmarch
