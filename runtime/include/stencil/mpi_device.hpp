// stencil/mpi_device.hpp - the GPU operations of the distributed runtime
// (libstencil_mpi, Stencilc::mpi). Built with CUDA they run on the GPU; built
// without, each throws, so host-memory domains work on any machine.
//
// Plain C++ (no CUDA types): streams and events are opaque pointers.
#ifndef STENCIL_MPI_DEVICE_HPP
#define STENCIL_MPI_DEVICE_HPP

#include <cstddef>

namespace stencil::mpi_device {

/// Whether the library was built with CUDA and a GPU is visible.
bool available();
/// Uses GPU (localRank mod the GPUs on the node) for this process; returns it.
int selectDevice(int LocalRank);
/// Whether the MPI library accepts device pointers (MPIX_Query_cuda_support
/// at run time; STENCIL_MPI_CUDA_AWARE=0 or 1 overrides).
bool mpiCudaAware();

/// The most shared memory a block may opt in to on this process's GPU, in
/// bytes.
int maxSharedPerBlock();

void *allocateDevice(std::size_t Bytes);
void releaseDevice(void *P);
void *allocatePinned(std::size_t Bytes);
void releasePinned(void *P);
void copyToDevice(void *Dst, const void *Src, std::size_t Bytes);
void copyToHost(void *Dst, const void *Src, std::size_t Bytes);
void fillDevice(void *P, int Byte, std::size_t Bytes);

/// A non-blocking stream; \p Urgent: at the device's highest priority, whose
/// blocks the scheduler starts before those of lower-priority streams.
void *createStream(bool Urgent);
void destroyStream(void *S);
void synchronizeStream(void *S);
void *createEvent();
void destroyEvent(void *E);
/// Records E on S; then Waiter waits for it (both may be null: the default
/// stream).
void recordEvent(void *E, void *S);
void waitEvent(void *Waiter, void *E);
float elapsedMs(void *Start, void *End);
void synchronizeEvent(void *E);
void copyAsync(void *Dst, const void *Src, std::size_t Bytes, void *S);

/// One box of a field copied to or from a contiguous buffer: Count[0..2]
/// points from element Start, strides 1, StrideY, StrideZ elements.
struct PackBox {
  void *field;
  void *buffer;
  long long start, strideY, strideZ;
  int count[3];
};
/// Packs (field -> buffer) or unpacks (buffer -> field) up to any number of
/// boxes of elements of ElementSize bytes with kernels on S.
void packBoxes(const PackBox *Boxes, int N, int ElementSize, bool Unpack,
               void *S);

/// CUDA IPC, for neighbours on the same node: a handle for device memory
/// (64 bytes), opening one from another process, and peer access.
constexpr int IpcHandleBytes = 64;
void ipcHandle(void *P, unsigned char *Handle);
void *ipcOpen(const unsigned char *Handle);
void ipcClose(void *P);
/// Whether this process's GPU can map memory of GPU \p Device (peer access).
bool canAccessPeer(int Device);

} // namespace stencil::mpi_device

#endif // STENCIL_MPI_DEVICE_HPP
