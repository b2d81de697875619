//===- ProfileCudaTest.cpp - The run-time summary over a fake CUDA device -===//
///
/// \file
/// stencil::profile (<stencil/profile.hpp>) with CUDA launches, without a
/// GPU: fake device operations whose events report a fixed time. A CUDA
/// launch is timed by two events on the launch's stream around it, read
/// when the summary is made (no wait per launch); NVTX-style range hooks
/// see each launch's stencil and variant. test/runtime/ProfileTest.cpp
/// covers the OpenMP backend with stencilc's generated code.
///
//===----------------------------------------------------------------------===//
#include <stencil/generated_engine.hpp>
#include <stencil/index.hpp>
#include <stencil/loop.hpp>
#include <stencil/profile.hpp>

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace stencil;

namespace {

struct FakeGpuStencil {
  void operator()(const Index<3> &, float *) const {}
};

/// What the fake device saw, in order.
std::vector<std::string> Log;
int ElapsedReads = 0;
int EventsCreated = 0;

std::string ptr(const void *P) {
  std::ostringstream O;
  O << P;
  return O.str();
}

const char *fakeLaunch(const Grid &, const Region &, const LaunchConfig &C,
                       void *const *) {
  Log.push_back("launch on " + ptr(C.stream));
  return nullptr;
}
const char *failingLaunch(const Grid &, const Region &, const LaunchConfig &,
                          void *const *) {
  return "too many resources requested for launch";
}

int fakeCount() { return 1; }
const char *fakeEventCreate(void **E) {
  static int Storage[16384];
  *E = &Storage[EventsCreated++ % 16384];
  return nullptr;
}
const char *fakeEventDestroy(void *) { return nullptr; }
const char *fakeEventRecord(void *, void *Stream) {
  Log.push_back("event on " + ptr(Stream));
  return nullptr;
}
/// Every launch takes 2 ms of GPU time.
const char *fakeElapsed(float *Ms, void *, void *) {
  ++ElapsedReads;
  *Ms = 2.0f;
  return nullptr;
}

std::vector<std::string> Ranges;
void fakePush(const char *Name, const char *Detail) {
  Ranges.push_back(std::string("push ") + Name + " [" + (Detail ? Detail : "") +
                   "]");
}
void fakePop() { Ranges.push_back("pop"); }

const bool Registered = [] {
  static const DeviceOps Ops = {
      fakeCount,        nullptr,         nullptr,     nullptr,
      nullptr,          nullptr,         nullptr,     fakeEventCreate,
      fakeEventDestroy, fakeEventRecord, fakeElapsed, nullptr};
  registerDeviceOps(Ops);
  static const profile::RangeHooks Hooks = {fakePush, fakePop};
  profile::registerRangeHooks(Hooks);
  GeneratedLaunchFn Launches[] = {fakeLaunch, failingLaunch};
  const char *Variants[] = {"zmarch", "broken"};
  for (int V = 0; V < 2; ++V)
    registerGenerated(GeneratedAbiVersion, {"ns::FakeGpuStencil",
                                            "fake.cu:1",
                                            typeid(FakeGpuStencil).name(),
                                            nullptr,
                                            Backend::Cuda,
                                            3,
                                            &typeid(void(float *)),
                                            Launches[V],
                                            Variants[V],
                                            {{1, 1}, {1, 1}, {1, 1}, {0, 0}},
                                            false,
                                            "00000000000000bb",
                                            /*flopsPerPoint=*/10.0,
                                            /*bytesPerPoint=*/8.0,
                                            nullptr,
                                            2});
  return true;
}();

const profile::Row *find(const std::vector<profile::Row> &Rows,
                         const std::string &Variant) {
  for (const profile::Row &R : Rows)
    if (R.stencil == "ns::FakeGpuStencil" && R.variant == Variant &&
        R.backend == "cuda")
      return &R;
  return nullptr;
}

class ProfileCuda : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(Registered);
    profile::enable();
    profile::reset();
    Log.clear();
    Ranges.clear();
    ElapsedReads = 0;
  }
  void TearDown() override {
    profile::reset();
    profile::disable();
  }
};

} // namespace

TEST_F(ProfileCuda, GpuTimeFromEventsOnTheLaunchStreamReadLazily) {
  // 102^3 arrays, 100^3 points per launch, on a stream of the program's.
  Loop3D<DeviceLoopEngine3D> L(102, 1, 1, 102, 1, 1, 102, 1, 1);
  float *Array = reinterpret_cast<float *>(0x1000);
  void *Stream = reinterpret_cast<void *>(0x5000);
  DeviceLoopEngine3D Engine(L.ranges());
  Engine.Config.stream = Stream;
  const GeneratedStencil *E = generatedFor(Backend::Cuda, FakeGpuStencil());
  ASSERT_TRUE(E);
  for (int I = 0; I < 3; ++I)
    detail::runEntry(*generatedVariants(*E)[0], detail::ParamList<float *>(),
                     Grid{3, {102, 102, 102, 1}},
                     Region{{1, 1, 1, 0}, {101, 101, 101, 1}}, Engine.Config,
                     Array);
  EXPECT_EQ(ElapsedReads, 0) << "no wait for the GPU per launch";
  const std::vector<std::string> Expected = {"event on " + ptr(Stream),
                                             "launch on " + ptr(Stream),
                                             "event on " + ptr(Stream)};
  ASSERT_EQ(Log.size(), 9u);
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(
        std::vector<std::string>(Log.begin() + 3 * I, Log.begin() + 3 * I + 3),
        Expected);

  const std::vector<profile::Row> Rows = profile::rows();
  EXPECT_EQ(ElapsedReads, 3) << "read when the summary is made";
  const profile::Row *R = find(Rows, "zmarch");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->calls, 3);
  EXPECT_DOUBLE_EQ(R->seconds, 0.006);
  EXPECT_DOUBLE_EQ(R->points, 3e6);
  EXPECT_DOUBLE_EQ(R->bytes, 8 * 3e6);
  EXPECT_DOUBLE_EQ(R->flops, 10 * 3e6);

  std::ostringstream Out;
  profile::report(Out);
  // 24 MB in 6 ms: 4 GB/s; 30 MFlop: 5 GFlop/s; 3 MPoints: 0.5 GPoints/s.
  EXPECT_NE(
      Out.str().find(
          "stencil profile: 3 launches of 1 stencil variants, 0.006000 s"),
      std::string::npos)
      << Out.str();
  EXPECT_NE(
      Out.str().find(
          "ns::FakeGpuStencil  zmarch   cuda            3     0.006000  100.0%"
          "       4.00       5.00       0.50"),
      std::string::npos)
      << Out.str();
  EXPECT_NE(Out.str().find("cuda: GPU time between events"), std::string::npos);
}

TEST_F(ProfileCuda, RangesNameTheStencilAndVariant) {
  Loop3D<DeviceLoopEngine3D> L(12, 1, 1, 12, 1, 1, 12, 1, 1);
  float *Array = reinterpret_cast<float *>(0x1000);
  L.run(FakeGpuStencil(), Array);
  EXPECT_EQ(Ranges, (std::vector<std::string>{
                        "push ns::FakeGpuStencil [zmarch]", "pop"}));
  // Off: the ranges stay (Nsight Systems), the summary records nothing.
  profile::disable();
  Ranges.clear();
  L.run(FakeGpuStencil(), Array);
  EXPECT_EQ(Ranges.size(), 2u);
  EXPECT_EQ(Log.size(), 4u) << "no events when the summary is off";
  profile::enable();
  profile::reset();
  EXPECT_TRUE(profile::rows().empty());
}

TEST_F(ProfileCuda, FailedLaunchIsNotCountedAndItsEventsAreReused) {
  const GeneratedStencil *E = generatedFor(Backend::Cuda, FakeGpuStencil());
  ASSERT_TRUE(E);
  const GeneratedStencil *Broken = generatedVariants(*E)[1];
  ASSERT_STREQ(Broken->variant, "broken");
  float *Array = reinterpret_cast<float *>(0x1000);
  const int Before = EventsCreated;
  for (int I = 0; I < 3; ++I)
    EXPECT_THROW(detail::runEntry(*Broken, detail::ParamList<float *>(),
                                  Grid{3, {12, 12, 12, 1}},
                                  Region{{1, 1, 1, 0}, {11, 11, 11, 1}},
                                  LaunchConfig(), Array),
                 std::runtime_error);
  EXPECT_LE(EventsCreated - Before, 2)
      << "the events of a failed launch are reused";
  const profile::Row *R = find(profile::rows(), "broken");
  EXPECT_TRUE(!R || R->calls == 0);
}

TEST_F(ProfileCuda, PendingLaunchesAreBounded) {
  Loop3D<DeviceLoopEngine3D> L(12, 1, 1, 12, 1, 1, 12, 1, 1);
  float *Array = reinterpret_cast<float *>(0x1000);
  const int N = static_cast<int>(profile::maxPendingLaunches()) + 1;
  for (int I = 0; I < N; ++I)
    L.run(FakeGpuStencil(), Array);
  // Past the bound the oldest half was read (waiting for them); not every
  // launch.
  EXPECT_EQ(ElapsedReads, N / 2);
  EXPECT_EQ(find(profile::rows(), "zmarch")->calls, N);
  EXPECT_EQ(ElapsedReads, N);
}

TEST_F(ProfileCuda, HaloExchangeScopeIsAHostRow) {
  { profile::Scope S("halo exchange", "start"); }
  EXPECT_EQ(Ranges,
            (std::vector<std::string>{"push halo exchange [start]", "pop"}));
  std::vector<profile::Row> Rows = profile::rows();
  ASSERT_EQ(Rows.size(), 1u);
  EXPECT_EQ(Rows[0].stencil, "halo exchange");
  EXPECT_EQ(Rows[0].backend, "host");
  EXPECT_EQ(Rows[0].calls, 1);
  EXPECT_FALSE(Rows[0].isStencil);
}
