//===- TemporalTuningTest.cpp - The auto-tuner's time loops without a GPU -===//
///
/// \file
/// DeviceAutoTuningLoopEngine::repeat and temporal_tuning.hpp over fake
/// device operations (host memory) and fake generated code: a 3-D 7-point
/// star whose step and passes compute on the host and take a set time
/// (passes cheap for one stencil, dear for the other; for a third, cheap
/// only in passes of 4 steps, which need too many registers). Checked: the
/// choice between steps one at a time and passes, the pruning (tile, registers,
/// a pass the launch refuses), the cache, the report, and that both arrays
/// and pointers end bit for bit as after the steps one by one (the trials
/// run on copies).
///
//===----------------------------------------------------------------------===//
#include <stencil/autotuning_engine.hpp>
#include <stencil/index.hpp>
#include <stencil/loop.hpp>
#include <stencil/temporal_tuning.hpp>

#include "TempDir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace stencil;

namespace {

struct CheapPasses {
  void operator()(const Index<3> &, const float *, float *) const {}
};
struct DearPasses {
  void operator()(const Index<3> &, const float *, float *) const {}
};
struct LengthPasses {
  void operator()(const Index<3> &, const float *, float *) const {}
};
struct SameMarginPasses {
  void operator()(const Index<3> &, const float *, float *) const {}
};
struct SlowStartPasses {
  void operator()(const Index<3> &, const float *, float *) const {}
};

constexpr int Nx = 20, Ny = 14, Nz = 12; // margin 1 on every side

/// Busy for \p Ms milliseconds: a kernel's time on the fake GPU.
void spend(double Ms) {
  const auto End = std::chrono::steady_clock::now() +
                   std::chrono::duration<double, std::milli>(Ms);
  while (std::chrono::steady_clock::now() < End) {
  }
}

std::size_t at(long long I, long long J, long long K) {
  return static_cast<std::size_t>(I + Nx * (J + Ny * K));
}

/// One step of the star over \p R, \p In to \p Out (the host reference's
/// arithmetic and the fake kernels' alike).
void step(const float *In, float *Out, const Region &R) {
  for (long long K = R.lo[2]; K < R.hi[2]; ++K)
    for (long long J = R.lo[1]; J < R.hi[1]; ++J)
      for (long long I = R.lo[0]; I < R.hi[0]; ++I)
        Out[at(I, J, K)] =
            0.4f * In[at(I, J, K)] +
            0.1f * (In[at(I - 1, J, K)] + In[at(I + 1, J, K)] +
                    In[at(I, J - 1, K)] + In[at(I, J + 1, K)] +
                    In[at(I, J, K - 1)] + In[at(I, J, K + 1)]);
}

bool inRegion(std::size_t C, const Region &R) {
  const long long I = C % Nx, J = C / Nx % Ny, K = C / (Nx * Ny);
  return I >= R.lo[0] && I < R.hi[0] && J >= R.lo[1] && J < R.hi[1] &&
         K >= R.lo[2] && K < R.hi[2];
}

template <int StepUs>
const char *stepLaunch(const Grid &, const Region &R, const LaunchConfig &,
                       void *const *Args) {
  step(*static_cast<const float *const *>(Args[0]),
       *static_cast<float *const *>(Args[1]), R);
  spend(StepUs / 1000.0);
  return nullptr;
}

/// A pass as the ABI says: level l's margin from Margins[l % 2], only level
/// Steps written, inside Store. Chunk 16 is refused as the real launcher
/// refuses rings too big for a block.
/// The pass's time a step: \p UsPerStep, or for LengthPasses by the steps
/// the pass takes (UsPerStep 0): ten times apart, more than a loaded host's
/// preemptions add to a short launch.
double passUs(int UsPerStep, int Steps) {
  if (UsPerStep > 0)
    return UsPerStep;
  return Steps == 2 ? 500 : Steps == 4 ? 100 : 5000;
}

/// The input each pass configuration (steps, tile, chunk) first ran on, as
/// the bits of the whole array: the trials must start every candidate from
/// the same state.
std::map<std::array<long long, 4>, std::vector<float>> FirstInputs;
/// The steps of each pass launched, in order.
std::vector<int> PassSteps;

/// A pass taking \p UsPerStep a step.
const char *runPass(double UsPerStep, const Region &R, const Region &Store,
                    const LaunchConfig &C, int Steps,
                    const void *const *Margins, void *const *Args) {
  if (C.block[2] == 16)
    return "the rings of this many steps and this tile need more shared "
           "memory than a block of this GPU has";
  const float *A = *static_cast<const float *const *>(Args[0]);
  float *B = *static_cast<float *const *>(Args[1]);
  const std::size_t N = static_cast<std::size_t>(Nx) * Ny * Nz;
  PassSteps.push_back(Steps);
  FirstInputs.emplace(
      std::array<long long, 4>{Steps, C.block[0], C.block[1], C.block[2]},
      std::vector<float>(A, A + N));
  std::vector<float> Cur(static_cast<const float *>(Margins[0]),
                         static_cast<const float *>(Margins[0]) + N);
  for (std::size_t I = 0; I < N; ++I)
    if (inRegion(I, R))
      Cur[I] = A[I];
  for (int L = 1; L <= Steps; ++L) {
    std::vector<float> Next(static_cast<const float *>(Margins[L % 2]),
                            static_cast<const float *>(Margins[L % 2]) + N);
    step(Cur.data(), Next.data(), R);
    Cur.swap(Next);
  }
  for (std::size_t I = 0; I < N; ++I)
    if (inRegion(I, Store))
      B[I] = Cur[I];
  spend(UsPerStep / 1000.0 * Steps);
  return nullptr;
}

template <int UsPerStep>
const char *passLaunch(const Grid &, const Region &R, const Region &Store,
                       const LaunchConfig &C, int Steps,
                       const void *const *Margins, void *const *Args) {
  return runPass(passUs(UsPerStep, Steps), R, Store, C, Steps, Margins, Args);
}

/// Launches of each pass configuration (steps, tile, chunk) so far.
std::map<std::array<long long, 4>, int> PassLaunches;
/// SlowStartPasses: at chunk 8, passes of tile 16 x 16 take 1.5 ms a step
/// in their first two loops (the warm-up and the first timing, as on a GPU
/// busy elsewhere for a moment), 0.3 ms after; those of tile 32 x 8 1 ms
/// always; other chunks 3 ms.
const char *slowStartPass(const Grid &, const Region &R, const Region &Store,
                          const LaunchConfig &C, int Steps,
                          const void *const *Margins, void *const *Args) {
  const int Launched =
      PassLaunches[{Steps, C.block[0], C.block[1], C.block[2]}]++;
  // A trial loop of 2-step passes: its steps but the last, in passes.
  const long long PerLoop =
      (detail::trialSteps(2, 2 * tuning::mostTunedSteps(3) + 1) - 1) / 2;
  const double Us = C.block[2] != 8          ? 3000
                    : C.block[0] == 32       ? 1000
                    : Launched < 2 * PerLoop ? 1500
                                             : 300;
  return runPass(Us, R, Store, C, Steps, Margins, Args);
}

const char *stepQuery(int, int, KernelAttributes *Out) {
  Out->registers = 32;
  Out->maxThreadsPerBlock = 1024;
  return nullptr;
}
/// Passes of 3 steps need 200 registers a thread: more than the fake GPU's
/// 16384 a block for any tile of 128 threads.
const char *passQuery(int, int, int Steps, KernelAttributes *Out) {
  Out->registers = Steps == 3 ? 200 : 40;
  Out->maxThreadsPerBlock = 1024;
  return nullptr;
}
/// LengthPasses: passes of 3 and 4 steps need 200 registers.
const char *lengthQuery(int, int, int Steps, KernelAttributes *Out) {
  Out->registers = Steps == 3 || Steps == 4 ? 200 : 40;
  Out->maxThreadsPerBlock = 1024;
  return nullptr;
}

int fakeCount() { return 1; }
const char *fakeAllocate(void **P, std::size_t Bytes) {
  *P = std::malloc(Bytes);
  return *P ? nullptr : "out of memory";
}
const char *fakeRelease(void *P) {
  std::free(P);
  return nullptr;
}
const char *fakeCopy(void *To, const void *From, std::size_t Bytes) {
  std::memcpy(To, From, Bytes);
  return nullptr;
}
const char *fakeSynchronize() { return nullptr; }
const char *fakeName(char *Buf, std::size_t Size) {
  std::snprintf(Buf, Size, "fake GPU");
  return nullptr;
}
const char *fakeEventCreate(void **E) {
  static int Storage[1024];
  static int Next = 0;
  *E = &Storage[Next++ % 1024];
  return nullptr;
}
const char *fakeEventDestroy(void *) { return nullptr; }
const char *fakeEventRecord(void *, void *) { return nullptr; }
const char *fakeElapsed(float *Ms, void *, void *) {
  *Ms = 1.0f;
  return nullptr;
}
const char *fakeLimits(int *Threads, int *Registers, long long *Shared) {
  *Threads = 1024;
  *Registers = 16384;
  *Shared = 48 * 1024;
  return nullptr;
}

const unsigned Axes[] = {7u, 7u};

/// SameMarginPasses: whether each pass got its input as both levels'
/// margins, in launch order.
std::vector<bool> InputAsMargins;
/// The generated sameMargins: the bits of the points outside R one step
/// reads (reach 1), on the host.
const char *sameMarginsOnHost(const Grid &, const Region &R, const void *A,
                              const void *B, void *, bool *Same) {
  const Region Read{{R.lo[0] - 1, R.lo[1] - 1, R.lo[2] - 1, 0},
                    {R.hi[0] + 1, R.hi[1] + 1, R.hi[2] + 1, 1}};
  *Same = true;
  for (std::size_t I = 0; I < std::size_t(Nx) * Ny * Nz; ++I)
    if (inRegion(I, Read) && !inRegion(I, R) &&
        std::memcmp(static_cast<const float *>(A) + I,
                    static_cast<const float *>(B) + I, sizeof(float)) != 0)
      *Same = false;
  return nullptr;
}
const char *recordingPass(const Grid &G, const Region &R, const Region &Store,
                          const LaunchConfig &C, int Steps,
                          const void *const *Margins, void *const *Args) {
  const void *In = *static_cast<const float *const *>(Args[0]);
  InputAsMargins.push_back(Margins[0] == In && Margins[1] == In);
  return passLaunch<100>(G, R, Store, C, Steps, Margins, Args);
}

/// Passes of up to \p MaxSteps, default tile 16 x \p By, chunk 8; the
/// tuner's tiles that and 32 x \p By / 2.
template <typename StencilT>
void registerFake(const char *Name, const char *IrHash, GeneratedLaunchFn Step,
                  GeneratedTemporalFn Pass,
                  GeneratedTemporalQueryFn Query = passQuery, int MaxSteps = 3,
                  int By = 8, GeneratedSameMarginsFn SameMargins = nullptr) {
  GeneratedStencil E{};
  E.name = Name;
  E.source = "fake.cu:1";
  E.typeKey = typeid(StencilT).name();
  E.backend = Backend::Cuda;
  E.dims = 3;
  E.signature = &typeid(void(const float *, float *));
  E.launch = Step;
  E.variant = "grid";
  for (int D = 0; D < 3; ++D)
    E.halo[D][0] = E.halo[D][1] = 1;
  E.irHash = IrHash;
  E.query = stepQuery;
  E.marchDim = -1;
  E.unit = "fake.cu";
  E.arrayAxes = Axes;
  registerGenerated(GeneratedAbiVersion, E);
  GeneratedTemporal T{};
  T.name = Name;
  T.source = "fake.cu:1";
  T.typeKey = E.typeKey;
  T.backend = Backend::Cuda;
  T.dims = 3;
  T.signature = E.signature;
  T.launch = Pass;
  T.query = Query;
  T.timeInput = 0;
  T.timeOutput = 1;
  for (int D = 0; D < 3; ++D)
    T.reach[D][0] = T.reach[D][1] = 1;
  T.maxSteps = MaxSteps;
  T.defaultSteps = 1;
  T.defaultBlock[0] = 16;
  T.defaultBlock[1] = By;
  T.defaultBlock[2] = 8;
  // The plan's tiles: the default and one twice as wide, half as high.
  T.tiles[0][0] = 16;
  T.tiles[0][1] = By;
  T.tiles[1][0] = 32;
  T.tiles[1][1] = By / 2;
  T.tileCount = 2;
  T.irHash = IrHash;
  T.unit = "fake.cu";
  T.sameMargins = SameMargins;
  registerGeneratedTemporal(GeneratedAbiVersion, T);
}

const bool Registered = [] {
  static const DeviceOps Ops = {
      fakeCount,      fakeAllocate,     fakeRelease,     fakeCopy,
      fakeCopy,       fakeSynchronize,  fakeName,        fakeEventCreate,
      fakeEventDestroy, fakeEventRecord, fakeElapsed,    fakeLimits,
      nullptr};
  registerDeviceOps(Ops);
  // One step 0.4 ms; passes 0.1 ms a step (they pay) or 3 ms (they do not).
  registerFake<CheapPasses>("fake::CheapPasses", "00000000000000c1",
                            stepLaunch<400>, passLaunch<100>);
  registerFake<DearPasses>("fake::DearPasses", "00000000000000c2",
                           stepLaunch<400>, passLaunch<3000>);
  // One step 8 ms; passes of 2 steps 0.5 ms a step, of 4 steps 0.1 ms (3
  // and 4 pruned: too many registers), of 5 and 6 steps 5 ms.
  registerFake<LengthPasses>("fake::LengthPasses", "00000000000000c3",
                             stepLaunch<8000>, passLaunch<0>, lengthQuery, 6,
                             16);
  registerFake<SameMarginPasses>("fake::SameMarginPasses", "00000000000000c4",
                                 stepLaunch<400>, recordingPass, passQuery, 3,
                                 8, sameMarginsOnHost);
  registerFake<SlowStartPasses>("fake::SlowStartPasses", "00000000000000c5",
                                stepLaunch<8000>, slowStartPass, passQuery, 3,
                                16);
  return true;
}();

/// Two levels: random-ish region, margins that differ between them (or,
/// with \p SameMargins, B's margin A's).
struct Levels {
  std::vector<float> A, B;
  explicit Levels(bool SameMargins = false) : A(Nx * Ny * Nz), B(Nx * Ny * Nz) {
    const Region R{{1, 1, 1, 0}, {Nx - 1, Ny - 1, Nz - 1, 1}};
    for (std::size_t I = 0; I < A.size(); ++I) {
      A[I] = 1.0f + static_cast<float>((I * 7919) % 101) / 101.0f;
      B[I] = SameMargins && !inRegion(I, R)
                 ? A[I]
                 : 3.0f + static_cast<float>((I * 104729) % 89) / 89.0f;
    }
  }
};

constexpr long long Steps = 40;

/// The steps one by one on the host: the last level and the one before.
Levels reference(bool SameMargins = false) {
  Levels L(SameMargins);
  float *P = L.A.data(), *Q = L.B.data();
  const Region R{{1, 1, 1, 0}, {Nx - 1, Ny - 1, Nz - 1, 1}};
  for (long long S = 0; S < Steps; ++S) {
    step(P, Q, R);
    std::swap(P, Q);
  }
  if (P != L.A.data())
    L.A.swap(L.B); // A: the last level
  return L;
}

/// Both levels bit for bit the reference's.
void expectReference(const Levels &Got, bool SameMargins = false) {
  const Levels Want = reference(SameMargins);
  EXPECT_EQ(Got.A, Want.A);
  EXPECT_EQ(Got.B, Want.B);
}

/// Runs the time loop with \p Info; the last level and the one before.
template <typename StencilT>
Levels tunedLoop(DeviceAutoTuningInfo &Info, bool SameMargins = false) {
  Levels L(SameMargins);
  float *P = L.A.data(), *Q = L.B.data();
  Loop3D<DeviceAutoTuningLoopEngine3D> Loop(Nx, 1, 1, Ny, 1, 1, Nz, 1, 1);
  Loop.repeat(Steps, StencilT(), &Info, stencil::previousLevel(P),
              stencil::nextLevel(Q));
  EXPECT_NE(P, Q);
  Levels Out;
  Out.A.assign(P, P + L.A.size());
  Out.B.assign(Q, Q + L.B.size());
  return Out;
}

void quick(DeviceAutoTuningInfo &Info, const std::string &Cache) {
  Info.search.maxCalls = 3;
  Info.search.finalists = 1;
  Info.search.finalRepeats = 1;
  Info.progress.quiet = true;
  Info.useCache = !Cache.empty();
  Info.cachePath = Cache;
}

TEST(TemporalTuning, CandidatesArePrunedByTileAndRegisters) {
  ASSERT_TRUE(Registered);
  const GeneratedStencil *E = findGenerated(Backend::Cuda, typeid(CheapPasses));
  ASSERT_NE(E, nullptr);
  const GeneratedTemporal *T = findGeneratedTemporal(*E, 0, 1);
  ASSERT_NE(T, nullptr);
  tuning::DeviceLimits L;
  L.registersPerBlock = 16384;
  std::map<std::string, int> Pruned;
  const Region Box{{1, 1, 1, 0}, {Nx - 1, Ny - 1, Nz - 1, 1}};
  const std::vector<TemporalConfig> C =
      tuning::temporalCandidates(*T, 3, Box, passQuery, L, &Pruned);
  // One step at a time first; then 2 steps, tile 16x8 (32x4 is left empty
  // by the recomputed halo), chunks 8, 4, 16 and 7 (8's two chunks of 10
  // planes ending short; 4's three end short already, 16 is one);
  // 3 steps pruned by registers.
  ASSERT_EQ(C.size(), 5u);
  EXPECT_EQ(C[0].steps, 1);
  for (std::size_t I = 1; I < C.size(); ++I) {
    EXPECT_EQ(C[I].steps, 2);
    EXPECT_EQ(C[I].block[0], 16);
    EXPECT_EQ(C[I].block[1], 8);
  }
  EXPECT_EQ(C[1].block[2], 8);
  EXPECT_EQ(C[2].block[2], 4);
  EXPECT_EQ(C[3].block[2], 16);
  EXPECT_EQ(C[4].block[2], 7);
  EXPECT_EQ(Pruned["tile left empty by the steps' recomputed halo"], 8);
  EXPECT_EQ(Pruned["more registers than a multiprocessor has"], 4);
  // A chunk twice the marching extent or more only idles.
  const Region Thin{{1, 1, 1, 0}, {Nx - 1, Ny - 1, 5, 1}};
  Pruned.clear();
  const std::vector<TemporalConfig> D =
      tuning::temporalCandidates(*T, 3, Thin, nullptr, L, &Pruned);
  for (const TemporalConfig &X : D)
    EXPECT_LT(X.block[2], 8);
  EXPECT_EQ(Pruned["chunk longer than the region"], 4);
}

// A chunk ending short keeps the count of chunks and makes the last about
// half as long as the others; none where there are 1 or more than 8.
TEST(TemporalTuning, ChunksEndingShortKeepTheirCountAndHalveTheLast) {
  std::mt19937 Rng(7);
  for (int Trial = 0; Trial < 20000; ++Trial) {
    const long long March = 1 + Rng() % 5000;
    const int Chunk = 1 + static_cast<int>(Rng() % (Trial % 2 ? 64 : 3000));
    const long long N = (March + Chunk - 1) / Chunk;
    const int Short = tuning::chunkEndingShort(March, Chunk);
    if (N < 2 || N > 8) {
      EXPECT_EQ(Short, 0) << March << " " << Chunk;
      continue;
    }
    if (Short == 0) { // only where rounding up would leave a chunk fewer
      const long long Up = (2 * March + 2 * N - 2) / (2 * N - 1);
      EXPECT_LT((March + Up - 1) / Up, N) << March << " " << Chunk;
      continue;
    }
    EXPECT_EQ((March + Short - 1) / Short, N) << March << " " << Chunk;
    // The last chunk: at most half the others' length, rounded up, and
    // more than half less the chunks' count.
    const long long Last = March - (N - 1) * Short;
    EXPECT_LE(2 * Last, Short + 1) << March << " " << Chunk;
    EXPECT_GE(2 * Last + 2 * (N - 1), Short) << March << " " << Chunk;
  }
  EXPECT_EQ(tuning::chunkEndingShort(512, 128), 147);
  EXPECT_EQ(tuning::chunkEndingShort(512, 64), 69);
  EXPECT_EQ(tuning::chunkEndingShort(512, 32), 0);
  EXPECT_EQ(tuning::chunkEndingShort(512, 512), 0);
  EXPECT_EQ(tuning::chunkEndingShort(512, 0), 0);
  EXPECT_EQ(tuning::chunkEndingShort(0, 64), 0);
  EXPECT_EQ(tuning::chunkEndingShort(-5, 64), 0);
  EXPECT_EQ(tuning::chunkEndingShort(9223372036854775807LL, 2147483647), 0);
  EXPECT_EQ(tuning::chunkEndingShort(4000000000LL, 2000000000), 0); // no int
}

/// A 3-D stencil's passes of up to \p MaxSteps steps reaching one point
/// every way, their default tile (Bx, By) and chunk 64.
static GeneratedTemporal reachOne(int MaxSteps, int Bx, int By) {
  GeneratedTemporal T{};
  T.maxSteps = MaxSteps;
  for (int D = 0; D < 3; ++D)
    T.reach[D][0] = T.reach[D][1] = 1;
  T.defaultBlock[0] = Bx;
  T.defaultBlock[1] = By;
  T.defaultBlock[2] = 64;
  return T;
}

// The tuner tries the tiles the plan lists, in its order, each at every
// steps per pass; the default tile alone where the plan lists none.
TEST(TemporalTuning, CandidatesTakeThePlansTiles) {
  GeneratedTemporal T = reachOne(3, 32, 16);
  const Region Box{{1, 1, 1, 0}, {513, 513, 513, 1}};
  auto TilesTried = [&] {
    std::vector<std::array<int, 2>> Tried;
    for (const TemporalConfig &C :
         tuning::temporalCandidates(T, 3, Box, nullptr, {}, nullptr))
      if (C.steps == 3 && C.block[2] == 64)
        Tried.push_back({C.block[0], C.block[1]});
    return Tried;
  };
  EXPECT_EQ(TilesTried(), (std::vector<std::array<int, 2>>{{32, 16}}));
  const int Tiles[3][2] = {{32, 16}, {64, 8}, {32, 32}};
  for (int I = 0; I < 3; ++I) {
    T.tiles[I][0] = Tiles[I][0];
    T.tiles[I][1] = Tiles[I][1];
  }
  T.tileCount = 3;
  EXPECT_EQ(TilesTried(),
            (std::vector<std::array<int, 2>>{{32, 16}, {64, 8}, {32, 32}}));
}

// A tile of more points than a block has threads (64 x 32) is tried where
// the query says its pass has threads enough (a pass summed by planes, four
// points a thread: steps 2 and 3 here), and pruned where it says nothing of
// threads (one a point: the rings').
TEST(TemporalTuning, TilesOfMorePointsThanThreadsWhereThePassTakesThem) {
  GeneratedTemporal T = reachOne(5, 32, 32);
  T.tiles[0][0] = 32;
  T.tiles[0][1] = 32;
  T.tiles[1][0] = 64;
  T.tiles[1][1] = 32;
  T.tileCount = 2;
  const tuning::TemporalQuery Query = [](int Bx, int By, int Steps,
                                         KernelAttributes *Out) {
    const bool Planes = Steps <= 3 && Bx * By > 1024;
    Out->registers = 64;
    Out->maxThreadsPerBlock = Planes ? 512 : 1024;
    if (Planes)
      Out->threads = Bx * By / 4;
    return static_cast<const char *>(nullptr);
  };
  tuning::DeviceLimits L;
  L.maxThreadsPerBlock = 1024;
  L.registersPerBlock = 65536;
  std::map<std::string, int> Pruned;
  const Region Box{{1, 1, 1, 0}, {513, 513, 513, 1}};
  std::vector<int> WideSteps;
  for (const TemporalConfig &C :
       tuning::temporalCandidates(T, 3, Box, Query, L, &Pruned))
    if (C.block[0] == 64 && C.block[2] == 64)
      WideSteps.push_back(C.steps);
  EXPECT_EQ(WideSteps, (std::vector<int>{2, 3}));
  // 64 x 32 at 4 and 5 steps, at each of its five chunks (64, 32, 128, and
  // 69 and 147 ending short).
  EXPECT_EQ(Pruned["more threads than the kernel can launch"], 10);
}

// 2-D passes are tried up to 12 steps, 3-D ones up to 8, whatever more the
// plan compiled; every steps per pass in between is tried.
TEST(TemporalTuning, RowsAreTriedInLongerPassesThanPlanes) {
  GeneratedTemporal T{};
  T.maxSteps = 16;
  for (int D = 0; D < 3; ++D)
    T.reach[D][0] = T.reach[D][1] = 1;
  auto MostSteps = [&](int Dims) {
    const Region Box{{1, 1, 1, 0}, {4097, 4097, 4097, 1}};
    std::set<int> Steps;
    for (const TemporalConfig &C :
         tuning::temporalCandidates(T, Dims, Box, nullptr, {}, nullptr))
      Steps.insert(C.steps);
    EXPECT_EQ(static_cast<int>(Steps.size()), *Steps.rbegin()) << Dims;
    return *Steps.rbegin();
  };
  T.defaultBlock[0] = 256;
  T.defaultBlock[1] = 1;
  T.defaultBlock[2] = 128;
  EXPECT_EQ(MostSteps(2), 12);
  T.defaultBlock[0] = 64;
  T.defaultBlock[1] = 64;
  T.defaultBlock[2] = 64;
  EXPECT_EQ(MostSteps(3), 8);
  T.maxSteps = 5;
  EXPECT_EQ(MostSteps(2), 5);
}

TEST(TemporalTuning, PassesThatPayAreChosenAndExact) {
  ASSERT_TRUE(Registered);
  DeviceAutoTuningInfo Info;
  quick(Info, "");
  expectReference(tunedLoop<CheapPasses>(Info));
  ASSERT_NE(Info.chosenPasses(), nullptr);
  EXPECT_EQ(Info.chosenPasses()->steps, 2);
  EXPECT_NE(Info.chosenPasses()->block[2], 16); // refused at launch
  const std::string Report = Info.reportText();
  EXPECT_NE(Report.find("time loop of fake::CheapPasses: 2 steps per pass"),
            std::string::npos)
      << Report;
  EXPECT_NE(Report.find("(timed)"), std::string::npos) << Report;
  EXPECT_NE(Report.find("pruned 1: refused at launch: "), std::string::npos)
      << Report;
  EXPECT_NE(Report.find("the rings of this many steps"), std::string::npos)
      << Report;
  EXPECT_NE(Report.find("pruned 4: more registers"), std::string::npos)
      << Report;
  // A second loop takes the choice without timing again: still exact.
  expectReference(tunedLoop<CheapPasses>(Info));
}

/// A fresh tuner's (\p Info's) time loop of StencilT: exact, and it chose
/// \p Steps a pass.
template <typename StencilT>
void expectChosenSteps(DeviceAutoTuningInfo &Info, int Steps) {
  quick(Info, "");
  expectReference(tunedLoop<StencilT>(Info));
  ASSERT_NE(Info.chosenPasses(), nullptr);
  EXPECT_EQ(Info.chosenPasses()->steps, Steps) << Info.reportText();
}
template <typename StencilT> void expectChosenSteps(int Steps) {
  DeviceAutoTuningInfo Info;
  expectChosenSteps<StencilT>(Info, Steps);
}

// 40 steps at 2 a pass: the 39 before the last take an odd count of passes,
// so the schedule has 3 of one step, which run as steps (the stencil's
// single-step kernel, faster than a pass of one step), not as passes.
TEST(TemporalTuning, PassesOfOneStepRunAsSteps) {
  ASSERT_TRUE(Registered);
  DeviceAutoTuningInfo Info;
  expectChosenSteps<CheapPasses>(Info, 2);
  PassSteps.clear();
  expectReference(tunedLoop<CheapPasses>(Info));
  EXPECT_EQ(PassSteps, std::vector<int>(18, 2));
}

TEST(TemporalTuning, PassesThatDoNotPayAreNotChosen) {
  ASSERT_TRUE(Registered);
  expectChosenSteps<DearPasses>(1);
}

// Where the generated code compares the margins (GeneratedTemporal::
// sameMargins), a loop whose two levels hold the same margin hands every
// pass its input as both levels' margins (passes summed by planes need
// that); with different margins every pass gets each level's own.
TEST(TemporalTuning, PassesGetTheInputAsMarginsWhereTheMarginsAreTheSame) {
  ASSERT_TRUE(Registered);
  for (const bool Same : {true, false}) {
    InputAsMargins.clear();
    DeviceAutoTuningInfo Info;
    quick(Info, "");
    expectReference(tunedLoop<SameMarginPasses>(Info, Same), Same);
    ASSERT_NE(Info.chosenPasses(), nullptr);
    EXPECT_GT(Info.chosenPasses()->steps, 1) << Info.reportText();
    ASSERT_FALSE(InputAsMargins.empty());
    for (std::size_t I = 0; I < InputAsMargins.size(); ++I)
      EXPECT_EQ(InputAsMargins[I], Same) << "pass " << I;
  }
}

// A candidate of 5 or 6 steps a pass is timed in passes of 5 or 6 steps:
// trials of 17 steps would run them as passes of 4 (passSchedule evens 16
// steps out so), the cheap passes the registers ruled out, and choose 5.
TEST(TemporalTuning, EachCandidateIsTimedInPassesOfItsSteps) {
  ASSERT_TRUE(Registered);
  expectChosenSteps<LengthPasses>(2);
}

// Each candidate is timed from the levels' state, not from where the last
// candidate's trial left the copies: a field that decays (to denormals,
// where an IEEE division takes its slow path) would slow later ones down.
TEST(TemporalTuning, EachCandidateStartsFromTheLevelsState) {
  ASSERT_TRUE(Registered);
  FirstInputs.clear();
  DeviceAutoTuningInfo Info;
  quick(Info, "");
  expectReference(tunedLoop<CheapPasses>(Info));
  ASSERT_GE(FirstInputs.size(), 2u); // chunks 8, 4 and 7 (16 refused)
  const std::vector<float> &First = FirstInputs.begin()->second;
  for (const auto &[Config, Input] : FirstInputs)
    EXPECT_TRUE(Input == First)
        << Config[0] << " steps, chunk " << Config[3]
        << " started from another state than the first candidate";
}

// The fastest few of the first timings are timed again, in turn, and the
// lowest median wins; candidates that did not run are never finalists.
TEST(TemporalTuning, FinalistsAreTheFastestThatRan) {
  const double Inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(tuning::temporalFinalists({5, Inf, 1, 1.04, 3, 1.02}, 3),
            (std::vector<std::size_t>{2, 5, 3}));
  EXPECT_EQ(tuning::temporalFinalists({2, 1, 2}, 5),
            (std::vector<std::size_t>{1, 0, 2}));
  EXPECT_EQ(tuning::temporalFinalists({Inf, 4}, 0),
            (std::vector<std::size_t>{1})); // at least one
  EXPECT_TRUE(tuning::temporalFinalists({Inf, Inf}, 3).empty());

  // Candidate 1 first looked slower than 0 and 3; timed again it is the
  // fastest. Candidate 2 (not a finalist) is never timed again.
  std::vector<std::vector<double>> Timings = {{1.0}, {1.2}, {1.3}, {1.1}};
  const std::map<std::size_t, std::vector<double>> Again = {
      {0, {1.0, 1.0, 1.0}}, {1, {0.5, 0.6, 9.0}}, {3, {1.1, 0.4, 1.1}}};
  std::vector<std::size_t> Order;
  const std::size_t Fastest =
      tuning::fastestOfFinalists(Timings, 3, 3, [&](std::size_t I) {
        const std::size_t Nth =
            static_cast<std::size_t>(std::count(Order.begin(), Order.end(), I));
        Order.push_back(I);
        return Again.at(I).at(Nth);
      });
  EXPECT_EQ(Fastest, 1u);
  // In turn: each finalist once a round, fastest first.
  EXPECT_EQ(Order, (std::vector<std::size_t>{0, 3, 1, 0, 3, 1, 0, 3, 1}));
  EXPECT_EQ(Timings[1], (std::vector<double>{1.2, 0.5, 0.6, 9.0}));
  EXPECT_EQ(Timings[2], (std::vector<double>{1.3}));
  // Nothing ran but the candidates' first timings: no call, the first.
  std::vector<std::vector<double>> None = {{Inf}, {Inf}};
  int Calls = 0;
  EXPECT_EQ(tuning::fastestOfFinalists(None, 3, 3,
                                       [&](std::size_t) {
                                         ++Calls;
                                         return 1.0;
                                       }),
            0u);
  EXPECT_EQ(Calls, 0);
}

// A pass slow in its first timing (the GPU busy for a moment) but the
// fastest timed again is chosen; with one timing each the tuner kept the
// other tile.
TEST(TemporalTuning, TheFastestFewAreTimedAgain) {
  ASSERT_TRUE(Registered);
  PassLaunches.clear();
  DeviceAutoTuningInfo Info;
  quick(Info, "");
  Info.search.finalists = 2;
  Info.search.finalRepeats = 3;
  expectReference(tunedLoop<SlowStartPasses>(Info));
  ASSERT_NE(Info.chosenPasses(), nullptr);
  const TemporalConfig Chosen = *Info.chosenPasses();
  EXPECT_EQ(Chosen.steps, 2) << Info.reportText();
  EXPECT_EQ(Chosen.block[0], 16) << Info.reportText();
  EXPECT_EQ(Chosen.block[2], 8) << Info.reportText();
  // Both finalists timed three more times, in the report as medians.
  const std::string Report = Info.reportText();
  std::size_t Medians = 0;
  for (std::size_t At = Report.find("(median of 4)", Report.find("time loop"));
       At != std::string::npos; At = Report.find("(median of 4)", At + 1))
    ++Medians;
  EXPECT_EQ(Medians, 2u) << Report;
}

TEST(TemporalTuning, TheChoiceIsKeptInTheCacheFile) {
  ASSERT_TRUE(Registered);
  const stencil::test::ScratchDir Dir("temporal");
  const std::string Path = (Dir.path() / "tuning.json").string();
  TemporalConfig First;
  {
    DeviceAutoTuningInfo Info;
    quick(Info, Path);
    tunedLoop<CheapPasses>(Info);
    ASSERT_NE(Info.chosenPasses(), nullptr);
    First = *Info.chosenPasses();
  }
  DeviceAutoTuningInfo Later;
  quick(Later, Path);
  expectReference(tunedLoop<CheapPasses>(Later));
  ASSERT_NE(Later.chosenPasses(), nullptr);
  EXPECT_EQ(Later.chosenPasses()->steps, First.steps);
  EXPECT_EQ(Later.chosenPasses()->block[2], First.block[2]);
  EXPECT_NE(Later.reportText().find("(cache)"), std::string::npos)
      << Later.reportText();
  // The steps' own choice came from the cache too: nothing was timed.
  EXPECT_EQ(Later.tuningCalls(), 0);
}

// Odd calls: no steps change nothing and choose nothing; one array as both
// levels and a negative count are refused before anything runs.
TEST(TemporalTuning, OddCalls) {
  ASSERT_TRUE(Registered);
  DeviceAutoTuningInfo Info;
  quick(Info, "");
  Levels L;
  const Levels Before = L;
  float *P = L.A.data(), *Q = L.B.data();
  Loop3D<DeviceAutoTuningLoopEngine3D> Loop(Nx, 1, 1, Ny, 1, 1, Nz, 1, 1);
  Loop.repeat(0, CheapPasses(), &Info, stencil::previousLevel(P),
              stencil::nextLevel(Q));
  EXPECT_EQ(P, L.A.data());
  EXPECT_EQ(L.A, Before.A);
  EXPECT_EQ(L.B, Before.B);
  EXPECT_EQ(Info.chosenPasses(), nullptr);
  float *Same = L.A.data();
  EXPECT_THROW(Loop.repeat(3, CheapPasses(), &Info, stencil::previousLevel(P),
                           stencil::nextLevel(Same)),
               std::invalid_argument);
  EXPECT_THROW(Loop.repeat(-1, CheapPasses(), &Info, stencil::previousLevel(P),
                           stencil::nextLevel(Q)),
               std::invalid_argument);
  EXPECT_EQ(L.A, Before.A);
}

TEST(TemporalTuning, CacheTextRoundTrips) {
  const stencil::test::ScratchDir Dir("temporal-text");
  const std::string Path = (Dir.path() / "tuning.json").string();
  tuning::CacheKey K;
  K.gpu = "fake GPU";
  K.stencil = "s passes";
  K.irHash = "00000000000000c9";
  K.variants = "7 candidates";
  K.extents = "18x12x10";
  K.signature = "v";
  EXPECT_FALSE(tuning::lookupPassesChoice(Path, K).has_value());
  TemporalConfig C;
  C.steps = 3;
  C.block[0] = 64;
  C.block[1] = 16;
  C.block[2] = 128;
  tuning::storePassesChoice(Path, K, C, 0.5, 14);
  const std::optional<TemporalConfig> Back = tuning::lookupPassesChoice(Path, K);
  ASSERT_TRUE(Back.has_value());
  EXPECT_EQ(Back->steps, 3);
  EXPECT_EQ(Back->block[0], 64);
  EXPECT_EQ(Back->block[1], 16);
  EXPECT_EQ(Back->block[2], 128);
  C.steps = 1;
  tuning::storePassesChoice(Path, K, C, 0.7, 14);
  ASSERT_TRUE(tuning::lookupPassesChoice(Path, K).has_value());
  EXPECT_EQ(tuning::lookupPassesChoice(Path, K)->steps, 1);
}

} // namespace
