// mpi_device_none.cpp - libstencil_mpi built without CUDA: host-memory
// domains work; every device operation reports how to get one.
#include <stencil/mpi_device.hpp>

#include <stdexcept>

namespace stencil::mpi_device {
namespace {
[[noreturn]] void noCuda() {
  throw std::runtime_error(
      "stencil: device memory needs libstencil_mpi built with CUDA "
      "(configure stencilc with STENCILC_ENABLE_CUDA=ON)");
}
} // namespace

bool available() { return false; }
int selectDevice(int) { noCuda(); }
int maxSharedPerBlock() { noCuda(); }
void *allocateDevice(std::size_t) { noCuda(); }
void releaseDevice(void *) {}
void *allocatePinned(std::size_t) { noCuda(); }
void releasePinned(void *) {}
void copyToDevice(void *, const void *, std::size_t) { noCuda(); }
void copyToHost(void *, const void *, std::size_t) { noCuda(); }
void fillDevice(void *, int, std::size_t) { noCuda(); }
void *createStream(bool) { noCuda(); }
void destroyStream(void *) {}
void synchronizeStream(void *) { noCuda(); }
void *createEvent() { noCuda(); }
void destroyEvent(void *) {}
void recordEvent(void *, void *) { noCuda(); }
void waitEvent(void *, void *) { noCuda(); }
float elapsedMs(void *, void *) { noCuda(); }
void synchronizeEvent(void *) { noCuda(); }
void copyAsync(void *, const void *, std::size_t, void *) { noCuda(); }
void packBoxes(const PackBox *, int, int, bool, void *) { noCuda(); }
void ipcHandle(void *, unsigned char *) { noCuda(); }
void *ipcOpen(const unsigned char *) { noCuda(); }
void ipcClose(void *) {}
bool canAccessPeer(int) { return false; }

} // namespace stencil::mpi_device
