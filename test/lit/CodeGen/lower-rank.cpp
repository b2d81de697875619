// Arrays of lower rank beside a full array: a profile along z (th0), a
// surface field (ps) and a y-z plane (yz). Their loads index them by the
// point's position along the dimensions they span; the marching variants keep
// the profile in a register queue like a full array's column, load the
// surface field once before the march, and never tile either.
// RUN: %stencilc %s --emit=ir -o - -- -I %mock_include | FileCheck %s --check-prefix=IR
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CPU
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
// RUN: %stencilc %s --list -- -I %mock_include | FileCheck %s --check-prefix=LIST
#include <stencil/dsl.hpp>


struct STENCIL_KERNEL Buoy {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *th, const float *th0,
                             const float *ps, const float *yz, float *out) const {
    out[idx.ix()] = th[idx.ix<0, 0, 1>()] * th0[idx.ix_z<1>()] + th0[idx.ix_z<-1>()] +
                    ps[idx.ix_xy<0, -1>()] + yz[idx.ix_yz<1, -2>()] + th[idx.ix<1, 0, 0>()];
  }
};

// In the IR, each array has its axes; offsets keep every dimension, 0 in
// those an array does not span; the halo counts every array; a profile costs
// no bytes per point (8: th read, out written).
// IR:      "arrays": [
// IR:      "name": "th0",
// IR-NEXT: "type": "f32",
// IR-NEXT: "intent": "in",
// IR-NEXT: "axes": "z",
// IR-NEXT: "offsets": [
// IR-NEXT:   [0, 0, -1],
// IR-NEXT:   [0, 0, 1]
// IR:      "name": "ps",
// IR:      "axes": "xy",
// IR-NEXT: "offsets": [
// IR-NEXT:   [0, -1, 0]
// IR:      "name": "yz",
// IR:      "axes": "yz",
// IR:      "name": "out",
// IR:      "axes": "xyz",
// IR:        [1, 1],
// IR-NEXT:   [2, 1]
// IR-NEXT: ],
// IR-NEXT: "flops_per_point": 5,
// IR-NEXT: "bytes_per_point": 8,
// IR-NEXT: "body": "out[0,0,0] = (((((th[0,0,1] * th0[z:1]) + th0[z:-1]) + ps[xy:0,-1]) + yz[yz:1,-2]) + th[1,0,0])\n"

// PLAN:      variant zmarch:
// PLAN:        queue th0 (centre): z -1 .. +1, 3 registers
// PLAN:        load th0[z:-1]: queue th0 (centre) register 0
// PLAN-NEXT:   load th0[z:1]: queue th0 (centre) register 2
// PLAN-NEXT:   load ps[xy:0,-1]: register 0, loaded before the march
// PLAN-NEXT:   load yz[yz:1,-2]: memory
// PLAN:      variant smem:
// PLAN:        tile of th: own cell from memory
// PLAN-NOT:    tile of
// PLAN:        load ps[xy:0,-1]: register 0, loaded before the march
// PLAN:        openmp: blocked for cache: y tiles x z chunks, sized at run time; 12 bytes per point of a tile row

// CPU: out[c] = ((((th[c + sz] * th0[k + 1]) + th0[k - 1]) + ps[i + (j - 1) * sy]) + yz[j + 1 + (k - 2) * g.extent[1]]) + th[c + 1];

// The grid variant: the same indices.
// CUDA:      __global__ void stencilc_Buoy_grid(
// CUDA:        out[c] = ((((th[c + sz] * th0[k + 1]) + th0[k - 1]) + ps[i + (j - 1) * sy]) + yz[j + 1 + (k - 2) * g.extent[1]]) + th[c + 1];
// The registry records what each parameter after the index spans.
// CUDA:      static const unsigned stencilc_axes_Buoy[] = {7u, 4u, 3u, 6u, 7u};
// And which it may store to (repeat() checks its level marks against it).
// CUDA-NEXT:  static const bool stencilc_writes_Buoy[] = {false, false, false, false, true};
// And whether what it leaves depends on what the array held (it stores out
// on every path and never reads it).
// CUDA-NEXT:  static const bool stencilc_keeps_Buoy[] = {false, false, false, false, false};
// And how far each is read around a point, within the axes it spans (yz at
// j + 1 and k - 2 reads across y and z: pair bit 4 * 1 + 2, 64; out is not
// read).
// CUDA-NEXT:  static const stencil::GeneratedArrayReads stencilc_reads_Buoy[] = {{[{][{][{][{]}}0, 1}, {0, 0}, {0, 1}, {0, 0}}, 0u}, {{[{][{][{]}}0, 0}, {0, 0}, {1, 1}, {0, 0}}, 0u}, {{[{][{][{]}}0, 0}, {1, 0}, {0, 0}, {0, 0}}, 0u}, {{[{][{][{]}}0, 0}, {0, 1}, {2, 0}, {0, 0}}, 64u}, {{[{][{][{]}}0, 0}, {0, 0}, {0, 0}, {0, 0}}, 0u}};
// CUDA:        /*arrayAxes=*/stencilc_axes_Buoy,
// CUDA-NEXT:   /*coordinates=*/0u,
// CUDA-NEXT:   /*writes=*/stencilc_writes_Buoy,
// CUDA-NEXT:   /*keeps=*/stencilc_keeps_Buoy,
// CUDA-NEXT:   /*arrayReads=*/stencilc_reads_Buoy});
// zmarch: the profile's queue is filled at the chunk's first step
// (stencilc_m0), then one value per step at k + 1; the surface field is
// loaded once.
// CUDA:      __global__ void stencilc_Buoy_zmarch(
// CUDA:        float stencilc_q2_0{}, stencilc_q2_1{}, stencilc_q2_2{};
// CUDA-NEXT:   // Loads that are the same at every step of the march.
// CUDA-NEXT:   float stencilc_v0{};
// CUDA-NEXT:   stencilc_q2_0 = th0[stencilc_m0 - 1];
// CUDA-NEXT:   stencilc_q2_1 = th0[stencilc_m0];
// CUDA-NEXT:   stencilc_v0 = ps[i + (j - 1) * sy];
// CUDA:        for (long long k = stencilc_m0; k < stencilc_m1; ++k, c += sz) {
// CUDA:          stencilc_q2_2 = th0[k + 1];
// CUDA-NEXT:     out[c] = ((((stencilc_q1_0 * stencilc_q2_2) + stencilc_q2_0) + stencilc_v0) + yz[j + 1 + (k - 2) * g.extent[1]]) + th[c + 1];
// zmarch2: each point's registers, filled with the point's own j.
// CUDA:      __global__ void stencilc_Buoy_zmarch2(
// CUDA:        float stencilc_v0[2]{};
// CUDA:            {{\[\[}}maybe_unused]] const long long j = stencilc_j0 + stencilc_p * stencilc_dp;
// CUDA-NEXT:       stencilc_q2_0[stencilc_p] = th0[stencilc_m0 - 1];
// CUDA-NEXT:       stencilc_q2_1[stencilc_p] = th0[stencilc_m0];
// CUDA-NEXT:       stencilc_v0[stencilc_p] = ps[i + (j - 1) * sy];
// smem: the preloads only where the thread is in the region; no tile but th's.
// CUDA:      __global__ void stencilc_Buoy_smem(
// CUDA:        if (stencilc_active) {
// CUDA-NEXT:     stencilc_q2_0 = th0[stencilc_m0 - 1];
// CUDA-NEXT:     stencilc_q2_1 = th0[stencilc_m0];
// CUDA-NEXT:     stencilc_v0 = ps[i + (j - 1) * sy];
// CUDA-NOT:    stencilc_t2
// CUDA:        out[c] = ((((stencilc_q1_0 * stencilc_q2_2) + stencilc_q2_0) + stencilc_v0) + yz[j + 1 + (k - 2) * g.extent[1]]) + stencilc_t1[stencilc_tc + 1];

STENCIL_KERNEL void Unread(const stencil::Index3D &idx, const float *f,
                           const float *profile, float *fn) {
  fn[idx.ix()] = f[idx.ix<0, 0, 1>()];
}

// An array parameter the body never indexes spans nothing: the runtime takes
// a Field or a pointer for it (a DomainLoop refused a pointer there, as if it
// were a full array).
// CUDA: static const unsigned stencilc_axes_Unread[] = {7u, 0u, 7u};

// LIST: Buoy (functor, 3-D): halo x[0,1] y[1,1] z[2,1], flops/point 5, bytes/point 8
// LIST:   th0: in f32, spans z, 2 offsets, halo x[0,0] y[0,0] z[1,1]
// LIST:   ps: in f32, spans xy, 1 offsets, halo x[0,0] y[1,0] z[0,0]
// LIST:   out: out f32
