//===- CpuThreadsTest.cpp - The OpenMP code's thread count ----------------===//
///
/// \file
/// <stencil/cpu_threads.hpp> over fake cgroup folders: a v2 cpu.max quota, a
/// v1 cfs quota, no quota ("max", -1), malformed text; the count is the
/// smaller of affinity and quota.
///
//===----------------------------------------------------------------------===//
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <omp.h>
#include <stencil/cpu_threads.hpp>
#include <string>

namespace {
namespace fs = std::filesystem;

/// A fresh folder standing for /sys/fs/cgroup.
class FakeCgroup : public ::testing::Test {
protected:
  void SetUp() override {
    Root = fs::temp_directory_path() /
           ("stencil-cgroup-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(Root);
    fs::create_directories(Root);
  }
  void TearDown() override { fs::remove_all(Root); }
  void write(const std::string &Rel, const std::string &Text) {
    fs::create_directories((Root / Rel).parent_path());
    std::ofstream(Root / Rel) << Text;
  }
  int quota() const { return stencil::detail::cgroupCpuQuota(Root.string()); }
  fs::path Root;
};

TEST_F(FakeCgroup, V2QuotaRoundsUp) {
  write("cpu.max", "1600000 100000\n");
  EXPECT_EQ(quota(), 16);
  write("cpu.max", "150000 100000\n");
  EXPECT_EQ(quota(), 2);
  write("cpu.max", "50000 100000\n");
  EXPECT_EQ(quota(), 1);
}

TEST_F(FakeCgroup, V2WithoutQuota) {
  write("cpu.max", "max 100000\n");
  EXPECT_EQ(quota(), 0);
}

TEST_F(FakeCgroup, V1Quota) {
  write("cpu/cpu.cfs_quota_us", "400000\n");
  write("cpu/cpu.cfs_period_us", "100000\n");
  EXPECT_EQ(quota(), 4);
}

TEST_F(FakeCgroup, V1CombinedControllerFolder) {
  write("cpu,cpuacct/cpu.cfs_quota_us", "250000\n");
  write("cpu,cpuacct/cpu.cfs_period_us", "100000\n");
  EXPECT_EQ(quota(), 3);
}

TEST_F(FakeCgroup, V1WithoutQuota) {
  write("cpu/cpu.cfs_quota_us", "-1\n");
  write("cpu/cpu.cfs_period_us", "100000\n");
  EXPECT_EQ(quota(), 0);
}

TEST_F(FakeCgroup, NoFilesOrGarbageMeanNoQuota) {
  EXPECT_EQ(quota(), 0);
  write("cpu.max", "lots\n");
  EXPECT_EQ(quota(), 0);
  write("cpu.max", "100000 0\n");
  EXPECT_EQ(quota(), 0);
}

TEST(CpuThreads, SmallerOfAffinityAndQuota) {
  using stencil::detail::usableCpus;
  EXPECT_EQ(usableCpus(192, 16), 16); // the GPU machine: many CPUs, a quota
  EXPECT_EQ(usableCpus(8, 16), 8);
  EXPECT_EQ(usableCpus(8, 0), 8); // no quota
  EXPECT_EQ(usableCpus(0, 4), 4); // affinity unknown
  EXPECT_EQ(usableCpus(0, 0), 1);
}

// OMP_NUM_THREADS unset before openmpThreads first reads it (once): the
// count is the runtime's own.
const bool NoThreadCountSet = ::unsetenv("OMP_NUM_THREADS") == 0;

TEST(CpuThreads, ThisProcessGetsAtLeastOne) {
  EXPECT_GE(stencil::usableCpus(), 1);
  EXPECT_GE(stencil::openmpThreads(), 1);
}

// Without OMP_NUM_THREADS, omp_set_num_threads lowers the count (it was
// ignored); asking for more than the CPUs the process may use gives those.
TEST(CpuThreads, FewerThreadsAskedOfOpenMPAreFewer) {
  ASSERT_TRUE(NoThreadCountSet);
  const int Most = stencil::usableCpus();
  omp_set_num_threads(1);
  EXPECT_EQ(stencil::openmpThreads(), 1);
  omp_set_num_threads(Most + 5);
  EXPECT_EQ(stencil::openmpThreads(), Most);
}
} // namespace
