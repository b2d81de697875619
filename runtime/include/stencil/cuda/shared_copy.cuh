// stencil/cuda/shared_copy.cuh - one element copied asynchronously from
// global to shared memory, addressed the cheap way: the shared side as a
// 32-bit shared-window address, which the caller advances by adding bytes.
// __pipeline_memcpy_async takes a generic pointer, from which the compiler
// recomputes the window's base at every copy (S2R, MOV, LEA, IMAD: about a
// third of a 3-D pass's copy instructions, measured in its SASS). Groups are
// committed and waited as with __pipeline_memcpy_async (__pipeline_commit,
// __pipeline_wait_prior): both are the same cp.async groups.
#ifndef STENCIL_CUDA_SHARED_COPY_CUH
#define STENCIL_CUDA_SHARED_COPY_CUH

#include <cuda_pipeline.h>

namespace stencil::cuda {

/// The 32-bit shared-window address of \p P, a pointer into shared memory.
__device__ __forceinline__ unsigned sharedAddress(const void *P) {
  return static_cast<unsigned>(__cvta_generic_to_shared(P));
}

/// Copies the element at \p From to the shared-window address \p To (from
/// sharedAddress), asynchronously where the GPU can (compute capability 8.0
/// on), else at once.
template <typename T>
__device__ __forceinline__ void copyToShared(unsigned To, const T *From) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "cp.async copies 4, 8 or 16 bytes");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(To), "l"(From),
               "n"(sizeof(T))
               : "memory");
#else
  __pipeline_memcpy_async(
      static_cast<T *>(__cvta_shared_to_generic(static_cast<size_t>(To))), From,
      sizeof(T));
#endif
}

} // namespace stencil::cuda

#endif // STENCIL_CUDA_SHARED_COPY_CUH
