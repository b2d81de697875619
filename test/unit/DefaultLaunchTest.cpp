//===- DefaultLaunchTest.cpp - What the fixed CUDA engine launches --------===//
///
/// \file
/// DeviceLoopEngine launches the variant stencilc's plan marked
/// (GeneratedStencil::defaultBlock) with that block, narrowed to thin
/// regions; a block the user sets runs the grid variant with it; code
/// without a mark runs the grid variant at (64, 4, 1). Entries are
/// registered by hand with launchers that record what they were asked.
///
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <stencil/generated_engine.hpp>
#include <stencil/index.hpp>
#include <string>

namespace dl {
struct Marked {
  void operator()(const stencil::Index3D &, const float *, float *) const {}
};
struct Unmarked {
  void operator()(const stencil::Index3D &, const float *, float *) const {}
};
struct Summed {
  void operator()(const stencil::Index3D &, const float *, float *) const {}
};
struct Staged {
  void operator()(const stencil::Index3D &, const float *, float *) const {}
};
} // namespace dl

namespace {
std::string LastVariant;
int LastBlock[3];

template <const char *Variant>
const char *record(const stencil::Grid &, const stencil::Region &,
                   const stencil::LaunchConfig &C, void *const *) {
  LastVariant = Variant;
  for (int D = 0; D < 3; ++D)
    LastBlock[D] = C.block[D];
  return nullptr;
}
constexpr char Grid[] = "grid", ZMarch2[] = "zmarch2", ZSum[] = "zsum",
               ZSum4[] = "zsum4";

stencil::GeneratedStencil entry(const char *TypeKey, const char *Variant,
                                stencil::GeneratedLaunchFn Launch, int MarchDim,
                                int B0, int B1, int B2) {
  return {"dl::S",
          "s.cpp:1",
          TypeKey,
          nullptr,
          stencil::Backend::Cuda,
          3,
          &typeid(void(const float *, float *)),
          Launch,
          Variant,
          {},
          false,
          "00000000000000dd",
          0,
          0,
          nullptr,
          MarchDim,
          nullptr,
          {B0, B1, B2}};
}

[[maybe_unused]] const bool Registered = [] {
  const char *M = typeid(dl::Marked).name();
  stencil::registerGenerated(stencil::GeneratedAbiVersion,
                             entry(M, "grid", &record<Grid>, -1, 0, 0, 0));
  stencil::registerGenerated(
      stencil::GeneratedAbiVersion,
      entry(M, "zmarch2", &record<ZMarch2>, 2, 128, 2, 4));
  const char *U = typeid(dl::Unmarked).name();
  stencil::registerGenerated(stencil::GeneratedAbiVersion,
                             entry(U, "grid", &record<Grid>, -1, 0, 0, 0));
  stencil::registerGenerated(stencil::GeneratedAbiVersion,
                             entry(U, "zmarch2", &record<ZMarch2>, 2, 0, 0, 0));
  const char *P = typeid(dl::Summed).name();
  stencil::registerGenerated(stencil::GeneratedAbiVersion,
                             entry(P, "grid", &record<Grid>, -1, 0, 0, 0));
  stencil::registerGenerated(stencil::GeneratedAbiVersion,
                             entry(P, "zsum", &record<ZSum>, 2, 128, 4, 8));
  const char *Q = typeid(dl::Staged).name();
  stencil::registerGenerated(stencil::GeneratedAbiVersion,
                             entry(Q, "grid", &record<Grid>, -1, 0, 0, 0));
  stencil::registerGenerated(stencil::GeneratedAbiVersion,
                             entry(Q, "zsum4", &record<ZSum4>, 2, 256, 2, 32));
  return true;
}();

/// Runs \p S with DeviceLoopEngine3D over an interior of Nx x Ny x Nz.
template <typename S>
void run(S Stencil, int Nx, int Ny, int Nz, const int *Block = nullptr) {
  stencil::LoopRange R[3] = {stencil::makeLoopRange(Nx + 2, 1, 1, 'x'),
                             stencil::makeLoopRange(Ny + 2, 1, 1, 'y'),
                             stencil::makeLoopRange(Nz + 2, 1, 1, 'z')};
  stencil::DeviceLoopEngine3D E(R);
  if (Block)
    for (int D = 0; D < 3; ++D)
      E.Config.block[D] = Block[D];
  float In = 0, Out = 0;
  E(Stencil, &In, &Out);
}
} // namespace

TEST(DefaultLaunch, PlannedVariantAndBlock) {
  run(dl::Marked(), 512, 512, 512);
  EXPECT_EQ(LastVariant, "zmarch2");
  EXPECT_EQ(LastBlock[0], 128);
  EXPECT_EQ(LastBlock[1], 2);
  EXPECT_EQ(LastBlock[2], 4);
}

TEST(DefaultLaunch, ThinInXKeepsTheThreadCount) {
  run(dl::Marked(), 16, 512, 512);
  EXPECT_EQ(LastVariant, "zmarch2");
  EXPECT_EQ(LastBlock[0], 16);
  EXPECT_EQ(LastBlock[1], 16);
  EXPECT_EQ(LastBlock[2], 4);
}

// zsum's two points a thread in y halve the rows a thin region needs.
TEST(DefaultLaunch, ThinInXTwoPointsAThreadInY) {
  run(dl::Summed(), 16, 10, 512);
  EXPECT_EQ(LastVariant, "zsum");
  EXPECT_EQ(LastBlock[0], 16);
  EXPECT_EQ(LastBlock[1], 8);
  EXPECT_EQ(LastBlock[2], 8);
}

// zsum4's four points a thread: 10 rows are 3 a column of threads, so a
// block 16 wide gets 4 rows of threads, not 16.
TEST(DefaultLaunch, ThinInXFourPointsAThreadInY) {
  run(dl::Staged(), 16, 10, 512);
  EXPECT_EQ(LastVariant, "zsum4");
  EXPECT_EQ(LastBlock[0], 16);
  EXPECT_EQ(LastBlock[1], 4);
  EXPECT_EQ(LastBlock[2], 32);
  run(dl::Staged(), 512, 512, 512);
  EXPECT_EQ(LastBlock[0], 256);
  EXPECT_EQ(LastBlock[1], 2);
}

TEST(DefaultLaunch, NarrowerThanSixteenRunsTheGrid) {
  run(dl::Marked(), 8, 512, 512);
  EXPECT_EQ(LastVariant, "grid");
  EXPECT_EQ(LastBlock[0], 8);
  EXPECT_EQ(LastBlock[1], 32);
  EXPECT_EQ(LastBlock[2], 1);
  run(dl::Marked(), 5, 6, 512);
  EXPECT_EQ(LastVariant, "grid");
  EXPECT_EQ(LastBlock[0], 8);
  EXPECT_EQ(LastBlock[2], 1);
  // Code from an older stencilc (no mark) keeps the fallback block.
  run(dl::Unmarked(), 8, 512, 512);
  EXPECT_EQ(LastVariant, "grid");
  EXPECT_EQ(LastBlock[0], 64);
}

TEST(DefaultLaunch, ChunkAtMostTheMarchingExtent) {
  run(dl::Marked(), 512, 512, 3);
  EXPECT_EQ(LastVariant, "zmarch2");
  EXPECT_EQ(LastBlock[0], 128);
  EXPECT_EQ(LastBlock[2], 3);
}

TEST(DefaultLaunch, FewChunksOverALargePlaneBecomeOne) {
  run(dl::Marked(), 512, 512, 16); // 4 chunks of 4, 262144 points a plane
  EXPECT_EQ(LastVariant, "zmarch2");
  EXPECT_EQ(LastBlock[2], 16);
  run(dl::Marked(), 512, 512, 17); // more than 4 chunks
  EXPECT_EQ(LastBlock[2], 4);
  run(dl::Marked(), 256, 256, 16); // a plane of 65536 points: keeps chunks
  EXPECT_EQ(LastBlock[2], 4);
}

TEST(DefaultLaunch, UserBlockRunsTheGridVariant) {
  const int Block[3] = {32, 8, 1};
  run(dl::Marked(), 512, 512, 512, Block);
  EXPECT_EQ(LastVariant, "grid");
  EXPECT_EQ(LastBlock[0], 32);
  EXPECT_EQ(LastBlock[1], 8);
}

TEST(DefaultLaunch, UnmarkedCodeRunsTheGridAt64x4x1) {
  run(dl::Unmarked(), 512, 512, 512);
  EXPECT_EQ(LastVariant, "grid");
  EXPECT_EQ(LastBlock[0], 64);
  EXPECT_EQ(LastBlock[1], 4);
  EXPECT_EQ(LastBlock[2], 1);
}
