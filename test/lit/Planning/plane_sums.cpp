// The zsum variant: a 3-D body that stores one sum whose terms each read
// one plane, in the planes' order, gets running sums marched up z (two
// points a thread), and zsum4 (four, from planes copied into shared memory
// by the block); a box that cannot says why; a stencil with no column
// off the centre read at two planes, or a 2-D one, gets no word of it.
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
#include <stencil/dsl.hpp>

// Planes -1, 0, +2: a constant goes with the first term that reads, plane
// +1 has no term; two arrays; the second point's row +2 is its own.
struct STENCIL_KERNEL Sum {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, const float *k,
                             float *b) const {
    b[idx.ix()] = 0.25f - a[idx.ix<-1, 0, -1>()] * k[idx.ix<0, 0, -1>()] +
                  0.5f * a[idx.ix<1, 1, -1>()] + a[idx.ix()] - a[idx.ix<1, 1, 0>()] +
                  a[idx.ix<1, 1, 2>()];
  }
};
// Double products for a float array: double sums, converted at the store.
struct STENCIL_KERNEL Wide {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = 0.5 * a[idx.ix<0, 1, -1>()] + 0.25 * a[idx.ix<0, 1, 1>()];
  }
};
// An f64 box's first rows: zsum4 (128, 2) chunk 8 is its default.
struct STENCIL_KERNEL Rows64 {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *a, double *b) const {
    b[idx.ix()] = a[idx.ix<-1, -1, -1>()] + a[idx.ix<1, 1, -1>()] + a[idx.ix<0, 0, 0>()] +
                  a[idx.ix<-1, -1, 1>()] + a[idx.ix<1, 1, 1>()];
  }
};
// A mask of bools: zsum, but no zsum4 (an asynchronous copy moves 4, 8 or 16
// bytes).
struct STENCIL_KERNEL Mask {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, const bool *m,
                             float *b) const {
    b[idx.ix()] = a[idx.ix<1, 0, -1>()] * m[idx.ix<1, 0, -1>()] + a[idx.ix<1, 0, 0>()] +
                  a[idx.ix<0, 0, 1>()];
  }
};
// Rows 2000 apart: a plane's copy for 32 x 1 threads is 4004 rows: no zsum4.
struct STENCIL_KERNEL Tall {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix<1, -2000, -1>()] + a[idx.ix<0, 2000, 0>()] + a[idx.ix<1, -2000, 1>()];
  }
};
// Column by column, not plane by plane: the single step's zsum would hold the
// last term two planes (only the passes do).
struct STENCIL_KERNEL Unordered {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix<1, 0, -1>()] + a[idx.ix<1, 0, 1>()] + a[idx.ix<0, 0, -1>()];
  }
};
// A term reading two planes.
struct STENCIL_KERNEL TwoPlanes {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix<1, 0, -1>()] + (a[idx.ix<1, 0, 1>()] - a[idx.ix()]);
  }
};
// A product of sums, not a sum.
struct STENCIL_KERNEL Product {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = 0.5f * (a[idx.ix<1, 0, -1>()] + a[idx.ix<1, 0, 1>()]);
  }
};
// A coordinate in a term.
struct STENCIL_KERNEL Coordinate {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix<1, 0, -1>()] + a[idx.ix<1, 0, 1>()] * static_cast<float>(idx.k());
  }
};
// A local first: the body is not one store.
struct STENCIL_KERNEL Local {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    const float w = 0.5f;
    b[idx.ix()] = w * a[idx.ix<1, 0, -1>()] + a[idx.ix<1, 0, 1>()];
  }
};
// A profile along z: indexed by its own rank, not planned.
struct STENCIL_KERNEL Profile {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, const float *p,
                             float *b) const {
    b[idx.ix()] = a[idx.ix<1, 0, -1>()] * p[idx.ix_z<-1>()] + a[idx.ix<1, 0, 1>()];
  }
};
// Reads the array it writes: a plane of it is another block's to store.
struct STENCIL_KERNEL Accumulate {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] += a[idx.ix<1, 0, -1>()] + a[idx.ix<1, 0, 1>()];
  }
};
// Planes 33 apart: 33 running sums would be more than a queue may hold.
struct STENCIL_KERNEL Far {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix<1, 0, -1>()] + a[idx.ix<1, 0, 0>()] + a[idx.ix<0, 1, 32>()];
  }
};
// Integers.
struct STENCIL_KERNEL Ints {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const int *a, int *b) const {
    b[idx.ix()] = a[idx.ix<1, 0, -1>()] + a[idx.ix<1, 0, 1>()];
  }
};
// A star: only the centre column is read at several planes.
struct STENCIL_KERNEL Star {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix<0, 0, -1>()] + a[idx.ix<1, 0, 0>()] + a[idx.ix<0, 0, 1>()];
  }
};
// 2-D.
struct STENCIL_KERNEL Flat {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a, float *b) const {
    b[idx.ix()] = a[idx.ix<1, -1>()] + a[idx.ix<1, 1>()];
  }
};

// Sum's two arrays' stages at (256, 2) would take more than 48 KiB: zsum,
// not zsum4, is its default.
// PLAN-LABEL: stencil Sum
// PLAN: default launch (CUDA, untuned): zsum block (128, 4) chunk 8
// PLAN: variant zsum: block (bx, by) over x, y; each thread marches a chunk of z; 2 points per thread, adjacent in y
// PLAN-NEXT: march loop: unrolled 2; 6 terms over z -1 .. +2 in the source's order; 3 running sums a point
// PLAN-NEXT: plane -1: terms 1, 2, 3
// PLAN-NEXT: plane 0: terms 4, 5
// PLAN-NEXT: plane +1: no term
// PLAN-NEXT: plane +2: terms 6
// PLAN-NEXT: load a plane: a[-1,0]
// PLAN-NEXT: load a plane: k[0,0]
// PLAN-NEXT: load a plane: a[1,1]
// PLAN-NEXT: load a plane: a[0,0]
// PLAN-NEXT: load a plane: a[-1,1] (the second point's only: from the row below where it is past the region)
// PLAN-NEXT: load a plane: k[0,1] (the second point's only: {{.*}})
// PLAN-NEXT: load a plane: a[1,2] (the second point's only: {{.*}})
// PLAN-NEXT: load a plane: a[0,1] (the second point's only: {{.*}})
// PLAN-NEXT: variant zsum4: block (bx, by) over x, y; each thread marches a chunk of z; 4 points per thread, adjacent in y
// PLAN-NEXT: march loop: 3 planes in shared memory, copied asynchronously ahead of the one summed, a barrier a plane; 6 terms over z -1 .. +2 in the source's order; 3 running sums a point
// PLAN: plane +2: terms 6
// PLAN-NEXT: copy a plane: a at x -1 .. +1, y 0 .. +1 of the block's points
// PLAN-NEXT: copy a plane: k at x 0 .. 0, y 0 .. 0 of the block's points
// PLAN-LABEL: stencil Wide
// PLAN: default launch (CUDA, untuned): zsum4 block (256, 2) chunk 32
// PLAN: variant zsum:
// PLAN-LABEL: stencil Rows64
// PLAN: default launch (CUDA, untuned): zsum4 block (128, 2) chunk 8
// PLAN-LABEL: stencil Mask
// PLAN: default launch (CUDA, untuned): zsum block (128, 4) chunk 8
// PLAN: variant zsum: block
// PLAN-NOT: variant zsum4: block
// PLAN: variant zsum4: none: it reads 'm', of 1-byte elements (an asynchronous copy moves 4 or 8)
// PLAN-LABEL: stencil Tall
// PLAN: variant zsum: block
// PLAN-NOT: variant zsum4: block
// PLAN: variant zsum4: none: its copies of a plane take more than 48 KiB of shared memory for a block of 32 x 1
// PLAN-LABEL: stencil Unordered
// PLAN: default launch (CUDA, untuned): zmarch block (64, 4) chunk 16
// PLAN-NOT: variant zsum: block
// PLAN: variant zsum: none: it would hold terms (of earlier planes after later ones), which only the passes summed by planes do
// PLAN-LABEL: stencil TwoPlanes
// PLAN: variant zsum: none: a term reads two planes
// PLAN-LABEL: stencil Product
// PLAN: variant zsum: none: the value it stores is not a sum
// PLAN-LABEL: stencil Coordinate
// PLAN: variant zsum: none: it reads a coordinate
// PLAN-LABEL: stencil Local
// PLAN: variant zsum: none: its body is not one store
// PLAN-LABEL: stencil Profile
// PLAN: variant zsum: none: it reads 'p', of lower rank
// PLAN-LABEL: stencil Accumulate
// PLAN: variant zsum: none: it reads the array it writes
// PLAN-LABEL: stencil Far
// PLAN: variant zsum: none: its planes span more than 32
// PLAN-LABEL: stencil Ints
// PLAN: variant zsum: none: its sum is not of floating point
// PLAN-LABEL: stencil Star
// PLAN-NOT: zsum
// PLAN-LABEL: stencil Flat
// PLAN-NOT: zsum

// CUDA-LABEL: __global__ void stencilc_Sum_zsum(
// CUDA: long long c = i + j * sy + (stencilc_m0 - 1) * sz;
// CUDA: float stencilc_s0_0 = static_cast<float>(0), stencilc_s0_1 = static_cast<float>(0), stencilc_s0_2 = static_cast<float>(0);
// The first warm-up plane (-1) starts the chunk's first point's sum; the
// next two (0, +1) carry it on, the empty plane +1 only passing it down.
// CUDA: stencilc_s0_2 = (0.25f) - (stencilc_v0 * stencilc_v1) + (0.5f * stencilc_v2);
// CUDA: stencilc_s0_1 = stencilc_s0_2 + (stencilc_v3) - (stencilc_v2);
// CUDA: stencilc_s0_0 = stencilc_s0_1;
// CUDA: #pragma unroll 2
// CUDA-NEXT: for (long long k = stencilc_m0; k < stencilc_m1; ++k) {
// CUDA: stencilc_v6 = a[c + 1 + sy + stencilc_up];
// CUDA: const float stencilc_out0 = stencilc_s0_0 + (stencilc_v2);
// CUDA-NEXT: stencilc_s0_0 = stencilc_s0_1;
// CUDA-NEXT: stencilc_s0_1 = stencilc_s0_2 + (stencilc_v3) - (stencilc_v2);
// CUDA-NEXT: stencilc_s0_2 = (0.25f) - (stencilc_v0 * stencilc_v1) + (0.5f * stencilc_v2);
// The second point reads a row up.
// CUDA-NEXT: const float stencilc_out1 = stencilc_s1_0 + (stencilc_v6);
// CUDA: b[c - 2 * sz] = stencilc_out0;
// CUDA-NEXT: if (stencilc_two)
// CUDA-NEXT: b[c - 2 * sz + sy] = stencilc_out1;
// CUDA: "zsum"
// zsum4: each array's rows of the block's points and the rows its points
// read past them; three stages.
// CUDA-LABEL: unsigned long long stencilc_Sum_zsum4_smem_bytes(
// CUDA-NEXT: return (3ull * (by * 4ull + 1) * (bx + 2ull) * sizeof(float) + 15) / 16 * 16 + (3ull * (by * 4ull + 0) * (bx + 0ull) * sizeof(float) + 15) / 16 * 16;
// CUDA-LABEL: __global__ void stencilc_Sum_zsum4(
// CUDA: const int stencilc_n0 = (blockDim.y * 4 + 1) * stencilc_w0;
// CUDA: long long stencilc_left = stencilc_m1 - stencilc_m0 + 3;
// CUDA: for (long long k = stencilc_m0; k < stencilc_m1; ++k) {
// CUDA-NEXT: __pipeline_wait_prior(1);
// CUDA-NEXT: __syncthreads();
// CUDA-NEXT: stencilc_copy();
// The fourth point's a[1,1] is row 4, column 2 of a's copy.
// CUDA: const float stencilc_v14 = stencilc_r0[4 * stencilc_w0 + 2];
// CUDA: const float stencilc_out3 = stencilc_s3_0 + (stencilc_v14);
// CUDA: if (3 < stencilc_mine)
// CUDA-NEXT: b[c + 3 * sy] = stencilc_out3;
// CUDA: if (stencilc_Sum_zsum4_copies(block.x, block.y) > 8u)
// CUDA-NEXT: return "block too small for the zsum4 variant's copies (more than 8 elements a thread)";
// CUDA: "zsum4"
// CUDA-LABEL: __global__ void stencilc_Wide_zsum(
// CUDA: double stencilc_s0_0 = static_cast<double>(0), stencilc_s0_1 = static_cast<double>(0);
// CUDA: b[c - sz] = static_cast<float>(stencilc_out0);
