//===- Footprint.cpp - Intents, offsets and halo of each array ------------===//
///
/// \file
/// One walk over the body records, per array parameter, whether it is stored
/// to and every offset it is loaded at. The walk is static: loads in branches
/// that are never taken at run time still count, since the halo must be
/// valid for every point.
///
//===----------------------------------------------------------------------===//
#include "stencilc/Analysis/Footprint.h"
#include "llvm/Support/Casting.h"
#include <algorithm>
#include <cassert>

using namespace stencilc;
using namespace stencilc::analysis;
using namespace stencilc::ir;

const char *stencilc::analysis::intentName(Intent I) {
  switch (I) {
  case Intent::In:
    return "in";
  case Intent::Out:
    return "out";
  case Intent::InOut:
    return "inout";
  }
  return "in";
}

static Intent intentOf(const ArrayInfo &A) {
  if (!A.Written)
    return Intent::In; // Read only, or never touched.
  return A.Read ? Intent::InOut : Intent::Out;
}

/// Two or more non-zero components: a point of the halo's edges or corners.
static bool isDiagonal(const Offset &Off) {
  unsigned NonZero = 0;
  for (int C : Off)
    NonZero += C != 0;
  return NonZero >= 2;
}

static Halo haloOf(const std::vector<Offset> &Offsets) {
  Halo Result{};
  for (const Offset &Off : Offsets)
    for (unsigned D = 0; D < MaxDims; ++D) {
      // Negated in 64 bits: -INT_MIN overflows an int.
      Result[D].Lo = std::max(Result[D].Lo, -static_cast<long long>(Off[D]));
      Result[D].Hi = std::max(Result[D].Hi, static_cast<long long>(Off[D]));
    }
  return Result;
}

void stencilc::analysis::inferFootprint(const Stencil &S, StencilInfo &Info) {
  Info.Arrays.clear();
  Info.Halo = Halo{};
  Info.ReadsDiagonal = false;
  Info.CoordinateDims = 0;

  // Parameter index -> position in Info.Arrays (or -1 for non-arrays).
  std::vector<int> ArrayOf(S.Params.size(), -1);
  for (unsigned P = 0; P < S.Params.size(); ++P) {
    if (S.Params[P].Kind != ParamKind::Array)
      continue;
    ArrayOf[P] = static_cast<int>(Info.Arrays.size());
    ArrayInfo A;
    A.Param = P;
    Info.Arrays.push_back(A);
  }
  auto ArrayFor = [&](unsigned Param) -> ArrayInfo & {
    assert(Param < ArrayOf.size() && ArrayOf[Param] >= 0 &&
           "access to a parameter that is not an array");
    return Info.Arrays[static_cast<unsigned>(ArrayOf[Param])];
  };

  if (S.Body)
    walkStmt(
        *S.Body,
        [&](const Stmt &St) {
          if (const auto *Store = llvm::dyn_cast<StoreStmt>(&St))
            ArrayFor(Store->Param).Written = true;
        },
        [&](const Expr &Top) {
          walkExpr(Top, [&](const Expr &E) {
            if (const auto *Load = llvm::dyn_cast<LoadExpr>(&E)) {
              ArrayInfo &A = ArrayFor(Load->Param);
              A.Read = true;
              A.ReadOffsets.push_back(Load->Off);
            } else if (const auto *C = llvm::dyn_cast<CoordExpr>(&E)) {
              Info.CoordinateDims |= 1u << C->Dim;
            }
          });
        });

  for (ArrayInfo &A : Info.Arrays) {
    std::sort(A.ReadOffsets.begin(), A.ReadOffsets.end());
    A.ReadOffsets.erase(std::unique(A.ReadOffsets.begin(), A.ReadOffsets.end()),
                        A.ReadOffsets.end());
    A.Use = intentOf(A);
    A.Halo = haloOf(A.ReadOffsets);
    Info.ReadsDiagonal |=
        std::any_of(A.ReadOffsets.begin(), A.ReadOffsets.end(), isDiagonal);
    for (unsigned D = 0; D < MaxDims; ++D) {
      Info.Halo[D].Lo = std::max(Info.Halo[D].Lo, A.Halo[D].Lo);
      Info.Halo[D].Hi = std::max(Info.Halo[D].Hi, A.Halo[D].Hi);
    }
  }
}
