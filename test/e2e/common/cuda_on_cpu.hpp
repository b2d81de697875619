// cuda_on_cpu.hpp - what stencilc's CUDA kernels of fused step groups and
// their group launchers need to run on the CPU: dim3, blockIdx and friends,
// the CUDA runtime calls the launchers make, and the launches
// `K<<<grid, block, 0, stream>>>(args)` become (extract_kernels.py --steps):
// launch(), one thread after another (a kernel fused by recomputation or of
// stencils together has no barrier), or, for a staged kernel, whose threads
// wait for each other at __syncthreads(), launchTogether(): a context and
// stack of its own per CUDA thread (a fiber), all run in turn on the calling
// thread, each until its next barrier, the blocks one after another (so a
// block's __shared__ arrays may be static; a kernel's dynamic shared memory
// is DynamicShared, poisoned before each block). Fibers, not a std::thread
// per CUDA thread: hundreds of threads meeting at a barrier a plane spent
// most of the tests' time waking each other in the kernel. Asynchronous copies
// into shared memory (__pipeline_memcpy_async) of 4, 8 or 16 aligned bytes (any
// other exits) are made, as the GPU may make them, either when a thread
// waits for them (__pipeline_wait_prior): a kernel that reads a stage before
// its wait reads the poison or an older plane; or at once (EagerCopies): a
// kernel that copies into a stage before every thread has read it
// overwrites what they read.
//
// Include this, then the extracted kernels (which define steps(), the table
// of the steps they serve).
#ifndef STENCIL_E2E_CUDA_ON_CPU_HPP
#define STENCIL_E2E_CUDA_ON_CPU_HPP

#include <stencil/dsl.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <vector>

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
#define __host__
#define __shared__ static
#define __syncthreads() cuda_on_cpu::syncThreads()
#define __syncthreads_or(v) cuda_on_cpu::syncThreadsOr(v)
// CUDA's correctly rounded operations (stencilc_divide's), unfused.
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline unsigned __float_as_uint(float a) {
  unsigned Bits;
  std::memcpy(&Bits, &a, sizeof Bits);
  return Bits;
}

namespace cuda_on_cpu {
/// A copy __pipeline_memcpy_async started, made when waited for.
struct PendingCopy {
  void *Dst;
  const void *Src;
  size_t Bytes;
};
/// The calling thread's committed groups of copies, oldest first, and the
/// copies since its last commit.
inline thread_local std::vector<std::vector<PendingCopy>> Committed;
inline thread_local std::vector<PendingCopy> Uncommitted;
/// Copies made when started, not when waited for.
inline bool EagerCopies = false;
} // namespace cuda_on_cpu

inline void __pipeline_memcpy_async(void *Dst, const void *Src, size_t Bytes) {
  const auto Misaligned = [Bytes](const void *P) {
    return reinterpret_cast<std::uintptr_t>(P) % Bytes != 0;
  };
  if ((Bytes != 4 && Bytes != 8 && Bytes != 16) || Misaligned(Dst) ||
      Misaligned(Src)) {
    std::printf("FAIL: an asynchronous copy of %zu bytes from %p to %p\n",
                Bytes, Src, Dst);
    std::exit(1);
  }
  if (cuda_on_cpu::EagerCopies)
    std::memcpy(Dst, Src, Bytes);
  else
    cuda_on_cpu::Uncommitted.push_back({Dst, Src, Bytes});
}
inline void __pipeline_commit() {
  cuda_on_cpu::Committed.push_back(std::move(cuda_on_cpu::Uncommitted));
  cuda_on_cpu::Uncommitted.clear();
}
/// Makes every committed group but the \p Newest last ones.
inline void __pipeline_wait_prior(size_t Newest) {
  auto &Groups = cuda_on_cpu::Committed;
  while (Groups.size() > Newest) {
    for (const cuda_on_cpu::PendingCopy &C : Groups.front())
      std::memcpy(C.Dst, C.Src, C.Bytes);
    Groups.erase(Groups.begin());
  }
}

namespace cuda_on_cpu {
inline thread_local dim3 blockIdx, threadIdx;
/// A kernel's dynamic shared memory (launchTogether's \p Shared bytes).
inline std::vector<unsigned char> DynamicShared;
/// Where the kernels' 32-bit shared-window addresses count from
/// (stencil/cuda/shared_copy.cuh): DynamicShared's start unless a harness
/// keeps the shared memory elsewhere and says so here.
inline unsigned char *SharedWindow = nullptr;
} // namespace cuda_on_cpu

// stencil/cuda/shared_copy.cuh: an address is the offset from the window, a
// copy one of __pipeline_memcpy_async's.
namespace stencil::cuda {
inline unsigned char *sharedWindow() {
  return cuda_on_cpu::SharedWindow ? cuda_on_cpu::SharedWindow
                                   : cuda_on_cpu::DynamicShared.data();
}
inline unsigned sharedAddress(const void *P) {
  const auto *Byte = static_cast<const unsigned char *>(P);
  const unsigned char *Base = sharedWindow();
  if (!Base || Byte < Base || Byte - Base > 0xffffffffLL) {
    std::printf("FAIL: %p is not in the shared memory at %p\n", P,
                static_cast<const void *>(Base));
    std::exit(1);
  }
  return static_cast<unsigned>(Byte - Base);
}
template <typename T> void copyToShared(unsigned To, const T *From) {
  __pipeline_memcpy_async(sharedWindow() + To, From, sizeof(T));
}
} // namespace stencil::cuda

namespace cuda_on_cpu {
inline dim3 blockDim;
/// What l2CacheBytes() says: 0 sends the blocks plane by plane, 1 down the
/// columns wherever a group reads along z.
inline long long L2 = 0;
inline long long Launches = 0, Staged = 0;

/// One CUDA thread of a block run together: its context and stack, its
/// index and its asynchronous copies (the calling thread's while it runs).
struct Fiber {
  ucontext_t Context;
  char *Stack = nullptr; ///< Above a guard page; never freed.
  dim3 Index;
  std::vector<std::vector<PendingCopy>> Committed;
  std::vector<PendingCopy> Uncommitted;
  bool Done = false;
};
/// Each fiber's stack: the kernels' locals are registers' worth. A page
/// below it faults on an overflow.
constexpr size_t FiberStack = 256 * 1024;
inline char *newFiberStack() {
  const size_t Page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void *M = mmap(nullptr, FiberStack + Page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (M == MAP_FAILED || mprotect(M, Page, PROT_NONE) != 0) {
    std::printf("FAIL: no memory for a fiber's stack\n");
    std::exit(1);
  }
  return static_cast<char *>(M) + Page;
}

/// The threads of the block launchTogether runs, in turn on the calling
/// thread; the fiber running; where a fiber returns to at a barrier.
/// Never destroyed: a kernel may exit from a fiber's stack.
inline std::vector<std::unique_ptr<Fiber>> &Fibers =
    *new std::vector<std::unique_ptr<Fiber>>;
inline Fiber *Running = nullptr;
inline ucontext_t Scheduler;
inline const std::function<void()> *TogetherKernel = nullptr;
/// What the threads bring to the barrier they are at (__syncthreads_or),
/// and what the last one they met at says.
inline bool Brought = false, Met = false;

inline void runFiber() {
  (*TogetherKernel)();
  Running->Done = true; // returns to Scheduler (uc_link)
}

/// Runs \p F until its next barrier or its end, as the calling thread.
inline void resume(Fiber &F) {
  threadIdx = F.Index;
  Committed.swap(F.Committed);
  Uncommitted.swap(F.Uncommitted);
  Running = &F;
  swapcontext(&Scheduler, &F.Context);
  Running = nullptr;
  Committed.swap(F.Committed);
  Uncommitted.swap(F.Uncommitted);
}

/// A barrier: back to the scheduler until every thread of the block is
/// here; then whether any brought true.
inline int syncThreadsOr(bool Value) {
  if (!Running) {
    std::printf("FAIL: __syncthreads() in a kernel not launched together\n");
    std::exit(1);
  }
  Brought |= Value;
  swapcontext(&Running->Context, &Scheduler);
  return Met;
}
inline void syncThreads() { syncThreadsOr(false); }

/// Exits on a grid or block the GPU would refuse; counts the launch.
inline void checkLaunch(const dim3 &Grid, const dim3 &Threads) {
  if (Grid.y > 65535 || Grid.z > 65535 || Threads.z > 64 ||
      1ull * Threads.x * Threads.y * Threads.z > 1024) {
    std::printf("FAIL: launch of grid %u x %u x %u, block %u x %u x %u\n",
                Grid.x, Grid.y, Grid.z, Threads.x, Threads.y, Threads.z);
    std::exit(1);
  }
  ++Launches;
  blockDim = Threads;
}

/// Whether the blocks run last first: a block that stores a point another
/// block owns goes unseen where the owner runs after it.
inline bool ReverseBlocks = false;

/// Calls \p Body(block) for each block of \p Grid in turn.
template <typename Body> void eachBlock(const dim3 &Grid, Body &&B) {
  const unsigned long long N = 1ull * Grid.x * Grid.y * Grid.z;
  for (unsigned long long I = 0; I < N; ++I) {
    const unsigned long long K = ReverseBlocks ? N - 1 - I : I;
    B(dim3(K % Grid.x, K / Grid.x % Grid.y, K / (1ull * Grid.x * Grid.y)));
  }
}

/// Runs \p Kernel for each thread of each block of \p Grid, one by one.
inline void launch(const dim3 &Grid, const dim3 &Threads,
                   const std::function<void()> &Kernel) {
  checkLaunch(Grid, Threads);
  eachBlock(Grid, [&](const dim3 &B) {
    blockIdx = B;
    for (threadIdx.z = 0; threadIdx.z < Threads.z; ++threadIdx.z)
      for (threadIdx.y = 0; threadIdx.y < Threads.y; ++threadIdx.y)
        for (threadIdx.x = 0; threadIdx.x < Threads.x; ++threadIdx.x)
          Kernel();
  });
}

/// Runs \p Kernel with a fiber per CUDA thread of a block, the blocks of
/// \p Grid one after another: a kernel whose threads wait for each other;
/// \p Shared bytes of dynamic shared memory, poisoned for each block.
/// Exits where some threads of a block end while others wait at a barrier
/// (a GPU would wait for ever or not at all).
inline void launchTogether(const dim3 &Grid, const dim3 &Threads,
                           const std::function<void()> &Kernel,
                           size_t Shared = 0) {
  checkLaunch(Grid, Threads);
  if (TogetherKernel) {
    std::printf("FAIL: a launch from inside a kernel launched together\n");
    std::exit(1);
  }
  ++Staged;
  const unsigned N = Threads.x * Threads.y * Threads.z;
  while (Fibers.size() < N) {
    Fibers.push_back(std::make_unique<Fiber>());
    Fibers.back()->Stack = newFiberStack();
  }
  TogetherKernel = &Kernel;
  const dim3 CallerThread = threadIdx, CallerBlock = blockIdx;
  unsigned long long Number = 0; // the block's, in the order run
  eachBlock(Grid, [&](const dim3 &Each) {
    blockIdx = Each;
    DynamicShared.assign(Shared, 0xff);
    for (unsigned T = 0; T < N; ++T) {
      Fiber &F = *Fibers[T];
      F.Index = dim3(T % Threads.x, T / Threads.x % Threads.y,
                     T / (Threads.x * Threads.y));
      F.Done = false;
      getcontext(&F.Context);
      F.Context.uc_stack.ss_sp = F.Stack;
      F.Context.uc_stack.ss_size = FiberStack;
      F.Context.uc_link = &Scheduler;
      makecontext(&F.Context, runFiber, 0);
    }
    // Each round takes every thread to its next barrier, first to last
    // or last to first, the other way round from one block (and launch)
    // to the next: a thread that reads what another writes before they
    // meet reads it unwritten in one block or another.
    const unsigned long long First = Number++ + Staged;
    for (unsigned Round = 0;; ++Round) {
      unsigned Waiting = 0;
      for (unsigned I = 0; I < N; ++I) {
        Fiber &F = *Fibers[(Round + First) % 2 ? N - 1 - I : I];
        if (!F.Done) {
          resume(F);
          Waiting += !F.Done;
        }
      }
      if (Waiting == 0)
        break;
      if (Waiting != N) {
        std::printf("FAIL: block (%u, %u, %u): %u of %u threads at a "
                    "barrier, the others ended\n",
                    Each.x, Each.y, Each.z, Waiting, N);
        std::exit(1);
      }
      Met = Brought;
      Brought = false;
    }
    // Copies never waited for land nowhere, as a block's end leaves them
    // on the GPU.
    for (unsigned T = 0; T < N; ++T) {
      Fibers[T]->Committed.clear();
      Fibers[T]->Uncommitted.clear();
    }
  });
  TogetherKernel = nullptr;
  threadIdx = CallerThread;
  blockIdx = CallerBlock;
}

/// A step the extracted kernels serve: its function, as registered, its
/// CUDA group launcher and how many fused groups its plan has (launcher
/// groups 0 to Groups - 1; alternatives after them).
struct StepEntry {
  const void *Key;
  stencil::GeneratedStepGroupFn Group;
  int Groups;
};
/// The extracted kernels' steps (defined by them); \p Count set.
const StepEntry *steps(int &Count);

/// The extracted entry of step function \p Key, or null.
inline const StepEntry *entryOf(const void *Key) {
  int N = 0;
  const StepEntry *S = steps(N);
  for (int I = 0; I < N; ++I)
    if (S[I].Key == Key)
      return &S[I];
  return nullptr;
}

/// The CUDA group launcher extracted for step function \p Key, or null.
inline stencil::GeneratedStepGroupFn groupsOf(const void *Key) {
  const StepEntry *S = entryOf(Key);
  return S ? S->Group : nullptr;
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
