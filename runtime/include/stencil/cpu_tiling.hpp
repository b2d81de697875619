// stencil/cpu_tiling.hpp - how the OpenMP code of a 3-D or 4-D stencil
// blocks its region for the cache.
//
// A z step of the 7-point stencil reads the planes z-1, z and z+1. Walking
// whole planes, a 256x256 f64 plane is 512 KiB: by the time z+1 is read
// again as z-1, two planes of input and two of output have passed, which is
// more than a core's L2 cache holds, so it comes from memory a second time.
// The generated loops instead cut the region's (y, z) extent into y tiles
// and z chunks: each thread marches the planes of its blocks, one tile of
// rows at a time, and a tile's rows fit in half the L2 cache. The sizes are
// chosen here, at run time, because they depend on the region, the thread
// count and the cache; stencilc's plan supplies the bytes a row of a tile
// keeps in the cache and the halo a block reads beyond itself.
//
// The choice: tiles no taller than the cache allows; blocks (tiles x chunks
// x the outer extent in 4-D) a multiple of the thread count where the
// region allows, so every thread gets the same work; among those, the fewest
// extra rows and planes read at block edges. STENCIL_OPENMP_TILE=Y,Z forces
// a tile height and chunk length (for experiments and tests).
#ifndef STENCIL_CPU_TILING_HPP
#define STENCIL_CPU_TILING_HPP

#include <stencil/generated.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

namespace stencil {

/// A region's blocks: tilesY tiles of tileY rows by chunksZ chunks of chunkZ
/// planes (the last of each may be shorter).
struct CpuTiles {
  long long tileY = 0, chunkZ = 0;
  long long tilesY = 0, chunksZ = 0;
  long long loY = 0, hiY = 0, loZ = 0, hiZ = 0;

  long long yBegin(long long T) const { return loY + T * tileY; }
  long long yEnd(long long T) const {
    return yBegin(T) + tileY < hiY ? yBegin(T) + tileY : hiY;
  }
  long long zBegin(long long C) const { return loZ + C * chunkZ; }
  long long zEnd(long long C) const {
    return zBegin(C) + chunkZ < hiZ ? zBegin(C) + chunkZ : hiZ;
  }
};

namespace detail {

inline long long gcd(long long A, long long B) {
  while (B != 0) {
    const long long T = A % B;
    A = B;
    B = T;
  }
  return A;
}

/// Bytes of one core's L2 cache; 1 MiB when the system does not say.
inline long long l2CacheBytes() {
  static const long long Bytes = [] {
#if defined(_SC_LEVEL2_CACHE_SIZE)
    const long Sys = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (Sys > 0)
      return static_cast<long long>(Sys);
#endif
    std::ifstream In("/sys/devices/system/cpu/cpu0/cache/index2/size");
    long long N = 0;
    char Unit = 0;
    if (In >> N && N > 0) {
      In >> Unit;
      return N * (Unit == 'K' ? 1024LL : Unit == 'M' ? 1024LL * 1024 : 1LL);
    }
    return 1024LL * 1024;
  }();
  return Bytes;
}

/// STENCIL_OPENMP_TILE=Y,Z as {Y, Z}; {0, 0} when unset or not two positive
/// numbers.
inline void forcedTile(long long &Y, long long &Z) {
  Y = Z = 0;
  const char *Env = std::getenv("STENCIL_OPENMP_TILE");
  if (!Env)
    return;
  char *End = nullptr;
  const long long A = std::strtoll(Env, &End, 10);
  if (End == Env || *End != ',')
    return;
  const char *Second = End + 1;
  const long long B = std::strtoll(Second, &End, 10);
  if (End == Second || *End != '\0' || A <= 0 || B <= 0)
    return;
  Y = A;
  Z = B;
}

/// The choice described at the top of this file, for Ny x Nz points with
/// \p Outer blocks of them (the 4-D extent; 1 in 3-D), rows of \p Nx points
/// keeping \p RowBytes bytes per point in cache, \p Threads threads and a
/// budget of \p CacheBytes.
inline CpuTiles chooseTiles(long long Nx, long long Ny, long long Nz,
                            long long Outer, long long RowBytes,
                            long long HaloY, long long HaloZ, int Threads,
                            long long CacheBytes) {
  CpuTiles T;
  if (Nx <= 0 || Ny <= 0 || Nz <= 0 || Outer <= 0)
    return T;
  const long long Th = Threads > 0 ? Threads : 1;
  // Rows of a tile that fit the budget (at least one).
  const long long PerRow = (RowBytes > 0 ? RowBytes : 1) * Nx;
  const long long MaxY = PerRow > CacheBytes ? 1 : CacheBytes / PerRow;
  const long long MinTiles = (Ny + MaxY - 1) / MaxY;
  double BestCost = 0;
  long long BestY = Ny, BestZ = Nz;
  for (long long Tiles = MinTiles; Tiles <= Ny && Tiles <= MinTiles + 2 * Th;
       ++Tiles) {
    const long long Y = (Ny + Tiles - 1) / Tiles;
    const long long Ty = (Ny + Y - 1) / Y;
    // Chunks that make the blocks a multiple of the threads.
    long long Cz = Th / gcd(Ty * Outer % Th, Th);
    if (Cz > Nz)
      Cz = Nz;
    const long long Z = (Nz + Cz - 1) / Cz;
    Cz = (Nz + Z - 1) / Z;
    const double Blocks = double(Ty) * Cz * Outer;
    const double Rounds =
        static_cast<double>(static_cast<long long>((Blocks + Th - 1) / Th));
    const double Balance = Blocks / (Rounds * Th);
    const double Extra = double(HaloY) * Ty / Ny + double(HaloZ) * Cz / Nz;
    const double Cost = (1 + Extra) / (Balance < 1 ? Balance : 1);
    if (Tiles == MinTiles || Cost < BestCost) {
      BestCost = Cost;
      BestY = Y;
      BestZ = Z;
    }
  }
  T.tileY = BestY;
  T.chunkZ = BestZ;
  T.tilesY = (Ny + BestY - 1) / BestY;
  T.chunksZ = (Nz + BestZ - 1) / BestZ;
  return T;
}

} // namespace detail

/// The blocks of region \p R (y = dimension 1, z = dimension 2; dimension 3,
/// if any, is the outer extent) for the generated OpenMP loops of a stencil
/// whose plan gives \p RowBytes, \p HaloY and \p HaloZ, run by \p Threads.
inline CpuTiles cpuTiles(const Region &R, int Dims, long long RowBytes,
                         long long HaloY, long long HaloZ, int Threads) {
  const long long Outer = Dims >= 4 ? R.hi[3] - R.lo[3] : 1;
  long long Y = 0, Z = 0;
  detail::forcedTile(Y, Z);
  CpuTiles T;
  const long long Nx = R.hi[0] - R.lo[0], Ny = R.hi[1] - R.lo[1],
                  Nz = R.hi[2] - R.lo[2];
  if (Y > 0 && Nx > 0 && Ny > 0 && Nz > 0 && Outer > 0) {
    // A tile longer than the region is the region (and Ny + Y - 1 cannot
    // overflow: a forced 2^63 - 1 made no tiles, and nothing ran).
    T.tileY = std::min(Y, Ny);
    T.chunkZ = std::min(Z, Nz);
    T.tilesY = (Ny + T.tileY - 1) / T.tileY;
    T.chunksZ = (Nz + T.chunkZ - 1) / T.chunkZ;
  } else {
    T = detail::chooseTiles(Nx, Ny, Nz, Outer, RowBytes, HaloY, HaloZ, Threads,
                            detail::l2CacheBytes() / 2);
  }
  T.loY = R.lo[1];
  T.hiY = R.hi[1];
  T.loZ = R.lo[2];
  T.hiZ = R.hi[2];
  return T;
}

} // namespace stencil

#endif // STENCIL_CPU_TILING_HPP
