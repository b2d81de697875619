// The pieces of time loops that need neither a GPU nor MPI: how a time
// loop's steps are cut into passes (temporal_passes.hpp) and how a box is
// cut around another (region_split.hpp), against brute force on random and
// edge-case inputs.
#include <stencil/region_split.hpp>
#include <stencil/temporal_passes.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <tuple>
#include <vector>

namespace {

long long sum(const stencil::detail::PassSchedule &S) {
  return std::accumulate(S.begin(), S.end(), 0LL);
}

// Passes cover the first Total - 1 steps in a number of the parity of
// Total - 1 (so level Total - 1 lands in its own array), none above PerPass.
TEST(PassScheduleTest, CoversAllButTheLastStepWithTheRightParity) {
  for (long long Total = 0; Total <= 60; ++Total)
    for (int PerPass = 1; PerPass <= 9; ++PerPass) {
      const auto P = stencil::detail::passSchedule(Total, PerPass);
      const long long Steps = std::max(0LL, Total - 1);
      EXPECT_EQ(sum(P), Steps) << Total << " " << PerPass;
      EXPECT_EQ(P.size() % 2, Steps % 2) << Total << " " << PerPass;
      for (int S : P) {
        EXPECT_GE(S, 1);
        EXPECT_LE(S, PerPass);
      }
    }
  EXPECT_TRUE(stencil::detail::passSchedule(7, 0).empty());
}

// A time loop runs the passes of one step as steps: the longer passes and
// the singles are the schedule's, and every longer pass is longer than one.
TEST(PassScheduleTest, SinglesAndLongerPassesSplitTheSchedule) {
  for (long long Total = 0; Total <= 60; ++Total)
    for (int PerPass = 1; PerPass <= 9; ++PerPass) {
      const auto P = stencil::detail::passSchedule(Total, PerPass);
      const auto L = P.longer();
      long long Ones = 0;
      for (int S : P)
        Ones += S == 1;
      EXPECT_EQ(P.singles(), Ones) << Total << " " << PerPass;
      EXPECT_EQ(sum(L) + P.singles(), sum(P)) << Total << " " << PerPass;
      EXPECT_EQ(L.size() + P.singles(), P.size()) << Total << " " << PerPass;
      for (int S : L)
        EXPECT_GT(S, 1) << Total << " " << PerPass;
    }
  // 39 steps at 2 a pass: 18 passes of 2 and 3 of 1 (an odd count).
  const auto P = stencil::detail::passSchedule(40, 2);
  EXPECT_EQ(P.singles(), 3);
  EXPECT_EQ(P.longer().size(), 18);
}

// A tuner's trial of PerPass steps a pass runs passes of exactly PerPass
// (passSchedule would even 16 steps at 6 a pass out into passes of 4), at
// least AtLeast steps, and no more than it takes.
TEST(PassScheduleTest, TrialStepsRunWholePassesOfTheirLength) {
  for (int PerPass = 1; PerPass <= 16; ++PerPass)
    for (long long AtLeast = 0; AtLeast <= 40; ++AtLeast) {
      const long long Total = stencil::detail::trialSteps(PerPass, AtLeast);
      EXPECT_GE(Total, AtLeast) << PerPass << " " << AtLeast;
      EXPECT_GE(Total, 2 * PerPass + 1) << PerPass << " " << AtLeast;
      // The next smaller total of whole pairs of passes falls short.
      if (Total > 2 * PerPass + 1)
        EXPECT_LT(Total - 2 * PerPass, AtLeast) << PerPass << " " << AtLeast;
      const auto P = stencil::detail::passSchedule(Total, PerPass);
      ASSERT_FALSE(P.empty());
      for (int S : P)
        EXPECT_EQ(S, PerPass) << PerPass << " " << AtLeast;
    }
  // One step at a time: the 17 steps the tuner always ran.
  EXPECT_EQ(stencil::detail::trialSteps(1, 17), 17);
  EXPECT_EQ(stencil::detail::trialSteps(6, 17), 25);
  EXPECT_EQ(stencil::detail::trialSteps(8, 17), 17);
  EXPECT_EQ(stencil::detail::trialSteps(3, 17), 19);
}

// The deep-halo tuner's trial of K steps per exchange: whole blocks of K
// (and, for an odd K, whole passes of K), at least AtLeast steps, no more
// than it takes.
TEST(PassScheduleTest, TrialStepsEveryRunWholeBlocks) {
  for (int Every = 1; Every <= 9; ++Every)
    for (long long AtLeast = 0; AtLeast <= 40; ++AtLeast) {
      const long long Total = stencil::detail::trialStepsEvery(Every, AtLeast);
      EXPECT_GE(Total, AtLeast) << Every << " " << AtLeast;
      EXPECT_EQ((Total - 1) % Every, 0) << Every << " " << AtLeast;
      EXPECT_GE(Total, Every + 1) << Every << " " << AtLeast;
      if (Total > Every + 1)
        EXPECT_LT(Total - Every, AtLeast) << Every << " " << AtLeast;
      if (Every % 2 == 1)
        for (int S : stencil::detail::oddPassSchedule(Total, Every))
          EXPECT_EQ(S, Every) << Every << " " << AtLeast;
    }
  EXPECT_EQ(stencil::detail::trialStepsEvery(1, 9), 9);
  EXPECT_EQ(stencil::detail::trialStepsEvery(3, 9), 10);
  EXPECT_EQ(stencil::detail::trialStepsEvery(4, 9), 9);
}

// Odd passes: each flips which array holds the newest level, as that many
// steps do, so the parity comes by itself; as few passes as odd sizes allow.
TEST(PassScheduleTest, OddPassesOnly) {
  for (long long Total = 0; Total <= 60; ++Total)
    for (int PerPass = 1; PerPass <= 9; PerPass += 2) {
      const auto P = stencil::detail::oddPassSchedule(Total, PerPass);
      EXPECT_EQ(sum(P), std::max(0LL, Total - 1)) << Total << " " << PerPass;
      for (int S : P) {
        EXPECT_EQ(S % 2, 1) << Total << " " << PerPass;
        EXPECT_LE(S, PerPass);
      }
      const long long Full = std::max(0LL, Total - 1) / PerPass;
      EXPECT_LE(P.size(), Full + 2) << Total << " " << PerPass;
    }
}

// A loop of 2^40 steps: its schedule is a few runs of equal passes, not a
// list of its 10^11 passes (which took memory by the pass and threw
// std::bad_alloc before a step ran); the passes' steps and parities hold.
TEST(PassScheduleTest, LongLoopsTakeNoMemoryByThePass) {
  const long long Total = (1LL << 40) + 2;
  for (int PerPass : {1, 6, 7, 16}) {
    const auto P = stencil::detail::passSchedule(Total, PerPass);
    EXPECT_EQ(P.steps(), Total - 1) << PerPass;
    EXPECT_EQ(P.size() % 2, (Total - 1) % 2) << PerPass;
    EXPECT_GE(P.size(), (Total - 1 + PerPass - 1) / PerPass) << PerPass;
    int Seen = 0;
    for (int S : P) {
      EXPECT_LE(S, PerPass);
      if (++Seen == 1000)
        break;
    }
  }
  for (int PerPass : {1, 3, 7, 15}) {
    const auto P = stencil::detail::oddPassSchedule(Total, PerPass);
    EXPECT_EQ(P.steps(), Total - 1) << PerPass;
    EXPECT_LE(P.size(), (Total - 1) / PerPass + 2) << PerPass;
  }
  // The longest loop a count can say: its passes' count does not overflow.
  const long long Longest = std::numeric_limits<long long>::max();
  for (int PerPass : {2, 3, 16}) {
    const auto P = stencil::detail::passSchedule(Longest, PerPass);
    EXPECT_EQ(P.steps(), Longest - 1) << PerPass;
    EXPECT_EQ(P.size() % 2, (Longest - 1) % 2) << PerPass;
    EXPECT_EQ(*P.begin(), PerPass) << PerPass;
  }
  // Even a most of steps gives odd passes; none at all gives no passes.
  for (int S : stencil::detail::oddPassSchedule(30, 6))
    EXPECT_EQ(S % 2, 1);
  EXPECT_EQ(stencil::detail::oddPassSchedule(30, 6).steps(), 29);
  EXPECT_TRUE(stencil::detail::oddPassSchedule(30, 0).empty());
}

using Point = std::tuple<long long, long long, long long>;

std::set<Point> pointsOf(const stencil::Region &R) {
  std::set<Point> S;
  for (long long K = R.lo[2]; K < R.hi[2]; ++K)
    for (long long J = R.lo[1]; J < R.hi[1]; ++J)
      for (long long I = R.lo[0]; I < R.hi[0]; ++I)
        S.insert({I, J, K});
  return S;
}

stencil::Region randomBox(std::mt19937 &Rng, int Dims) {
  std::uniform_int_distribution<int> Coord(-3, 6);
  stencil::Region R;
  for (int D = 0; D < Dims; ++D) {
    R.lo[D] = Coord(Rng);
    R.hi[D] = Coord(Rng); // may be empty or inverted
  }
  return R;
}

// Outer less Inner, as boxes: disjoint, inside Outer, none empty, and
// together exactly the points of Outer that are not in Inner, for inner
// boxes inside, across, outside and empty.
TEST(BoxDifferenceTest, ExactlyTheOuterPointsNotInTheInner) {
  std::mt19937 Rng(7);
  for (int Trial = 0; Trial < 3000; ++Trial) {
    const int Dims = 1 + Trial % 3;
    const stencil::Region Outer = randomBox(Rng, Dims);
    const stencil::Region Inner = randomBox(Rng, Dims);
    const std::vector<stencil::Region> Parts =
        stencil::boxDifference(Outer, Inner, Dims);
    std::set<Point> Want = pointsOf(Outer);
    for (const Point &P : pointsOf(Inner))
      Want.erase(P);
    std::set<Point> Got;
    std::size_t Count = 0;
    for (const stencil::Region &R : Parts) {
      EXPECT_FALSE(stencil::emptyRegion(R, Dims));
      const std::set<Point> S = pointsOf(R);
      Count += S.size();
      Got.insert(S.begin(), S.end());
    }
    EXPECT_EQ(Count, Got.size()) << "boxes overlap, trial " << Trial;
    EXPECT_EQ(Got, Want) << "trial " << Trial;
  }
}

// splitRegion: the interior and the slabs partition the region, the
// interior narrowed by the halo on the split dimensions only.
TEST(BoxDifferenceTest, SplitRegionPartitions) {
  std::mt19937 Rng(11);
  for (int Trial = 0; Trial < 500; ++Trial) {
    stencil::Region Own;
    for (int D = 0; D < 3; ++D) {
      Own.lo[D] = Trial % 4;
      Own.hi[D] = Own.lo[D] + 1 + static_cast<long long>(Rng() % 7);
    }
    stencil::Halo H;
    bool Split[3];
    for (int D = 0; D < 3; ++D) {
      H.lo[D] = static_cast<int>(Rng() % 4);
      H.hi[D] = static_cast<int>(Rng() % 4);
      Split[D] = Rng() % 2;
    }
    const stencil::RegionSplit S = stencil::splitRegion(Own, 3, H, Split);
    std::set<Point> Got = pointsOf(S.interior);
    std::size_t Count = Got.size();
    for (const stencil::Region &R : S.boundary) {
      const std::set<Point> P = pointsOf(R);
      Count += P.size();
      Got.insert(P.begin(), P.end());
    }
    EXPECT_EQ(Count, Got.size());
    EXPECT_EQ(Got, pointsOf(Own));
    for (int D = 0; D < 3; ++D)
      if (!Split[D]) {
        EXPECT_EQ(S.interior.lo[D], Own.lo[D]);
        EXPECT_EQ(S.interior.hi[D], Own.hi[D]);
      } else if (!stencil::emptyRegion(S.interior, 3)) {
        EXPECT_EQ(S.interior.lo[D], Own.lo[D] + H.lo[D]);
        EXPECT_EQ(S.interior.hi[D], Own.hi[D] - H.hi[D]);
      }
  }
}

/// A level passed again as a plain argument (the previous level read twice,
/// say) follows the swap between steps, which a pass's copy of the arguments
/// cannot: repeatTemporal runs such a loop one by one.
TEST(PassScheduleTest, ALevelPassedAgainIsFound) {
  float A[4] = {}, B[4] = {}, C[4] = {};
  float *U = A, *V = B, *W = C;
  float Scale = 1.0f;
  auto Previous = stencil::previousLevel(U);
  auto Next = stencil::nextLevel(V);
  using Levels = stencil::detail::TimeLevels<decltype(Previous), float *,
                                             decltype(Next), float>;
  float *Again = U, *NextAgain = V;
  EXPECT_TRUE((
      stencil::detail::levelPassedAgain<Levels>(Previous, Again, Next, Scale)));
  EXPECT_TRUE((stencil::detail::levelPassedAgain<Levels>(Previous, NextAgain,
                                                         Next, Scale)));
  EXPECT_FALSE(
      (stencil::detail::levelPassedAgain<Levels>(Previous, W, Next, Scale)));
}

} // namespace
