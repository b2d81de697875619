//===- Colour.h - Coloured diagnostics from the compiler flags --*- C++ -*-===//
//
// clang's diagnostic printer writes colour codes only to a stream whose
// colours are enabled; stencilc enables them on stderr as clang's own driver
// would, from the last -f[no-]color-diagnostics / -f[no-]diagnostics-color[=]
// among the compiler flags (build systems that capture the output, such as
// Ninja, pass -fcolor-diagnostics).
//
//===----------------------------------------------------------------------===//
#ifndef STENCILC_DRIVER_COLOUR_H
#define STENCILC_DRIVER_COLOUR_H

#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace stencilc {

/// Enables or disables colours on llvm::errs() from \p CompilerFlags; without
/// a colour flag (or with =auto), colours when stderr is a terminal. Returns
/// the flag that makes clang's printer agree ("-f[no-]color-diagnostics"):
/// the compilation database drops the user's own colour flags as unused.
std::string applyColourFlags(llvm::ArrayRef<std::string> CompilerFlags);

} // namespace stencilc

#endif
