// stencil/tuning_search_space.hpp - what the auto-tuner may try: the launch
// parameters' values, and the candidates of a stencil's variants that are
// legal over a region on a device (pruned by extent, threads, registers,
// shared memory and grid limits before any timing). docs/tuning.md explains
// the choices.
#ifndef STENCIL_TUNING_SEARCH_SPACE_HPP
#define STENCIL_TUNING_SEARCH_SPACE_HPP

#include <stencil/generated.hpp>
#include <stencil/tuning_candidate.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace stencil::tuning {

/// What one device allows a block.
struct DeviceLimits {
  int maxThreadsPerBlock = 1024;
  int registersPerBlock = 65536;
  long long sharedPerBlock = 48 * 1024; ///< Without opting in to more.
};

/// One variant of the stencil as the tuner sees it: its name, whether it
/// marches, and its kernel's resources for a block shape (null: unknown).
struct VariantInfo {
  std::string name;
  bool marching = false;
  std::function<const char *(int Bx, int By, KernelAttributes *Out)> query;
};

/// The values each launch parameter takes (seed 000's Table 1 and more).
inline const std::vector<int> &bxValues() {
  static const std::vector<int> V = {4, 8, 16, 32, 64, 128, 256};
  return V;
}
/// by = 32 gives narrow blocks (bx <= 32) of thin slabs more rows.
inline const std::vector<int> &byValues() {
  static const std::vector<int> V = {1, 2, 4, 8, 16, 32};
  return V;
}
/// 1..64, then doubling while the marching extent needs it.
inline std::vector<int> chunkValues(long long MarchExtent) {
  std::vector<int> V = {1, 2, 4, 8, 16, 32, 64};
  while (V.back() < MarchExtent && V.back() < (1 << 20))
    V.push_back(V.back() * 2);
  return V;
}

/// Registers a block of \p Threads uses: allocated per warp in units of 256.
inline long long blockRegisters(int RegistersPerThread, int Threads) {
  long long PerWarp =
      (static_cast<long long>(RegistersPerThread) * 32 + 255) / 256 * 256;
  return PerWarp * ((Threads + 31) / 32);
}

/// Null if \p C may run over a region of \p Extent points per dimension
/// with attributes \p A; otherwise why not.
inline const char *illegalBecause(const Candidate &C, bool Marching, int Dims,
                                  const long long *Extent,
                                  const KernelAttributes &A,
                                  const DeviceLimits &L) {
  const int M = Dims - 1;
  // A block (or chunk) twice the region's size or more would only idle.
  if (C.bx >= 2 * Extent[0] && C.bx > 4)
    return "block wider than the region";
  bool YInBlock = Dims == 3 || !Marching;
  if (YInBlock ? (C.by >= 2 * Extent[1] && C.by > 1) : C.by != 1)
    return "block taller than the region";
  if (Marching ? (C.bz >= 2 * Extent[M] && C.bz > 1) : C.bz != 1)
    return "chunk longer than the region";
  const int Threads = C.bx * C.by;
  if (Threads > L.maxThreadsPerBlock ||
      (A.maxThreadsPerBlock > 0 && Threads > A.maxThreadsPerBlock))
    return "more threads than the kernel can launch";
  if (blockRegisters(A.registers, Threads) > L.registersPerBlock)
    return "more registers than a multiprocessor has";
  if (A.sharedBytes > L.sharedPerBlock)
    return "more shared memory than a block may have";
  // The launchers' grid limits (y and z at most 65535 blocks).
  long long Gy = Marching && Dims == 2 ? (Extent[1] + C.bz - 1) / C.bz
                                       : (Extent[1] + C.by - 1) / C.by;
  long long Gz = Dims == 3 ? (Extent[2] + C.bz - 1) / C.bz : 1;
  if (Gy > 65535 || Gz > 65535)
    return "too many blocks for one launch";
  return nullptr;
}

/// Every legal candidate of \p Variants over a region of \p Extent, in a
/// fixed order; \p Pruned (if given) counts the rest by reason.
inline std::vector<Candidate> enumerateCandidates(
    int Dims, const long long *Extent, const std::vector<VariantInfo> &Variants,
    const DeviceLimits &L, std::map<std::string, int> *Pruned = nullptr) {
  std::vector<Candidate> Out;
  for (const VariantInfo &V : Variants) {
    std::vector<int> Zs =
        V.marching ? chunkValues(Extent[Dims - 1]) : std::vector<int>{1};
    for (int Bx : bxValues())
      for (int By : byValues())
        for (int Bz : Zs) {
          Candidate C{V.name, Bx, By, Bz};
          KernelAttributes A;
          const char *Why = nullptr;
          if (V.query) {
            if (const char *Error = V.query(Bx, By, &A))
              Why = Error;
          }
          if (!Why)
            Why = illegalBecause(C, V.marching, Dims, Extent, A, L);
          if (Why) {
            if (Pruned)
              ++(*Pruned)[Why];
            continue;
          }
          Out.push_back(C);
        }
  }
  return Out;
}

} // namespace stencil::tuning

#endif // STENCIL_TUNING_SEARCH_SPACE_HPP
