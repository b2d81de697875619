//===- CheckAccesses.cpp - Rules on how arrays are accessed ---------------===//
///
/// \file
/// A stencil runs for all points at once, so an array it writes may be read
/// only at the centre: a read at any other offset could see a neighbour's
/// new value or its old one depending on scheduling. One error per such
/// array, at its first off-centre load in body order, keeps the output short
/// and deterministic; the note points at the array's first store.
///
//===----------------------------------------------------------------------===//
#include "stencilc/Analysis/CheckAccesses.h"
#include "stencilc/IR/IRPrinter.h"
#include "llvm/Support/Casting.h"

using namespace stencilc;
using namespace stencilc::analysis;
using namespace stencilc::ir;

static bool isCentre(const Offset &Off) {
  for (int C : Off)
    if (C != 0)
      return false;
  return true;
}

void stencilc::analysis::checkAccesses(const Stencil &S,
                                       const StencilInfo &Info,
                                       DiagnosticSink &Diags) {
  bool AnyWritten = false;
  for (const ArrayInfo &A : Info.Arrays)
    AnyWritten |= A.Written;
  if (!AnyWritten) {
    Diags.report(DiagId::warn_no_store, S.Range, {S.Name});
    return;
  }
  if (!S.Body)
    return;

  // Per parameter: the first store and the first off-centre load, in body
  // order (walkStmt visits statements and operands in source order).
  std::vector<const StoreStmt *> FirstStore(S.Params.size(), nullptr);
  std::vector<const LoadExpr *> FirstOffCentre(S.Params.size(), nullptr);
  walkStmt(
      *S.Body,
      [&](const Stmt &St) {
        if (const auto *Store = llvm::dyn_cast<StoreStmt>(&St))
          if (!FirstStore[Store->Param])
            FirstStore[Store->Param] = Store;
      },
      [&](const Expr &Top) {
        walkExpr(Top, [&](const Expr &E) {
          if (const auto *Load = llvm::dyn_cast<LoadExpr>(&E))
            if (!isCentre(Load->Off) && !FirstOffCentre[Load->Param])
              FirstOffCentre[Load->Param] = Load;
        });
      });

  for (const ArrayInfo &A : Info.Arrays) {
    const LoadExpr *Load = FirstOffCentre[A.Param];
    const StoreStmt *Store = FirstStore[A.Param];
    if (!A.Written || !Load || !Store)
      continue;
    const std::string &Name = S.Params[A.Param].Name;
    Diags.report(DiagId::err_race_write_read_off_centre, Load->range(),
                 {Name, printOffset(Load->Off, S.Dims)});
    Diags.report(DiagId::note_written_here, Store->range(), {Name});
  }
}
