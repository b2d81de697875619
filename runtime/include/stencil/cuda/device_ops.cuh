// stencil/cuda/device_ops.cuh - the CUDA implementation of stencil::DeviceOps.
// Every generated .cu file installs it; installing twice is harmless.
#ifndef STENCIL_CUDA_DEVICE_OPS_CUH
#define STENCIL_CUDA_DEVICE_OPS_CUH

#include <cuda_runtime.h>
#include <stencil/device.hpp>
#include <cstdio>

namespace stencil::cuda_ops {

inline const char *errorText(cudaError_t E) { return E == cudaSuccess ? nullptr : cudaGetErrorString(E); }

inline int deviceCount() {
  int N = 0;
  if (cudaGetDeviceCount(&N) != cudaSuccess) {
    cudaGetLastError(); // no driver or no GPU: clear the sticky error
    return 0;
  }
  return N;
}
inline const char *allocate(void **P, std::size_t Bytes) { return errorText(cudaMalloc(P, Bytes)); }
inline const char *release(void *P) { return errorText(cudaFree(P)); }
inline const char *copyToDevice(void *D, const void *S, std::size_t Bytes) {
  return errorText(cudaMemcpy(D, S, Bytes, cudaMemcpyHostToDevice));
}
inline const char *copyToHost(void *D, const void *S, std::size_t Bytes) {
  return errorText(cudaMemcpy(D, S, Bytes, cudaMemcpyDeviceToHost));
}
inline const char *synchronize() { return errorText(cudaDeviceSynchronize()); }
inline const char *deviceName(char *Buf, std::size_t Size) {
  int Dev = 0;
  cudaDeviceProp Prop;
  if (cudaError_t E = cudaGetDevice(&Dev); E != cudaSuccess)
    return errorText(E);
  if (cudaError_t E = cudaGetDeviceProperties(&Prop, Dev); E != cudaSuccess)
    return errorText(E);
  std::snprintf(Buf, Size, "%s", Prop.name);
  return nullptr;
}

/// Installs these operations; generated .cu files call it while registering.
inline bool install() {
  static const DeviceOps Ops = {deviceCount, allocate, release, copyToDevice,
                                copyToHost, synchronize, deviceName};
  return registerDeviceOps(Ops);
}

} // namespace stencil::cuda_ops

#endif // STENCIL_CUDA_DEVICE_OPS_CUH
