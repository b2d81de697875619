// copy_bandwidth.cu - the ceiling memory-bound kernels are judged against:
// device-to-device cudaMemcpy bandwidth, counting bytes read plus written.
//
//   nvcc -O3 -arch=sm_90 tools/copy_bandwidth.cu -o copy_bandwidth && ./copy_bandwidth [MiB]
//
// Prints one line: "copy bandwidth: <GB/s> GB/s (<MiB> MiB, median of <n>)".
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

static void check(cudaError_t E, const char *What) {
  if (E != cudaSuccess) {
    std::fprintf(stderr, "copy_bandwidth: %s: %s\n", What, cudaGetErrorString(E));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  const size_t MiB = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  const size_t Bytes = MiB << 20;
  const int Runs = 21;
  void *Src = nullptr, *Dst = nullptr;
  check(cudaMalloc(&Src, Bytes), "cudaMalloc");
  check(cudaMalloc(&Dst, Bytes), "cudaMalloc");
  check(cudaMemset(Src, 1, Bytes), "cudaMemset");
  check(cudaMemcpy(Dst, Src, Bytes, cudaMemcpyDeviceToDevice), "warm-up copy");
  cudaEvent_t Start, Stop;
  check(cudaEventCreate(&Start), "cudaEventCreate");
  check(cudaEventCreate(&Stop), "cudaEventCreate");
  std::vector<float> Ms;
  for (int R = 0; R < Runs; ++R) {
    check(cudaEventRecord(Start), "cudaEventRecord");
    check(cudaMemcpy(Dst, Src, Bytes, cudaMemcpyDeviceToDevice), "copy");
    check(cudaEventRecord(Stop), "cudaEventRecord");
    check(cudaEventSynchronize(Stop), "cudaEventSynchronize");
    float T = 0;
    check(cudaEventElapsedTime(&T, Start, Stop), "cudaEventElapsedTime");
    Ms.push_back(T);
  }
  std::sort(Ms.begin(), Ms.end());
  const double Median = Ms[Ms.size() / 2];
  std::printf("copy bandwidth: %.1f GB/s (%zu MiB, median of %d, read + write)\n",
              2.0 * Bytes / (Median * 1e-3) / 1e9, MiB, Runs);
  cudaFree(Src);
  cudaFree(Dst);
  return 0;
}
