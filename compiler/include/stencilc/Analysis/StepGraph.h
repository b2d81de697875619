//===- StepGraph.h - A step's dependency graph -----------------*- C++ -*-===//
///
/// \file
/// What the stencils of a step (ir::Step) do to the step's arrays, in the
/// step's order: which call reads an array another wrote and at which
/// offsets (flow), which writes an array an earlier one read (anti) or wrote
/// (output), and which halos must be current before a call reads them off
/// the centre (what a distributed run exchanges, and after which call).
/// Expects the stencils' own analyses (StencilInfo).
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_ANALYSIS_STEPGRAPH_H
#define STENCILC_ANALYSIS_STEPGRAPH_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/Basic/Diagnostic.h"
#include "stencilc/IR/Module.h"
#include <optional>
#include <vector>

namespace stencilc::analysis {

enum class DependenceKind {
  Flow,   ///< To reads what From wrote.
  Anti,   ///< To writes what From read.
  Output, ///< To writes what From wrote.
};
const char *dependenceKindName(DependenceKind K);

/// One edge between two calls of a step (indices into Step::Calls), through
/// array Param of the step.
struct Dependence {
  DependenceKind Kind = DependenceKind::Flow;
  unsigned From = 0, To = 0;
  unsigned Param = 0;
  /// Flow: the offsets To reads the array at; Anti: those From read it at.
  std::vector<ir::Offset> Offsets;
  /// Some offset is not the centre: a point needs its neighbours' values.
  bool offCentre() const;
};

/// Before call Before, the halo of array Param must hold what call After
/// wrote (-1: what the array held when the step began): Before (and
/// possibly calls after it, up to the next write) reads it off the centre.
/// Halo is the union over those reads; Diagonal: some offset has two or
/// more non-zero components (edges and corners are read). Arrays of lower
/// rank are not exchanged.
struct HaloNeed {
  unsigned Param = 0;
  int After = -1;
  unsigned Before = 0;
  analysis::Halo Halo{};
  bool Diagonal = false;
};

struct StepInfo {
  std::vector<Dependence> Dependences; ///< By To, then From, then Param.
  std::vector<HaloNeed> Exchanges;     ///< By Before, then Param.
  /// Per step parameter (0 the Step): the dimensions its calls read or
  /// write the array over (ir::arrayAxes of their parameters), 0 for a
  /// scalar and for an array no call accesses.
  std::vector<unsigned> ArrayAxes;
  /// Per step parameter (0 the Step): whether some call writes the array.
  std::vector<bool> Written;
};

/// How one call uses one array of the step (through one or more of its
/// stencil's parameters).
struct ArrayUse {
  bool Read = false, Written = false;
  std::vector<ir::Offset> Offsets; ///< Read offsets, sorted, unique.
};

/// The use of step array \p Param by call \p C (whose stencil's analysis is
/// \p Info), or none.
std::optional<ArrayUse> useOf(const ir::StepCall &C, const StencilInfo &Info,
                              unsigned Param);

/// \p H grown to read \p Offsets around a point; \p Diagonal set when one
/// has two or more non-zero components (edges and corners are read).
void widenHalo(Halo &H, bool &Diagonal, const std::vector<ir::Offset> &Offsets);

/// The graph of \p S, whose calls run stencils of \p M analysed in \p Infos
/// (parallel to M.Stencils). Reports an array passed twice to one call and
/// written through either (err_step_alias).
StepInfo analyzeStep(const ir::Module &M, const ir::Step &S,
                     const std::vector<StencilInfo> &Infos,
                     DiagnosticSink &Diags);

} // namespace stencilc::analysis

#endif // STENCILC_ANALYSIS_STEPGRAPH_H
