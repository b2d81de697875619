//===- IRJson.h - The --emit=ir JSON document ------------------*- C++ -*-===//
///
/// \file
/// The analysed IR as JSON, for people and tests:
/// {"stencils":[{"name","qualified_name","form","dims","source",
///   "params":[...], "arrays":[{"name","type","intent","offsets","halo"}],
///   "halo", "flops_per_point","bytes_per_point","body"}]}
/// Halo per dimension in x,y,z(,w) order as [lo, hi], lo the negative side.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_DRIVER_IRJSON_H
#define STENCILC_DRIVER_IRJSON_H

#include "stencilc/Analysis/StencilInfo.h"
#include "stencilc/IR/Stencil.h"
#include <string>
#include <vector>

namespace stencilc {

/// The JSON text (two-space indent, keys in a fixed order, final newline).
std::string printIRJson(const ir::Module &M, const std::vector<analysis::StencilInfo> &Infos);

} // namespace stencilc

#endif // STENCILC_DRIVER_IRJSON_H
