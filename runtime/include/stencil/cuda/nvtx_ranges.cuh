// stencil/cuda/nvtx_ranges.cuh - NVTX ranges for stencil::profile (Nsight
// Systems shows each launch as "<stencil> [<variant>]" and each halo
// exchange step in the domain "stencil"). NVTX v3 is header-only and costs
// a call through a null hook when no tool is attached; a toolkit without
// nvtx3 installs nothing.
#ifndef STENCIL_CUDA_NVTX_RANGES_CUH
#define STENCIL_CUDA_NVTX_RANGES_CUH

#include <stencil/profile.hpp>

#include <cstdio>

#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define STENCIL_HAVE_NVTX3 1
#endif

namespace stencil::cuda_ops {

#ifdef STENCIL_HAVE_NVTX3
inline nvtxDomainHandle_t nvtxDomain() {
  static const nvtxDomainHandle_t Domain = nvtxDomainCreateA("stencil");
  return Domain;
}
inline void nvtxPush(const char *Name, const char *Detail) {
  char Message[256];
  if (Detail)
    std::snprintf(Message, sizeof(Message), "%s [%s]", Name, Detail);
  else
    std::snprintf(Message, sizeof(Message), "%s", Name);
  nvtxEventAttributes_t A = {};
  A.version = NVTX_VERSION;
  A.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  A.messageType = NVTX_MESSAGE_TYPE_ASCII;
  A.message.ascii = Message;
  nvtxDomainRangePushEx(nvtxDomain(), &A);
}
inline void nvtxPop() { nvtxDomainRangePop(nvtxDomain()); }
#endif

/// Installs the NVTX range hooks; generated .cu files call it (through
/// install()) while registering.
inline bool installNvtxRanges() {
#ifdef STENCIL_HAVE_NVTX3
  static const profile::RangeHooks Hooks = {nvtxPush, nvtxPop};
  return profile::registerRangeHooks(Hooks);
#else
  return false;
#endif
}

} // namespace stencil::cuda_ops

#endif // STENCIL_CUDA_NVTX_RANGES_CUH
