// fibers.cpp - the harness that runs CUDA kernels on the CPU
// (../common/cuda_on_cpu.hpp) checked on itself: a block's threads meet at
// each barrier (every thread sees the others' writes before it, in both
// orders of the rounds), __syncthreads_or says whether any thread brought
// true, and a kernel where some threads end while others wait at a barrier
// is refused.
//   cuda_on_cpu_fibers           the checks above; exit 0
//   cuda_on_cpu_fibers --diverge a kernel whose thread 0 ends early: FAIL
#include "../common/cuda_on_cpu.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

namespace {
int Failures = 0;
void expect(bool Ok, const char *What) {
  if (!Ok) {
    std::printf("FAIL: %s\n", What);
    ++Failures;
  }
}
} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "--diverge") == 0) {
    cuda_on_cpu::launchTogether(dim3(1), dim3(4), [] {
      if (threadIdx.x == 0)
        return;
      __syncthreads();
    });
    std::printf("diverging threads not refused\n");
    return 0;
  }
  // Each thread writes its slot, meets the others, then reads every slot:
  // all written, in every block and every round's order.
  constexpr unsigned Threads = 37, Blocks = 5, Rounds = 4;
  std::vector<int> Slots(Threads), Seen(Blocks * Threads * Rounds, -1);
  std::vector<int> Any(Blocks * Threads * Rounds, -1);
  cuda_on_cpu::launchTogether(dim3(Blocks), dim3(Threads), [&] {
    for (unsigned R = 0; R < Rounds; ++R) {
      Slots[threadIdx.x] = int(blockIdx.x * 1000 + R);
      __syncthreads();
      int Sum = 0;
      for (unsigned T = 0; T < Threads; ++T)
        Sum += Slots[T] == int(blockIdx.x * 1000 + R);
      const unsigned At = (blockIdx.x * Rounds + R) * Threads + threadIdx.x;
      Seen[At] = Sum;
      // Only thread R brings true, and only in odd rounds.
      Any[At] = __syncthreads_or(R % 2 == 1 && threadIdx.x == R);
    }
  });
  for (unsigned I = 0; I < Seen.size(); ++I) {
    const unsigned R = I / Threads % Rounds;
    expect(Seen[I] == int(Threads), "a thread read a slot before its write");
    expect(Any[I] == int(R % 2 == 1), "__syncthreads_or's value");
  }
  std::printf("%s: %zu threads' reads checked\n", Failures ? "FAIL" : "PASS",
              Seen.size());
  return Failures ? 1 : 0;
}
