//===- BuildCommand.h - A build's compile command, fit for stencilc -------===//
//
// A -p database holds the commands a build runs with its own compiler (g++
// under CMake): made fit for stencilc's Clang without changing what the
// source means.
//
//===----------------------------------------------------------------------===//
#ifndef STENCILC_DRIVER_BUILDCOMMAND_H
#define STENCILC_DRIVER_BUILDCOMMAND_H

#include "clang/Tooling/ArgumentsAdjusters.h"

namespace stencilc {

/// Adjusts a -p database's command: `$$` read as `$` (CMake writes make's and
/// Ninja's escaping into compile_commands.json); options Clang does not know
/// (GCC's own, -fcoroutines) dropped with one warning each on stderr; `-include
/// F` given to Clang's frontend directly (its driver would load GCC's F.gch as
/// a Clang precompiled header); -Werror (=...) and -pedantic-errors dropped:
/// they are the build's, and Clang warns of other things than GCC.
clang::tooling::ArgumentsAdjuster buildCommandAdjuster();

} // namespace stencilc

#endif // STENCILC_DRIVER_BUILDCOMMAND_H
