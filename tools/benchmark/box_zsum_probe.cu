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
//   ./box_zsum_probe [--profile]   (--profile: one launch of each, for ncu)
#include <cmath>
#include <cstring>
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
#pragma unroll
    for (int p = 0; p < P; ++p) {
      out[p] = planeTerms<P>(v, p, 1, s0[p], false);
      s0[p] = planeTerms<P>(v, p, 0, s1[p], false);
      s1[p] = planeTerms<P>(v, p, -1, 0.f, true);
    }
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
#pragma unroll
      for (int p = 0; p < P; ++p) {
        out[p] = planeTerms<P>(v, p, 1, s0[p], false);
        s0[p] = planeTerms<P>(v, p, 0, s1[p], false);
        s1[p] = planeTerms<P>(v, p, -1, 0.f, true);
      }
      if (i < r.hi[0])
#pragma unroll
        for (int p = 0; p < P; ++p)
          if (j + p < r.hi[1]) b[i + (j + p) * sy + (q - 1) * sz] = out[p];
    }
  }
}

// zsumAsync with fewer instructions: stages and pointers advanced by adding,
// no 64-bit index a plane; E: the most elements a thread copies a plane.
template <int P, int S, int E>
__global__ void zsumAsyncLean(const stencil::Grid g, const stencil::Region r, const long long chunk, const float *__restrict__ a, float *__restrict__ b) {
  extern __shared__ float tile[];
  const int bx = blockDim.x, cols = bx + 2, n = (blockDim.y * P + 2) * cols;
  const long long x0 = r.lo[0] + blockIdx.x * static_cast<long long>(bx);
  const long long y0 = r.lo[1] + blockIdx.y * static_cast<long long>(blockDim.y) * P;
  const long long i = x0 + threadIdx.x, j = y0 + threadIdx.y * P;
  const long long m0 = r.lo[2] + blockIdx.z * chunk;
  const long long m1 = m0 + chunk < r.hi[2] ? m0 + chunk : r.hi[2];
  const long long sy = g.extent[0];
  const long long sz = sy * g.extent[1];
  const int tid = threadIdx.x + threadIdx.y * bx, nt = bx * blockDim.y;
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
  int fill = 0, use = 0;
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
#pragma unroll
  for (int s = 0; s < S - 1; ++s) copy();
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
#pragma unroll
    for (int p = 0; p < P; ++p) {
      out[p] = planeTerms<P>(v, p, 1, s0[p], false);
      s0[p] = planeTerms<P>(v, p, 0, s1[p], false);
      s1[p] = planeTerms<P>(v, p, -1, 0.f, true);
    }
#pragma unroll
    for (int p = 0; p < P; ++p)
      if (p < mine) bp[p * sy] = out[p];
    bp += sz;
  }
}

typedef void (*Kernel)(const stencil::Grid, const stencil::Region, const long long, const float *__restrict__, float *__restrict__);
struct Candidate { const char *name; Kernel k; int points; int stages; int copies = 6; };

int main(int argc, char **argv) {
  const bool profile = argc > 1 && !strcmp(argv[1], "--profile");
  BoxProbe P;
  const long long n = P.n, N = P.N;
  float *a = P.a, *b = P.b, *ref;
  cudaMalloc(&ref, N * 4);
  const stencil::Grid g = P.g;
  const stencil::Region r = P.r;
  const Candidate cands[] = {
      {"zsum (generated)", stencilc_Box3d1rF_zsum, 2}, {"P2", zsumP<2, false, 2>, 2}, {"P2 unroll 4", zsumP<2, false, 4>, 2},
      {"P2 prefetch", zsumP<2, true, 1>, 2}, {"P2 prefetch unroll 2", zsumP<2, true, 2>, 2},
      {"P4", zsumP<4, false, 2>, 4}, {"P4 prefetch", zsumP<4, true, 1>, 4}, {"P4 prefetch unroll 2", zsumP<4, true, 2>, 4},
      {"P8", zsumP<8, false, 1>, 8}, {"P8 prefetch", zsumP<8, true, 1>, 8},
      {"async P1 S3", zsumAsync<1, 3>, 1, 3}, {"async P2 S2", zsumAsync<2, 2>, 2, 2}, {"async P2 S3", zsumAsync<2, 3>, 2, 3},
      {"async P2 S4", zsumAsync<2, 4>, 2, 4}, {"async P4 S3", zsumAsync<4, 3>, 4, 3},
      {"lean P2 S3", zsumAsyncLean<2, 3, 6>, 2, 3}, {"lean P4 S2", zsumAsyncLean<4, 2, 6>, 4, 2}, {"lean P4 S3", zsumAsyncLean<4, 3, 6>, 4, 3},
      {"lean P4 S4", zsumAsyncLean<4, 4, 6>, 4, 4}, {"lean P8 S2", zsumAsyncLean<8, 2, 12>, 8, 2, 12}, {"lean P8 S3", zsumAsyncLean<8, 3, 12>, 8, 3, 12}};
  const int nc = sizeof cands / sizeof cands[0];
  for (int ci = 0; ci < nc; ++ci) {
    cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, cands[ci].k);
    printf("%s: %d registers, %zu bytes local\n", cands[ci].name, fa.numRegs, fa.localSizeBytes);
  }
  auto grid = [&](dim3 blk, int pts, int chunk) { return dim3((n - 2 + blk.x - 1) / blk.x, (n - 2 + pts * blk.y - 1) / (pts * blk.y), (n - 2 + chunk - 1) / chunk); };
  // The shared memory an asynchronous candidate's stages take.
  auto smem = [&](const Candidate &c, dim3 blk) { return static_cast<size_t>(c.stages) * (blk.y * c.points + 2) * (blk.x + 2) * 4; };
  if (profile) {
    for (int ci = 0; ci < nc; ++ci) { dim3 blk(128, 4 / (cands[ci].points > 2 ? cands[ci].points / 2 : 1)); cands[ci].k<<<grid(blk, cands[ci].points, 32), blk, smem(cands[ci], blk)>>>(g, r, 32, a, b); }
    cudaDeviceSynchronize();
    printf("profile launches: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
  }
  const double copy = P.copyGBs();
  const long long pts = (n - 2) * (n - 2) * (n - 2);
  const int bxs[] = {32, 32, 64, 64, 64, 128, 128, 128, 256, 256, 512}, bys[] = {4, 8, 1, 2, 4, 1, 2, 4, 1, 2, 1};
  const int chunks[] = {8, 16, 32, 64, 128};
  const int nb = sizeof bxs / sizeof bxs[0], nch = sizeof chunks / sizeof chunks[0];
  for (int ci = 0; ci < nc; ++ci) {
    double best = 0; int bb = 0, bc = 0;
    for (int bi = 0; bi < nb; ++bi)
      for (int ki = 0; ki < nch; ++ki) {
        const dim3 blk(bxs[bi], bys[bi]), grd = grid(blk, cands[ci].points, chunks[ki]);
        if (cands[ci].stages && (blk.y * cands[ci].points + 2) * (blk.x + 2) > cands[ci].copies * blk.x * blk.y) continue; // a thread would copy more than it may
        auto go = [&] { cands[ci].k<<<grd, blk, smem(cands[ci], blk)>>>(g, r, chunks[ki], a, b); };
        go();
        if (cudaGetLastError() != cudaSuccess) { printf("%s %dx%d chunk %d: does not launch\n", cands[ci].name, bxs[bi], bys[bi], chunks[ki]); continue; }
        const float ms = P.time(10, go);
        const double gc = pts * 10 / (ms * 1e-3) / 1e9;
        if (gc > best) { best = gc; bb = bi; bc = chunks[ki]; }
        printf("%s %dx%d chunk %d: %.1f\n", cands[ci].name, bxs[bi], bys[bi], chunks[ki], gc);
      }
    printf("BEST %s: %.1f GCells/s (%dx%d chunk %d), %.3f of copy\n", cands[ci].name, best, bxs[bb], bys[bb], bc, best * 8 / copy);
  }
  // Agreement with the generated zsum on poisoned outputs, at an odd block.
  std::vector<float> h1(N), h2(N);
  cudaMemset(ref, 0xff, N * 4);
  { const dim3 blk(32, 3); stencilc_Box3d1rF_zsum<<<grid(blk, 2, 37), blk>>>(g, r, 37, a, ref); }
  cudaMemcpy(h1.data(), ref, N * 4, cudaMemcpyDeviceToHost);
  for (int ci = 1; ci < nc; ++ci) {
    cudaMemset(b, 0xff, N * 4);
    const dim3 blk(32, 3);
    cands[ci].k<<<grid(blk, cands[ci].points, 37), blk, smem(cands[ci], blk)>>>(g, r, 37, a, b);
    cudaMemcpy(h2.data(), b, N * 4, cudaMemcpyDeviceToHost);
    long long diff = 0;
    for (long long t = 0; t < N; ++t) diff += memcmp(&h1[t], &h2[t], 4) != 0;
    printf("agreement %s: %lld of %lld differ from zsum (poisoned outside the region in both)\n", cands[ci].name, diff, N);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
