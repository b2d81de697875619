// TuningTest.cpp - the auto-tuner without a GPU: candidate enumeration and
// pruning, the online search under a fake timer, forcing, and the engine
// itself over fake device operations and fake variants (with its cache
// file; the file alone is TuningCacheTest.cpp's).
#include "TempDir.h"

#include <stencil/autotuning_engine.hpp>
#include <stencil/index.hpp>
#include <stencil/tuning.hpp>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace stencil;
using namespace stencil::tuning;
using stencil::test::freshDir;

namespace {

KernelAttributes attrs(int Regs, long long Shared = 0) {
  KernelAttributes A;
  A.registers = Regs;
  A.maxThreadsPerBlock = 1024;
  A.sharedBytes = Shared;
  return A;
}

std::vector<VariantInfo> threeVariants(int Regs = 32) {
  auto Q = [Regs](int, int, KernelAttributes *Out) -> const char * {
    *Out = attrs(Regs);
    return nullptr;
  };
  auto Tile = [Regs](int Bx, int By, KernelAttributes *Out) -> const char * {
    *Out = attrs(Regs, (Bx + 2LL) * (By + 2) * 8);
    return nullptr;
  };
  return {{"grid", false, Q}, {"zmarch", true, Q}, {"smem", true, Tile}};
}

bool contains(const std::vector<Candidate> &All, const Candidate &C) {
  return std::find(All.begin(), All.end(), C) != All.end();
}

} // namespace

TEST(TuningCandidates, ContainsSeedTable1AndLargerChunks) {
  const long long Extent[3] = {512, 512, 512};
  auto All = enumerateCandidates(3, Extent, threeVariants(), DeviceLimits());
  for (int Bx : {4, 8, 16, 32, 64, 128})
    for (int By : {1, 2, 4, 8, 16})
      for (int Bz : {1, 2, 4, 8, 16})
        if (Bx * By <= 1024)
          EXPECT_TRUE(contains(All, {"zmarch", Bx, By, Bz})) << Bx << "," << By << "," << Bz;
  EXPECT_TRUE(contains(All, {"zmarch", 64, 4, 256}));
  EXPECT_TRUE(contains(All, {"zmarch", 64, 4, 512}));
  EXPECT_FALSE(contains(All, {"zmarch", 64, 4, 1024}));
  EXPECT_TRUE(contains(All, {"grid", 64, 4, 1}));
  EXPECT_FALSE(contains(All, {"grid", 64, 4, 2})) << "grid has no chunk";
}

TEST(TuningCandidates, PrunedByRegionRegistersAndSharedMemory) {
  const long long Slab[3] = {8, 512, 512};
  std::map<std::string, int> Pruned;
  auto All = enumerateCandidates(3, Slab, threeVariants(), DeviceLimits(), &Pruned);
  for (const Candidate &C : All)
    EXPECT_LE(C.bx, 8) << toString(C);
  EXPECT_GT(Pruned["block wider than the region"], 0);

  // 128 registers per thread: 512 threads at most (65536 registers).
  const long long Cube[3] = {512, 512, 512};
  All = enumerateCandidates(3, Cube, threeVariants(128), DeviceLimits());
  EXPECT_TRUE(contains(All, {"zmarch", 128, 4, 8}));
  EXPECT_FALSE(contains(All, {"zmarch", 256, 4, 8}));
  // Shared memory: (258 * 18 * 8) bytes > 32 KiB.
  DeviceLimits Small;
  Small.sharedPerBlock = 32 * 1024;
  All = enumerateCandidates(3, Cube, threeVariants(), Small);
  EXPECT_FALSE(contains(All, {"smem", 256, 16, 8}));
  EXPECT_TRUE(contains(All, {"zmarch", 256, 4, 8}));

  // 2-D marching variants use one-row blocks.
  const long long Plane[2] = {16384, 16384};
  All = enumerateCandidates(2, Plane, threeVariants(), DeviceLimits());
  EXPECT_TRUE(contains(All, {"zmarch", 128, 1, 16}));
  EXPECT_FALSE(contains(All, {"zmarch", 128, 2, 16}));
  EXPECT_TRUE(contains(All, {"grid", 128, 2, 1}));
}

/// A smooth cost with its minimum at zmarch:64,4,16 (slower elsewhere).
static double fakeCost(const Candidate &C) {
  double V = C.variant == "zmarch" ? 1.0 : C.variant == "smem" ? 1.3 : 2.0;
  return V *
         (1 + 0.1 * std::pow(std::log2(C.bx / 64.0), 2) + 0.1 * std::pow(std::log2(C.by / 4.0), 2) +
          0.05 * std::pow(std::log2(C.bz / 16.0), 2));
}

TEST(TuningSearch, SettlesWithin200CallsOnTheFastest) {
  const long long Extent[3] = {512, 512, 512};
  auto All = enumerateCandidates(3, Extent, threeVariants(), DeviceLimits());
  OnlineTuner T(All);
  int Calls = 0;
  while (!T.settled()) {
    const Candidate C = T.next();
    // The first launch of each variant pays for loading the kernel.
    T.record(fakeCost(C) + (Calls == 0 ? 100.0 : 0.0));
    ++Calls;
    ASSERT_LE(Calls, 200);
  }
  EXPECT_EQ(T.calls(), Calls);
  Candidate Best =
      *std::min_element(All.begin(), All.end(), [](const Candidate &A, const Candidate &B) {
        return fakeCost(A) < fakeCost(B);
      });
  EXPECT_EQ(toString(T.best()), toString(Best));
  EXPECT_EQ(toString(T.next()), toString(Best)) << "settled: the best runs";
}

/// Calls \p T until it settles (at most 1000), timed by fakeCost.
static int callsToSettle(OnlineTuner &T) {
  int Calls = 0;
  for (; !T.settled() && Calls < 1000; ++Calls)
    T.record(fakeCost(T.next()));
  return Calls;
}

TEST(TuningSearch, RespectsTheCallBudget) {
  const long long Extent[3] = {512, 512, 512};
  auto All = enumerateCandidates(3, Extent, threeVariants(), DeviceLimits());
  OnlineTuner::Options O;
  O.maxCalls = 40;
  OnlineTuner T(All, O);
  EXPECT_LE(callsToSettle(T), 40);
  EXPECT_TRUE(T.hasBest());
}

// A budget below the coarse pass (three variants, eight shapes each) still
// bounds the calls, warm-ups included, and still ends with a best.
TEST(TuningSearch, FewCallsCutTheCoarsePass) {
  const long long Extent[3] = {512, 512, 512};
  auto All = enumerateCandidates(3, Extent, threeVariants(), DeviceLimits());
  for (int Max : {3, 5, 9}) {
    OnlineTuner::Options O;
    O.maxCalls = Max;
    O.finalists = 1;
    O.finalRepeats = 1;
    OnlineTuner T(All, O);
    EXPECT_LE(callsToSettle(T), Max) << "maxCalls " << Max;
    EXPECT_TRUE(T.hasBest()) << "maxCalls " << Max;
  }
  // Budgets below a warm-up, one timing and the final stage: those calls,
  // whatever the numbers (no overflow), and a best.
  for (int Max : {0, -5, std::numeric_limits<int>::min()}) {
    OnlineTuner::Options O;
    O.maxCalls = Max;
    O.finalists = 1;
    O.finalRepeats = 1;
    OnlineTuner T(All, O);
    EXPECT_EQ(callsToSettle(T), 3) << "maxCalls " << Max;
    EXPECT_TRUE(T.hasBest()) << "maxCalls " << Max;
  }
}

TEST(TuningForce, ParsesVariantAndShape) {
  Candidate C;
  ASSERT_TRUE(parseCandidate("zmarch:64,4,8", &C));
  EXPECT_EQ(C.variant, "zmarch");
  EXPECT_EQ(C.bx, 64);
  EXPECT_EQ(C.by, 4);
  EXPECT_EQ(C.bz, 8);
  EXPECT_EQ(toString(C), "zmarch:64,4,8");
  for (const char *Bad : {"", "zmarch", "zmarch:64,4", ":1,2,3", "zmarch:64,4,8,1", "grid:0,1,1",
                          "grid:a,1,1", "grid:64,,1"})
    EXPECT_FALSE(parseCandidate(Bad, &C)) << Bad;
}

//===----------------------------------------------------------------------===//
// The engine over fake device operations and fake variants
//===----------------------------------------------------------------------===//

namespace {

struct FakeDevice {
  static inline LaunchConfig Last;
  static inline std::string LastVariant;
  static inline int Launches = 0;
};

template <int V>
const char *fakeLaunch(const Grid &, const Region &, const LaunchConfig &C, void *const *Args) {
  static const char *const Names[] = {"grid", "zmarch", "smem"};
  FakeDevice::Last = C;
  FakeDevice::LastVariant = Names[V];
  ++FakeDevice::Launches;
  // The stencil's one argument: a counter of points "computed".
  ++**static_cast<int *const *>(Args[0]);
  return nullptr;
}
const char *fakeQuery(int, int, KernelAttributes *Out) {
  *Out = attrs(32);
  return nullptr;
}

int fakeCount() { return 1; }
const char *fakeOk() { return nullptr; }
const char *fakeName(char *Buf, std::size_t Size) {
  std::snprintf(Buf, Size, "Fake GPU");
  return nullptr;
}
const char *fakeEventCreate(void **E) {
  static int Storage[64];
  static int Next = 0;
  *E = &Storage[Next++ % 64];
  return nullptr;
}
const char *fakeEventDestroy(void *) { return nullptr; }
const char *fakeEventRecord(void *, void *) { return nullptr; }
const char *fakeElapsed(float *Ms, void *, void *) {
  Candidate C{FakeDevice::LastVariant, FakeDevice::Last.block[0], FakeDevice::Last.block[1],
              FakeDevice::Last.block[2]};
  *Ms = static_cast<float>(fakeCost(C));
  return nullptr;
}
const char *fakeLimits(int *T, int *R, long long *S) {
  *T = 1024;
  *R = 65536;
  *S = 48 * 1024;
  return nullptr;
}

struct FakeStencil {
  void operator()(const stencil::Index<3> &, int *) const {}
};

const bool FakeRegistered = [] {
  static const DeviceOps Ops = {fakeCount,        nullptr,         nullptr,     nullptr,
                                nullptr,          fakeOk,          fakeName,    fakeEventCreate,
                                fakeEventDestroy, fakeEventRecord, fakeElapsed, fakeLimits};
  registerDeviceOps(Ops);
  GeneratedLaunchFn Launches[] = {fakeLaunch<0>, fakeLaunch<1>, fakeLaunch<2>};
  const char *Names[] = {"grid", "zmarch", "smem"};
  for (int V = 0; V < 3; ++V)
    registerGenerated(GeneratedAbiVersion, {"FakeStencil",
                                            "fake.cpp:1",
                                            typeid(FakeStencil).name(),
                                            nullptr,
                                            Backend::Cuda,
                                            3,
                                            &typeid(void(int *)),
                                            Launches[V],
                                            Names[V],
                                            {{1, 1}, {1, 1}, {1, 1}, {0, 0}},
                                            false,
                                            "00000000000000aa",
                                            13.0,
                                            8.0,
                                            fakeQuery,
                                            V == 0 ? -1 : 2});
  return true;
}();

} // namespace

class TuningEngine : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(FakeRegistered);
    Dir = freshDir("engine");
    setenv("STENCIL_TUNING_CACHE", (Dir / "cache.json").c_str(), 1);
    unsetenv("STENCIL_TUNING_FORCE");
  }
  void TearDown() override {
    unsetenv("STENCIL_TUNING_CACHE");
    unsetenv("STENCIL_TUNING_FORCE");
    std::filesystem::remove_all(Dir);
  }
  std::filesystem::path Dir;
};

TEST_F(TuningEngine, OnlineThenCachedThenForced) {
  Loop3D<DeviceAutoTuningLoopEngine3D> L(514, 1, 1, 514, 1, 1, 514, 1, 1);
  int Runs = 0;
  {
    DeviceAutoTuningInfo Info;
    int Calls = 0;
    while (!Info.settled()) {
      L.run(FakeStencil(), &Info, &Runs);
      ++Calls;
      ASSERT_LE(Calls, 200);
    }
    EXPECT_EQ(Runs, Calls) << "every call runs the stencil once";
    ASSERT_TRUE(Info.chosen());
    EXPECT_EQ(toString(*Info.chosen()), "zmarch:64,4,16");
    EXPECT_EQ(Info.source(), DeviceAutoTuningInfo::Source::Tuned);
    L.run(FakeStencil(), &Info, &Runs);
    EXPECT_EQ(FakeDevice::LastVariant, "zmarch");
    EXPECT_EQ(FakeDevice::Last.block[0], 64);
    EXPECT_NE(Info.reportText().find("chosen: zmarch:64,4,16"), std::string::npos)
        << Info.reportText();
  }
  {
    // A second run starts tuned from the cache: no call is spent tuning.
    DeviceAutoTuningInfo Info;
    L.run(FakeStencil(), &Info, &Runs);
    EXPECT_TRUE(Info.settled());
    EXPECT_EQ(Info.tuningCalls(), 0);
    EXPECT_EQ(Info.source(), DeviceAutoTuningInfo::Source::Cache);
    EXPECT_EQ(toString(*Info.chosen()), "zmarch:64,4,16");
  }
  {
    setenv("STENCIL_TUNING_FORCE", "smem:32,8,4", 1);
    DeviceAutoTuningInfo Info;
    L.run(FakeStencil(), &Info, &Runs);
    EXPECT_EQ(Info.source(), DeviceAutoTuningInfo::Source::Forced);
    EXPECT_EQ(FakeDevice::LastVariant, "smem");
    EXPECT_EQ(FakeDevice::Last.block[2], 4);
    setenv("STENCIL_TUNING_FORCE", "smem:32,8", 1);
    DeviceAutoTuningInfo Bad;
    tuneNow(L, FakeStencil(), &Bad, &Runs);
    EXPECT_EQ(Bad.source(), DeviceAutoTuningInfo::Source::Cache) << "a bad force is ignored";
    ASSERT_EQ(Bad.warnings().size(), 1u);
  }
}

TEST_F(TuningEngine, TuneNowOverOneVariant) {
  Loop3D<DeviceAutoTuningLoopEngine3D> L(10, 1, 1, 514, 1, 1, 514, 1, 1);
  DeviceAutoTuningInfo Info;
  Info.variants = {"grid"};
  int Runs = 0;
  tuneNow(L, FakeStencil(), &Info, &Runs);
  EXPECT_TRUE(Info.settled());
  EXPECT_GT(Info.tuningCalls(), 0);
  EXPECT_LE(Info.tuningCalls(), 200);
  EXPECT_EQ(Info.chosen()->variant, "grid");
  EXPECT_LE(Info.chosen()->bx, 8) << "8 points wide";
}

/// The text of what \p F throws (a std::exception), or "" when it does not.
template <typename Fn> std::string thrownBy(Fn F) {
  try {
    F();
  } catch (const std::exception &E) {
    return E.what();
  }
  return "";
}

TEST_F(TuningEngine, MarginNarrowerThanHaloIsRefused) {
  // FakeStencil's halo is 1 on every side: no launch with a margin of 0.
  int Runs = 0;
  Loop3D<DeviceAutoTuningLoopEngine3D> Tuned(64, 1, 1, 64, 1, 0, 64, 1, 1);
  DeviceAutoTuningInfo Info;
  std::string What = thrownBy([&] { Tuned.run(FakeStencil(), &Info, &Runs); });
  EXPECT_NE(What.find("FakeStencil (cuda): its halo is 1 point at the end of y but the margin "
                      "there is 0"),
            std::string::npos)
      << What;
  Loop3D<DeviceLoopEngine3D> Fixed(64, 0, 1, 64, 1, 1, 64, 1, 1);
  What = thrownBy([&] { Fixed.run(FakeStencil(), &Runs); });
  EXPECT_NE(What.find("FakeStencil (cuda): its halo is 1 point at the start of x but the margin "
                      "there is 0"),
            std::string::npos)
      << What;
  EXPECT_EQ(Runs, 0) << "nothing launched";
}

TEST_F(TuningEngine, NullArrayIsRefused) {
  int *Null = nullptr;
  Loop3D<DeviceAutoTuningLoopEngine3D> Tuned(64, 1, 1, 64, 1, 1, 64, 1, 1);
  DeviceAutoTuningInfo Info;
  std::string What = thrownBy([&] { Tuned.run(FakeStencil(), &Info, Null); });
  EXPECT_NE(What.find("FakeStencil (cuda): argument 1 (after the index; an array of int*) is null"),
            std::string::npos)
      << What;
  Loop3D<DeviceLoopEngine3D> Fixed(64, 1, 1, 64, 1, 1, 64, 1, 1);
  What = thrownBy([&] { Fixed.run(FakeStencil(), Null); });
  EXPECT_NE(What.find("argument 1 (after the index; an array of int*) is null"), std::string::npos)
      << What;
}

namespace {
/// What a progress test printed: the lines written to a temporary file.
std::vector<std::string> linesOf(std::FILE *F) {
  std::fflush(F);
  std::rewind(F);
  std::vector<std::string> Lines;
  char Buf[1024];
  while (std::fgets(Buf, sizeof(Buf), F)) {
    std::string L = Buf;
    if (!L.empty() && L.back() == '\n')
      L.pop_back();
    Lines.push_back(L);
  }
  return Lines;
}

/// Tunes FakeStencil over 512^3 with a clock that advances \p Step seconds
/// each time it is read; returns the progress lines.
std::vector<std::string> tuneWithClock(double Step, bool UseCache = true) {
  Loop3D<DeviceAutoTuningLoopEngine3D> L(514, 1, 1, 514, 1, 1, 514, 1, 1);
  DeviceAutoTuningInfo Info;
  Info.useCache = UseCache;
  std::FILE *Out = std::tmpfile();
  double Now = 100;
  Info.progress.out = Out;
  Info.progress.clock = [&Now, Step] { return Now += Step; };
  int Runs = 0;
  tuneNow(L, FakeStencil(), &Info, &Runs);
  EXPECT_TRUE(Info.settled());
  std::vector<std::string> Lines = linesOf(Out);
  std::fclose(Out);
  return Lines;
}
} // namespace

TEST_F(TuningEngine, ProgressAfterASecondThenDoneWithTheCachePath) {
  unsetenv("STENCIL_TUNING_QUIET");
  // A tenth of a second per call: the search (~100 calls) takes ~10 s.
  std::vector<std::string> Lines = tuneWithClock(0.1);
  ASSERT_GE(Lines.size(), 3u);
  const std::string &First = Lines.front();
  EXPECT_EQ(First.rfind("stencil: auto-tuning FakeStencil over 512x512x512: ", 0), 0u) << First;
  EXPECT_NE(First.find(" candidates timed, call "), std::string::npos) << First;
  EXPECT_NE(First.find(" of at most 200 (1 s)"), std::string::npos) << First;
  // One line a second: as many progress lines as whole seconds of tuning.
  for (std::size_t I = 1; I + 1 < Lines.size(); ++I)
    EXPECT_NE(Lines[I].find("(" + std::to_string(I + 1) + " s)"), std::string::npos)
        << Lines[I] << "\n" << Lines[I - 1];
  const std::string &Done = Lines.back();
  EXPECT_NE(Done.find("stencil: auto-tuning FakeStencil over 512x512x512 done in "),
            std::string::npos)
      << Done;
  EXPECT_NE(Done.find(": zmarch:64,4,16 ("), std::string::npos) << Done;
  EXPECT_NE(Done.find("cache entry written to " + (Dir / "cache.json").string()),
            std::string::npos)
      << Done;
  EXPECT_TRUE(std::filesystem::exists(Dir / "cache.json"));
}

TEST_F(TuningEngine, ProgressSaysWhenNothingIsCached) {
  unsetenv("STENCIL_TUNING_QUIET");
  std::vector<std::string> Lines = tuneWithClock(0.1, /*UseCache=*/false);
  ASSERT_FALSE(Lines.empty());
  EXPECT_NE(Lines.back().find("cache entry not written (useCache is off)"), std::string::npos)
      << Lines.back();
}

TEST_F(TuningEngine, NoProgressUnderASecondOrWhenQuiet) {
  unsetenv("STENCIL_TUNING_QUIET");
  // A millisecond per call: well under a second in all.
  EXPECT_TRUE(tuneWithClock(0.001).empty());
  std::filesystem::remove(Dir / "cache.json");
  setenv("STENCIL_TUNING_QUIET", "1", 1);
  EXPECT_TRUE(tuneWithClock(0.1).empty());
  unsetenv("STENCIL_TUNING_QUIET");
  // From the cache: no search, nothing to say.
  EXPECT_TRUE(tuneWithClock(0.1).empty());
}

namespace {
/// Lines of \p Text that start with \p Prefix.
int linesStartingWith(const std::string &Text, const std::string &Prefix) {
  int N = 0;
  for (std::size_t At = 0; At < Text.size();) {
    std::size_t End = Text.find('\n', At);
    if (End == std::string::npos)
      End = Text.size();
    N += Text.compare(At, Prefix.size(), Prefix) == 0;
    At = End + 1;
  }
  return N;
}

/// The entries of the cache file at \p P, read by nlohmann-json itself; -1
/// when it is not a cache file.
int entriesInCacheFile(const std::filesystem::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::string Text((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  nlohmann::json J = nlohmann::json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (!J.is_object() || J.value("format", "") != cacheFormat() || !J.contains("entries") ||
      !J["entries"].is_array())
    return -1;
  return static_cast<int>(J["entries"].size());
}
} // namespace

TEST_F(TuningEngine, HostileCacheFileWarnsOnceOnStderrAndIsReplaced) {
  std::string Binary(512, '\0');
  for (std::size_t I = 0; I < Binary.size(); ++I)
    Binary[I] = static_cast<char>(I * 37 + 11);
  const std::pair<const char *, std::string> Cases[] = {
      {"empty", ""},
      {"truncated", "{\"format\": \"stencilc-tuning-1\", \"entries\": [{\"gpu\": \"Fa"},
      {"not-json", "tuning results"},
      {"binary", Binary},
      {"array", "[1, 2, 3]"},
      {"wrong-types", "{\"format\": \"stencilc-tuning-1\", \"entries\": \"none\"}"},
      {"unknown-version", "{\"format\": \"stencilc-tuning-9\", \"entries\": []}"},
      {"directory", ""},
  };
  Loop3D<DeviceAutoTuningLoopEngine3D> L(34, 1, 1, 34, 1, 1, 34, 1, 1);
  for (const auto &[Name, Text] : Cases) {
    SCOPED_TRACE(Name);
    const auto Path = Dir / (std::string(Name) + ".json");
    const bool IsDirectory = std::string(Name) == "directory";
    if (IsDirectory)
      std::filesystem::create_directories(Path);
    else
      std::ofstream(Path, std::ios::binary) << Text;
    setenv("STENCIL_TUNING_CACHE", Path.c_str(), 1);
    int Runs = 0;
    testing::internal::CaptureStderr();
    {
      // Two stencil runs in one process read and write the file: one warning.
      DeviceAutoTuningInfo Info;
      Info.progress.quiet = true;
      EXPECT_NO_THROW(tuneNow(L, FakeStencil(), &Info, &Runs));
      EXPECT_TRUE(Info.settled());
      EXPECT_EQ(Info.source(), DeviceAutoTuningInfo::Source::Tuned);
      ASSERT_EQ(Info.warnings().size(), 1u);
      EXPECT_EQ(Info.warnings()[0].rfind("tuning cache '" + Path.string() + "' ignored: ", 0), 0u)
          << Info.warnings()[0];
      DeviceAutoTuningInfo Again;
      Again.progress.quiet = true;
      EXPECT_NO_THROW(tuneNow(L, FakeStencil(), &Again, &Runs));
      EXPECT_TRUE(Again.warnings().empty()) << Again.warnings()[0];
      EXPECT_EQ(Again.source(), IsDirectory ? DeviceAutoTuningInfo::Source::Tuned
                                            : DeviceAutoTuningInfo::Source::Cache);
    }
    const std::string Err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(linesStartingWith(Err, "stencil: warning: tuning cache '" + Path.string() + "'"), 1)
        << Err;
    EXPECT_EQ(linesStartingWith(Err, "stencil: warning: "), 1) << Err;
    if (IsDirectory)
      EXPECT_TRUE(std::filesystem::is_directory(Path));
    else
      EXPECT_EQ(entriesInCacheFile(Path), 1) << "replaced by a valid cache file";
  }
  for (const auto &F : std::filesystem::directory_iterator(Dir))
    EXPECT_EQ(F.path().filename().string().find(".tmp."), std::string::npos) << F.path();
}

TEST_F(TuningEngine, TwoEnginesShareOneCacheFile) {
  Loop3D<DeviceAutoTuningLoopEngine3D> Cube(34, 1, 1, 34, 1, 1, 34, 1, 1);
  Loop3D<DeviceAutoTuningLoopEngine3D> Slab(10, 1, 1, 66, 1, 1, 66, 1, 1);
  int Runs = 0;
  DeviceAutoTuningInfo First, Second;
  tuneNow(Cube, FakeStencil(), &First, &Runs);
  tuneNow(Slab, FakeStencil(), &Second, &Runs);
  EXPECT_EQ(First.source(), DeviceAutoTuningInfo::Source::Tuned);
  EXPECT_EQ(Second.source(), DeviceAutoTuningInfo::Source::Tuned);
  EXPECT_TRUE(First.warnings().empty());
  EXPECT_TRUE(Second.warnings().empty());
  EXPECT_EQ(entriesInCacheFile(Dir / "cache.json"), 2) << "the second writer kept the first's";
  for (auto *L : {&Cube, &Slab}) {
    DeviceAutoTuningInfo Later;
    L->run(FakeStencil(), &Later, &Runs);
    EXPECT_EQ(Later.source(), DeviceAutoTuningInfo::Source::Cache);
  }
}
