// mpi_device_cuda.cu - the GPU operations of the distributed runtime:
// device selection, memory, streams, events, pack/unpack kernels and CUDA IPC.
#include <stencil/mpi_device.hpp>

#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace stencil::mpi_device {
namespace {

void check(cudaError_t E, const char *What) {
  if (E != cudaSuccess)
    throw std::runtime_error(std::string("stencil: ") + What + ": " +
                             cudaGetErrorString(E));
}

/// Boxes per launch: they travel as a kernel parameter.
constexpr int BatchBoxes = 32;

template <typename W> struct Batch {
  W *field[BatchBoxes];
  W *buffer[BatchBoxes];
  long long start[BatchBoxes], strideY[BatchBoxes], strideZ[BatchBoxes];
  int count[BatchBoxes][3];
};

/// blockIdx.y picks the box; threads stride over its points, x fastest.
template <typename W, bool Unpack>
__global__ void packKernel(const Batch<W> B) {
  const int I = blockIdx.y;
  const long long Nx = B.count[I][0], Nxy = Nx * B.count[I][1],
                  N = Nxy * B.count[I][2];
  W *const F = B.field[I] + B.start[I];
  W *const Buf = B.buffer[I];
  for (long long P =
           blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       P < N; P += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long Z = P / Nxy, Y = (P - Z * Nxy) / Nx,
                    X = P - Z * Nxy - Y * Nx;
    W &Elem = F[X + Y * B.strideY[I] + Z * B.strideZ[I]];
    if (Unpack)
      Elem = Buf[P];
    else
      Buf[P] = Elem;
  }
}

template <typename W>
void launchPack(const PackBox *Boxes, int N, int ElementSize, bool Unpack,
                cudaStream_t S) {
  const int Scale = ElementSize / static_cast<int>(sizeof(W));
  for (int First = 0; First < N; First += BatchBoxes) {
    Batch<W> B;
    const int Count = N - First < BatchBoxes ? N - First : BatchBoxes;
    long long Most = 0;
    for (int I = 0; I < Count; ++I) {
      const PackBox &P = Boxes[First + I];
      B.field[I] = static_cast<W *>(P.field);
      B.buffer[I] = static_cast<W *>(P.buffer);
      B.start[I] = P.start * Scale;
      B.strideY[I] = P.strideY * Scale;
      B.strideZ[I] = P.strideZ * Scale;
      B.count[I][0] = P.count[0] * Scale;
      B.count[I][1] = P.count[1];
      B.count[I][2] = P.count[2];
      const long long V =
          static_cast<long long>(B.count[I][0]) * P.count[1] * P.count[2];
      Most = V > Most ? V : Most;
    }
    const int Threads = 256;
    long long Blocks = (Most + Threads - 1) / Threads;
    Blocks = Blocks < 1 ? 1 : (Blocks > 4096 ? 4096 : Blocks);
    const dim3 Grid(static_cast<unsigned>(Blocks),
                    static_cast<unsigned>(Count));
    if (Unpack)
      packKernel<W, true><<<Grid, Threads, 0, S>>>(B);
    else
      packKernel<W, false><<<Grid, Threads, 0, S>>>(B);
    check(cudaGetLastError(), Unpack ? "unpack kernel" : "pack kernel");
  }
}

cudaStream_t stream(void *S) { return static_cast<cudaStream_t>(S); }

} // namespace

bool available() {
  int N = 0;
  if (cudaGetDeviceCount(&N) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return N > 0;
}

int selectDevice(int LocalRank) {
  int N = 0;
  if (cudaGetDeviceCount(&N) != cudaSuccess || N == 0) {
    cudaGetLastError();
    throw std::runtime_error(
        "stencil: a device-memory domain needs a GPU, and none is visible");
  }
  const int Device = LocalRank % N;
  check(cudaSetDevice(Device), "cudaSetDevice");
  return Device;
}

int maxSharedPerBlock() {
  int Device = 0, Bytes = 0;
  check(cudaGetDevice(&Device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&Bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                               Device),
        "cudaDeviceGetAttribute");
  return Bytes;
}

void *allocateDevice(std::size_t Bytes) {
  void *P = nullptr;
  check(cudaMalloc(&P, Bytes), "cudaMalloc");
  return P;
}
void releaseDevice(void *P) { cudaFree(P); }
void *allocatePinned(std::size_t Bytes) {
  void *P = nullptr;
  check(cudaMallocHost(&P, Bytes), "cudaMallocHost");
  return P;
}
void releasePinned(void *P) { cudaFreeHost(P); }
void copyToDevice(void *Dst, const void *Src, std::size_t Bytes) {
  check(cudaMemcpy(Dst, Src, Bytes, cudaMemcpyHostToDevice), "copy to device");
  // From pageable memory cudaMemcpy may return before the DMA lands, and
  // the loop's non-blocking streams would not wait for it.
  check(cudaDeviceSynchronize(), "synchronize");
}
void copyToHost(void *Dst, const void *Src, std::size_t Bytes) {
  check(cudaDeviceSynchronize(), "synchronize");
  check(cudaMemcpy(Dst, Src, Bytes, cudaMemcpyDeviceToHost), "copy to host");
}
void fillDevice(void *P, int Byte, std::size_t Bytes) {
  check(cudaMemset(P, Byte, Bytes), "cudaMemset");
  check(cudaDeviceSynchronize(), "synchronize");
}

void *createStream(bool Urgent) {
  // Non-blocking: no implicit sync with the legacy default stream.
  int Least = 0, Greatest = 0;
  check(cudaDeviceGetStreamPriorityRange(&Least, &Greatest),
        "stream priorities");
  cudaStream_t S;
  check(cudaStreamCreateWithPriority(&S, cudaStreamNonBlocking,
                                     Urgent ? Greatest : Least),
        "cudaStreamCreate");
  return S;
}
void destroyStream(void *S) { cudaStreamDestroy(stream(S)); }
void synchronizeStream(void *S) {
  check(cudaStreamSynchronize(stream(S)), "stream synchronize");
}
void *createEvent() {
  cudaEvent_t E;
  check(cudaEventCreate(&E), "cudaEventCreate");
  return E;
}
void destroyEvent(void *E) { cudaEventDestroy(static_cast<cudaEvent_t>(E)); }
void recordEvent(void *E, void *S) {
  check(cudaEventRecord(static_cast<cudaEvent_t>(E), stream(S)),
        "cudaEventRecord");
}
void waitEvent(void *Waiter, void *E) {
  check(cudaStreamWaitEvent(stream(Waiter), static_cast<cudaEvent_t>(E), 0),
        "cudaStreamWaitEvent");
}
float elapsedMs(void *Start, void *End) {
  float Ms = 0;
  check(cudaEventElapsedTime(&Ms, static_cast<cudaEvent_t>(Start),
                             static_cast<cudaEvent_t>(End)),
        "cudaEventElapsedTime");
  return Ms;
}
void synchronizeEvent(void *E) {
  check(cudaEventSynchronize(static_cast<cudaEvent_t>(E)),
        "cudaEventSynchronize");
}
void copyAsync(void *Dst, const void *Src, std::size_t Bytes, void *S) {
  check(cudaMemcpyAsync(Dst, Src, Bytes, cudaMemcpyDefault, stream(S)),
        "cudaMemcpyAsync");
}

void packBoxes(const PackBox *Boxes, int N, int ElementSize, bool Unpack,
               void *S) {
  if (N == 0)
    return;
  if (ElementSize % 8 == 0)
    launchPack<std::uint64_t>(Boxes, N, ElementSize, Unpack, stream(S));
  else if (ElementSize % 4 == 0)
    launchPack<std::uint32_t>(Boxes, N, ElementSize, Unpack, stream(S));
  else if (ElementSize % 2 == 0)
    launchPack<std::uint16_t>(Boxes, N, ElementSize, Unpack, stream(S));
  else
    launchPack<std::uint8_t>(Boxes, N, ElementSize, Unpack, stream(S));
}

void ipcHandle(void *P, unsigned char *Handle) {
  static_assert(sizeof(cudaIpcMemHandle_t) == IpcHandleBytes,
                "CUDA IPC handle size");
  cudaIpcMemHandle_t H;
  check(cudaIpcGetMemHandle(&H, P), "cudaIpcGetMemHandle");
  std::memcpy(Handle, &H, sizeof(H));
}
void *ipcOpen(const unsigned char *Handle) {
  cudaIpcMemHandle_t H;
  std::memcpy(&H, Handle, sizeof(H));
  void *P = nullptr;
  check(cudaIpcOpenMemHandle(&P, H, cudaIpcMemLazyEnablePeerAccess),
        "cudaIpcOpenMemHandle");
  return P;
}
void ipcClose(void *P) { cudaIpcCloseMemHandle(P); }
bool canAccessPeer(int Device) {
  int Mine = 0, Can = 0;
  check(cudaGetDevice(&Mine), "cudaGetDevice");
  if (Device == Mine)
    return true;
  check(cudaDeviceCanAccessPeer(&Can, Mine, Device), "cudaDeviceCanAccessPeer");
  return Can != 0;
}

} // namespace stencil::mpi_device
