// stencil/temporal_tuning.hpp - what the auto-tuner tries for a time loop
// on one GPU (DeviceAutoTuningLoopEngine::repeat): steps one at a time with
// the stencil's tuned configuration, or stencilc's passes of 2 to 8 steps at
// a few tiles and chunks, pruned by tile, threads and registers before any
// timing; the fastest few timed again, the lowest median per step kept, in
// the tuning cache file too (key:
// the steps' own with "<stencil> passes" and the candidates' count; choice
// "steps 1" or "passes T BX BY CHUNK"; docs/tuning.md, "Time loops").
#ifndef STENCIL_TEMPORAL_TUNING_HPP
#define STENCIL_TEMPORAL_TUNING_HPP

#include <stencil/choice_cache.hpp>
#include <stencil/generated.hpp>
#include <stencil/temporal_passes.hpp>
#include <stencil/tuning_online_search.hpp>
#include <stencil/tuning_search_space.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stencil::tuning {

/// The most steps per pass the tuner tries in \p Dims dimensions: beyond,
/// the recomputed halo (2 * steps * reach on every side of a tile) outgrows
/// what the pass saves. 8 in 3-D, where it grows on two sides of a 32 x 32
/// tile; 12 in 2-D, on one of a row of 256 (on an H100 j2d5pt's passes of 9
/// to 11 steps ran 5% faster than those of 8: docs/performance.md).
inline constexpr int mostTunedSteps(int Dims) { return Dims == 2 ? 12 : 8; }

/// A pass's kernel resources for (bx, by, steps) (GeneratedTemporal::query),
/// null when unknown.
using TemporalQuery =
    std::function<const char *(int Bx, int By, int Steps, KernelAttributes *)>;

/// "T steps, bx x by, chunk c" (or "one step at a time").
inline std::string temporalText(const TemporalConfig &C) {
  if (C.steps <= 1)
    return "one step at a time";
  return std::to_string(C.steps) + " steps per pass, tile " +
         std::to_string(C.block[0]) + "x" + std::to_string(C.block[1]) +
         ", chunk " + std::to_string(C.block[2]);
}

/// The tiles (bx, by) the tuner tries: the plan's (GeneratedTemporal::tiles,
/// compiled with constant extents), or its default tile where it lists none.
inline std::vector<std::array<int, 2>>
temporalTiles(const GeneratedTemporal &T) {
  std::vector<std::array<int, 2>> Tiles;
  for (int I = 0; I < T.tileCount && I < 4; ++I)
    Tiles.push_back({T.tiles[I][0], T.tiles[I][1]});
  if (Tiles.empty())
    Tiles.push_back({T.defaultBlock[0], T.defaultBlock[1]});
  return Tiles;
}

/// A chunk as many over \p March planes as \p Chunk but the last about half
/// as long as the others (2 * March / (2n - 1) for n chunks), where n is 2
/// to 8 and stays n; else 0. Where a pass's blocks start chunk by chunk (z the
/// grid's slowest index; not a CUDA guarantee), the last chunk's blocks are
/// the ones that spill into a last, partial wave, and shorter ones end it
/// sooner: that is how we read the numbers, not measured. On an H200 the box's
/// 2-step pass at 512^3 (32 x 32 tiles) ran at 391.7 GCells/s with 4 chunks of
/// 128, 401.4 with 3 of 146 and one of 74 (docs/performance.md, "Chunks ending
/// short").
inline int chunkEndingShort(long long March, int Chunk) {
  if (Chunk < 1)
    return 0;
  const long long N = March <= 0 ? 0 : (March - 1) / Chunk + 1;
  if (N < 2 || N > 8)
    return 0;
  const long long Short = (2 * March + 2 * N - 2) / (2 * N - 1);
  // Rounded up, a few planes over few chunks may leave one chunk fewer.
  if ((March + Short - 1) / Short != N || Short > 2147483647LL)
    return 0;
  return static_cast<int>(Short);
}

/// The configurations worth timing for passes of \p T over \p Box (\p Dims
/// dimensions): first one step at a time (steps 1), then for 2 to
/// min(maxSteps, mostTunedSteps(Dims)) steps the plan's tiles
/// (temporalTiles) and chunk, half and twice the chunk, and each of those
/// three as many chunks ending short (chunkEndingShort). Pruned, with the count
/// per reason in \p Pruned: a tile that the steps' recomputed halo leaves
/// empty, a chunk longer than twice the marching extent, and what \p Query says
/// exceeds \p L (threads, registers). Shared memory beyond what a block may opt
/// in to is left to the launch, which refuses it by name.
inline std::vector<TemporalConfig>
temporalCandidates(const GeneratedTemporal &T, int Dims, const Region &Box,
                   const TemporalQuery &Query, const DeviceLimits &L,
                   std::map<std::string, int> *Pruned) {
  std::vector<TemporalConfig> Out(1);
  Out[0].steps = 1;
  const int M = Dims - 1; // the marching dimension
  const long long March = Box.hi[M] - Box.lo[M];
  const int Chunk = T.defaultBlock[2];
  const std::vector<std::array<int, 2>> Tiles = temporalTiles(T);
  std::vector<int> Chunks = {Chunk};
  if (Chunk >= 2)
    Chunks.push_back(Chunk / 2);
  Chunks.push_back(2 * Chunk);
  for (std::size_t I = 0, N = Chunks.size(); I < N; ++I) {
    const int Short = chunkEndingShort(March, Chunks[I]);
    if (Short > 0 &&
        std::find(Chunks.begin(), Chunks.end(), Short) == Chunks.end())
      Chunks.push_back(Short);
  }
  auto Prune = [&](const char *Why) {
    if (Pruned)
      ++(*Pruned)[Why];
  };
  const int Most = std::min(T.maxSteps, mostTunedSteps(Dims));
  for (int Steps = 2; Steps <= Most; ++Steps)
    for (const auto &[X, Y] : Tiles)
      for (int C : Chunks) {
        TemporalConfig Cfg;
        Cfg.steps = Steps;
        Cfg.block[0] = X;
        Cfg.block[1] = Y;
        Cfg.block[2] = C;
        if (X - Steps * (T.reach[0][0] + T.reach[0][1]) <= 0 ||
            (Dims == 3 && Y - Steps * (T.reach[1][0] + T.reach[1][1]) <= 0)) {
          Prune("tile left empty by the steps' recomputed halo");
          continue;
        }
        if (C > 1 && C >= 2 * March) {
          Prune("chunk longer than the region");
          continue;
        }
        KernelAttributes A;
        if (Query && !Query(X, Y, Steps, &A)) {
          const int Threads = A.threads > 0 ? A.threads : X * Y;
          if (Threads > L.maxThreadsPerBlock ||
              (A.maxThreadsPerBlock > 0 && Threads > A.maxThreadsPerBlock)) {
            Prune("more threads than the kernel can launch");
            continue;
          }
          if (blockRegisters(A.registers, Threads) > L.registersPerBlock) {
            Prune("more registers than a multiprocessor has");
            continue;
          }
        }
        Out.push_back(Cfg);
      }
  return Out;
}

/// The indices of the \p Most fastest of \p Times that ran (finite), fastest
/// first, ties in index order: the candidates timed again. One trial of a
/// few milliseconds each picks among passes a few percent apart by chance
/// (on an H200 the f32 star's passes of 2, 3 and 4 steps lie within 4%, and
/// the choice among them varied from run to run: docs/performance.md).
inline std::vector<std::size_t>
temporalFinalists(const std::vector<double> &Times, int Most) {
  std::vector<std::size_t> Ranked;
  for (std::size_t I = 0; I < Times.size(); ++I)
    if (std::isfinite(Times[I]))
      Ranked.push_back(I);
  std::stable_sort(
      Ranked.begin(), Ranked.end(),
      [&](std::size_t A, std::size_t B) { return Times[A] < Times[B]; });
  Ranked.resize(std::min<std::size_t>(
      Ranked.size(), static_cast<std::size_t>(std::max(Most, 1))));
  return Ranked;
}

/// Times the finalists of \p Timings (by candidate, each holding its first
/// timing; temporalFinalists of those, \p Most of them) \p Repeats more
/// times each, appending \p Time(index)'s result, and returns the index of
/// the lowest median among them (the first finalist on a tie). Timing each
/// again in turn, not back to back, spreads a slow spell of the machine
/// over all of them. \p Timings must hold a candidate that ran.
template <typename TimeF>
std::size_t fastestOfFinalists(std::vector<std::vector<double>> &Timings,
                               int Most, int Repeats, TimeF &&Time) {
  std::vector<double> First;
  for (const std::vector<double> &T : Timings)
    First.push_back(T.empty() ? INFINITY : T.front());
  const std::vector<std::size_t> Finalists = temporalFinalists(First, Most);
  for (int R = 0; R < Repeats; ++R)
    for (std::size_t I : Finalists)
      Timings[I].push_back(Time(I));
  std::size_t Fastest = Finalists.empty() ? 0 : Finalists.front();
  for (std::size_t I : Finalists)
    if (median(Timings[I]) < median(Timings[Fastest]))
      Fastest = I;
  return Fastest;
}

/// The cache key of \p E's time loop over the region of the steps' tuning
/// key \p Steps, choosing among \p Candidates configurations.
inline CacheKey passesChoiceKey(const GeneratedStencil &E,
                                const CacheKey &Steps, std::size_t Candidates) {
  CacheKey K = Steps;
  K.stencil = std::string(E.name) + " passes";
  K.variants = std::to_string(Candidates) + " candidates";
  return K;
}

/// The choice kept for that key in the cache at \p Path, if any.
inline std::optional<TemporalConfig> lookupPassesChoice(const std::string &Path,
                                                        const CacheKey &Key) {
  const std::optional<std::string> Hit = stencil::detail::lookupChoice(Path, Key);
  TemporalConfig C;
  C.steps = 1;
  if (Hit && *Hit == "steps 1")
    return C;
  if (Hit &&
      std::sscanf(Hit->c_str(), "passes %d %d %d %d", &C.steps, &C.block[0],
                  &C.block[1], &C.block[2]) == 4 &&
      C.steps > 1 && C.block[0] > 0 && C.block[1] > 0 && C.block[2] > 0)
    return C;
  return std::nullopt;
}

/// Keeps \p C (\p Ms per step, after \p Runs timed loops) for that key in
/// the cache at \p Path; a failure is a warning.
inline void storePassesChoice(const std::string &Path, const CacheKey &Key,
                              const TemporalConfig &C, double Ms, int Runs) {
  stencil::detail::storeChoice(Path, Key,
                      C.steps <= 1 ? std::string("steps 1")
                                   : "passes " + std::to_string(C.steps) +
                                         " " + std::to_string(C.block[0]) +
                                         " " + std::to_string(C.block[1]) +
                                         " " + std::to_string(C.block[2]),
                      Ms, Runs);
}

} // namespace stencil::tuning

#endif // STENCIL_TEMPORAL_TUNING_HPP
