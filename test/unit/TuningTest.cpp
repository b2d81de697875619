// TuningTest.cpp - the auto-tuner without a GPU: candidate enumeration and
// pruning, the online search under a fake timer, the cache file, forcing,
// and the engine itself over fake device operations and fake variants.
#include <stencil/autotuning_engine.hpp>
#include <stencil/index.hpp>
#include <stencil/tuning.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace stencil;
using namespace stencil::tuning;

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

std::filesystem::path freshDir(const char *Name) {
  auto P = std::filesystem::temp_directory_path() /
           (std::string("stencilc-tuning-") + Name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(P);
  std::filesystem::create_directories(P);
  return P;
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

TEST(TuningSearch, RespectsTheCallBudget) {
  const long long Extent[3] = {512, 512, 512};
  auto All = enumerateCandidates(3, Extent, threeVariants(), DeviceLimits());
  OnlineTuner::Options O;
  O.maxCalls = 40;
  OnlineTuner T(All, O);
  int Calls = 0;
  while (!T.settled() && Calls < 1000) {
    T.record(fakeCost(T.next()));
    ++Calls;
  }
  EXPECT_LE(Calls, 40 + 3); // + the warm-up call of each variant
  EXPECT_TRUE(T.hasBest());
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

static CacheEntry sampleEntry() {
  CacheEntry E;
  E.key = {"NVIDIA H100 80GB HBM3", "Diffusion3d", "608dddf86af9ad65",
           "grid,zmarch,smem",      "512x512x512", "FvfffffffPKfPfE"};
  E.best = {"zmarch", 64, 4, 16};
  E.ms = 0.5;
  E.calls = 97;
  return E;
}

TEST(TuningCache, RoundTrip) {
  auto Dir = freshDir("roundtrip");
  std::string Path = (Dir / "sub" / "tuning.json").string();
  std::vector<std::string> W;
  EXPECT_TRUE(readCache(Path, &W).empty()) << "a missing file is an empty cache";
  EXPECT_TRUE(W.empty());
  CacheEntry E = sampleEntry();
  ASSERT_TRUE(storeCacheEntry(Path, E, &W));
  CacheEntry Other = E;
  Other.key.extents = "8x512x512";
  Other.best = {"smem", 8, 16, 64};
  ASSERT_TRUE(storeCacheEntry(Path, Other, &W));
  E.best.bz = 32; // replaces the first entry
  ASSERT_TRUE(storeCacheEntry(Path, E, &W));
  auto Entries = readCache(Path, &W);
  EXPECT_TRUE(W.empty());
  ASSERT_EQ(Entries.size(), 2u);
  auto Hit = lookupCache(Entries, E.key, &W);
  ASSERT_TRUE(Hit);
  EXPECT_EQ(toString(Hit->best), "zmarch:64,4,32");
  EXPECT_EQ(Hit->calls, 97);
  auto Hit2 = lookupCache(Entries, Other.key, &W);
  ASSERT_TRUE(Hit2);
  EXPECT_EQ(toString(Hit2->best), "smem:8,16,64");
  CacheKey Missing = E.key;
  Missing.gpu = "NVIDIA H200";
  EXPECT_FALSE(lookupCache(Entries, Missing, &W));
  EXPECT_TRUE(W.empty());
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, CorruptFileWarnsAndIsReplaced) {
  auto Dir = freshDir("corrupt");
  std::string Path = (Dir / "tuning.json").string();
  for (const char *Text : {"{\"format\": \"stencilc-tuning-1\", \"entries\": [", "garbage", "{}",
                           "{\"format\": \"other\", \"entries\": []}"}) {
    std::ofstream(Path) << Text;
    std::vector<std::string> W;
    EXPECT_TRUE(readCache(Path, &W).empty()) << Text;
    ASSERT_EQ(W.size(), 1u) << Text;
    EXPECT_NE(W[0].find("corrupt"), std::string::npos);
  }
  // A malformed entry is skipped, the others kept.
  std::ofstream(Path) << "{\"format\": \"stencilc-tuning-1\", \"entries\": [{\"gpu\": 1}]}";
  std::vector<std::string> W;
  EXPECT_TRUE(readCache(Path, &W).empty());
  EXPECT_EQ(W.size(), 1u);
  // Storing rewrites the file whole: tuning again replaces the corrupt cache.
  W.clear();
  ASSERT_TRUE(storeCacheEntry(Path, sampleEntry(), &W));
  W.clear();
  EXPECT_EQ(readCache(Path, &W).size(), 1u);
  EXPECT_TRUE(W.empty());
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, StaleHashIsIgnoredWithAWarning) {
  std::vector<CacheEntry> Entries = {sampleEntry()};
  CacheKey Now = Entries[0].key;
  Now.irHash = "0123456789abcdef";
  std::vector<std::string> W;
  EXPECT_FALSE(lookupCache(Entries, Now, &W));
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("stale"), std::string::npos);
}

TEST(TuningCache, AtomicWriteLeavesNoPartialFile) {
  auto Dir = freshDir("atomic");
  std::string Path = (Dir / "tuning.json").string();
  std::string Error;
  ASSERT_TRUE(writeFileAtomically(Path, "first\n", &Error));
  ASSERT_TRUE(writeFileAtomically(Path, "second\n", &Error));
  int Files = 0;
  for (const auto &F : std::filesystem::directory_iterator(Dir)) {
    ++Files;
    EXPECT_EQ(F.path().filename(), "tuning.json");
  }
  EXPECT_EQ(Files, 1);
  std::ifstream In(Path);
  std::string Line;
  std::getline(In, Line);
  EXPECT_EQ(Line, "second");
  // A target that cannot be replaced (a directory): the old content stays,
  // no temporary file is left.
  std::filesystem::create_directories(Dir / "blocked.json" / "x");
  EXPECT_FALSE(writeFileAtomically((Dir / "blocked.json").string(), "new\n", &Error));
  EXPECT_FALSE(Error.empty());
  for (const auto &F : std::filesystem::directory_iterator(Dir))
    EXPECT_EQ(F.path().filename().string().find(".tmp."), std::string::npos) << F.path();
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, ConcurrentWritersKeepEveryEntry) {
  // Several processes tuning at once (ranks, or runs side by side) each
  // store their entries: the lock and the merge under it keep them all.
  auto Dir = freshDir("concurrent");
  const std::string Path = (Dir / "tuning.json").string();
  const int Writers = 8, PerWriter = 50;
  std::vector<pid_t> Children;
  for (int W = 0; W < Writers; ++W) {
    pid_t Pid = ::fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      int Failed = 0;
      for (int I = 0; I < PerWriter; ++I) {
        CacheEntry E = sampleEntry();
        E.key.extents = std::to_string(W) + "x" + std::to_string(I) + "x1";
        std::vector<std::string> Warnings;
        Failed += !storeCacheEntry(Path, E, &Warnings) || !Warnings.empty();
      }
      ::_exit(Failed ? 1 : 0);
    }
    Children.push_back(Pid);
  }
  for (pid_t Pid : Children) {
    int Status = 0;
    ASSERT_EQ(::waitpid(Pid, &Status, 0), Pid);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0) << "a writer failed or warned";
  }
  std::vector<std::string> W;
  const std::vector<CacheEntry> Entries = readCache(Path, &W);
  EXPECT_TRUE(W.empty());
  EXPECT_EQ(Entries.size(), static_cast<std::size_t>(Writers * PerWriter));
  std::set<std::string> Keys;
  for (const CacheEntry &E : Entries)
    Keys.insert(E.key.extents);
  EXPECT_EQ(Keys.size(), static_cast<std::size_t>(Writers * PerWriter));
  for (const auto &F : std::filesystem::directory_iterator(Dir))
    EXPECT_EQ(F.path().filename().string().find(".tmp."), std::string::npos) << F.path();
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, ConcurrentThreadsKeepEveryEntry) {
  auto Dir = freshDir("threads");
  const std::string Path = (Dir / "tuning.json").string();
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      for (int I = 0; I < 25; ++I) {
        CacheEntry E = sampleEntry();
        E.key.extents = std::to_string(T) + "x" + std::to_string(I);
        std::vector<std::string> Warnings;
        storeCacheEntry(Path, E, &Warnings);
      }
    });
  for (std::thread &T : Threads)
    T.join();
  std::vector<std::string> W;
  EXPECT_EQ(readCache(Path, &W).size(), 100u);
  std::filesystem::remove_all(Dir);
}

/// A cache file whose entries are sampleEntry() with one field replaced by
/// \p Field: \p Value (JSON text), after one valid entry.
std::string cacheWith(const std::string &Field, const std::string &Value) {
  std::string Good = formatCache({sampleEntry()});
  CacheEntry E = sampleEntry();
  E.key.extents = "7x7x7";
  std::string Bad = formatCache({E});
  const std::string Key = "\"" + Field + "\": ";
  std::size_t At = Bad.find(Key);
  EXPECT_NE(At, std::string::npos) << Field;
  At += Key.size();
  std::size_t End = Field == "block" ? Bad.find(']', At) + 1 : Bad.find_first_of(",}", At);
  Bad.replace(At, End - At, Value);
  // Both entries in one array.
  std::size_t Open = Bad.find('[', Bad.find("\"entries\""));
  std::size_t Close = Bad.rfind(']');
  std::string BadEntry = Bad.substr(Open + 1, Close - Open - 1);
  std::size_t GoodClose = Good.rfind(']');
  return Good.substr(0, GoodClose) + "," + BadEntry + "]\n}\n";
}

TEST(TuningCache, HostileNumbersAreIgnoredWithOneWarning) {
  auto Dir = freshDir("hostile");
  const std::string Path = (Dir / "tuning.json").string();
  const std::pair<const char *, const char *> Cases[] = {
      {"calls", "1e300"},         {"calls", "-1"},           {"calls", "nan"},
      {"calls", "2.5"},           {"calls", "\"7\""},      {"ms", "nan"},
      {"ms", "-3"},               {"ms", "1e999"},           {"ms", "inf"},
      {"block", "[1e6, 1, 1]"},   {"block", "[64, 4, 1e300]"}, {"block", "[64, -4, 1]"},
      {"block", "[64.5, 4, 1]"},  {"block", "[0, 4, 1]"},    {"block", "[64, 4]"},
      {"block", "[64, 4, nan]"},  {"block", "[2048, 1, 1]"}, {"variant", "\"\""},
      {"variant", "3"},           {"gpu", "null"},           {"block", "{}"}};
  for (const auto &[Field, Value] : Cases) {
    const std::string Text = cacheWith(Field, Value);
    std::ofstream(Path, std::ios::trunc) << Text;
    std::vector<std::string> W;
    const std::vector<CacheEntry> Entries = readCache(Path, &W);
    ASSERT_EQ(Entries.size(), 1u) << Field << ": " << Value << "\n" << Text;
    EXPECT_EQ(Entries[0].key.extents, sampleEntry().key.extents);
    ASSERT_EQ(W.size(), 1u) << Field << ": " << Value;
    EXPECT_NE(W[0].find("invalid entry"), std::string::npos) << W[0];
  }
  // Many bad entries: still one warning.
  std::string Many = "{\"format\": \"stencilc-tuning-1\", \"entries\": [1, 2, \"x\", [], {}]}";
  std::ofstream(Path, std::ios::trunc) << Many;
  std::vector<std::string> W;
  EXPECT_TRUE(readCache(Path, &W).empty());
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("5 invalid entries"), std::string::npos) << W[0];
  std::filesystem::remove_all(Dir);
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
