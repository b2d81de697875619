// box_zsum_probe.cu - a probe in plain CUDA, not stencilc's code: AN5D's
// 27-point box (f32, 512^3, tight layout) one step at a time, as the zsum
// variant prints it (copied from the generated file of an5d_stencils.hpp),
// against the same running sums (the source's order kept) with P points a
// thread adjacent in y: loaded from memory (3 * (P + 2) loads a plane for P
// points), optionally the next plane's loads issued before this plane's
// sums; or from the block's planes copied into shared memory by asynchronous
// copies, S planes in flight ("async": each copy's index worked out a plane;
// "lean": worked out once, pointers and stages advanced by adding). Every
// kernel over blocks and chunks, then each one's output, poisoned first,
// against zsum's bit for bit (docs/performance.md, "Planes staged in shared
// memory: zsum4"; stencilc's zsum4 is the lean kernel with P = 4, S = 3).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 box_zsum_probe.cu -o box_zsum_probe
//   ./box_zsum_probe [--profile] [--only=NAME,...]   (--profile: one launch of
//   each, for ncu; --only: the candidates whose names contain one of these)
//   ./box_zsum_probe --two-steps   (two steps a pass: zsumTwoSteps)
#include <cmath>
#include <algorithm>
#include <cstring>
#include <string>
#include <cuda_pipeline.h>
#include "box_probe_common.cuh"
__global__ void stencilc_Box3d1rF_zsum(const stencil::Grid g, const stencil::Region r, const long long stencilc_chunk, const float *__restrict__ a, float *__restrict__ b) {
  // This thread computes 2 points, adjacent in y.
  const long long i = r.lo[0] + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long j = r.lo[1] + (blockIdx.y * static_cast<long long>(blockDim.y) + threadIdx.y) * 2;
  // This block marches [stencilc_m0, stencilc_m1) of z.
  const long long stencilc_m0 = r.lo[2] + blockIdx.z * stencilc_chunk;
  const long long stencilc_m1 = stencilc_m0 + stencilc_chunk < r.hi[2] ? stencilc_m0 + stencilc_chunk : r.hi[2];
  if (i >= r.hi[0] || j >= r.hi[1])
    return;
  const long long sy = g.extent[0];
  const long long sz = sy * g.extent[1];
  // Whether the second point is in the region; where it is not, the rows only it reads are loaded from the row below.
  const bool stencilc_two = j + 1 < r.hi[1];
  const long long stencilc_up = stencilc_two ? sy : 0;
  // The first point's column in the plane loaded next.
  long long c = i + j * sy + (stencilc_m0 - 1) * sz;
  // The plane's values the two points read, loaded once.
  float stencilc_v0;
  float stencilc_v1;
  float stencilc_v2;
  float stencilc_v3;
  float stencilc_v4;
  float stencilc_v5;
  float stencilc_v6;
  float stencilc_v7;
  float stencilc_v8;
  float stencilc_v9;
  float stencilc_v10;
  float stencilc_v11;
  // Each point's running sums: after plane q, sum n holds the terms so far of the point at q +0 + n.
  float stencilc_s0_0 = static_cast<float>(0), stencilc_s0_1 = static_cast<float>(0);
  float stencilc_s1_0 = static_cast<float>(0), stencilc_s1_1 = static_cast<float>(0);
  // Planes m0 -1 .. m0 +0: the terms of the chunk's first points.
  {
    stencilc_v0 = a[c - 1 - sy];
    stencilc_v1 = a[c - sy];
    stencilc_v2 = a[c + 1 - sy];
    stencilc_v3 = a[c - 1];
    stencilc_v4 = a[c];
    stencilc_v5 = a[c + 1];
    stencilc_v6 = a[c - 1 + sy];
    stencilc_v7 = a[c + sy];
    stencilc_v8 = a[c + 1 + sy];
    stencilc_v9 = a[c - 1 + sy + stencilc_up];
    stencilc_v10 = a[c + sy + stencilc_up];
    stencilc_v11 = a[c + 1 + sy + stencilc_up];
    stencilc_s0_1 = (0.037f * stencilc_v0) + (0.0371f * stencilc_v1) + (0.0372f * stencilc_v2) + (0.0373f * stencilc_v3) + (0.0374f * stencilc_v4) + (0.0375f * stencilc_v5) + (0.0376f * stencilc_v6) + (0.0377f * stencilc_v7) + (0.0378f * stencilc_v8);
    stencilc_s1_1 = (0.037f * stencilc_v3) + (0.0371f * stencilc_v4) + (0.0372f * stencilc_v5) + (0.0373f * stencilc_v6) + (0.0374f * stencilc_v7) + (0.0375f * stencilc_v8) + (0.0376f * stencilc_v9) + (0.0377f * stencilc_v10) + (0.0378f * stencilc_v11);
    c += sz;
  }
  {
    stencilc_v0 = a[c - 1 - sy];
    stencilc_v1 = a[c - sy];
    stencilc_v2 = a[c + 1 - sy];
    stencilc_v3 = a[c - 1];
    stencilc_v4 = a[c];
    stencilc_v5 = a[c + 1];
    stencilc_v6 = a[c - 1 + sy];
    stencilc_v7 = a[c + sy];
    stencilc_v8 = a[c + 1 + sy];
    stencilc_v9 = a[c - 1 + sy + stencilc_up];
    stencilc_v10 = a[c + sy + stencilc_up];
    stencilc_v11 = a[c + 1 + sy + stencilc_up];
    stencilc_s0_0 = stencilc_s0_1 + (0.0379f * stencilc_v0) + (0.038f * stencilc_v1) + (0.0381f * stencilc_v2) + (0.0382f * stencilc_v3) + (0.0383f * stencilc_v4) + (0.0384f * stencilc_v5) + (0.0385f * stencilc_v6) + (0.0386f * stencilc_v7) + (0.0387f * stencilc_v8);
    stencilc_s0_1 = (0.037f * stencilc_v0) + (0.0371f * stencilc_v1) + (0.0372f * stencilc_v2) + (0.0373f * stencilc_v3) + (0.0374f * stencilc_v4) + (0.0375f * stencilc_v5) + (0.0376f * stencilc_v6) + (0.0377f * stencilc_v7) + (0.0378f * stencilc_v8);
    stencilc_s1_0 = stencilc_s1_1 + (0.0379f * stencilc_v3) + (0.038f * stencilc_v4) + (0.0381f * stencilc_v5) + (0.0382f * stencilc_v6) + (0.0383f * stencilc_v7) + (0.0384f * stencilc_v8) + (0.0385f * stencilc_v9) + (0.0386f * stencilc_v10) + (0.0387f * stencilc_v11);
    stencilc_s1_1 = (0.037f * stencilc_v3) + (0.0371f * stencilc_v4) + (0.0372f * stencilc_v5) + (0.0373f * stencilc_v6) + (0.0374f * stencilc_v7) + (0.0375f * stencilc_v8) + (0.0376f * stencilc_v9) + (0.0377f * stencilc_v10) + (0.0378f * stencilc_v11);
    c += sz;
  }
  #pragma unroll 2
  for (long long k = stencilc_m0; k < stencilc_m1; ++k) {
    stencilc_v0 = a[c - 1 - sy];
    stencilc_v1 = a[c - sy];
    stencilc_v2 = a[c + 1 - sy];
    stencilc_v3 = a[c - 1];
    stencilc_v4 = a[c];
    stencilc_v5 = a[c + 1];
    stencilc_v6 = a[c - 1 + sy];
    stencilc_v7 = a[c + sy];
    stencilc_v8 = a[c + 1 + sy];
    stencilc_v9 = a[c - 1 + sy + stencilc_up];
    stencilc_v10 = a[c + sy + stencilc_up];
    stencilc_v11 = a[c + 1 + sy + stencilc_up];
    const float stencilc_out0 = stencilc_s0_0 + (0.0388f * stencilc_v0) + (0.0389f * stencilc_v1) + (0.039f * stencilc_v2) + (0.0391f * stencilc_v3) + (0.0392f * stencilc_v4) + (0.0393f * stencilc_v5) + (0.0394f * stencilc_v6) + (0.0395f * stencilc_v7) + (0.0396f * stencilc_v8);
    stencilc_s0_0 = stencilc_s0_1 + (0.0379f * stencilc_v0) + (0.038f * stencilc_v1) + (0.0381f * stencilc_v2) + (0.0382f * stencilc_v3) + (0.0383f * stencilc_v4) + (0.0384f * stencilc_v5) + (0.0385f * stencilc_v6) + (0.0386f * stencilc_v7) + (0.0387f * stencilc_v8);
    stencilc_s0_1 = (0.037f * stencilc_v0) + (0.0371f * stencilc_v1) + (0.0372f * stencilc_v2) + (0.0373f * stencilc_v3) + (0.0374f * stencilc_v4) + (0.0375f * stencilc_v5) + (0.0376f * stencilc_v6) + (0.0377f * stencilc_v7) + (0.0378f * stencilc_v8);
    const float stencilc_out1 = stencilc_s1_0 + (0.0388f * stencilc_v3) + (0.0389f * stencilc_v4) + (0.039f * stencilc_v5) + (0.0391f * stencilc_v6) + (0.0392f * stencilc_v7) + (0.0393f * stencilc_v8) + (0.0394f * stencilc_v9) + (0.0395f * stencilc_v10) + (0.0396f * stencilc_v11);
    stencilc_s1_0 = stencilc_s1_1 + (0.0379f * stencilc_v3) + (0.038f * stencilc_v4) + (0.0381f * stencilc_v5) + (0.0382f * stencilc_v6) + (0.0383f * stencilc_v7) + (0.0384f * stencilc_v8) + (0.0385f * stencilc_v9) + (0.0386f * stencilc_v10) + (0.0387f * stencilc_v11);
    stencilc_s1_1 = (0.037f * stencilc_v3) + (0.0371f * stencilc_v4) + (0.0372f * stencilc_v5) + (0.0373f * stencilc_v6) + (0.0374f * stencilc_v7) + (0.0375f * stencilc_v8) + (0.0376f * stencilc_v9) + (0.0377f * stencilc_v10) + (0.0378f * stencilc_v11);
    b[c - sz] = stencilc_out0;
    if (stencilc_two)
      b[c - sz + sy] = stencilc_out1;
    c += sz;
  }
}

// The weight of the box's term (dz, dy, dx), as Box3d1rF writes them.
#define W(dz, dy, dx) kW[((dz) + 1) * 9 + ((dy) + 1) * 3 + ((dx) + 1)]

// The nine terms of plane dz of point p, in the source's order, added to
// acc (or starting the sum when first).
template <int P>
__device__ __forceinline__ float planeTerms(const float (&v)[P + 2][3], int p, int dz, float acc, bool first) {
  const float kW[27] = {0.037f, 0.0371f, 0.0372f, 0.0373f, 0.0374f, 0.0375f, 0.0376f, 0.0377f, 0.0378f,
                        0.0379f, 0.038f, 0.0381f, 0.0382f, 0.0383f, 0.0384f, 0.0385f, 0.0386f, 0.0387f,
                        0.0388f, 0.0389f, 0.039f, 0.0391f, 0.0392f, 0.0393f, 0.0394f, 0.0395f, 0.0396f};
  float s = first ? W(dz, -1, -1) * v[p][0] : acc + W(dz, -1, -1) * v[p][0];
#pragma unroll
  for (int t = 1; t < 9; ++t) {
    const int dy = t / 3 - 1, dx = t % 3 - 1;
    s = s + W(dz, dy, dx) * v[p + 1 + dy][dx + 1];
  }
  return s;
}

// A plane's terms added to each of the P points' running sums: out[p] the
// point completed, s0 and s1 advanced a plane.
template <int P>
__device__ __forceinline__ void advance(const float (&v)[P + 2][3], float (&s0)[P], float (&s1)[P], float (&out)[P]) {
#pragma unroll
  for (int p = 0; p < P; ++p) {
    out[p] = planeTerms<P>(v, p, 1, s0[p], false);
    s0[p] = planeTerms<P>(v, p, 0, s1[p], false);
    s1[p] = planeTerms<P>(v, p, -1, 0.f, true);
  }
}

template <int P>
__device__ __forceinline__ void loadPlane(float (&v)[P + 2][3], const float *__restrict__ a, long long c, const long long (&ro)[P + 2]) {
#pragma unroll
  for (int t = 0; t < P + 2; ++t) {
    v[t][0] = a[c + ro[t] - 1];
    v[t][1] = a[c + ro[t]];
    v[t][2] = a[c + ro[t] + 1];
  }
}

// P points a thread, rows j .. j + P - 1; PF: the next plane loaded before
// this plane's sums; U: the march unrolled U times.
template <int P, bool PF, int U>
__global__ void zsumP(const stencil::Grid g, const stencil::Region r, const long long chunk, const float *__restrict__ a, float *__restrict__ b) {
  const long long i = r.lo[0] + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long j = r.lo[1] + (blockIdx.y * static_cast<long long>(blockDim.y) + threadIdx.y) * P;
  const long long m0 = r.lo[2] + blockIdx.z * chunk;
  const long long m1 = m0 + chunk < r.hi[2] ? m0 + chunk : r.hi[2];
  if (i >= r.hi[0] || j >= r.hi[1])
    return;
  const long long sy = g.extent[0];
  const long long sz = sy * g.extent[1];
  // Row t is y = j - 1 + t; rows past the region's last read row repeat it.
  long long ro[P + 2];
#pragma unroll
  for (int t = 0; t < P + 2; ++t) {
    const long long y = j - 1 + t < r.hi[1] ? j - 1 + t : r.hi[1];
    ro[t] = (y - j) * sy;
  }
  long long c = i + j * sy + (m0 - 1) * sz;
  float v[P + 2][3], s0[P], s1[P];
  loadPlane<P>(v, a, c, ro);
#pragma unroll
  for (int p = 0; p < P; ++p) s1[p] = planeTerms<P>(v, p, -1, 0.f, true);
  c += sz;
  loadPlane<P>(v, a, c, ro);
#pragma unroll
  for (int p = 0; p < P; ++p) { s0[p] = planeTerms<P>(v, p, 0, s1[p], false); s1[p] = planeTerms<P>(v, p, -1, 0.f, true); }
  c += sz;
  if (PF) loadPlane<P>(v, a, c, ro);
#pragma unroll U
  for (long long k = m0; k < m1; ++k) {
    float n[P + 2][3];
    if (PF) {
      if (k + 1 < m1) loadPlane<P>(n, a, c + sz, ro);
    } else {
      loadPlane<P>(v, a, c, ro);
    }
    float out[P];
    advance<P>(v, s0, s1, out);
#pragma unroll
    for (int p = 0; p < P; ++p)
      if (j + p < r.hi[1]) b[c - sz + p * sy] = out[p];
    c += sz;
    if (PF) {
#pragma unroll
      for (int t = 0; t < P + 2; ++t) { v[t][0] = n[t][0]; v[t][1] = n[t][1]; v[t][2] = n[t][2]; }
    }
  }
}


// The same sums from planes staged in shared memory by asynchronous copies,
// S planes of the block's tile (its rows and columns, one more on each side)
// in flight: plane q + S - 1 is copied while plane q is summed, one barrier
// a plane.
template <int P, int S>
__global__ void zsumAsync(const stencil::Grid g, const stencil::Region r, const long long chunk, const float *__restrict__ a, float *__restrict__ b) {
  extern __shared__ float tile[];
  const int bx = blockDim.x, rows = blockDim.y * P + 2, cols = bx + 2, n = rows * cols;
  const long long x0 = r.lo[0] + blockIdx.x * static_cast<long long>(bx);
  const long long y0 = r.lo[1] + blockIdx.y * static_cast<long long>(blockDim.y) * P;
  const long long i = x0 + threadIdx.x, j = y0 + threadIdx.y * P;
  const long long m0 = r.lo[2] + blockIdx.z * chunk;
  const long long m1 = m0 + chunk < r.hi[2] ? m0 + chunk : r.hi[2];
  const long long sy = g.extent[0];
  const long long sz = sy * g.extent[1];
  const int tid = threadIdx.x + threadIdx.y * bx, nt = bx * blockDim.y;
  // Each thread copies the same elements of every plane: their offsets in a
  // plane, worked out once (elements past the region's read rows and columns
  // repeat the last one read).
  constexpr int E = 6; // the host launches only blocks where this is enough
  int off[E]; // from the block's first copied element (a probe: planes under 2^31 elements)
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const int e = tid + k * nt < n ? tid + k * nt : n - 1;
    const int row = e / cols, col = e - row * cols;
    const long long y = y0 - 1 + row < r.hi[1] ? y0 - 1 + row : r.hi[1];
    const long long x = x0 - 1 + col < r.hi[0] ? x0 - 1 + col : r.hi[0];
    off[k] = static_cast<int>((y - (y0 - 1)) * sy + (x - (x0 - 1)));
  }
  auto copy = [&](long long q) {
    float *dst = tile + (q - (m0 - 1)) % S * n;
    const float *src = a + q * sz + (y0 - 1) * sy + (x0 - 1);
#pragma unroll
    for (int k = 0; k < E; ++k)
      if (tid + k * nt < n) __pipeline_memcpy_async(dst + tid + k * nt, src + off[k], 4);
  };
  const long long last = m1; // planes m0 - 1 .. m1
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (m0 - 1 + s <= last) copy(m0 - 1 + s);
    __pipeline_commit();
  }
  float v[P + 2][3], s0[P], s1[P];
  auto read = [&](long long q) {
    const float *src = tile + (q - (m0 - 1)) % S * n + threadIdx.y * P * cols + threadIdx.x;
#pragma unroll
    for (int t = 0; t < P + 2; ++t) { v[t][0] = src[t * cols]; v[t][1] = src[t * cols + 1]; v[t][2] = src[t * cols + 2]; }
  };
  for (long long q = m0 - 1; q <= last; ++q) {
    __pipeline_wait_prior(S - 2);
    __syncthreads();
    if (q + S - 1 <= last) copy(q + S - 1);
    __pipeline_commit();
    read(q);
    if (q == m0 - 1) {
#pragma unroll
      for (int p = 0; p < P; ++p) s1[p] = planeTerms<P>(v, p, -1, 0.f, true);
    } else if (q == m0) {
#pragma unroll
      for (int p = 0; p < P; ++p) { s0[p] = planeTerms<P>(v, p, 0, s1[p], false); s1[p] = planeTerms<P>(v, p, -1, 0.f, true); }
    } else {
      float out[P];
      advance<P>(v, s0, s1, out);
      if (i < r.hi[0])
#pragma unroll
        for (int p = 0; p < P; ++p)
          if (j + p < r.hi[1]) b[i + (j + p) * sy + (q - 1) * sz] = out[p];
    }
  }
}

// A staged kernel's block: its extents (BX, BY where known when compiled),
// its first point, the thread's first point, its chunk of z, the strides,
// and the thread's index among the block's.
template <int P, int BX, int BY>
struct StagedBlock {
  int bx, by, tid, nt;
  long long x0, y0, i, j, m0, m1, sy, sz;
  __device__ StagedBlock(const stencil::Grid &g, const stencil::Region &r, long long chunk)
      : bx(BX ? BX : blockDim.x), by(BY ? BY : blockDim.y), tid(threadIdx.x + threadIdx.y * bx), nt(bx * by),
        x0(r.lo[0] + blockIdx.x * static_cast<long long>(bx)), y0(r.lo[1] + blockIdx.y * static_cast<long long>(by) * P),
        i(x0 + threadIdx.x), j(y0 + threadIdx.y * P), m0(r.lo[2] + blockIdx.z * chunk),
        m1(m0 + chunk < r.hi[2] ? m0 + chunk : r.hi[2]), sy(g.extent[0]), sz(g.extent[0] * g.extent[1]) {}
};

// What the staged kernels share once their copies are set up: S - 1 planes
// copied ahead, then plane after plane waited for, the next one's copies
// issued, its values read from the stage and the running sums advanced; the
// thread's points stored (copy(): the next plane's copies, committed).
template <int P, int S, typename Copy>
__device__ __forceinline__ void marchStaged(Copy &copy, const float *tile, int n, int cols, const stencil::Region &r, long long i, long long j, long long m0, long long m1, long long sy, long long sz, float *__restrict__ b) {
#pragma unroll
  for (int s = 0; s < S - 1; ++s) copy();
  int use = 0;
  const int rd = threadIdx.y * P * cols + threadIdx.x;
  float v[P + 2][3], s0[P], s1[P];
  auto next = [&] {
    __pipeline_wait_prior(S - 2);
    __syncthreads();
    copy();
    const float *t = tile + use * n + rd;
#pragma unroll
    for (int u = 0; u < P + 2; ++u) { v[u][0] = t[u * cols]; v[u][1] = t[u * cols + 1]; v[u][2] = t[u * cols + 2]; }
    use = use + 1 == S ? 0 : use + 1;
  };
  const int mine = i < r.hi[0] ? (r.hi[1] - j < P ? static_cast<int>(r.hi[1] - j) : P) : 0;
  float *bp = b + i + j * sy + m0 * sz;
  next();
#pragma unroll
  for (int p = 0; p < P; ++p) s1[p] = planeTerms<P>(v, p, -1, 0.f, true);
  next();
#pragma unroll
  for (int p = 0; p < P; ++p) { s0[p] = planeTerms<P>(v, p, 0, s1[p], false); s1[p] = planeTerms<P>(v, p, -1, 0.f, true); }
  for (long long k = m0; k < m1; ++k) {
    next();
    float out[P];
    advance<P>(v, s0, s1, out);
#pragma unroll
    for (int p = 0; p < P; ++p)
      if (p < mine) bp[p * sy] = out[p];
    bp += sz;
  }
}

// zsumAsync with fewer instructions: stages and pointers advanced by adding,
// no 64-bit index a plane; E: the most elements a thread copies a plane; BX,
// BY: the block, known when compiled (0: blockDim's).
template <int P, int S, int E, int BX = 0, int BY = 0>
__global__ void zsumAsyncLean(const stencil::Grid g, const stencil::Region r, const long long chunk, const float *__restrict__ a, float *__restrict__ b) {
  extern __shared__ float tile[];
  const StagedBlock<P, BX, BY> B(g, r, chunk);
  const int bx = B.bx, cols = bx + 2, n = (B.by * P + 2) * cols;
  const long long x0 = B.x0, y0 = B.y0, i = B.i, j = B.j, m0 = B.m0, m1 = B.m1, sy = B.sy, sz = B.sz;
  const int tid = B.tid, nt = B.nt;
  int off[E];
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const int e = tid + k * nt < n ? tid + k * nt : n - 1;
    const int row = e / cols, col = e - row * cols;
    const long long y = y0 - 1 + row < r.hi[1] ? y0 - 1 + row : r.hi[1];
    const long long x = x0 - 1 + col < r.hi[0] ? x0 - 1 + col : r.hi[0];
    off[k] = static_cast<int>((y - (y0 - 1)) * sy + (x - (x0 - 1)));
  }
  const float *src = a + (m0 - 1) * sz + (y0 - 1) * sy + (x0 - 1);
  int fill = 0;
  int left = static_cast<int>(m1 - m0) + 2; // planes still to copy
  auto copy = [&] {
    if (left > 0) {
      float *dst = tile + fill * n + tid;
#pragma unroll
      for (int k = 0; k < E; ++k)
        if (tid + k * nt < n) __pipeline_memcpy_async(dst + k * nt, src + off[k], 4);
      src += sz;
      fill = fill + 1 == S ? 0 : fill + 1;
      --left;
    }
    __pipeline_commit();
  };
  marchStaged<P, S>(copy, tile, n, cols, r, i, j, m0, m1, sy, sz, b);
}

// zsumAsyncLean with the tile's rows copied 16 bytes at a time. A row starts
// at x0 - 1, which the host makes a multiple of 4 elements from a 16-byte
// aligned array (sy a multiple of 4): bx + 4 elements in shared memory, in
// chunks of 4; a chunk reaching past the last column read (r.hi[0]) is copied
// an element at a time, those past it repeating it. E: the most chunks a
// thread copies a plane.
template <int P, int S, int E, int BX = 0, int BY = 0>
__global__ void zsumAsync16(const stencil::Grid g, const stencil::Region r, const long long chunk, const float *__restrict__ a, float *__restrict__ b) {
  extern __shared__ __align__(16) float tile[];
  const StagedBlock<P, BX, BY> B(g, r, chunk);
  const int cols = B.bx + 4, n = (B.by * P + 2) * cols, nq = n / 4;
  const long long x0 = B.x0, y0 = B.y0, i = B.i, j = B.j, m0 = B.m0, m1 = B.m1, sy = B.sy, sz = B.sz;
  const int tid = B.tid, nt = B.nt;
  // Each chunk: its row's offset, its first column, whether all four columns are read.
  const int xl = static_cast<int>(r.hi[0] - (x0 - 1)); // the last column read
  int ro[E], c4[E];
  bool whole[E];
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const int e = tid + k * nt < nq ? tid + k * nt : nq - 1;
    const int row = e / (cols / 4);
    c4[k] = (e - row * (cols / 4)) * 4;
    const long long y = y0 - 1 + row < r.hi[1] ? y0 - 1 + row : r.hi[1];
    ro[k] = static_cast<int>((y - (y0 - 1)) * sy);
    whole[k] = c4[k] + 3 <= xl;
  }
  const float *src = a + (m0 - 1) * sz + (y0 - 1) * sy + (x0 - 1);
  int fill = 0;
  int left = static_cast<int>(m1 - m0) + 2;
  auto copy = [&] {
    if (left > 0) {
      float *dst = tile + fill * n + 4 * tid;
#pragma unroll
      for (int k = 0; k < E; ++k)
        if (tid + k * nt < nq) {
          if (whole[k]) {
            __pipeline_memcpy_async(dst + 4 * k * nt, src + ro[k] + c4[k], 16);
          } else {
#pragma unroll
            for (int l = 0; l < 4; ++l)
              __pipeline_memcpy_async(dst + 4 * k * nt + l, src + ro[k] + (c4[k] + l < xl ? c4[k] + l : xl), 4);
          }
        }
      src += sz;
      fill = fill + 1 == S ? 0 : fill + 1;
      --left;
    }
    __pipeline_commit();
  };
  marchStaged<P, S>(copy, tile, n, cols, r, i, j, m0, m1, sy, sz, b);
}

// Two steps a pass (temporal blocking) with the same running sums. A block of
// bx x by threads, P points a thread in y, computes step 1 on its tile of bx x
// (by * P) points (the values of points outside the region are the input's:
// the boundary stays fixed) and writes each completed plane of it to shared
// memory; step 2 sums those planes for the tile less one point on each side,
// the block's output. Input planes are staged by asynchronous copies as in
// zsumAsyncLean (S stages), one barrier a plane; step 1's planes alternate
// between two buffers. Tiles overlap by two points in x and y.
template <int P, int S, int E, int MinBlocks = 1>
__global__ void __launch_bounds__(512, MinBlocks) zsumTwoSteps(const stencil::Grid g, const stencil::Region r, const long long chunk, const float *__restrict__ a, float *__restrict__ b) {
  extern __shared__ __align__(16) float sm[];
  const int bx = blockDim.x, rows = blockDim.y * P, cols = bx + 2, n = (rows + 2) * cols;
  float *const tile = sm, *const lev = sm + S * n; // S input stages, then step 1's two planes, each (rows + 2) x (bx + 2)
  const long long X = g.extent[0], Y = g.extent[1], Z = g.extent[2], sy = X, sz = X * Y;
  const long long x1 = r.lo[0] - 1 + blockIdx.x * static_cast<long long>(bx - 2); // the tile's first column
  const long long y1 = r.lo[1] - 1 + blockIdx.y * static_cast<long long>(rows - 2);
  const long long m0 = r.lo[2] + blockIdx.z * chunk, m1 = m0 + chunk < r.hi[2] ? m0 + chunk : r.hi[2];
  const int tid = threadIdx.x + threadIdx.y * bx, nt = bx * blockDim.y;
  int off[E]; // the input's tile, one more point on each side, clamped to the array
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const int e = tid + k * nt < n ? tid + k * nt : n - 1;
    const int row = e / cols, col = e - row * cols;
    const long long y = y1 - 1 + row < 0 ? 0 : y1 - 1 + row > Y - 1 ? Y - 1 : y1 - 1 + row;
    const long long x = x1 - 1 + col < 0 ? 0 : x1 - 1 + col > X - 1 ? X - 1 : x1 - 1 + col;
    off[k] = static_cast<int>(y * sy + x);
  }
  long long q = m0 - 2; // the input plane copied next: m0 - 2 .. m1 + 1, clamped to the array
  int fill = 0;
  auto copy = [&] {
    if (q <= m1 + 1) {
      const float *src = a + (q < 0 ? 0 : q > Z - 1 ? Z - 1 : q) * sz;
      float *dst = tile + fill * n + tid;
#pragma unroll
      for (int k = 0; k < E; ++k)
        if (tid + k * nt < n) __pipeline_memcpy_async(dst + k * nt, src + off[k], 4);
      fill = fill + 1 == S ? 0 : fill + 1;
      ++q;
    }
    __pipeline_commit();
  };
#pragma unroll
  for (int s = 0; s < S - 1; ++s) copy();
  // This thread's points: column x, rows y .. y + P - 1 of the tile.
  const long long x = x1 + threadIdx.x, y = y1 + threadIdx.y * P;
  bool in[P], out[P]; // in the region (step 1 sums it); the block's output (step 2 stores it)
#pragma unroll
  for (int p = 0; p < P; ++p) {
    in[p] = x >= r.lo[0] && x < r.hi[0] && y + p >= r.lo[1] && y + p < r.hi[1];
    const int row = threadIdx.y * P + p;
    out[p] = in[p] && threadIdx.x >= 1 && threadIdx.x <= bx - 2 && row >= 1 && row <= rows - 2;
  }
  const int rd = threadIdx.y * P * cols + threadIdx.x;
  float v[P + 2][3], s0[P] = {}, s1[P] = {}, u0[P] = {}, u1[P] = {}, ctr[P] = {};
  int use = 0;
  float *bp = b + x + y * sy + m0 * sz;
  const int T = static_cast<int>(m1 - m0) + 5;
  for (int t = 0; t < T; ++t) {
    __pipeline_wait_prior(S - 2);
    __syncthreads();
    copy();
    const long long q1 = m0 - 3 + t; // step 1's plane completed now
    if (t < T - 1) {
      const float *src = tile + use * n + rd;
#pragma unroll
      for (int u = 0; u < P + 2; ++u) { v[u][0] = src[u * cols]; v[u][1] = src[u * cols + 1]; v[u][2] = src[u * cols + 2]; }
      use = use + 1 == S ? 0 : use + 1;
      float o[P];
      advance<P>(v, s0, s1, o);
      if (t >= 2) {
        const bool zin = q1 >= r.lo[2] && q1 < r.hi[2];
        float *dst = lev + (t & 1) * n + rd + cols + 1;
#pragma unroll
        for (int p = 0; p < P; ++p) dst[p * cols] = zin && in[p] ? o[p] : ctr[p];
      }
#pragma unroll
      for (int p = 0; p < P; ++p) ctr[p] = v[p + 1][1];
    }
    if (t >= 3) { // step 1's plane q1 - 1, written last iteration
      const float *src = lev + ((t - 1) & 1) * n + rd;
#pragma unroll
      for (int u = 0; u < P + 2; ++u) { v[u][0] = src[u * cols]; v[u][1] = src[u * cols + 1]; v[u][2] = src[u * cols + 2]; }
      float o[P];
      advance<P>(v, u0, u1, o);
      if (t >= 5) {
#pragma unroll
        for (int p = 0; p < P; ++p)
          if (out[p]) bp[p * sy] = o[p];
        bp += sz;
      }
    }
  }
}

typedef void (*Kernel)(const stencil::Grid, const stencil::Region, const long long, const float *__restrict__, float *__restrict__);
// --two-steps: zsumTwoSteps over blocks and chunks, GCells/s a step, then its
// output (poisoned first) against two launches of the generated zsum, the
// second from a copy of the input (its boundary kept), over the region.
template <int P, int S, int E, int MinBlocks = 1>
void twoStepsProbe(BoxProbe &B, const char *name) {
  const long long n = B.n, N = B.N;
  const stencil::Grid g = B.g;
  const stencil::Region r = B.r;
  auto k = zsumTwoSteps<P, S, E, MinBlocks>;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, k);
  printf("%s: %d registers, %zu bytes local\n", name, fa.numRegs, fa.localSizeBytes);
  const double copy = B.copyGBs();
  const long long pts = (n - 2) * (n - 2) * (n - 2);
  auto grid = [&](dim3 blk, int chunk) { return dim3((n - 2 + blk.x - 3) / (blk.x - 2), (n - 2 + P * blk.y - 3) / (P * blk.y - 2), (n - 2 + chunk - 1) / chunk); };
  auto smem = [&](dim3 blk) { return static_cast<size_t>(S + 2) * (blk.y * P + 2) * (blk.x + 2) * 4; };
  const int bxs[] = {32, 32, 64, 64, 104, 104, 128, 128, 256, 256}, bys[] = {4, 8, 2, 4, 2, 4, 2, 4, 1, 2};
  const int chunks[] = {16, 32, 64, 128, 256};
  double best = 0;
  int bb = 0, bc = 0;
  for (int bi = 0; bi < int(sizeof bxs / sizeof bxs[0]); ++bi)
    for (int c : chunks) {
      const dim3 blk(bxs[bi], bys[bi]), grd = grid(blk, c);
      if ((blk.y * P + 2) * (blk.x + 2) > E * blk.x * blk.y) continue; // more copies a thread than E
      auto go = [&] { k<<<grd, blk, smem(blk)>>>(g, r, c, B.a, B.b); };
      go();
      if (cudaGetLastError() != cudaSuccess) { printf("%s %dx%d chunk %d: does not launch\n", name, bxs[bi], bys[bi], c); continue; }
      const double gc = 2.0 * pts * 10 / (B.time(10, go) * 1e-3) / 1e9;
      if (gc > best) { best = gc; bb = bi; bc = c; }
      printf("%s %dx%d chunk %d: %.1f GCells/s a step, %zu bytes shared\n", name, bxs[bi], bys[bi], c, gc, smem(blk));
    }
  printf("BEST %s: %.1f GCells/s a step (%dx%d chunk %d), %.3f of copy\n", name, best, bxs[bb], bys[bb], bc, best * 8 / copy);
  float *mid, *ref;
  cudaMalloc(&mid, N * 4); cudaMalloc(&ref, N * 4);
  cudaMemcpy(mid, B.a, N * 4, cudaMemcpyDeviceToDevice);
  const dim3 zb(32, 3), zg((n - 2 + 31) / 32, (n - 2 + 5) / 6, (n - 2 + 36) / 37);
  stencilc_Box3d1rF_zsum<<<zg, zb>>>(g, r, 37, B.a, mid);
  stencilc_Box3d1rF_zsum<<<zg, zb>>>(g, r, 37, mid, ref);
  std::vector<float> h1(N), h2(N);
  cudaMemcpy(h1.data(), ref, N * 4, cudaMemcpyDeviceToHost);
  const dim3 blks[] = {dim3(32, 3), dim3(104, 2), dim3(128, 4)};
  for (dim3 blk : blks) {
    cudaMemset(B.b, 0xff, N * 4);
    k<<<grid(blk, 37), blk, smem(blk)>>>(g, r, 37, B.a, B.b);
    cudaMemcpy(h2.data(), B.b, N * 4, cudaMemcpyDeviceToHost);
    long long diff = 0, region = 0;
    for (long long z = 1; z < n - 1; ++z)
      for (long long yy = 1; yy < n - 1; ++yy)
        for (long long xx = 1; xx < n - 1; ++xx, ++region) {
          const long long t = xx + n * (yy + n * z);
          diff += memcmp(&h1[t], &h2[t], 4) != 0;
        }
    printf("agreement %s %dx%d chunk 37: %lld of %lld differ from two zsum steps\n", name, blk.x, blk.y, diff, region);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}

// A kernel to time: its points a thread and, if it stages planes, its stages,
// the most copies a thread makes a plane, the elements a copy moves (1 or 4)
// and the columns a tile's row has beyond the block's (2, or 4 for 16-byte
// rows); bx, by: the one block it was compiled for (0: any).
struct Candidate { const char *name; Kernel k; int points; int stages = 0; int copies = 6; int unit = 1; int pad = 2; int bx = 0, by = 0; };

int main(int argc, char **argv) {
  // --profile: one launch of each, for ncu; --only=A,B: the candidates whose names contain A or B.
  bool profile = false, twoSteps = false;
  std::string only;
  for (int t = 1; t < argc; ++t) {
    if (!strcmp(argv[t], "--profile")) profile = true;
    else if (!strcmp(argv[t], "--two-steps")) twoSteps = true;
    else if (!strncmp(argv[t], "--only=", 7)) only = argv[t] + 7;
  }
  BoxProbe P;
  if (twoSteps) {
    twoStepsProbe<4, 3, 6>(P, "two steps P4 S3");
    twoStepsProbe<4, 2, 6>(P, "two steps P4 S2");
    twoStepsProbe<4, 3, 6, 2>(P, "two steps P4 S3, 2 blocks of 512");
    twoStepsProbe<4, 2, 6, 2>(P, "two steps P4 S2, 2 blocks of 512");
    twoStepsProbe<4, 3, 6, 3>(P, "two steps P4 S3, 3 blocks of 512");
    twoStepsProbe<8, 2, 12>(P, "two steps P8 S2");
    return 0;
  }
  const long long n = P.n, N = P.N;
  float *a = P.a, *b = P.b, *ref;
  cudaMalloc(&ref, N * 4);
  const stencil::Grid g = P.g;
  const stencil::Region r = P.r;
  const Candidate all[] = {
      {"zsum (generated)", stencilc_Box3d1rF_zsum, 2}, {"P2", zsumP<2, false, 2>, 2}, {"P2 unroll 4", zsumP<2, false, 4>, 2},
      {"P2 prefetch", zsumP<2, true, 1>, 2}, {"P2 prefetch unroll 2", zsumP<2, true, 2>, 2},
      {"P4", zsumP<4, false, 2>, 4}, {"P4 prefetch", zsumP<4, true, 1>, 4}, {"P4 prefetch unroll 2", zsumP<4, true, 2>, 4},
      {"P8", zsumP<8, false, 1>, 8}, {"P8 prefetch", zsumP<8, true, 1>, 8},
      {"async P1 S3", zsumAsync<1, 3>, 1, 3}, {"async P2 S2", zsumAsync<2, 2>, 2, 2}, {"async P2 S3", zsumAsync<2, 3>, 2, 3},
      {"async P2 S4", zsumAsync<2, 4>, 2, 4}, {"async P4 S3", zsumAsync<4, 3>, 4, 3},
      {"lean P2 S3", zsumAsyncLean<2, 3, 6>, 2, 3}, {"lean P4 S2", zsumAsyncLean<4, 2, 6>, 4, 2}, {"lean P4 S3", zsumAsyncLean<4, 3, 6>, 4, 3},
      {"lean P4 S4", zsumAsyncLean<4, 4, 6>, 4, 4}, {"lean P8 S2", zsumAsyncLean<8, 2, 12>, 8, 2, 12}, {"lean P8 S3", zsumAsyncLean<8, 3, 12>, 8, 3, 12},
      {"lean P4 S3 E8", zsumAsyncLean<4, 3, 8>, 4, 3, 8},
      {"lean P4 S3 fixed 256x2", zsumAsyncLean<4, 3, 6, 256, 2>, 4, 3, 6, 1, 2, 256, 2},
      {"lean P4 S3 fixed 128x2", zsumAsyncLean<4, 3, 6, 128, 2>, 4, 3, 6, 1, 2, 128, 2},
      {"x16 P4 S3", zsumAsync16<4, 3, 2>, 4, 3, 2, 4, 4},
      {"x16 P4 S4", zsumAsync16<4, 4, 2>, 4, 4, 2, 4, 4},
      {"x16 P8 S3", zsumAsync16<8, 3, 3>, 8, 3, 3, 4, 4},
      {"x16 P4 S3 fixed 256x2", zsumAsync16<4, 3, 2, 256, 2>, 4, 3, 2, 4, 4, 256, 2},
      {"x16 P4 S3 fixed 128x2", zsumAsync16<4, 3, 2, 128, 2>, 4, 3, 2, 4, 4, 128, 2}};
  std::vector<Candidate> cands;
  for (const Candidate &c : all) {
    bool take = only.empty() || !strcmp(c.name, "zsum (generated)");
    for (size_t at = 0; !take && at <= only.size();) {
      const size_t end = std::min(only.find(',', at), only.size());
      take = end > at && strstr(c.name, only.substr(at, end - at).c_str());
      at = end + 1;
    }
    if (take) cands.push_back(c);
  }
  const int nc = static_cast<int>(cands.size());
  for (int ci = 0; ci < nc; ++ci) {
    cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, cands[ci].k);
    printf("%s: %d registers, %zu bytes local\n", cands[ci].name, fa.numRegs, fa.localSizeBytes);
  }
  auto grid = [&](dim3 blk, int pts, int chunk) { return dim3((n - 2 + blk.x - 1) / blk.x, (n - 2 + pts * blk.y - 1) / (pts * blk.y), (n - 2 + chunk - 1) / chunk); };
  // The shared memory an asynchronous candidate's stages take.
  auto smem = [&](const Candidate &c, dim3 blk) { return static_cast<size_t>(c.stages) * (blk.y * c.points + 2) * (blk.x + c.pad) * 4; };
  // The block a candidate runs at when any would do.
  auto block = [&](const Candidate &c, dim3 any) { return c.bx ? dim3(c.bx, c.by) : any; };
  if (profile) {
    for (int ci = 0; ci < nc; ++ci) { dim3 blk = block(cands[ci], dim3(128, 4 / (cands[ci].points > 2 ? cands[ci].points / 2 : 1))); cands[ci].k<<<grid(blk, cands[ci].points, 32), blk, smem(cands[ci], blk)>>>(g, r, 32, a, b); }
    cudaDeviceSynchronize();
    printf("profile launches: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
  }
  const double copy = P.copyGBs();
  const long long pts = (n - 2) * (n - 2) * (n - 2);
  const int bxs[] = {32, 32, 64, 64, 64, 128, 128, 128, 256, 256, 512}, bys[] = {4, 8, 1, 2, 4, 1, 2, 4, 1, 2, 1};
  const int chunks[] = {8, 16, 32, 64, 128, 256};
  const int nb = sizeof bxs / sizeof bxs[0], nch = sizeof chunks / sizeof chunks[0];
  for (int ci = 0; ci < nc; ++ci) {
    const Candidate &cd = cands[ci];
    double best = 0; int bb = 0, bc = 0;
    for (int bi = 0; bi < nb; ++bi)
      for (int ki = 0; ki < nch; ++ki) {
        if (cd.bx && (cd.bx != bxs[bi] || cd.by != bys[bi])) continue;
        const dim3 blk(bxs[bi], bys[bi]), grd = grid(blk, cd.points, chunks[ki]);
        if (cd.stages && (blk.y * cd.points + 2) * (blk.x + cd.pad) > cd.copies * cd.unit * blk.x * blk.y) continue; // a thread would copy more than it may
        auto go = [&] { cd.k<<<grd, blk, smem(cd, blk)>>>(g, r, chunks[ki], a, b); };
        go();
        if (cudaGetLastError() != cudaSuccess) { printf("%s %dx%d chunk %d: does not launch\n", cd.name, bxs[bi], bys[bi], chunks[ki]); continue; }
        const float ms = P.time(10, go);
        const double gc = pts * 10 / (ms * 1e-3) / 1e9;
        if (gc > best) { best = gc; bb = bi; bc = chunks[ki]; }
        printf("%s %dx%d chunk %d: %.1f\n", cd.name, bxs[bi], bys[bi], chunks[ki], gc);
      }
    printf("BEST %s: %.1f GCells/s (%dx%d chunk %d), %.3f of copy\n", cd.name, best, bxs[bb], bys[bb], bc, best * 8 / copy);
  }
  // Agreement with the generated zsum on poisoned outputs, at an odd block
  // (a fixed-block candidate at its own) and chunk.
  std::vector<float> h1(N), h2(N);
  cudaMemset(ref, 0xff, N * 4);
  { const dim3 blk(32, 3); stencilc_Box3d1rF_zsum<<<grid(blk, 2, 37), blk>>>(g, r, 37, a, ref); }
  cudaMemcpy(h1.data(), ref, N * 4, cudaMemcpyDeviceToHost);
  for (int ci = 1; ci < nc; ++ci) {
    cudaMemset(b, 0xff, N * 4);
    const dim3 blk = block(cands[ci], dim3(32, 3));
    cands[ci].k<<<grid(blk, cands[ci].points, 37), blk, smem(cands[ci], blk)>>>(g, r, 37, a, b);
    cudaMemcpy(h2.data(), b, N * 4, cudaMemcpyDeviceToHost);
    long long diff = 0;
    for (long long t = 0; t < N; ++t) diff += memcmp(&h1[t], &h2[t], 4) != 0;
    printf("agreement %s: %lld of %lld differ from zsum (poisoned outside the region in both)\n", cands[ci].name, diff, N);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
