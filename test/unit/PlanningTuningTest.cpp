//===- PlanningTuningTest.cpp - What Planning decides for the tuner's variants
//-===//
///
/// \file
/// Which variants each stencil gets, and per array whether a marching
/// variant reads it from a register queue (and over which offsets), a
/// shared-memory tile (and with which halo) or the read-only path.
///
//===----------------------------------------------------------------------===//
#include "stencilc/IR/Module.h"
#include "IRBuilders.h"
#include "stencilc/Analysis/AnalyzeStencil.h"
#include "stencilc/Planning/Plan.h"
#include <gtest/gtest.h>
#include <limits>

using namespace stencilc;
using namespace stencilc::ir;
using namespace stencilc::ir::build;
using planning::VariantKind;

namespace {

class NullSink : public DiagnosticSink {
protected:
  void emit(const DiagInfo &, SourceRange,
            llvm::ArrayRef<std::string>) override {}
};

/// out[c] = sum of in at \p Offs; params: index, in (1), out (2).
Stencil sumOf(unsigned Dims, const std::vector<Offset> &Offs,
              bool ConstIn = true) {
  Stencil S;
  S.Name = "S";
  S.Dims = Dims;
  S.Params = {indexParam(Dims), arrayParam("in", ConstIn),
              arrayParam("out", false)};
  ExprRef Sum;
  for (const Offset &Off : Offs) {
    ExprRef L = load(1, Off);
    Sum = Sum ? add(Sum, L) : L;
  }
  S.Body = block({store(2, Sum)});
  return S;
}

struct Planned {
  Module M;
  std::vector<analysis::StencilInfo> Infos;
  planning::ModulePlan Plan;
};

std::unique_ptr<Planned> plan(Stencil S) {
  auto P = std::make_unique<Planned>();
  P->M.Stencils.push_back(std::move(S));
  NullSink Sink;
  P->Infos.push_back(analysis::analyzeStencil(P->M.Stencils[0], Sink));
  P->Plan = planning::planModule(P->M, P->Infos);
  return P;
}

} // namespace

TEST(PlanningVariants, SevenPointGetsAllFour) {
  auto P = plan(sumOf(3, {{0, 0, 0, 0},
                          {1, 0, 0, 0},
                          {-1, 0, 0, 0},
                          {0, 1, 0, 0},
                          {0, -1, 0, 0},
                          {0, 0, 1, 0},
                          {0, 0, -1, 0}}));
  const planning::StencilPlan &SP = P->Plan.Stencils[0];
  EXPECT_EQ(SP.Variants, (std::vector<VariantKind>{
                             VariantKind::Grid, VariantKind::ZMarch,
                             VariantKind::ZMarch2, VariantKind::Smem}));
  EXPECT_EQ(SP.March.MarchDim, 2u);
  const planning::ArrayAccessPlan *In = planning::findArrayPlan(SP.March, 1);
  ASSERT_TRUE(In);
  // In-plane neighbours are read at one z offset each: no queue of theirs.
  ASSERT_EQ(In->Queues.size(), 1u);
  EXPECT_EQ(planning::centreQueue(*In), &In->Queues[0]);
  EXPECT_EQ(In->Queues[0].Lo, -1);
  EXPECT_EQ(In->Queues[0].Hi, 1);
  EXPECT_TRUE(In->Tiled);
  EXPECT_TRUE(In->ReadOnlyPath);
  EXPECT_EQ(SP.March.TileHalo[0].Lo, 1);
  EXPECT_EQ(SP.March.TileHalo[0].Hi, 1);
  EXPECT_EQ(SP.March.TileHalo[1].Lo, 1);
  EXPECT_EQ(SP.March.TileHalo[1].Hi, 1);
  EXPECT_FALSE(planning::findArrayPlan(SP.March, 2)) << "out is not read";
}

TEST(PlanningVariants, ColumnOnlyHasNoTileVariant) {
  auto P = plan(sumOf(3, {{0, 0, -2, 0}, {0, 0, 3, 0}}));
  const planning::StencilPlan &SP = P->Plan.Stencils[0];
  EXPECT_EQ(SP.Variants,
            (std::vector<VariantKind>{VariantKind::Grid, VariantKind::ZMarch,
                                      VariantKind::ZMarch2}));
  const planning::ArrayAccessPlan *In = planning::findArrayPlan(SP.March, 1);
  ASSERT_TRUE(In);
  // The queue spans the offsets between, so one load per step suffices.
  ASSERT_EQ(In->Queues.size(), 1u);
  EXPECT_EQ(In->Queues[0].Lo, -2);
  EXPECT_EQ(In->Queues[0].Hi, 3);
  EXPECT_FALSE(In->Tiled);
}

TEST(PlanningVariants, BoxOffsetsOffThePlaneAreNeitherQueuedNorTiled) {
  auto P = plan(sumOf(3, {{1, 1, 1, 0}, {-2, 0, 0, 0}}, /*ConstIn=*/false));
  const planning::StencilPlan &SP = P->Plan.Stencils[0];
  const planning::ArrayAccessPlan *In = planning::findArrayPlan(SP.March, 1);
  ASSERT_TRUE(In);
  EXPECT_TRUE(In->Queues.empty()) << "each column is read at one z offset";
  EXPECT_TRUE(In->Tiled);
  EXPECT_FALSE(In->ReadOnlyPath) << "not declared const";
  EXPECT_EQ(SP.March.TileHalo[0].Lo, 2);
  EXPECT_EQ(SP.March.TileHalo[0].Hi, 0);
  EXPECT_EQ(SP.March.TileHalo[1].Hi, 0) << "(1,1,1) is off the plane";
}

TEST(PlanningVariants, TwoDimensionsMarchY) {
  auto P = plan(sumOf(2, {{0, -1, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}}));
  const planning::StencilPlan &SP = P->Plan.Stencils[0];
  EXPECT_EQ(SP.March.MarchDim, 1u);
  const planning::ArrayAccessPlan *In = planning::findArrayPlan(SP.March, 1);
  ASSERT_TRUE(In);
  ASSERT_EQ(In->Queues.size(), 1u);
  EXPECT_EQ(In->Queues[0].Lo, -1);
  EXPECT_EQ(In->Queues[0].Hi, 1);
  EXPECT_TRUE(In->Tiled);
  EXPECT_EQ(SP.March.TileHalo[0].Hi, 1);
}

TEST(PlanningVariants, BoxColumnsGetQueuesCentreFirst) {
  std::vector<Offset> Box;
  for (int Dz = 1; Dz >= -1; --Dz)
    for (int Dy = -1; Dy <= 1; ++Dy)
      for (int Dx = -1; Dx <= 1; ++Dx)
        Box.push_back({Dx, Dy, Dz, 0});
  auto P = plan(sumOf(3, Box));
  const planning::ArrayAccessPlan *In =
      planning::findArrayPlan(P->Plan.Stencils[0].March, 1);
  ASSERT_TRUE(In);
  ASSERT_EQ(In->Queues.size(), 9u) << "one queue per column of the box";
  EXPECT_EQ(planning::centreQueue(*In), &In->Queues[0]);
  for (const planning::ColumnQueue &Q : In->Queues) {
    EXPECT_EQ(Q.Lo, -1);
    EXPECT_EQ(Q.Hi, 1);
  }
  const planning::ColumnQueue *Q = planning::findQueue(*In, {1, -1, 1, 0}, 2);
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->Plane[0], 1);
  EXPECT_EQ(Q->Plane[1], -1);
  EXPECT_FALSE(planning::findQueue(*In, {1, -1, 2, 0}, 2)) << "past Hi";
}

TEST(PlanningVariants, ColumnReadOnceIsNotQueued) {
  // (1, 0) is read at z - 1 and z + 2, (0, 1) only at z.
  auto P =
      plan(sumOf(3, {{1, 0, -1, 0}, {1, 0, 2, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}}));
  const planning::ArrayAccessPlan *In =
      planning::findArrayPlan(P->Plan.Stencils[0].March, 1);
  ASSERT_TRUE(In);
  ASSERT_EQ(In->Queues.size(), 2u);
  const planning::ColumnQueue *Q = planning::findQueue(*In, {1, 0, 0, 0}, 2);
  ASSERT_TRUE(Q) << "the queue spans the offsets between";
  EXPECT_EQ(Q->Lo, -1);
  EXPECT_EQ(Q->Hi, 2);
  EXPECT_FALSE(planning::findQueue(*In, {0, 1, 0, 0}, 2));
}

TEST(PlanningVariants, FourDimensionsKeepOnlyGrid) {
  auto P = plan(sumOf(4, {{0, 0, 0, 1}}));
  EXPECT_EQ(P->Plan.Stencils[0].Variants,
            (std::vector<VariantKind>{VariantKind::Grid}));
}

TEST(PlanningVariants, ArraysAlsoWrittenAreReadFromMemory) {
  Stencil S;
  S.Name = "Acc";
  S.Dims = 3;
  S.Params = {indexParam(3), arrayParam("acc", false)};
  S.Body = block({store(1, add(load(1, {0, 0, 0, 0}), fconst(1.0)))});
  auto P = plan(std::move(S));
  const planning::ArrayAccessPlan *Acc =
      planning::findArrayPlan(P->Plan.Stencils[0].March, 1);
  ASSERT_TRUE(Acc);
  EXPECT_TRUE(Acc->Queues.empty());
  EXPECT_FALSE(Acc->Tiled);
  EXPECT_FALSE(Acc->ReadOnlyPath);
}

//===----------------------------------------------------------------------===//
// Bounds on queues and tiles: the output stays linear in the stencil
//===----------------------------------------------------------------------===//

namespace {
constexpr int IntMin = std::numeric_limits<int>::min();
constexpr int IntMax = std::numeric_limits<int>::max();
} // namespace

TEST(PlanningLimits, FarMarchingOffsetsKeepOnlyGrid) {
  // A queue spanning 0 .. 10^6 would print a million registers.
  for (int Far : {1000000, -1000000, IntMin, IntMax}) {
    auto P = plan(sumOf(3, {{0, 0, 0, 0}, {0, 0, Far, 0}}));
    EXPECT_EQ(P->Plan.Stencils[0].Variants,
              (std::vector<VariantKind>{VariantKind::Grid}))
        << "z offset " << Far;
    auto P2 = plan(sumOf(2, {{0, 0, 0, 0}, {0, Far, 0, 0}}));
    EXPECT_EQ(P2->Plan.Stencils[0].Variants,
              (std::vector<VariantKind>{VariantKind::Grid}))
        << "2-D, y offset " << Far;
  }
  // Also a column other than the centre's.
  auto P = plan(sumOf(3, {{1, 0, IntMin, 0}, {1, 0, IntMax, 0}}));
  EXPECT_EQ(P->Plan.Stencils[0].Variants,
            (std::vector<VariantKind>{VariantKind::Grid}));
}

TEST(PlanningLimits, QueueLengthBound) {
  // -16 .. 15: 32 registers, at the bound.
  auto Fits = plan(sumOf(3, {{0, 0, -16, 0}, {0, 0, 15, 0}}));
  EXPECT_EQ(Fits->Plan.Stencils[0].Variants,
            (std::vector<VariantKind>{VariantKind::Grid, VariantKind::ZMarch,
                                      VariantKind::ZMarch2}));
  // -16 .. 16: one too many.
  auto Over = plan(sumOf(3, {{0, 0, -16, 0}, {0, 0, 16, 0}}));
  EXPECT_EQ(Over->Plan.Stencils[0].Variants,
            (std::vector<VariantKind>{VariantKind::Grid}));
  EXPECT_EQ(planning::MaxQueueLength, 32);
}

TEST(PlanningLimits, WideInPlaneOffsetsLeaveOutTheTile) {
  // The tile halo of INT_MIN used to wrap to 0: smem with a tile too small.
  for (Offset Wide : std::vector<Offset>{{IntMin, 0, 0, 0},
                                         {IntMax, 0, 0, 0},
                                         {0, IntMin, 0, 0},
                                         {0, 17, 0, 0},
                                         {-17, 0, 0, 0}}) {
    auto P = plan(sumOf(3, {{0, 0, 0, 0}, {0, 0, 1, 0}, Wide}));
    const planning::StencilPlan &SP = P->Plan.Stencils[0];
    EXPECT_EQ(SP.Variants,
              (std::vector<VariantKind>{VariantKind::Grid, VariantKind::ZMarch,
                                        VariantKind::ZMarch2}))
        << Wide[0] << ", " << Wide[1];
  }
  auto AtBound = plan(sumOf(3, {{0, 0, 0, 0}, {-16, 0, 0, 0}, {0, 16, 0, 0}}));
  const planning::StencilPlan &SP = AtBound->Plan.Stencils[0];
  EXPECT_EQ(SP.Variants.back(), VariantKind::Smem);
  EXPECT_EQ(SP.March.TileHalo[0].Lo, 16);
  EXPECT_EQ(SP.March.TileHalo[1].Hi, 16);
}
