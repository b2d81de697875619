// stencil/cuda/device_ops.cuh - the CUDA implementation of stencil::DeviceOps.
// Every generated .cu file installs it; installing twice is harmless.
#ifndef STENCIL_CUDA_DEVICE_OPS_CUH
#define STENCIL_CUDA_DEVICE_OPS_CUH

#include <cstdio>
#include <cuda_runtime.h>
#include <stencil/cuda/nvtx_ranges.cuh>
#include <stencil/device.hpp>

namespace stencil::cuda_ops {

inline const char *errorText(cudaError_t E) {
  return E == cudaSuccess ? nullptr : cudaGetErrorString(E);
}

inline int deviceCount() {
  int N = 0;
  if (cudaGetDeviceCount(&N) != cudaSuccess) {
    cudaGetLastError(); // no driver or no GPU: clear the sticky error
    return 0;
  }
  return N;
}
inline const char *allocate(void **P, std::size_t Bytes) {
  return errorText(cudaMalloc(P, Bytes));
}
inline const char *release(void *P) { return errorText(cudaFree(P)); }
inline const char *copyToDevice(void *D, const void *S, std::size_t Bytes) {
  return errorText(cudaMemcpy(D, S, Bytes, cudaMemcpyHostToDevice));
}
inline const char *copyToHost(void *D, const void *S, std::size_t Bytes) {
  return errorText(cudaMemcpy(D, S, Bytes, cudaMemcpyDeviceToHost));
}
inline const char *synchronize() { return errorText(cudaDeviceSynchronize()); }
/// Bytes of the current device's L2 cache; 0 when it cannot be told.
inline long long l2CacheBytes() {
  int Dev = 0, Bytes = 0;
  if (cudaGetDevice(&Dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&Bytes, cudaDevAttrL2CacheSize, Dev) !=
          cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return Bytes;
}
/// The current device's properties.
inline const char *currentDeviceProperties(cudaDeviceProp *Prop) {
  int Dev = 0;
  if (cudaError_t E = cudaGetDevice(&Dev); E != cudaSuccess)
    return errorText(E);
  return errorText(cudaGetDeviceProperties(Prop, Dev));
}
inline const char *deviceName(char *Buf, std::size_t Size) {
  cudaDeviceProp Prop;
  if (const char *Error = currentDeviceProperties(&Prop))
    return Error;
  std::snprintf(Buf, Size, "%s", Prop.name);
  return nullptr;
}

inline const char *eventCreate(void **E) {
  cudaEvent_t Ev = nullptr;
  const char *Error = errorText(cudaEventCreate(&Ev));
  *E = Ev;
  return Error;
}
inline const char *eventDestroy(void *E) {
  return errorText(cudaEventDestroy(static_cast<cudaEvent_t>(E)));
}
inline const char *eventRecord(void *E, void *Stream) {
  return errorText(cudaEventRecord(static_cast<cudaEvent_t>(E),
                                   static_cast<cudaStream_t>(Stream)));
}
inline const char *eventElapsedMs(float *Ms, void *Start, void *Stop) {
  if (cudaError_t E = cudaEventSynchronize(static_cast<cudaEvent_t>(Stop));
      E != cudaSuccess)
    return errorText(E);
  return errorText(cudaEventElapsedTime(Ms, static_cast<cudaEvent_t>(Start),
                                        static_cast<cudaEvent_t>(Stop)));
}
inline const char *blockLimits(int *MaxThreads, int *Registers,
                               long long *SharedBytes) {
  cudaDeviceProp Prop;
  if (const char *Error = currentDeviceProperties(&Prop))
    return Error;
  *MaxThreads = Prop.maxThreadsPerBlock;
  *Registers = Prop.regsPerBlock;
  *SharedBytes = static_cast<long long>(Prop.sharedMemPerBlock);
  return nullptr;
}

/// True if \p Ptr points into GPU memory (device or managed): where
/// AutoLoopEngine runs a stencil.
inline bool isDevicePointer(const void *Ptr) {
  cudaPointerAttributes Attr;
  if (cudaPointerGetAttributes(&Attr, Ptr) != cudaSuccess) {
    cudaGetLastError(); // an unregistered host pointer is not an error to keep
    return false;
  }
  return Attr.type == cudaMemoryTypeDevice ||
         Attr.type == cudaMemoryTypeManaged;
}

/// Installs these operations and the NVTX ranges; generated .cu files call
/// it while registering.
inline bool install() {
  static const DeviceOps Ops = {
      deviceCount,    allocate,    release,        copyToDevice, copyToHost,
      synchronize,    deviceName,  eventCreate,    eventDestroy, eventRecord,
      eventElapsedMs, blockLimits, isDevicePointer};
  installNvtxRanges();
  return registerDeviceOps(Ops);
}

} // namespace stencil::cuda_ops

#endif // STENCIL_CUDA_DEVICE_OPS_CUH
