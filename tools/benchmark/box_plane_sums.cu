// box_plane_sums.cu - a probe in plain CUDA, not stencilc's code: AN5D's
// 27-point box (f32, 512^3, tight layout) one step at a time, as stencilc's
// zmarch kernel prints it (nine register queues, copied from the generated
// file of temporal_benchmark.cpp) against plane partial sums: each plane's
// nine loads go into three running sums, the one of the point below (its
// first nine terms), of the point itself (the next nine) and of the point
// above (the last nine, then stored), in the source's order, so no sum is
// reassociated; "psum2" computes two points a thread, adjacent in y, from
// twelve loads a plane. Each kernel over blocks and chunks, then agreement
// with zmarch on poisoned outputs (docs/performance.md, "Plane partial sums
// for the box: a probe").
//
//   nvcc -std=c++17 -O3 -arch=sm_90 box_plane_sums.cu -o box_plane_sums
#include <cmath>
#include "box_probe_common.cuh"
__global__ void stencilc_Box3d1rF_zmarch(const stencil::Grid g, const stencil::Region r, const long long stencilc_chunk, const float *__restrict__ a, float *__restrict__ b) {
  const long long i = r.lo[0] + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long j = r.lo[1] + blockIdx.y * static_cast<long long>(blockDim.y) + threadIdx.y;
  // This block marches [stencilc_m0, stencilc_m1) of z.
  const long long stencilc_m0 = r.lo[2] + blockIdx.z * stencilc_chunk;
  const long long stencilc_m1 = stencilc_m0 + stencilc_chunk < r.hi[2] ? stencilc_m0 + stencilc_chunk : r.hi[2];
  if (i >= r.hi[0] || j >= r.hi[1])
    return;
  const long long sy = g.extent[0];
  const long long sz = sy * g.extent[1];
  long long c = i + j * sy + stencilc_m0 * sz;
  float stencilc_q1_0{}, stencilc_q1_1{}, stencilc_q1_2{};
  // A queue of a at c - 1 - sy, z offsets -1 .. +1.
  float stencilc_q1c1_0{}, stencilc_q1c1_1{}, stencilc_q1c1_2{};
  // A queue of a at c - 1, z offsets -1 .. +1.
  float stencilc_q1c2_0{}, stencilc_q1c2_1{}, stencilc_q1c2_2{};
  // A queue of a at c - 1 + sy, z offsets -1 .. +1.
  float stencilc_q1c3_0{}, stencilc_q1c3_1{}, stencilc_q1c3_2{};
  // A queue of a at c - sy, z offsets -1 .. +1.
  float stencilc_q1c4_0{}, stencilc_q1c4_1{}, stencilc_q1c4_2{};
  // A queue of a at c + sy, z offsets -1 .. +1.
  float stencilc_q1c5_0{}, stencilc_q1c5_1{}, stencilc_q1c5_2{};
  // A queue of a at c + 1 - sy, z offsets -1 .. +1.
  float stencilc_q1c6_0{}, stencilc_q1c6_1{}, stencilc_q1c6_2{};
  // A queue of a at c + 1, z offsets -1 .. +1.
  float stencilc_q1c7_0{}, stencilc_q1c7_1{}, stencilc_q1c7_2{};
  // A queue of a at c + 1 + sy, z offsets -1 .. +1.
  float stencilc_q1c8_0{}, stencilc_q1c8_1{}, stencilc_q1c8_2{};
  stencilc_q1_0 = a[c - sz];
  stencilc_q1_1 = a[c];
  stencilc_q1c1_0 = a[c - 1 - sy - sz];
  stencilc_q1c1_1 = a[c - 1 - sy];
  stencilc_q1c2_0 = a[c - 1 - sz];
  stencilc_q1c2_1 = a[c - 1];
  stencilc_q1c3_0 = a[c - 1 + sy - sz];
  stencilc_q1c3_1 = a[c - 1 + sy];
  stencilc_q1c4_0 = a[c - sy - sz];
  stencilc_q1c4_1 = a[c - sy];
  stencilc_q1c5_0 = a[c + sy - sz];
  stencilc_q1c5_1 = a[c + sy];
  stencilc_q1c6_0 = a[c + 1 - sy - sz];
  stencilc_q1c6_1 = a[c + 1 - sy];
  stencilc_q1c7_0 = a[c + 1 - sz];
  stencilc_q1c7_1 = a[c + 1];
  stencilc_q1c8_0 = a[c + 1 + sy - sz];
  stencilc_q1c8_1 = a[c + 1 + sy];
  #pragma unroll 4
  for (long long k = stencilc_m0; k < stencilc_m1; ++k, c += sz) {
    stencilc_q1_2 = a[c + sz];
    stencilc_q1c1_2 = a[c - 1 - sy + sz];
    stencilc_q1c2_2 = a[c - 1 + sz];
    stencilc_q1c3_2 = a[c - 1 + sy + sz];
    stencilc_q1c4_2 = a[c - sy + sz];
    stencilc_q1c5_2 = a[c + sy + sz];
    stencilc_q1c6_2 = a[c + 1 - sy + sz];
    stencilc_q1c7_2 = a[c + 1 + sz];
    stencilc_q1c8_2 = a[c + 1 + sy + sz];
    b[c] = ((((((((((((((((((((((((((0.037f * stencilc_q1c1_0) + (0.0371f * stencilc_q1c4_0)) + (0.0372f * stencilc_q1c6_0)) + (0.0373f * stencilc_q1c2_0)) + (0.0374f * stencilc_q1_0)) + (0.0375f * stencilc_q1c7_0)) + (0.0376f * stencilc_q1c3_0)) + (0.0377f * stencilc_q1c5_0)) + (0.0378f * stencilc_q1c8_0)) + (0.0379f * stencilc_q1c1_1)) + (0.038f * stencilc_q1c4_1)) + (0.0381f * stencilc_q1c6_1)) + (0.0382f * stencilc_q1c2_1)) + (0.0383f * stencilc_q1_1)) + (0.0384f * stencilc_q1c7_1)) + (0.0385f * stencilc_q1c3_1)) + (0.0386f * stencilc_q1c5_1)) + (0.0387f * stencilc_q1c8_1)) + (0.0388f * stencilc_q1c1_2)) + (0.0389f * stencilc_q1c4_2)) + (0.039f * stencilc_q1c6_2)) + (0.0391f * stencilc_q1c2_2)) + (0.0392f * stencilc_q1_2)) + (0.0393f * stencilc_q1c7_2)) + (0.0394f * stencilc_q1c3_2)) + (0.0395f * stencilc_q1c5_2)) + (0.0396f * stencilc_q1c8_2);
    stencilc_q1_0 = stencilc_q1_1;
    stencilc_q1_1 = stencilc_q1_2;
    stencilc_q1c1_0 = stencilc_q1c1_1;
    stencilc_q1c1_1 = stencilc_q1c1_2;
    stencilc_q1c2_0 = stencilc_q1c2_1;
    stencilc_q1c2_1 = stencilc_q1c2_2;
    stencilc_q1c3_0 = stencilc_q1c3_1;
    stencilc_q1c3_1 = stencilc_q1c3_2;
    stencilc_q1c4_0 = stencilc_q1c4_1;
    stencilc_q1c4_1 = stencilc_q1c4_2;
    stencilc_q1c5_0 = stencilc_q1c5_1;
    stencilc_q1c5_1 = stencilc_q1c5_2;
    stencilc_q1c6_0 = stencilc_q1c6_1;
    stencilc_q1c6_1 = stencilc_q1c6_2;
    stencilc_q1c7_0 = stencilc_q1c7_1;
    stencilc_q1c7_1 = stencilc_q1c7_2;
    stencilc_q1c8_0 = stencilc_q1c8_1;
    stencilc_q1c8_1 = stencilc_q1c8_2;
  }
}

// Plane partial sums: output k's sum gets the terms of plane k-1, then k,
// then k+1, in the source's order (no reassociation).
__global__ void box_psum(const stencil::Grid g, const stencil::Region r, const long long chunk, const float *__restrict__ a, float *__restrict__ b) {
  const long long i = r.lo[0] + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long j = r.lo[1] + blockIdx.y * static_cast<long long>(blockDim.y) + threadIdx.y;
  const long long m0 = r.lo[2] + blockIdx.z * chunk;
  const long long m1 = m0 + chunk < r.hi[2] ? m0 + chunk : r.hi[2];
  if (i >= r.hi[0] || j >= r.hi[1])
    return;
  const long long sy = g.extent[0];
  const long long sz = sy * g.extent[1];
  long long c = i + j * sy + (m0 - 1) * sz; // plane q
  float v0, v1, v2, v3, v4, v5, v6, v7, v8;
#define LOADS v0 = a[c - 1 - sy]; v1 = a[c - sy]; v2 = a[c + 1 - sy]; v3 = a[c - 1]; v4 = a[c]; v5 = a[c + 1]; v6 = a[c - 1 + sy]; v7 = a[c + sy]; v8 = a[c + 1 + sy];
#define G0 0.0370f * v0 + 0.0371f * v1 + 0.0372f * v2 + 0.0373f * v3 + 0.0374f * v4 + 0.0375f * v5 + 0.0376f * v6 + 0.0377f * v7 + 0.0378f * v8
#define G9 0.0379f * v0 + 0.0380f * v1 + 0.0381f * v2 + 0.0382f * v3 + 0.0383f * v4 + 0.0384f * v5 + 0.0385f * v6 + 0.0386f * v7 + 0.0387f * v8
#define G18 0.0388f * v0 + 0.0389f * v1 + 0.0390f * v2 + 0.0391f * v3 + 0.0392f * v4 + 0.0393f * v5 + 0.0394f * v6 + 0.0395f * v7 + 0.0396f * v8
  LOADS
  float acc0 = G0; // output m0, plane m0 - 1
  c += sz;
  LOADS
  acc0 = acc0 + G9;
  float acc1 = G0; // output m0 + 1
#pragma unroll 4
  for (long long k = m0; k < m1; ++k) {
    c += sz; // plane k + 1
    LOADS
    const float out = acc0 + G18;
    acc0 = acc1 + G9;
    acc1 = G0;
    b[c - sz] = out;
  }
}


// Two points a thread, rows j and j + 1: twelve loads a plane for both.
#define GB0 0.0370f * v3 + 0.0371f * v4 + 0.0372f * v5 + 0.0373f * v6 + 0.0374f * v7 + 0.0375f * v8 + 0.0376f * v9 + 0.0377f * v10 + 0.0378f * v11
#define GB9 0.0379f * v3 + 0.0380f * v4 + 0.0381f * v5 + 0.0382f * v6 + 0.0383f * v7 + 0.0384f * v8 + 0.0385f * v9 + 0.0386f * v10 + 0.0387f * v11
#define GB18 0.0388f * v3 + 0.0389f * v4 + 0.0390f * v5 + 0.0391f * v6 + 0.0392f * v7 + 0.0393f * v8 + 0.0394f * v9 + 0.0395f * v10 + 0.0396f * v11
__global__ void box_psum2(const stencil::Grid g, const stencil::Region r, const long long chunk, const float *__restrict__ a, float *__restrict__ b) {
  const long long i = r.lo[0] + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long j = r.lo[1] + 2 * (blockIdx.y * static_cast<long long>(blockDim.y) + threadIdx.y);
  const long long m0 = r.lo[2] + blockIdx.z * chunk;
  const long long m1 = m0 + chunk < r.hi[2] ? m0 + chunk : r.hi[2];
  if (i >= r.hi[0] || j >= r.hi[1])
    return;
  const bool two = j + 1 < r.hi[1];
  const long long sy = g.extent[0];
  const long long sz = sy * g.extent[1];
  long long c = i + j * sy + (m0 - 1) * sz;
  float v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11;
#define LOADS2 v0 = a[c - 1 - sy]; v1 = a[c - sy]; v2 = a[c + 1 - sy]; v3 = a[c - 1]; v4 = a[c]; v5 = a[c + 1]; v6 = a[c - 1 + sy]; v7 = a[c + sy]; v8 = a[c + 1 + sy]; v9 = a[c - 1 + 2 * sy]; v10 = a[c + 2 * sy]; v11 = a[c + 1 + 2 * sy];
  LOADS2
  float acc0 = G0, bcc0 = GB0;
  c += sz;
  LOADS2
  acc0 = acc0 + G9; bcc0 = bcc0 + GB9;
  float acc1 = G0, bcc1 = GB0;
#pragma unroll 2
  for (long long k = m0; k < m1; ++k) {
    c += sz;
    LOADS2
    const float out = acc0 + G18;
    const float outb = bcc0 + GB18;
    acc0 = acc1 + G9; bcc0 = bcc1 + GB9;
    acc1 = G0; bcc1 = GB0;
    b[c - sz] = out;
    if (two) b[c - sz + sy] = outb;
  }
}

int main() {
  BoxProbe P;
  const long long n = P.n, N = P.N;
  float *a = P.a, *b = P.b, *b2;
  cudaMalloc(&b2, N * 4);
  const stencil::Grid g = P.g;
  const stencil::Region r = P.r;
  const double copy = P.copyGBs();
  const long long pts = (n - 2) * (n - 2) * (n - 2);
  int bxs[] = {32, 64, 128, 32, 64, 32, 256}, bys[] = {4, 4, 4, 8, 8, 16, 2};
  int chunks[] = {8, 16, 32, 64, 128};
  for (int kern = 0; kern < 3; ++kern) {
    double best = 0; int bb = -1, bc = 0;
    for (int bi = 0; bi < 7; ++bi)
      for (int ci = 0; ci < 5; ++ci) {
        dim3 blk(bxs[bi], bys[bi]);
        const int py = kern == 2 ? 2 : 1;
        dim3 grd((n - 2 + blk.x - 1) / blk.x, (n - 2 + py * blk.y - 1) / (py * blk.y), (n - 2 + chunks[ci] - 1) / chunks[ci]);
        auto go = [&] { if (kern == 2) box_psum2<<<grd, blk>>>(g, r, chunks[ci], a, b); else if (kern) box_psum<<<grd, blk>>>(g, r, chunks[ci], a, b); else stencilc_Box3d1rF_zmarch<<<grd, blk>>>(g, r, chunks[ci], a, b); };
        const float ms = P.time(10, go);
        const double gc = pts * 10 / (ms * 1e-3) / 1e9;
        if (gc > best) { best = gc; bb = bi; bc = chunks[ci]; }
        printf("%s %dx%d chunk %d: %.1f GCells/s\n", (kern == 2 ? "psum2" : kern ? "psum" : "zmarch"), bxs[bi], bys[bi], chunks[ci], gc);
      }
    printf("BEST %s: %.1f GCells/s (%dx%d chunk %d), %.3f of copy\n", (kern == 2 ? "psum2" : kern ? "psum" : "zmarch"), best, bxs[bb], bys[bb], bc, best * 8 / copy);
  }
  // Agreement: both from the same input, poisoned outputs.
  cudaMemset(b, 0xff, N * 4); cudaMemset(b2, 0xff, N * 4);
  dim3 blk(32, 8), grd((n - 2 + 31) / 32, (n - 2 + 7) / 8, (n - 2 + 63) / 64);
  stencilc_Box3d1rF_zmarch<<<grd, blk>>>(g, r, 64, a, b);
  box_psum<<<grd, blk>>>(g, r, 64, a, b2);
  std::vector<float> h1(N), h2(N);
  cudaMemcpy(h1.data(), b, N * 4, cudaMemcpyDeviceToHost); cudaMemcpy(h2.data(), b2, N * 4, cudaMemcpyDeviceToHost);
  long long same = 0, diff = 0; double maxd = 0;
  for (long long z = 1; z < n - 1; ++z) for (long long y = 1; y < n - 1; ++y) for (long long x = 1; x < n - 1; ++x) {
    const long long t = x + y * n + z * n * n;
    if (h1[t] == h2[t]) ++same; else { ++diff; maxd = fmax(maxd, fabs(h1[t] - h2[t])); }
  }
  printf("agreement: %lld bit-equal, %lld differ (max %.3g)\n", same, diff, maxd);
  cudaMemset(b2, 0xff, N * 4);
  dim3 grd2((n - 2 + 31) / 32, (n - 2 + 15) / 16, (n - 2 + 63) / 64);
  box_psum2<<<grd2, blk>>>(g, r, 64, a, b2);
  cudaMemcpy(h2.data(), b2, N * 4, cudaMemcpyDeviceToHost);
  same = diff = 0; maxd = 0;
  for (long long z = 1; z < n - 1; ++z) for (long long y = 1; y < n - 1; ++y) for (long long x = 1; x < n - 1; ++x) {
    const long long t = x + y * n + z * n * n;
    if (h1[t] == h2[t]) ++same; else { ++diff; maxd = fmax(maxd, fabs(h1[t] - h2[t])); }
  }
  printf("agreement psum2: %lld bit-equal, %lld differ (max %.3g)\n", same, diff, maxd);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
