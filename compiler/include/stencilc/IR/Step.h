//===- Step.h - A time step: stencils run in order -------------*- C++ -*-===//
///
/// \file
/// A step function (STENCIL_STEP) as the Frontend found it: its parameters
/// (the stencil::Step first, then scalars and arrays, as a stencil's) and the
/// stencils it runs, in order, each with what the step passes for every
/// parameter after the index. Its meaning is the sequence: each stencil runs
/// over every point of the region before the next starts.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_IR_STEP_H
#define STENCILC_IR_STEP_H

#include "stencilc/IR/Stencil.h"
#include <string>
#include <vector>

namespace stencilc::ir {

/// What a step passes for one parameter of a stencil it runs: one of its own
/// parameters, or (scalars only) a literal.
struct StepArg {
  enum class Kind { Param, Constant };
  Kind From = Kind::Param;
  unsigned Param = 0; ///< Kind::Param: index into Step::Params.
  ExprRef Value;      ///< Kind::Constant: a ConstantExpr of the literal.
  SourceRange Range;
};

/// One `step.run(Stencil(), args...)`.
struct StepCall {
  unsigned Stencil = 0;      ///< Index into Module::Stencils.
  std::vector<StepArg> Args; ///< One per stencil parameter after the index.
  SourceRange Range;

  /// The stencil parameters (1-based, as Stencil::Params) bound to the
  /// step's parameter \p StepParam.
  std::vector<unsigned> boundTo(unsigned StepParam) const {
    std::vector<unsigned> Out;
    for (unsigned A = 0; A < Args.size(); ++A)
      if (Args[A].From == StepArg::Kind::Param && Args[A].Param == StepParam)
        Out.push_back(A + 1);
    return Out;
  }
};

struct Step {
  std::string Name;
  std::vector<std::string> Namespaces; ///< Outermost first.
  /// Declared `extern "C"`: the generated declaration says so too.
  bool ExternC = false;
  unsigned Dims = 3;
  /// Params[0] is the stencil::Step (ParamKind::Index); then scalars and
  /// arrays.
  std::vector<Param> Params;
  std::vector<StepCall> Calls; ///< In the order the step runs them.
  PresumedLoc Loc;
  SourceRange Range;

  std::string qualifiedName() const { return ir::qualifiedName(Namespaces, Name); }
  std::string symbolName() const { return ir::symbolName(Namespaces, Name); }
};

} // namespace stencilc::ir

#endif // STENCILC_IR_STEP_H
