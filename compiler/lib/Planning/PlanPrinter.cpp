//===- PlanPrinter.cpp - The module's plan as text (--emit=plan) ----------===//
///
/// \file
/// One block per stencil: the CUDA default launch, each variant's kernel
/// (thread mapping; for marching variants the queues, the tile and where
/// every load comes from), the float divisions by constants, and the OpenMP
/// loop blocking. The wording is
/// stable: FileCheck tests read it.
///
//===----------------------------------------------------------------------===//
#include "stencilc/IR/IRPrinter.h"
#include "stencilc/IR/Stmt.h"
#include "stencilc/Planning/KernelPlan.h"
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace stencilc;
using namespace stencilc::planning;

static const char *const AxisNames[] = {"x", "y", "z", "w"};

/// "[-1,0,1]": the offset's first \p Dims components.
static std::string offsetText(const ir::Offset &Off, unsigned Dims) {
  std::string Text = "[";
  for (unsigned D = 0; D < Dims; ++D)
    Text += (D ? "," : "") + std::to_string(Off[D]);
  return Text + "]";
}

static std::string signedText(long long V) {
  return (V > 0 ? "+" : "") + std::to_string(V);
}

static std::string queueText(const ir::Stencil &S, const KernelPlan &K,
                             int Queue, int Slot) {
  const QueueRegisters &Q = K.Queues[Queue];
  std::string Text = "queue " + S.Params[Q.Param].Name;
  Text += Q.Centre ? " (centre)" : " " + offsetText(Q.Column, S.Dims);
  return Text + " register " + std::to_string(Slot);
}

static std::string sourceText(const ir::Stencil &S, const KernelPlan &K,
                              const PlannedLoad &L) {
  const LoadSource &Src = L.Source;
  std::string Own =
      Src.Queue >= 0 ? queueText(S, K, Src.Queue, Src.Slot) : "memory";
  switch (Src.From) {
  case LoadSource::Kind::Memory:
  case LoadSource::Kind::Queue:
    return Own;
  case LoadSource::Kind::Tile:
    return "tile cell " + offsetText(L.Off, K.Threads.MarchDim);
  case LoadSource::Kind::Sibling:
    return "the point " + signedText(Src.Dy) + " in y when this thread has it: " +
           queueText(S, K, Src.SiblingQueue, Src.SiblingSlot) + "; else " + Own;
  case LoadSource::Kind::Invariant:
    return "register " + std::to_string(Src.Slot) + ", loaded before the march";
  }
  return Own;
}

/// The terms \p P holds (of an earlier plane after a later one's): "; term
/// N of plane p held k planes, added at plane q", each.
static std::string heldTerms(const PlaneSums &P) {
  std::string Out;
  for (size_t T = 0; T < P.Terms.size(); ++T)
    if (P.Terms[T].held())
      Out += "; term " + std::to_string(T + 1) + " of plane " +
             signedText(P.Terms[T].Plane) + " held " +
             std::to_string(P.Terms[T].held()) +
             (P.Terms[T].held() == 1 ? " plane" : " planes") +
             ", added at plane " + signedText(P.Terms[T].Reached);
  return Out;
}

/// "; <Lead> 32 x 8, 64 x 4 <Tail>" for \p Tiles, or nothing.
static std::string tileList(const std::vector<std::array<int, 2>> &Tiles,
                            const std::string &Lead, const std::string &Tail) {
  std::string Out;
  for (const auto &[X, Y] : Tiles)
    Out += (Out.empty() ? "; " + Lead + " " : ", ") + std::to_string(X) +
           " x " + std::to_string(Y);
  return Out.empty() ? Out : Out + " " + Tail;
}

/// The zsum variant's terms by plane and its loads a plane.
static void printPlaneSums(std::string &Out, const ir::Stencil &S,
                           const KernelPlan &K) {
  const PlaneSums &P = K.Sums;
  Out += "    march loop: " +
         (K.Stages ? std::to_string(K.Stages) +
                         " planes in shared memory, copied asynchronously "
                         "ahead of the one summed, a barrier a plane"
                   : "unrolled " + std::to_string(K.Unroll)) +
         "; " + std::to_string(P.Terms.size()) + " terms over z " +
         signedText(P.Lo) + " .. " + signedText(P.Hi) +
         " in the source's "
         "order; " +
         std::to_string(P.runningSums()) + " running sums a point\n";
  for (int Plane = P.Lo; Plane <= P.Hi; ++Plane) {
    std::string Terms;
    for (size_t T = 0; T < P.Terms.size(); ++T)
      if (P.Terms[T].Plane == Plane)
        Terms += (Terms.empty() ? "" : ", ") + std::to_string(T + 1);
    Out += "    plane " + signedText(Plane) + ": " +
           (Terms.empty() ? std::string("no term") : "terms " + Terms) + "\n";
  }
  if (K.Stages) {
    for (const PlaneFootprint &F : P.Footprints)
      Out += "    copy a plane: " + S.Params[F.Param].Name + " at x " +
             signedText(F.X[0]) + " .. " + signedText(F.X[1]) + ", y " +
             signedText(F.Y[0]) + " .. " + signedText(F.Y[1]) +
             " of the block's points\n";
    return;
  }
  for (const PlaneLoad &L : P.Loads) {
    const ir::Param &Par = S.Params[L.Param];
    Out += "    load a plane: " + Par.Name + "[" + std::to_string(L.X) + "," +
           std::to_string(L.Y) + "]" +
           (L.SecondOnly ? " (the second point's only: from the row below "
                           "where it is past the region)"
                         : "") +
           "\n";
  }
}

static void printKernel(std::string &Out, const ir::Stencil &S,
                        const KernelPlan &K) {
  const ThreadMapping &T = K.Threads;
  const char *March = AxisNames[T.MarchDim];
  Out += std::string("  variant ") + variantName(K.Variant) + ": block " +
         (T.MarchDim == 2 ? "(bx, by) over x, y" : "(bx) over x") +
         "; each thread marches a chunk of " + March + "; " +
         std::to_string(T.Points) + (T.Points == 1 ? " point" : " points") +
         " per thread";
  if (T.Points > 1)
    Out += T.adjacent() ? ", adjacent in y" : ", blockDim.x apart in x";
  Out += "\n";
  if (K.Variant == VariantKind::ZSum || K.Variant == VariantKind::ZSum4) {
    printPlaneSums(Out, S, K);
    return;
  }
  Out += "    march loop: " + (K.Unroll ? "unrolled " + std::to_string(K.Unroll)
                                         : std::string("not unrolled")) +
         "; queues " +
         (K.SplitQueueSteps
              ? "loaded by every point before any body runs, shifted after "
                "the last"
              : "loaded, used and shifted point by point") +
         "\n";
  for (const QueueRegisters &Q : K.Queues)
    Out += "    queue " + S.Params[Q.Param].Name +
           (Q.Centre ? " (centre)" : " " + offsetText(Q.Column, S.Dims)) + ": " +
           March + " " + signedText(Q.Lo) + " .. " + signedText(Q.Hi) + ", " +
           std::to_string(Q.length()) + " registers\n";
  if (K.tiled()) {
    Out += "    tile: halo x -" + std::to_string(K.TileHalo[0].Lo) + " .. +" +
           std::to_string(K.TileHalo[0].Hi);
    if (T.MarchDim == 2)
      Out += ", y -" + std::to_string(K.TileHalo[1].Lo) + " .. +" +
             std::to_string(K.TileHalo[1].Hi);
    Out += "; two barriers per step\n";
    for (const TiledArray &A : K.Tiles)
      Out += "    tile of " + S.Params[A.Param].Name + ": own cell from " +
             (A.CentreQueue >= 0
                  ? queueText(S, K, A.CentreQueue, A.CentreSlot)
                  : std::string("memory")) +
             "\n";
  }
  for (const PlannedLoad &L : K.Loads) {
    const ir::Param &P = S.Params[L.Param];
    Out += "    load " + P.Name + ir::printArrayOffset(P, L.Off, S.Dims) +
           ": " + sourceText(S, K, L) + "\n";
  }
}

/// The temporal kernels of a stencil a time loop repeats (TemporalPlan.h),
/// or why there are none.
static void printTemporal(std::string &Out, const StencilPlan &SP) {
  const ir::Stencil &S = *SP.Stencil;
  const TemporalPlan &T = SP.Temporal;
  if (T.Pairs.empty()) {
    Out += "  temporal (CUDA): none: " + T.WhyNot + "\n";
    return;
  }
  for (const TimePair &P : T.Pairs) {
    Out += "  temporal (CUDA): " + S.Params[P.In].Name + " -> " +
           S.Params[P.Out].Name + ", up to " + std::to_string(T.MaxSteps) +
           " steps per pass; reach";
    for (unsigned D = 0; D < S.Dims; ++D)
      Out += std::string(" ") + AxisNames[D] + " -" +
             std::to_string(P.Reach[D].Lo) + "..+" +
             std::to_string(P.Reach[D].Hi);
    if (T.LevelBarrier)
      Out += "; " + std::to_string(P.RingDepth - 1) +
             (P.RingDepth == 2 ? " row" : " rows") +
             " per level in registers, the neighbours along x from a shared "
             "row, a barrier a level\n";
    else
      Out += "; a ring of " + std::to_string(P.RingDepth) + " " +
             (S.Dims == 3 ? "planes" : "rows") +
             " per level; own columns from the rings from " +
             std::to_string(P.RingColumnsFrom) +
             " steps a pass (shorter: level 1's, the others' from "
             "registers)\n";
  }
  Out += "  temporal default: " + std::to_string(T.DefaultSteps) +
         (T.DefaultSteps == 1 ? " step (one by one); a pass: tile "
                              : " steps, tile ") +
         std::to_string(T.DefaultBlock[0]) +
         (S.Dims == 3 ? " x " + std::to_string(T.DefaultBlock[1]) : "") +
         ", chunk " + std::to_string(T.DefaultBlock[2]) + "\n";
  Out += "  temporal tiles with constant extents:";
  for (std::size_t I = 0; I < T.ConstantTiles.size(); ++I)
    Out += std::string(I ? ", " : " ") + std::to_string(T.ConstantTiles[I][0]) +
           (S.Dims == 3 ? " x " + std::to_string(T.ConstantTiles[I][1]) : "");
  Out += " (others: the kernel with runtime extents)\n";
  Out += "  temporal registers: 32 a thread up to " +
         std::to_string(T.TwoBlocksUpTo) +
         " steps per pass (two blocks of 1024 threads an SM), up to " +
         (T.RegistersAbove ? std::to_string(T.RegistersAbove) +
                                 " above (where nvcc can bound them so; 64 "
                                 "before 12.4)\n"
                           : std::string("64 above\n"));
  // Below the plan's least dividend a product may differ from the quotient
  // (a power of two).
  const std::string Below =
      T.divisionsCheckedAPlane()
          ? " (a dividend below 2^" +
                std::to_string(std::ilogb(T.LeastDividend)) + ")"
          : "";
  if (T.LevelBarrier) {
    Out += std::string("  temporal chunks: with no test where the tile and "
                       "every level's rows are inside the region") +
           (T.divisionsCheckedAPlane()
                ? "; there exact divisions as products, the chunk again "
                  "dividing where one may differ" +
                      Below
                : "") +
           "\n";
    return;
  }
  Out += std::string("  temporal steady part: ") +
         (T.EveryThreadComputes
              ? "every thread computes every level"
              : "a thread computes the levels wanted at its point") +
         (T.InteriorSteadyPart
              ? "; printed again for blocks with no point of the margin"
              : "") +
         (T.SteadyFromChunkStart
              ? "; from a chunk's first plane where the loop's are in the "
                "region"
              : "") +
         (T.divisionsCheckedAPlane()
              ? "; exact divisions as products, checked once a plane" + Below
              : "") +
         "\n";
  if (T.CentreMarginUpTo > 0)
    Out +=
        "  temporal margin: the level below's centre where the two arrays "
        "hold the same (passes of up to " +
        std::to_string(T.CentreMarginUpTo) +
        " steps, tiles with constant "
        "extents" +
        (T.MarginThreadsCompute ? "; its threads compute the levels too" : "") +
        "), else from memory\n";
  if (T.summedByPlanes())
    Out +=
        "  temporal passes summed by planes: " +
        (T.PlaneSumMaxSteps > 2 ? "2 to " + std::to_string(T.PlaneSumMaxSteps)
                                : std::string("2")) +
        " steps, " + std::to_string(T.PlaneSumPoints) +
        " points a thread (a tile of bx x by points, all stored, by a "
        "multiple of " +
        std::to_string(T.PlaneSumPoints) + ", at most " +
        std::to_string(PlaneSumPassThreads) +
        " threads; the border each level below the last adds, at most " +
        std::to_string(PlaneSumPassBorder) +
        " points a thread), where the two arrays' margins are the same" +
        heldTerms(T.Sums) +
        tileList(T.PlaneSumConstantThreads,
                 "compiled with constant extents for", "threads") +
        tileList(T.PlanesOnlyTiles, "the tuner also tries",
                 "points, which only this pass takes (the rings' pass in "
                 "halves)") +
        "\n";
  else
    Out += "  temporal passes summed by planes: none: " + T.PlaneSumPassWhyNot +
           "\n";
}

/// The float divisions by constants, by divisor: how many CUDA computes as
/// exact products (BinaryExpr::Reciprocal), how many it keeps.
static void printDivisions(std::string &Out, const ir::Stencil &S) {
  struct Divisor {
    float Value;
    int Exact = 0, Kept = 0;
  };
  // In the order they first appear; told apart by their bits (-0 from 0,
  // any NaN from the others).
  std::vector<Divisor> Divisors;
  auto OnExpr = [&Divisors](const ir::Expr &Top) {
    ir::walkExpr(Top, [&Divisors](const ir::Expr &E) {
      const auto *B = llvm::dyn_cast<ir::BinaryExpr>(&E);
      if (!B || B->Op != ir::BinaryOp::Div ||
          B->type().kind() != ir::ScalarKind::Float32)
        return;
      const std::optional<float> D = ir::floatConstantValue(*B->RHS);
      if (!D)
        return;
      auto Same = [&D](const Divisor &X) {
        return std::memcmp(&X.Value, &*D, sizeof(float)) == 0;
      };
      auto It = std::find_if(Divisors.begin(), Divisors.end(), Same);
      if (It == Divisors.end())
        It = Divisors.insert(Divisors.end(), Divisor{*D});
      ++(B->Reciprocal ? It->Exact : It->Kept);
    });
  };
  if (S.Body)
    ir::walkStmt(
        *S.Body, [](const ir::Stmt &) {}, OnExpr);
  if (Divisors.empty())
    return;
  Out += "  float divisions by constants (CUDA):";
  const char *Separator = " ";
  for (const Divisor &D : Divisors) {
    char Text[64];
    const std::to_chars_result R =
        std::to_chars(Text, Text + sizeof(Text), D.Value);
    const std::string By = "by " + std::string(Text, R.ptr);
    if (D.Exact) {
      Out += Separator + By + " as an exact product (" +
             std::to_string(D.Exact) + ")";
      Separator = ", ";
    }
    if (D.Kept)
      Out += Separator + By + " kept as a division (" + std::to_string(D.Kept) +
             ")";
    Separator = "; ";
  }
  Out += "\n";
}

static void printStencil(std::string &Out, const StencilPlan &SP) {
  const ir::Stencil &S = *SP.Stencil;
  Out += "stencil " + S.qualifiedName() + " (" + S.Loc.File + ":" +
         std::to_string(S.Loc.Line) + "), " + std::to_string(S.Dims) + "-D\n";
  const DefaultLaunch &D = SP.Default;
  Out += std::string("  default launch (CUDA, untuned): ") +
         variantName(D.Variant) + " block (" + std::to_string(D.Block[0]) +
         ", " + std::to_string(D.Block[1]) + ")";
  Out += isMarching(D.Variant) ? " chunk " + std::to_string(D.Block[2])
                               : " z " + std::to_string(D.Block[2]);
  Out += "\n";
  for (VariantKind V : SP.Variants) {
    if (!isMarching(V)) {
      Out += "  variant grid: one point per thread; block (bx, by, bz) over x, "
             "y, z";
      Out += S.Dims == 4 ? " (z and w share blockIdx.z)\n" : "\n";
      continue;
    }
    printKernel(Out, S, planKernel(SP, V));
  }
  // Where running sums would replace queues, why the body's sum cannot.
  const PlaneSums &Sums = SP.March.Sums;
  if (S.Dims == 3 && isMarching(SP.Default.Variant) && !Sums.applies() &&
      Sums.OffCentreColumns)
    Out += "  variant zsum: none: " + Sums.WhyNot + "\n";
  if (S.Dims == 3 && isMarching(SP.Default.Variant) && Sums.applies() &&
      Sums.OffCentreColumns && Sums.heldValues())
    Out += "  variant zsum: none: it would hold terms (of earlier planes "
           "after later ones), which only the passes summed by planes do\n";
  if (Sums.replacesQueues() && !Sums.staged())
    Out += "  variant zsum4: none: " + Sums.StagesWhyNot + "\n";
  printDivisions(Out, S);
  const CpuLoopPlan &C = SP.Cpu;
  if (!C.SimdRows)
    Out += "  openmp: x loop not vectorised (a written array is read along "
           "the row)\n";
  if (C.Blocked)
    Out += "  openmp: blocked for cache: y tiles x z chunks, sized at run "
           "time; " +
           std::to_string(C.RowBytesPerPoint) + " bytes per point of a tile "
           "row; halo " + std::to_string(C.HaloY) + " rows, " +
           std::to_string(C.HaloZ) + " planes\n";
  else
    Out += "  openmp: rows shared among threads\n";
  if (S.TimeLoop)
    printTemporal(Out, SP);
}

std::string planning::printModulePlan(const ModulePlan &Plan) {
  std::string Out;
  for (const StencilPlan &SP : Plan.Stencils)
    printStencil(Out, SP);
  return Out + printStepPlans(Plan);
}
