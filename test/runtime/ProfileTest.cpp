// ProfileTest.cpp - the run-time summary (stencil/profile.hpp) over
// stencilc's generated OpenMP code: calls, the stencil's name and variant,
// GB/s and GFlop/s from the registered bytes and flops per point, and the
// summary STENCIL_PROFILE=1 prints at exit.
#include "runtime_stencils.hpp"

#include <stencil/dsl.hpp>
#include <stencil/profile.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace stencil;

namespace {

constexpr int N = 16;

struct Arrays {
  std::vector<float> f, fn;
  Arrays() : f(N * N * N, 1.0f), fn(N * N * N, 0.0f) {}
};

/// Radius2's halo is x:2/2 y:1/1 z:2/0: (16-4) * (16-2) * (16-2) points.
constexpr double PointsPerLaunch = 12.0 * 14 * 14;

void runRadius2(Arrays &A, int Times) {
  Loop3D<OpenMPLoopEngine3D> L(N, 2, 2, N, 1, 1, N, 2, 0);
  for (int I = 0; I < Times; ++I)
    L.run(Radius2(), 0.5f, A.f.data(), A.fn.data());
}

const profile::Row *find(const std::vector<profile::Row> &Rows,
                         const std::string &Name) {
  for (const profile::Row &R : Rows)
    if (R.stencil == Name)
      return &R;
  return nullptr;
}

} // namespace

TEST(ProfileOpenMP, SummaryCountsCallsTimeAndBandwidth) {
  profile::enable();
  profile::reset();
  Arrays A;
  runRadius2(A, 5);
  Loop2D<OpenMPLoopEngine2D> L2(N, 0, 0, N, 0, 0);
  std::vector<double> F(N * N, 1.0), G(N * N, 0.0);
  L2.run(Copy2d(), F.data(), G.data());

  const GeneratedStencil *E = generatedFor(Backend::OpenMP, Radius2());
  ASSERT_TRUE(E);
  ASSERT_GT(E->bytesPerPoint, 0);
  const std::vector<profile::Row> Rows = profile::rows();
  const profile::Row *R = find(Rows, "Radius2");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->variant, E->variant);
  EXPECT_EQ(R->backend, "openmp");
  EXPECT_EQ(R->calls, 5);
  EXPECT_DOUBLE_EQ(R->points, 5 * PointsPerLaunch);
  EXPECT_DOUBLE_EQ(R->bytes, E->bytesPerPoint * 5 * PointsPerLaunch);
  EXPECT_DOUBLE_EQ(R->flops, E->flopsPerPoint * 5 * PointsPerLaunch);
  EXPECT_GT(R->seconds, 0);
  const profile::Row *C = find(Rows, "Copy2d");
  ASSERT_TRUE(C);
  EXPECT_EQ(C->calls, 1);
  EXPECT_DOUBLE_EQ(C->points, N * N);

  std::ostringstream Out;
  profile::report(Out);
  const std::string Text = Out.str();
  EXPECT_NE(Text.find("stencil profile: 6 launches of 2 stencil variants"),
            std::string::npos)
      << Text;
  // The Radius2 line: name, variant, backend, calls, time, share, GB/s.
  const double Total = R->seconds + C->seconds;
  char Line[256];
  std::snprintf(Line, sizeof(Line),
                "Radius2  %-7s  openmp          5 %12.6f %6.1f%% %10.2f",
                E->variant, R->seconds, 100.0 * R->seconds / Total,
                R->bytes / R->seconds * 1e-9);
  EXPECT_NE(Text.find(Line), std::string::npos) << "'" << Line << "' not in:\n"
                                                << Text;
  EXPECT_NE(Text.find("GB/s"), std::string::npos);
  EXPECT_NE(Text.find("GFlop/s"), std::string::npos);
  // Most time first: 5 launches of Radius2 before 1 of a 16x16 copy.
  EXPECT_LT(Text.find("Radius2"), Text.find("Copy2d")) << Text;
  profile::reset();
  profile::disable();
}

TEST(ProfileOpenMP, LongNamesKeepEachRowOnItsLine) {
  // A qualified name longer than a formatting buffer: its row was cut short
  // and lost its newline, running into the next one.
  profile::enable();
  profile::reset();
  const std::string Long(700, 'n');
  { profile::Scope S(Long.c_str(), "region"); }
  Arrays A;
  runRadius2(A, 1);
  std::ostringstream Out;
  profile::report(Out);
  std::istringstream Lines(Out.str());
  int LongRows = 0, RadiusRows = 0;
  for (std::string Line; std::getline(Lines, Line);) {
    LongRows += Line.find(Long + "  region") != std::string::npos &&
                Line.find("host") != std::string::npos;
    RadiusRows += Line.find("Radius2") != std::string::npos &&
                  Line.find("openmp") != std::string::npos &&
                  Line.find(Long) == std::string::npos;
  }
  EXPECT_EQ(LongRows, 1) << Out.str();
  EXPECT_EQ(RadiusRows, 1) << Out.str();
  profile::reset();
  profile::disable();
}

TEST(ProfileOpenMP, OffRecordsNothing) {
  profile::disable();
  profile::reset();
  Arrays A;
  runRadius2(A, 2);
  EXPECT_TRUE(profile::rows().empty());
  EXPECT_FALSE(profile::enabled());
}

// What generated code ran without a row (a step by its plan, a time loop's
// passes) is said, rows or not: the summary once read 0 launches for a
// program whose every stencil ran in steps.
TEST(ProfileOpenMP, SaysWhatHasNoRow) {
  profile::enable();
  profile::reset();
  profile::detail::noteUntimed(stencil::detail::StepRunsUntimed);
  profile::detail::noteUntimed(stencil::detail::StepRunsUntimed);
  std::ostringstream Alone;
  profile::report(Alone);
  EXPECT_NE(Alone.str().find("not in the rows: 2 runs of steps by their plan"),
            std::string::npos)
      << Alone.str();
  Arrays A;
  runRadius2(A, 1);
  std::ostringstream Both;
  profile::report(Both);
  EXPECT_NE(Both.str().find("Radius2"), std::string::npos) << Both.str();
  EXPECT_NE(Both.str().find("not in the rows: 2 runs of steps"),
            std::string::npos)
      << Both.str();
  profile::reset();
  std::ostringstream Reset;
  profile::report(Reset);
  EXPECT_EQ(Reset.str().find("not in the rows"), std::string::npos);
  profile::disable();
  profile::detail::noteUntimed(stencil::detail::StepRunsUntimed);
  std::ostringstream Off;
  profile::report(Off);
  EXPECT_EQ(Off.str().find("not in the rows"), std::string::npos);
}

TEST(ProfileOpenMPDeathTest, EnvironmentPrintsTheSummaryAtExit) {
  // A fresh process (the child runs this test alone), so STENCIL_PROFILE
  // is read at its first launch.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("STENCIL_PROFILE", "1", 1);
        Arrays A;
        runRadius2(A, 3);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0),
      "stencil profile: 3 launches of 1 stencil variants.*\n"
      "  stencil +variant +backend +calls +time \\[s\\] +share +GB/s +GFlop/s "
      "+GPoints/s\n"
      "  Radius2 +[a-z0-9]+ +openmp +3 +[0-9.]+ +100\\.0%");
  EXPECT_EXIT(
      {
        setenv("STENCIL_PROFILE", "0", 1);
        Arrays A;
        runRadius2(A, 3);
        std::fputs("end\n", stderr);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "^end\n$");
}
