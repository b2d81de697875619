// cuda_on_cpu.hpp - what stencilc's CUDA kernels of fused step groups and
// their group launchers need to run on the CPU, one thread after another:
// dim3, blockIdx and friends, the CUDA runtime calls the launchers make, and
// launch(), which the launches `K<<<grid, block, 0, stream>>>(args)` become
// (extract_kernels.py --steps). A kernel fused by recomputation has no
// barrier, so its threads may run one by one; a staged kernel (shared
// memory, a barrier a plane) is not emulated: extract_kernels.py leaves it a
// stub that says so (notEmulated()).
//
// Include this, then the extracted kernels (which define steps(), the table
// of the steps they serve).
#ifndef STENCIL_E2E_CUDA_ON_CPU_HPP
#define STENCIL_E2E_CUDA_ON_CPU_HPP

#include <stencil/dsl.hpp>

#include <cstdio>
#include <cstdlib>
#include <functional>

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
using cudaError_t = int;
using cudaStream_t = void *;
constexpr cudaError_t cudaSuccess = 0;
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline const char *cudaGetErrorString(cudaError_t) { return "CUDA error"; }
#define __restrict__

namespace cuda_on_cpu {
inline dim3 blockIdx, threadIdx, blockDim;
/// What l2CacheBytes() says: 0 sends the blocks plane by plane, 1 down the
/// columns wherever a group reads along z.
inline long long L2 = 0;
inline long long Launches = 0;
/// Set by a kernel that is not emulated (a staged one).
inline bool NotEmulated = false;
inline void notEmulated() { NotEmulated = true; }

/// Runs \p Kernel for each thread of each block of \p Grid, one by one;
/// exits on a grid or block the GPU would refuse.
inline void launch(const dim3 &Grid, const dim3 &Block,
                   const std::function<void()> &Kernel) {
  if (Grid.y > 65535 || Grid.z > 65535 || Block.z > 64 ||
      1ull * Block.x * Block.y * Block.z > 1024) {
    std::printf("FAIL: launch of grid %u x %u x %u, block %u x %u x %u\n",
                Grid.x, Grid.y, Grid.z, Block.x, Block.y, Block.z);
    std::exit(1);
  }
  ++Launches;
  blockDim = Block;
  for (blockIdx.z = 0; blockIdx.z < Grid.z; ++blockIdx.z)
    for (blockIdx.y = 0; blockIdx.y < Grid.y; ++blockIdx.y)
      for (blockIdx.x = 0; blockIdx.x < Grid.x; ++blockIdx.x)
        for (threadIdx.z = 0; threadIdx.z < Block.z; ++threadIdx.z)
          for (threadIdx.y = 0; threadIdx.y < Block.y; ++threadIdx.y)
            for (threadIdx.x = 0; threadIdx.x < Block.x; ++threadIdx.x)
              Kernel();
}

/// A step the extracted kernels serve: its function, as registered, and
/// its CUDA group launcher.
struct StepEntry {
  const void *Key;
  stencil::GeneratedStepGroupFn Group;
};
/// The extracted kernels' steps (defined by them); \p Count set.
const StepEntry *steps(int &Count);

/// The CUDA group launcher extracted for step function \p Key, or null.
inline stencil::GeneratedStepGroupFn groupsOf(const void *Key) {
  int N = 0;
  const StepEntry *S = steps(N);
  for (int I = 0; I < N; ++I)
    if (S[I].Key == Key)
      return S[I].Group;
  return nullptr;
}

namespace detail {
inline const stencil::GeneratedStep *Entry = nullptr;
inline stencil::GeneratedStepGroupFn Groups = nullptr;
/// The step as the CUDA backend runs its plan, round by round: a fused
/// group by the extracted CUDA group launcher, a call alone by the OpenMP
/// one (its own kernel is not a step's).
inline const char *launchRounds(const stencil::Grid &G, const stencil::Region &R,
                                const stencil::LaunchConfig &C,
                                void *const *Args) {
  for (int I = 0; I < Entry->roundCount; ++I) {
    const stencil::GeneratedStepRound &Round = Entry->rounds[I];
    const char *Error = Round.group >= 0
                            ? Groups(Round.group, G, R, R, C, Args)
                            : Entry->launchCall(Round.call, G, R, C, Args);
    if (Error)
      return Error;
  }
  return nullptr;
}
} // namespace detail

/// Runs step \p Function over \p Loop's points as the CUDA engine runs
/// stencilc's plan of it, the kernels on the CPU; false, running nothing,
/// when it has no fused group extracted or no OpenMP entry (which gives the
/// rounds and runs the calls alone).
template <int Dims, typename Engine, typename F, typename... A>
bool runStep(const stencil::Loop<Dims, Engine> &Loop, F *Function,
             A &&...Args) {
  const void *Key = reinterpret_cast<const void *>(Function);
  const stencil::GeneratedStep *E =
      stencil::findGeneratedStep(stencil::Backend::OpenMP, Key);
  const stencil::GeneratedStepGroupFn Groups = groupsOf(Key);
  if (!E || !Groups || !E->rounds || !E->launchCall)
    return false;
  stencil::GeneratedStep Emulated = *E;
  Emulated.launch = &detail::launchRounds;
  detail::Entry = E;
  detail::Groups = Groups;
  stencil::Grid G;
  stencil::Region R;
  stencil::loopGeometry(Dims, Loop.ranges(), &G, &R);
  using Params = typename stencil::detail::StencilTraits<F *>::Params;
  stencil::detail::runStepEntry(Emulated, Params(), G, R,
                                stencil::LaunchConfig(),
                                std::forward<A>(Args)...);
  return true;
}
} // namespace cuda_on_cpu

using cuda_on_cpu::blockDim;
using cuda_on_cpu::blockIdx;
using cuda_on_cpu::threadIdx;

namespace stencil::cuda_ops {
inline long long l2CacheBytes() { return cuda_on_cpu::L2; }
} // namespace stencil::cuda_ops

#endif // STENCIL_E2E_CUDA_ON_CPU_HPP
