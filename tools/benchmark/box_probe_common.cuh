// box_probe_common.cuh - what the box probes (box_plane_sums.cu,
// box_zsum_probe.cu) share: the runtime's Grid and Region as generated
// kernels take them, the 512^3 f32 input (random values in [-0.5, 0.5),
// seed 3) with its interior as the region, and the copy bandwidth of a
// grid-stride copy measured in the same run.
#ifndef STENCILC_BOX_PROBE_COMMON_CUH
#define STENCILC_BOX_PROBE_COMMON_CUH
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
namespace stencil {
struct Grid { int dims = 3; long long extent[4] = {1, 1, 1, 1}; long long origin[4] = {0, 0, 0, 0}; };
struct Region { long long lo[4] = {0, 0, 0, 0}; long long hi[4] = {1, 1, 1, 1}; };
}

__global__ void copyk(const float *__restrict__ a, float *__restrict__ b, long long n) {
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n; t += (long long)gridDim.x * blockDim.x) b[t] = a[t];
}

struct BoxProbe {
  static constexpr long long n = 512, N = n * n * n;
  float *a = nullptr, *b = nullptr; ///< The input, an output.
  stencil::Grid g;
  stencil::Region r; ///< The interior.
  cudaEvent_t e0, e1;
  BoxProbe() {
    cudaMalloc(&a, N * 4); cudaMalloc(&b, N * 4);
    std::vector<float> h(N);
    srand(3);
    for (auto &x : h) x = rand() / (float)RAND_MAX - 0.5f;
    cudaMemcpy(a, h.data(), N * 4, cudaMemcpyHostToDevice);
    g.extent[0] = g.extent[1] = g.extent[2] = n;
    for (int d = 0; d < 3; ++d) { r.lo[d] = 1; r.hi[d] = n - 1; }
    cudaEventCreate(&e0); cudaEventCreate(&e1);
  }
  /// Milliseconds of \p times calls of \p go, after one more.
  template <typename F> float time(int times, F go) {
    go();
    float ms;
    cudaEventRecord(e0); for (int t = 0; t < times; ++t) go(); cudaEventRecord(e1); cudaEventSynchronize(e1);
    cudaEventElapsedTime(&ms, e0, e1);
    return ms;
  }
  /// The copy bandwidth (GB/s, read + write), printed.
  double copyGBs() {
    const float ms = time(20, [&] { copyk<<<132 * 8, 1024>>>(a, b, N); });
    const double copy = 2.0 * N * 4 * 20 / (ms * 1e-3) / 1e9;
    printf("copy %.1f GB/s (%.1f GCells/s at 8 B)\n", copy, copy / 8);
    return copy;
  }
};
#endif
