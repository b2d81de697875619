//===- StepGraph.cpp - A step's dependency graph --------------------------===//
#include "stencilc/Analysis/StepGraph.h"
#include <algorithm>
#include <optional>
#include <tuple>

using namespace stencilc;
using namespace stencilc::analysis;

const char *analysis::dependenceKindName(DependenceKind K) {
  switch (K) {
  case DependenceKind::Flow:
    return "flow";
  case DependenceKind::Anti:
    return "anti";
  case DependenceKind::Output:
    return "output";
  }
  return "flow";
}

bool Dependence::offCentre() const {
  return std::any_of(Offsets.begin(), Offsets.end(), [](const ir::Offset &O) {
    return O != ir::Offset{};
  });
}

std::optional<ArrayUse> analysis::useOf(const ir::StepCall &C,
                                        const StencilInfo &Info,
                                        unsigned Param) {
  std::optional<ArrayUse> U;
  for (const ArrayInfo &A : Info.Arrays) {
    const ir::StepArg &Arg = C.Args[A.Param - 1];
    if (Arg.From != ir::StepArg::Kind::Param || Arg.Param != Param ||
        (!A.Read && !A.Written))
      continue;
    if (!U)
      U.emplace();
    U->Read |= A.Read;
    U->Written |= A.Written;
    U->Offsets.insert(U->Offsets.end(), A.ReadOffsets.begin(),
                      A.ReadOffsets.end());
  }
  if (U) {
    std::sort(U->Offsets.begin(), U->Offsets.end());
    U->Offsets.erase(std::unique(U->Offsets.begin(), U->Offsets.end()),
                     U->Offsets.end());
  }
  return U;
}

/// Reports an array of the step passed to two array parameters of one call
/// when the stencil writes through either.
static void checkAliases(const ir::Module &M, const ir::Step &S,
                         const ir::StepCall &C, const StencilInfo &Info,
                         DiagnosticSink &Diags) {
  const ir::Stencil &St = M.Stencils[C.Stencil];
  for (size_t A = 0; A < Info.Arrays.size(); ++A)
    for (size_t B = A + 1; B < Info.Arrays.size(); ++B) {
      const ArrayInfo &X = Info.Arrays[A], &Y = Info.Arrays[B];
      const ir::StepArg &AX = C.Args[X.Param - 1], &AY = C.Args[Y.Param - 1];
      if (AX.From != ir::StepArg::Kind::Param ||
          AY.From != ir::StepArg::Kind::Param || AX.Param != AY.Param ||
          !(X.Written || Y.Written))
        continue;
      Diags.report(DiagId::err_step_alias, AY.Range,
                   {S.Params[AX.Param].Name, St.qualifiedName(),
                    St.Params[X.Param].Name, St.Params[Y.Param].Name});
    }
}

/// Whether the stencil of \p Info reads or writes array parameter \p Param.
static bool accesses(const StencilInfo &Info, unsigned Param) {
  return llvm::any_of(Info.Arrays, [Param](const ArrayInfo &A) {
    return A.Param == Param && (A.Read || A.Written);
  });
}

/// Reports an array of the step that two stencils index with different
/// dimensions (a full array in one, a profile in another): its elements
/// would not be the same points. A stencil that neither reads nor writes
/// the array says nothing of its shape (its parameter is all dimensions).
/// Returns each array's dimensions (StepInfo::ArrayAxes).
static std::vector<unsigned> checkRanks(const ir::Module &M, const ir::Step &S,
                                        const std::vector<StencilInfo> &Infos,
                                        DiagnosticSink &Diags) {
  std::vector<unsigned> Result(S.Params.size(), 0u);
  for (unsigned P = 1; P < S.Params.size(); ++P) {
    const ir::StepCall *First = nullptr;
    unsigned FirstAxes = 0;
    for (const ir::StepCall &C : S.Calls) {
      const ir::Stencil &St = M.Stencils[C.Stencil];
      for (unsigned A = 0; A < C.Args.size(); ++A) {
        if (C.Args[A].From != ir::StepArg::Kind::Param ||
            C.Args[A].Param != P || !accesses(Infos[C.Stencil], A + 1))
          continue;
        const unsigned Axes = ir::arrayAxes(St.Params[A + 1], St.Dims);
        if (!First) {
          First = &C;
          FirstAxes = Result[P] = Axes;
        } else if (Axes != FirstAxes) {
          Diags.report(DiagId::err_step_array_axes, C.Args[A].Range,
                       {S.Params[P].Name, ir::axesName(Axes),
                        St.qualifiedName(), ir::axesName(FirstAxes),
                        M.Stencils[First->Stencil].qualifiedName()});
          return Result;
        }
      }
    }
  }
  return Result;
}

void analysis::widenHalo(Halo &H, bool &Diagonal,
                         const std::vector<ir::Offset> &Offsets) {
  for (const ir::Offset &O : Offsets) {
    unsigned NonZero = 0;
    for (unsigned D = 0; D < ir::MaxDims; ++D) {
      H[D].Lo = std::max(H[D].Lo, -static_cast<long long>(O[D]));
      H[D].Hi = std::max(H[D].Hi, static_cast<long long>(O[D]));
      NonZero += O[D] != 0;
    }
    Diagonal |= NonZero >= 2;
  }
}

/// Reports a scratch array (STENCIL_SCRATCH) whose first use in \p S reads
/// it, or whose first writer leaves points unwritten: either would read a
/// value an earlier step left, which a fused kernel need not have stored.
static void checkScratch(const ir::Module &M, const ir::Step &S,
                         const std::vector<StencilInfo> &Infos,
                         DiagnosticSink &Diags) {
  for (unsigned P = 1; P < S.Params.size(); ++P) {
    if (!S.Params[P].Scratch)
      continue;
    bool Used = false;
    for (const ir::StepCall &Call : S.Calls) {
      std::optional<ArrayUse> U = useOf(Call, Infos[Call.Stencil], P);
      if (!U)
        continue;
      Used = true;
      const ir::Stencil &St = M.Stencils[Call.Stencil];
      const SourceRange At = Call.Args[Call.boundTo(P).front() - 1].Range;
      bool Partial = false;
      for (const ArrayInfo &A : Infos[Call.Stencil].Arrays)
        Partial |= A.Written &&
                   Call.Args[A.Param - 1].From == ir::StepArg::Kind::Param &&
                   Call.Args[A.Param - 1].Param == P &&
                   !ir::storesOnEveryPath(St, A.Param);
      if (U->Read)
        Diags.report(DiagId::err_scratch_read_first, At,
                     {St.qualifiedName(), S.Params[P].Name, S.Name});
      else if (Partial)
        Diags.report(DiagId::err_scratch_partial, At,
                     {St.qualifiedName(), S.Params[P].Name});
      if (U->Read || Partial)
        Diags.report(DiagId::note_scratch_declared, S.Params[P].Range,
                     {S.Params[P].Name});
      break;
    }
    if (!Used)
      Diags.report(DiagId::warn_scratch_unused, S.Params[P].Range,
                   {S.Params[P].Name, S.Name});
  }
}

StepInfo analysis::analyzeStep(const ir::Module &M, const ir::Step &S,
                               const std::vector<StencilInfo> &Infos,
                               DiagnosticSink &Diags) {
  StepInfo Result;
  for (const ir::StepCall &C : S.Calls)
    checkAliases(M, S, C, Infos[C.Stencil], Diags);
  Result.ArrayAxes = checkRanks(M, S, Infos, Diags);
  checkScratch(M, S, Infos, Diags);
  Result.Written.assign(S.Params.size(), false);
  for (unsigned P = 1; P < S.Params.size(); ++P) {
    if (S.Params[P].Kind != ir::ParamKind::Array)
      continue;
    // Walks the calls in order, remembering the last writer and the readers
    // since; one HaloNeed per write (or the step's start) and its readers.
    // A reader depends on every writer since the last that stores the array
    // on every path: where a later one does not store, it reads theirs.
    int LastWriter = -1;
    std::vector<unsigned> Writers;
    std::vector<unsigned> ReadersSince;
    std::optional<HaloNeed> Open;
    bool LowerRank = false;
    for (unsigned C = 0; C < S.Calls.size(); ++C) {
      const ir::StepCall &Call = S.Calls[C];
      std::optional<ArrayUse> U = useOf(Call, Infos[Call.Stencil], P);
      if (!U)
        continue;
      for (const analysis::ArrayInfo &A : Infos[Call.Stencil].Arrays)
        if (Call.Args[A.Param - 1].From == ir::StepArg::Kind::Param &&
            Call.Args[A.Param - 1].Param == P)
          LowerRank |= ir::isLowerRank(M.Stencils[Call.Stencil].Params[A.Param],
                                       S.Dims);
      if (U->Read) {
        for (unsigned W : Writers)
          if (W != C)
            Result.Dependences.push_back(
                {DependenceKind::Flow, W, C, P, U->Offsets});
        bool OffCentre = std::any_of(
            U->Offsets.begin(), U->Offsets.end(),
            [](const ir::Offset &O) { return O != ir::Offset{}; });
        if (OffCentre && !LowerRank) {
          if (!Open) {
            Open.emplace();
            Open->Param = P;
            Open->After = LastWriter;
            Open->Before = C;
          }
          widenHalo(Open->Halo, Open->Diagonal, U->Offsets);
        }
      }
      if (U->Written) {
        Result.Written[P] = true;
        if (LastWriter >= 0 && static_cast<unsigned>(LastWriter) != C)
          Result.Dependences.push_back({DependenceKind::Output,
                                        static_cast<unsigned>(LastWriter), C,
                                        P, {}});
        for (unsigned R : ReadersSince)
          if (R != C) {
            std::optional<ArrayUse> RU = useOf(S.Calls[R], Infos[S.Calls[R].Stencil], P);
            Result.Dependences.push_back(
                {DependenceKind::Anti, R, C, P, RU ? RU->Offsets
                                                   : std::vector<ir::Offset>()});
          }
        if (Open)
          Result.Exchanges.push_back(*Open);
        Open.reset();
        ReadersSince.clear();
        LastWriter = static_cast<int>(C);
        bool EveryPath = false;
        for (unsigned SP : Call.boundTo(P))
          EveryPath |= ir::storesOnEveryPath(M.Stencils[Call.Stencil], SP);
        if (EveryPath)
          Writers.clear();
        Writers.push_back(C);
      } else {
        ReadersSince.push_back(C);
      }
    }
    if (Open)
      Result.Exchanges.push_back(*Open);
  }
  std::sort(Result.Dependences.begin(), Result.Dependences.end(),
            [](const Dependence &A, const Dependence &B) {
              return std::make_tuple(A.To, A.From, A.Param, int(A.Kind)) <
                     std::make_tuple(B.To, B.From, B.Param, int(B.Kind));
            });
  std::sort(Result.Exchanges.begin(), Result.Exchanges.end(),
            [](const HaloNeed &A, const HaloNeed &B) {
              return std::make_pair(A.Before, A.Param) <
                     std::make_pair(B.Before, B.Param);
            });
  return Result;
}
