// stencil/device.hpp - GPU memory from plain C++: DeviceArray<T>.
//
// A program built with g++ alone has no CUDA; generated .cu files register
// the CUDA implementation of these operations (stencil/cuda/device_ops.cuh),
// so the same main() can use device memory once stencilc's CUDA code is linked.
#ifndef STENCIL_DEVICE_HPP
#define STENCIL_DEVICE_HPP

#include <cstddef>
#include <stdexcept>
#include <string>

namespace stencil {

/// Device operations; each returns null or an error text.
struct DeviceOps {
  int (*deviceCount)();
  const char *(*allocate)(void **Ptr, std::size_t Bytes);
  const char *(*release)(void *Ptr);
  const char *(*copyToDevice)(void *Dst, const void *Src, std::size_t Bytes);
  const char *(*copyToHost)(void *Dst, const void *Src, std::size_t Bytes);
  const char *(*synchronize)();
  const char *(*deviceName)(char *Buf, std::size_t Size);
  // Appended for the auto-tuner: events on a stream (null: the default one)
  // and the device's per-block limits.
  const char *(*eventCreate)(void **Event);
  const char *(*eventDestroy)(void *Event);
  const char *(*eventRecord)(void *Event, void *Stream);
  /// Waits for \p Stop, then the milliseconds between the two events.
  const char *(*eventElapsedMs)(float *Ms, void *Start, void *Stop);
  /// Threads, registers and (default) shared memory bytes per block.
  const char *(*blockLimits)(int *MaxThreads, int *Registers,
                             long long *SharedBytes);
  /// Appended for AutoLoopEngine: true if the pointer is GPU memory.
  bool (*isDevicePointer)(const void *Ptr);
};

namespace detail {
inline const DeviceOps *&deviceOpsSlot() {
  static const DeviceOps *Ops = nullptr;
  return Ops;
}
inline const DeviceOps &requireDeviceOps() {
  if (!deviceOpsSlot())
    throw std::runtime_error(
        "stencil: this program has no CUDA support linked in "
        "(build it with stencilc_add_sources(... BACKENDS cuda))");
  return *deviceOpsSlot();
}
inline void checkDevice(const char *Error, const char *What) {
  if (Error)
    throw std::runtime_error(std::string("stencil: ") + What + ": " + Error);
}
} // namespace detail

/// Installs the device operations (done by generated CUDA code).
inline bool registerDeviceOps(const DeviceOps &Ops) {
  detail::deviceOpsSlot() = &Ops;
  return true;
}

/// True when CUDA code is linked in and a GPU is present.
inline bool deviceAvailable() {
  return detail::deviceOpsSlot() && detail::deviceOpsSlot()->deviceCount() > 0;
}

/// The GPU's name, or "" without one.
inline std::string deviceName() {
  if (!deviceAvailable())
    return "";
  char Buf[256] = {};
  detail::checkDevice(detail::deviceOpsSlot()->deviceName(Buf, sizeof(Buf)),
                      "device name");
  return Buf;
}

/// True if \p Ptr points into GPU memory; false without CUDA linked in.
inline bool isDevicePointer(const void *Ptr) {
  const DeviceOps *Ops = detail::deviceOpsSlot();
  return Ptr && Ops && Ops->isDevicePointer && Ops->isDevicePointer(Ptr);
}

/// Waits for all work on the GPU and reports any error it raised.
inline void deviceSynchronize() {
  detail::checkDevice(detail::requireDeviceOps().synchronize(), "synchronize");
}

/// An array of \p T in GPU memory.
template <typename T> class DeviceArray {
public:
  explicit DeviceArray(std::size_t Count) : count_(Count) {
    void *P = nullptr;
    detail::checkDevice(detail::requireDeviceOps().allocate(&P, bytes()),
                        "allocate");
    data_ = static_cast<T *>(P);
  }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  ~DeviceArray() {
    if (data_)
      detail::requireDeviceOps().release(data_);
  }

  T *data() { return data_; }
  const T *data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const T *Host) {
    detail::checkDevice(
        detail::requireDeviceOps().copyToDevice(data_, Host, bytes()),
        "upload");
  }
  void download(T *Host) const {
    detail::checkDevice(
        detail::requireDeviceOps().copyToHost(Host, data_, bytes()),
        "download");
  }

private:
  T *data_ = nullptr;
  std::size_t count_ = 0;
};

} // namespace stencil

#endif // STENCIL_DEVICE_HPP
