//===- IRJson.h - The --emit=ir JSON document ------------------*- C++ -*-===//
///
/// \file
/// The analysed IR as JSON, for people and tests:
/// {"format":"stencilc-ir","version":1,"stencils":[{"name","qualified_name","form","dims","source",
///   "params":[...], "arrays":[{"name","type","intent","offsets","halo"}],
///   "halo", "flops_per_point","bytes_per_point","body"}]}
/// Halo per dimension in x,y,z(,w) order as [lo, hi], lo the negative side;
/// offsets and halos have exactly "dims" components. A parameter's "type" is
/// its IR name ("f32", an array's element type), or "index" for the index.
/// Arrays are listed in parameter order with intent "in", "out" or "inout",
/// offsets sorted; counts print as integers when they are integral.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_DRIVER_IRJSON_H
#define STENCILC_DRIVER_IRJSON_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/Analysis/StepGraph.h"
#include "stencilc/IR/Module.h"
#include <string>
#include <vector>

namespace stencilc {

/// What a reader checks before it reads the rest: the document's kind, and
/// its version, raised whenever a field is removed or changes meaning (not
/// when one is added).
inline constexpr const char *IRJsonFormat = "stencilc-ir";
inline constexpr int IRJsonVersion = 1;

/// The JSON text (two-space indent, keys in a fixed order, final newline).
/// "steps" (with StepInfos, parallel to M.Steps) only when \p M has steps.
std::string printIRJson(const ir::Module &M,
                        const std::vector<analysis::StencilInfo> &Infos,
                        const std::vector<analysis::StepInfo> &StepInfos = {});

} // namespace stencilc

#endif // STENCILC_DRIVER_IRJSON_H
