//===- AnalysisTest.cpp - Unit tests of the Analysis stage ----------------===//
///
/// \file
/// Footprints, intents, halos, access diagnostics and cost of hand-built
/// stencils. Diagnostics go to a sink that records ids, ranges and arguments.
///
//===----------------------------------------------------------------------===//
#include "stencilc/IR/Module.h"
#include "IRBuilders.h"
#include "stencilc/Analysis/AnalyzeStencil.h"
#include "stencilc/Analysis/CheckAccesses.h"
#include "stencilc/Analysis/CountCost.h"
#include "stencilc/Analysis/Footprint.h"
#include <gtest/gtest.h>
#include <limits>

using namespace stencilc;
using namespace stencilc::analysis;
using namespace stencilc::ir;
using namespace stencilc::ir::build;

namespace {

/// A stencil "S" with the index, then one f32 scalar "c" (param 1), then the
/// given arrays (params 2, 3, ...).
struct ArraySpec {
  const char *Name;
  bool ReadOnly;
  Type Ty = F32;
};
Stencil makeStencil(unsigned Dims, std::vector<ArraySpec> Arrays) {
  Stencil S;
  S.Name = "S";
  S.Dims = Dims;
  S.Range = at(1000);
  S.Params.push_back(makeIndexParam());
  S.Params.push_back(makeParam("c", F32, /*Array=*/false));
  for (const ArraySpec &A : Arrays)
    S.Params.push_back(makeParam(A.Name, A.Ty, /*Array=*/true, A.ReadOnly));
  return S;
}

/// out = c * (sum of in at Offs), arrays "in" (param 2) and "out" (param 3).
Stencil sumOf(unsigned Dims, const std::vector<Offset> &Offs, Type Ty = F32) {
  Stencil S = makeStencil(Dims, {{"in", true, Ty}, {"out", false, Ty}});
  ExprRef Sum;
  for (const Offset &Off : Offs) {
    ExprRef L = load(2, Off, Ty);
    Sum = Sum ? add(Sum, L) : L;
  }
  S.Body = block({store(3, Sum)});
  return S;
}

struct RecordedDiag {
  DiagId Id;
  SourceRange Range;
  std::vector<std::string> Args;
};

class RecordingSink : public DiagnosticSink {
public:
  std::vector<RecordedDiag> Diags;

protected:
  void emit(const DiagInfo &Info, SourceRange Range,
            llvm::ArrayRef<std::string> Args) override {
    Diags.push_back({Info.Id, Range, {Args.begin(), Args.end()}});
  }
};

StencilInfo footprint(const Stencil &S) {
  StencilInfo Info;
  inferFootprint(S, Info);
  return Info;
}

void expectHalo(const Halo &H, std::vector<std::pair<int, int>> Expected) {
  Expected.resize(MaxDims, {0, 0});
  for (unsigned D = 0; D < MaxDims; ++D) {
    EXPECT_EQ(H[D].Lo, Expected[D].first) << "dimension " << D;
    EXPECT_EQ(H[D].Hi, Expected[D].second) << "dimension " << D;
  }
}

const std::vector<Offset> SevenPoint = {
    {0, 0, 0, 0}, {-1, 0, 0, 0}, {1, 0, 0, 0}, {0, -1, 0, 0},
    {0, 1, 0, 0}, {0, 0, -1, 0}, {0, 0, 1, 0}};

} // namespace

TEST(IntentTest, Names) {
  EXPECT_STREQ(intentName(Intent::In), "in");
  EXPECT_STREQ(intentName(Intent::Out), "out");
  EXPECT_STREQ(intentName(Intent::InOut), "inout");
}

TEST(FootprintTest, SevenPoint) {
  StencilInfo Info = footprint(sumOf(3, SevenPoint));
  ASSERT_EQ(Info.Arrays.size(), 2u);
  const ArrayInfo &In = Info.Arrays[0], &Out = Info.Arrays[1];
  EXPECT_EQ(In.Param, 2u);
  EXPECT_EQ(Out.Param, 3u);
  EXPECT_TRUE(In.Read);
  EXPECT_FALSE(In.Written);
  EXPECT_EQ(In.Use, Intent::In);
  EXPECT_FALSE(Out.Read);
  EXPECT_TRUE(Out.Written);
  EXPECT_EQ(Out.Use, Intent::Out);
  // Sorted lexicographically on x, then y, then z.
  EXPECT_EQ(In.ReadOffsets, (std::vector<Offset>{{-1, 0, 0, 0},
                                                 {0, -1, 0, 0},
                                                 {0, 0, -1, 0},
                                                 {0, 0, 0, 0},
                                                 {0, 0, 1, 0},
                                                 {0, 1, 0, 0},
                                                 {1, 0, 0, 0}}));
  EXPECT_TRUE(Out.ReadOffsets.empty());
  expectHalo(In.Halo, {{1, 1}, {1, 1}, {1, 1}});
  expectHalo(Out.Halo, {});
  expectHalo(Info.Halo, {{1, 1}, {1, 1}, {1, 1}});
}

TEST(FootprintTest, RadiusTwoStarWithRepeatedReads) {
  std::vector<Offset> Offs = {{0, 0, 0, 0}};
  for (int R : {1, 2})
    for (unsigned D = 0; D < 3; ++D)
      for (int Sign : {-1, 1}) {
        Offset O{};
        O[D] = Sign * R;
        Offs.push_back(O);
      }
  ASSERT_EQ(Offs.size(), 13u);
  // The same neighbours read twice must not be listed twice.
  Offs.push_back({0, 0, 0, 0});
  Offs.push_back({2, 0, 0, 0});
  StencilInfo Info = footprint(sumOf(3, Offs));
  const ArrayInfo &In = Info.Arrays[0];
  EXPECT_EQ(In.ReadOffsets.size(), 13u);
  EXPECT_TRUE(std::is_sorted(In.ReadOffsets.begin(), In.ReadOffsets.end()));
  EXPECT_EQ(In.ReadOffsets.front(), (Offset{-2, 0, 0, 0}));
  EXPECT_EQ(In.ReadOffsets.back(), (Offset{2, 0, 0, 0}));
  expectHalo(Info.Halo, {{2, 2}, {2, 2}, {2, 2}});
}

TEST(FootprintTest, TwentySevenPointBox) {
  std::vector<Offset> Offs;
  for (int Z = 1; Z >= -1; --Z)
    for (int Y = 1; Y >= -1; --Y)
      for (int X = 1; X >= -1; --X)
        Offs.push_back({X, Y, Z, 0});
  StencilInfo Info = footprint(sumOf(3, Offs));
  const ArrayInfo &In = Info.Arrays[0];
  ASSERT_EQ(In.ReadOffsets.size(), 27u);
  EXPECT_EQ(In.ReadOffsets.front(), (Offset{-1, -1, -1, 0}));
  EXPECT_EQ(In.ReadOffsets[1], (Offset{-1, -1, 0, 0}));
  EXPECT_EQ(In.ReadOffsets.back(), (Offset{1, 1, 1, 0}));
  expectHalo(In.Halo, {{1, 1}, {1, 1}, {1, 1}});
}

TEST(FootprintTest, AsymmetricOffsets) {
  // Only +x and -2y: nothing on the -x, +y or z sides.
  StencilInfo Info = footprint(sumOf(3, {{1, 0, 0, 0}, {0, -2, 0, 0}}));
  expectHalo(Info.Arrays[0].Halo, {{0, 1}, {2, 0}, {0, 0}});
  expectHalo(Info.Halo, {{0, 1}, {2, 0}, {0, 0}});
}

TEST(FootprintTest, TwoDimensional) {
  StencilInfo Info = footprint(
      sumOf(2, {{0, 0, 0, 0}, {-1, 0, 0, 0}, {3, 0, 0, 0}, {0, 1, 0, 0}}));
  EXPECT_EQ(Info.Arrays[0].ReadOffsets.size(), 4u);
  expectHalo(Info.Halo, {{1, 3}, {0, 1}});
}

TEST(FootprintTest, UnionHaloOverArrays) {
  // a read at -2x, b at +3y: the stencil's halo covers both.
  Stencil S = makeStencil(3, {{"a", true}, {"b", true}, {"out", false}});
  S.Body =
      block({store(4, add(load(2, {-2, 0, 0, 0}), load(3, {0, 3, 0, 0})))});
  StencilInfo Info = footprint(S);
  ASSERT_EQ(Info.Arrays.size(), 3u);
  expectHalo(Info.Arrays[0].Halo, {{2, 0}});
  expectHalo(Info.Arrays[1].Halo, {{0, 0}, {0, 3}});
  expectHalo(Info.Halo, {{2, 0}, {0, 3}});
}

TEST(FootprintTest, UnusedArrayIsIn) {
  Stencil S = makeStencil(3, {{"unused", true}, {"out", false}});
  S.Body = block({store(3, param(1))});
  StencilInfo Info = footprint(S);
  EXPECT_FALSE(Info.Arrays[0].Read);
  EXPECT_FALSE(Info.Arrays[0].Written);
  EXPECT_EQ(Info.Arrays[0].Use, Intent::In);
}

TEST(FootprintTest, LoadsInBranchesAndLoopsCount) {
  // if (false) out = in[+2x] else out = in[-1y]; loops read in[+1z].
  Stencil S = makeStencil(3, {{"in", true}, {"out", false}});
  S.Locals = {{"t", I32}};
  S.Body = block({
      ifElse(iconst(0, Bool), store(3, load(2, {2, 0, 0, 0})),
             store(3, load(2, {0, -1, 0, 0}))),
      loop(0, 2, store(3, load(2, {0, 0, 1, 0}))),
  });
  StencilInfo Info = footprint(S);
  expectHalo(Info.Halo, {{0, 2}, {1, 0}, {0, 1}});
}

TEST(CheckAccessesTest, SevenPointIsClean) {
  RecordingSink Sink;
  analyzeStencil(sumOf(3, SevenPoint), Sink);
  EXPECT_TRUE(Sink.Diags.empty());
  EXPECT_FALSE(Sink.hadError());
}

TEST(CheckAccessesTest, InOutReadAtCentreIsAllowed) {
  // out = out + c * in[-1x]
  Stencil S = makeStencil(3, {{"in", true}, {"out", false}});
  S.Body = block(
      {store(3, add(load(3, {}), mul(param(1), load(2, {-1, 0, 0, 0}))))});
  RecordingSink Sink;
  StencilInfo Info = analyzeStencil(S, Sink);
  EXPECT_TRUE(Sink.Diags.empty());
  EXPECT_EQ(Info.Arrays[1].Use, Intent::InOut);
  EXPECT_TRUE(Info.Arrays[1].Read);
  EXPECT_TRUE(Info.Arrays[1].Written);
  EXPECT_EQ(Info.Arrays[1].ReadOffsets, (std::vector<Offset>{{0, 0, 0, 0}}));
  expectHalo(Info.Halo, {{1, 0}});
}

TEST(CheckAccessesTest, RaceReportsOneErrorAndANote) {
  // fn = fn[+1x] + fn[-1x] + f: written and read off the centre, twice.
  Stencil S = makeStencil(3, {{"f", true}, {"fn", false}});
  S.Body = block({store(3,
                        add(add(load(3, {1, 0, 0, 0}, F32, at(11)),
                                load(3, {-1, 0, 0, 0}, F32, at(12))),
                            load(2, {1, 0, 0, 0}, F32, at(13))),
                        at(20))});
  RecordingSink Sink;
  StencilInfo Info = analyzeStencil(S, Sink);
  ASSERT_EQ(Sink.Diags.size(), 2u);
  EXPECT_EQ(Sink.errorCount(), 1u);
  EXPECT_EQ(Sink.Diags[0].Id, DiagId::err_race_write_read_off_centre);
  EXPECT_EQ(Sink.Diags[0].Range.Begin, 11u);
  EXPECT_EQ(Sink.Diags[0].Args, (std::vector<std::string>{"fn", "[1,0,0]"}));
  EXPECT_EQ(Sink.Diags[1].Id, DiagId::note_written_here);
  EXPECT_EQ(Sink.Diags[1].Range.Begin, 20u);
  EXPECT_EQ(Sink.Diags[1].Args, (std::vector<std::string>{"fn"}));
  // The footprint is still computed.
  EXPECT_EQ(Info.Arrays[1].Use, Intent::InOut);
  expectHalo(Info.Halo, {{1, 1}});
}

TEST(CheckAccessesTest, RaceOffsetHasStencilDims) {
  Stencil S = makeStencil(2, {{"u", false}});
  S.Body = block({store(2, load(2, {0, -1, 0, 0}, F32, at(5)), at(6))});
  RecordingSink Sink;
  analyzeStencil(S, Sink);
  ASSERT_EQ(Sink.Diags.size(), 2u);
  EXPECT_EQ(Sink.Diags[0].Args, (std::vector<std::string>{"u", "[0,-1]"}));
}

TEST(CheckAccessesTest, RaceOnEachArray) {
  Stencil S = makeStencil(3, {{"a", false}, {"b", false}});
  S.Body = block({store(2, load(3, {0, 0, 1, 0}, F32, at(1)), at(2)),
                  store(3, load(2, {0, 0, -1, 0}, F32, at(3)), at(4))});
  RecordingSink Sink;
  analyzeStencil(S, Sink);
  ASSERT_EQ(Sink.Diags.size(), 4u);
  EXPECT_EQ(Sink.errorCount(), 2u);
  EXPECT_EQ(Sink.Diags[0].Args[0], "a");
  EXPECT_EQ(Sink.Diags[0].Range.Begin, 3u);
  EXPECT_EQ(Sink.Diags[1].Range.Begin, 2u);
  EXPECT_EQ(Sink.Diags[2].Args[0], "b");
  EXPECT_EQ(Sink.Diags[2].Range.Begin, 1u);
  EXPECT_EQ(Sink.Diags[3].Range.Begin, 4u);
}

TEST(CheckAccessesTest, NoStoreWarns) {
  Stencil S = makeStencil(3, {{"in", true}});
  S.Locals = {{"x", F32}};
  S.Body = block({decl(0, load(2, {1, 0, 0, 0}))});
  RecordingSink Sink;
  analyzeStencil(S, Sink);
  ASSERT_EQ(Sink.Diags.size(), 1u);
  EXPECT_EQ(Sink.Diags[0].Id, DiagId::warn_no_store);
  EXPECT_EQ(Sink.Diags[0].Range.Begin, 1000u);
  EXPECT_EQ(Sink.Diags[0].Args, (std::vector<std::string>{"S"}));
  EXPECT_FALSE(Sink.hadError());
}

TEST(AnalyzeModuleTest, OneInfoPerStencilDiagnosticsInOrder) {
  // A racy 2-D stencil, one that writes nothing, a clean 7-point star.
  Module M;
  M.Stencils.push_back(makeStencil(2, {{"u", false}}));
  M.Stencils[0].Body =
      block({store(2, load(2, {0, -1, 0, 0}, F32, at(5)), at(6))});
  M.Stencils.push_back(makeStencil(3, {{"in", true}}));
  M.Stencils[1].Locals = {{"x", F32}};
  M.Stencils[1].Body = block({decl(0, load(2, {1, 0, 0, 0}))});
  M.Stencils.push_back(sumOf(3, SevenPoint));
  RecordingSink Sink;
  std::vector<StencilInfo> Infos = analyzeModule(M, Sink);
  ASSERT_EQ(Infos.size(), 3u);
  EXPECT_EQ(Infos[0].Arrays[0].Use, Intent::InOut);
  expectHalo(Infos[0].Halo, {{0, 0}, {1, 0}});
  EXPECT_EQ(Infos[1].Arrays[0].Use, Intent::In);
  expectHalo(Infos[1].Halo, {{0, 1}});
  expectHalo(Infos[2].Halo, {{1, 1}, {1, 1}, {1, 1}});
  ASSERT_EQ(Sink.Diags.size(), 3u);
  EXPECT_EQ(Sink.Diags[0].Id, DiagId::err_race_write_read_off_centre);
  EXPECT_EQ(Sink.Diags[1].Id, DiagId::note_written_here);
  EXPECT_EQ(Sink.Diags[2].Id, DiagId::warn_no_store);
  EXPECT_EQ(Sink.errorCount(), 1u);
}

TEST(CountCostTest, SevenPointDiffusion) {
  // out = c0*in[..] + ... : 7 multiplies and 6 adds.
  Stencil S = makeStencil(3, {{"in", true}, {"out", false}});
  ExprRef Sum;
  for (const Offset &Off : SevenPoint) {
    ExprRef Term = mul(param(1), load(2, Off));
    Sum = Sum ? add(Sum, Term) : Term;
  }
  S.Body = block({store(3, Sum)});
  RecordingSink Sink;
  StencilInfo Info = analyzeStencil(S, Sink);
  EXPECT_EQ(Info.FlopsPerPoint, 13);
  EXPECT_EQ(Info.BytesPerPoint, 8);
}

TEST(CountCostTest, LoopMultipliesByTripCount) {
  // float s = 0; for (3 trips) { s = s + c * in[+x]; int-only work; }
  // out = s / c;
  Stencil S = makeStencil(3, {{"in", true}, {"out", false}});
  S.Locals = {{"s", F32}, {"t", I32}, {"n", I32}};
  S.Body = block({
      decl(0, fconst(0)),
      decl(2, iconst(0)),
      loop(1, 3,
           block(
               {assign(0, add(local(0), mul(param(1), load(2, {1, 0, 0, 0})))),
                assign(2, add(local(2, I32), mul(local(1, I32), iconst(2))))})),
      store(3, binary(BinaryOp::Div, local(0), param(1))),
  });
  StencilInfo Info = footprint(S);
  countCost(S, Info);
  EXPECT_EQ(Info.FlopsPerPoint, 3 * 2 + 1);
}

TEST(CountCostTest, NestedLoops) {
  Stencil S = makeStencil(3, {{"out", false}});
  S.Locals = {{"s", F32}, {"i", I32}, {"j", I32}};
  S.Body = block({decl(0, fconst(1)),
                  loop(1, 4, loop(2, 5, assign(0, mul(local(0), param(1))))),
                  store(2, local(0))});
  StencilInfo Info = footprint(S);
  countCost(S, Info);
  EXPECT_EQ(Info.FlopsPerPoint, 20);
}

TEST(CountCostTest, IfElseCountsCostlierSide) {
  // if (c > in[0]) out = c * 2; else out = (in + c) * (in - c) / c;
  // The comparison is free; the else side costs 4.
  Stencil S = makeStencil(3, {{"in", true}, {"out", false}});
  ExprRef In = load(2, {});
  S.Body = block({ifElse(
      binary(BinaryOp::GT, param(1), In), store(3, mul(param(1), fconst(2))),
      store(3,
            binary(BinaryOp::Div,
                   mul(add(In, param(1)), binary(BinaryOp::Sub, In, param(1))),
                   param(1))))});
  StencilInfo Info = footprint(S);
  countCost(S, Info);
  EXPECT_EQ(Info.FlopsPerPoint, 4);
}

TEST(CountCostTest, IfWithoutElseAndFlopsInCondition) {
  // if (c * c > 1) out = c + c + c;
  Stencil S = makeStencil(3, {{"out", false}});
  S.Body = block(
      {ifElse(binary(BinaryOp::GT, mul(param(1), param(1)), fconst(1)),
              store(2, add(add(param(1), param(1)), param(1))), nullptr)});
  StencilInfo Info = footprint(S);
  countCost(S, Info);
  EXPECT_EQ(Info.FlopsPerPoint, 1 + 2);
}

TEST(CountCostTest, SelectNegationAndCalls) {
  // out = (c > 0) ? sqrt(c * c) : -c
  //   select: max(1 + 1, 0); comparison and negation free.
  Stencil S = makeStencil(3, {{"out", false}});
  S.Body = block(
      {store(2, select(binary(BinaryOp::GT, param(1), fconst(0)),
                       call(MathFunc::Sqrt, F32, {mul(param(1), param(1))}),
                       neg(param(1))))});
  StencilInfo Info = footprint(S);
  countCost(S, Info);
  EXPECT_EQ(Info.FlopsPerPoint, 2);

  // out = -(c * c) + fma(c, c, c): negation free, the call counts one.
  S.Body = block({store(
      2, add(neg(mul(param(1), param(1))),
             call(MathFunc::Fma, F32, {param(1), param(1), param(1)})))});
  countCost(S, Info);
  EXPECT_EQ(Info.FlopsPerPoint, 1 + 1 + 1);
}

TEST(CountCostTest, IntegerArithmeticIsFree) {
  // out = float(abs(i + 1) * 2): integer add, multiply and call cost nothing;
  // the one float add counts.
  Stencil S = makeStencil(3, {{"out", false}});
  S.Locals = {{"i", I32}};
  ExprRef IntWork =
      mul(call(MathFunc::Abs, I32, {add(local(0, I32), iconst(1))}), iconst(2));
  S.Body = block(
      {decl(0, iconst(3)),
       store(2, add(std::make_shared<CastExpr>(F32, IntWork, SourceRange{}),
                    param(1)))});
  StencilInfo Info = footprint(S);
  countCost(S, Info);
  EXPECT_EQ(Info.FlopsPerPoint, 1);
}

TEST(CountCostTest, BytesF32AndF64) {
  EXPECT_EQ(footprint(sumOf(3, SevenPoint)).Arrays.size(), 2u);
  {
    Stencil S = sumOf(3, SevenPoint, F32);
    StencilInfo Info = footprint(S);
    countCost(S, Info);
    EXPECT_EQ(Info.BytesPerPoint, 4 + 4);
  }
  {
    Stencil S = sumOf(3, SevenPoint, F64);
    StencilInfo Info = footprint(S);
    countCost(S, Info);
    EXPECT_EQ(Info.BytesPerPoint, 8 + 8);
  }
}

TEST(CountCostTest, BytesInOutCountsTwiceUnusedNotAtAll) {
  // a (f64, read), b (f32, inout), unused (f64), out (f32, written).
  Stencil S = makeStencil(3, {{"a", true, F64},
                              {"b", false, F32},
                              {"unused", true, F64},
                              {"out", false, F32}});
  S.Body = block(
      {store(3, add(load(3, {}), std::make_shared<CastExpr>(
                                     F32, load(2, {}, F64), SourceRange{}))),
       store(5, param(1))});
  StencilInfo Info = footprint(S);
  countCost(S, Info);
  EXPECT_EQ(Info.BytesPerPoint, 8 + 2 * 4 + 0 + 4);
}

TEST(FootprintTest, ExtremeOffsetsDoNotOverflow) {
  // The halo of INT_MIN is 2^31, which an int cannot hold (it used to wrap
  // to a halo of 0).
  constexpr int Min = std::numeric_limits<int>::min();
  constexpr int Max = std::numeric_limits<int>::max();
  StencilInfo Info =
      footprint(sumOf(4, {{Min, 0, 0, 0}, {0, Max, 0, 0}, {0, 0, Min, Max}}));
  EXPECT_EQ(Info.Halo[0].Lo, 2147483648LL);
  EXPECT_EQ(Info.Halo[0].Hi, 0);
  EXPECT_EQ(Info.Halo[1].Lo, 0);
  EXPECT_EQ(Info.Halo[1].Hi, 2147483647LL);
  EXPECT_EQ(Info.Halo[2].Lo, 2147483648LL);
  EXPECT_EQ(Info.Halo[3].Hi, 2147483647LL);
  EXPECT_EQ(Info.Arrays[0].Halo[0].Lo, 2147483648LL);
}
