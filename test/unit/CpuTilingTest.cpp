//===- CpuTilingTest.cpp - The OpenMP code's cache blocking ---------------===//
///
/// \file
/// stencil::cpuTiles cuts a region's (y, z) extent into blocks: on random
/// regions, thread counts and cache budgets the blocks cover every point
/// exactly once, tiles fit the budget where a row does, and the blocks are a
/// multiple of the threads where the region has enough rows and planes.
///
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <stencil/cpu_tiling.hpp>

#include <cstdlib>
#include <random>
#include <vector>

namespace {

stencil::Region region(long long X0, long long Nx, long long Y0, long long Ny, long long Z0,
                       long long Nz, long long Nw = 1) {
  stencil::Region R;
  R.lo[0] = X0, R.hi[0] = X0 + Nx;
  R.lo[1] = Y0, R.hi[1] = Y0 + Ny;
  R.lo[2] = Z0, R.hi[2] = Z0 + Nz;
  R.lo[3] = 0, R.hi[3] = Nw;
  return R;
}

/// Each (y, z) point of \p R in exactly one block of \p T.
void expectExactCover(const stencil::Region &R, const stencil::CpuTiles &T) {
  const long long Ny = R.hi[1] - R.lo[1], Nz = R.hi[2] - R.lo[2];
  std::vector<int> Seen(static_cast<size_t>(Ny * Nz), 0);
  for (long long C = 0; C < T.chunksZ; ++C)
    for (long long Y = 0; Y < T.tilesY; ++Y)
      for (long long K = T.zBegin(C); K < T.zEnd(C); ++K)
        for (long long J = T.yBegin(Y); J < T.yEnd(Y); ++J) {
          ASSERT_GE(J, R.lo[1]);
          ASSERT_LT(J, R.hi[1]);
          ASSERT_GE(K, R.lo[2]);
          ASSERT_LT(K, R.hi[2]);
          ++Seen[static_cast<size_t>((K - R.lo[2]) * Ny + (J - R.lo[1]))];
        }
  for (size_t I = 0; I < Seen.size(); ++I)
    ASSERT_EQ(Seen[I], 1) << "point " << I << " of " << Ny << " x " << Nz;
}

} // namespace

TEST(CpuTiling, RandomRegionsAreCoveredOnce) {
  unsetenv("STENCIL_OPENMP_TILE");
  std::mt19937_64 Rng(2026);
  auto Pick = [&](long long Lo, long long Hi) {
    return std::uniform_int_distribution<long long>(Lo, Hi)(Rng);
  };
  for (int Trial = 0; Trial < 3000; ++Trial) {
    const long long Nx = Pick(1, 300), Ny = Pick(1, 120), Nz = Pick(1, 120), Nw = Pick(1, 3);
    const int Threads = static_cast<int>(Pick(1, 64));
    const long long RowBytes = Pick(1, 200), Cache = Pick(1, 1 << 22);
    const long long HaloY = Pick(0, 8), HaloZ = Pick(0, 8);
    stencil::CpuTiles T = stencil::detail::chooseTiles(Nx, Ny, Nz, Nw, RowBytes, HaloY, HaloZ,
                                                       Threads, Cache);
    const stencil::Region R = region(Pick(-5, 5), Nx, Pick(-5, 5), Ny, Pick(-5, 5), Nz, Nw);
    T.loY = R.lo[1], T.hiY = R.hi[1], T.loZ = R.lo[2], T.hiZ = R.hi[2];
    ASSERT_GE(T.tileY, 1);
    ASSERT_GE(T.chunkZ, 1);
    expectExactCover(R, T);
    if (HasFailure())
      return;
    // A tile of several rows fits the budget.
    if (T.tileY > 1)
      EXPECT_LE(T.tileY * Nx * RowBytes, Cache) << Nx << " " << RowBytes << " " << Cache;
  }
}

TEST(CpuTiling, BlocksAreAMultipleOfTheThreads) {
  // 256^3 f32 7-point (16 bytes a row point kept), 16 threads, 1 MiB: every
  // thread one block, tiles within the budget.
  stencil::CpuTiles T = stencil::detail::chooseTiles(256, 256, 256, 1, 16, 2, 2, 16, 1 << 20);
  EXPECT_EQ(T.tilesY * T.chunksZ % 16, 0);
  EXPECT_LE(T.tileY * 256 * 16, 1 << 20);
  // f64 (32 bytes): the same, with shorter tiles where needed.
  T = stencil::detail::chooseTiles(256, 256, 256, 1, 32, 2, 2, 16, 1 << 20);
  EXPECT_EQ(T.tilesY * T.chunksZ % 16, 0);
  EXPECT_LE(T.tileY * 256 * 32, 1 << 20);
  // 4-D: the outer extent counts towards the blocks.
  T = stencil::detail::chooseTiles(64, 64, 64, 4, 16, 2, 2, 16, 1 << 20);
  EXPECT_EQ(T.tilesY * T.chunksZ * 4 % 16, 0);
  // One thread marches whole planes when they fit, in one block.
  T = stencil::detail::chooseTiles(64, 64, 64, 1, 16, 2, 2, 1, 1 << 20);
  EXPECT_EQ(T.tilesY, 1);
  EXPECT_EQ(T.chunksZ, 1);
}

TEST(CpuTiling, EmptyRegionHasNoBlocks) {
  unsetenv("STENCIL_OPENMP_TILE");
  for (const stencil::Region &R : {region(0, 0, 0, 8, 0, 8), region(0, 8, 0, 0, 0, 8),
                                   region(0, 8, 0, 8, 3, -1), region(0, 8, 0, 8, 0, 8, 0)}) {
    const stencil::CpuTiles T = stencil::cpuTiles(R, 4, 16, 2, 2, 4);
    EXPECT_EQ(T.tilesY * T.chunksZ, 0);
  }
}

TEST(CpuTiling, EnvironmentForcesTheTile) {
  setenv("STENCIL_OPENMP_TILE", "3,5", 1);
  const stencil::Region R = region(0, 10, 2, 10, 1, 11);
  stencil::CpuTiles T = stencil::cpuTiles(R, 3, 16, 2, 2, 4);
  EXPECT_EQ(T.tileY, 3);
  EXPECT_EQ(T.chunkZ, 5);
  EXPECT_EQ(T.tilesY, 4);
  EXPECT_EQ(T.chunksZ, 3);
  expectExactCover(R, T);
  // Longer than the region, up to past LLONG_MAX (strtoll's clamp): the
  // region, every point once (2^63 - 1 made no tiles, and nothing ran).
  for (const char *Long :
       {"9223372036854775807,1", "1,9223372036854775807",
        "99999999999999999999,99999999999999999999", "50,50"}) {
    setenv("STENCIL_OPENMP_TILE", Long, 1);
    T = stencil::cpuTiles(R, 3, 16, 2, 2, 4);
    EXPECT_GE(T.tilesY * T.chunksZ, 1) << Long;
    expectExactCover(R, T);
  }
  // Not two positive numbers: ignored.
  for (const char *Bad : {"3", "3,", ",5", "0,5", "3,-1", "3,5,7", "x,y"}) {
    setenv("STENCIL_OPENMP_TILE", Bad, 1);
    T = stencil::cpuTiles(R, 3, 16, 2, 2, 4);
    EXPECT_NE(T.tileY * 100 + T.chunkZ, 305) << Bad;
    expectExactCover(R, T);
  }
  unsetenv("STENCIL_OPENMP_TILE");
}
