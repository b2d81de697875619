//===- CompileCommandCheck.h - Compiler flags checked up front -*- C++ -*-===//
///
/// \file
/// Checks each source's compile command (after every arguments adjuster)
/// before the parse. Clang's driver reports a bad flag (an unknown argument,
/// an invalid value, `-std=c99` for C++) as an error but LibTooling then
/// parses anyway, without the flag; and a language other than C++ (`-x c`,
/// `-x cuda`) would parse the DSL wrongly. Either is a command-line error.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_DRIVER_COMPILECOMMANDCHECK_H
#define STENCILC_DRIVER_COMPILECOMMANDCHECK_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
} // namespace clang::tooling

namespace stencilc {

/// Prints "stencilc: error: ..." for every problem found; returns false if
/// there was one. \p Adjust is the adjuster chain the tool applies.
bool checkCompileCommands(const clang::tooling::CompilationDatabase &DB,
                          const std::vector<std::string> &Sources,
                          const clang::tooling::ArgumentsAdjuster &Adjust);

/// Prints "stencilc: error: ..." for each input file among \p Flags (the
/// arguments after `--`: a second `--`, after which clang's driver reads
/// flags as files, or a file name), which LibTooling would drop with a
/// message and no error; returns false if there was one.
bool checkFlagsNameNoInputs(llvm::ArrayRef<const char *> Flags);

} // namespace stencilc

#endif // STENCILC_DRIVER_COMPILECOMMANDCHECK_H
