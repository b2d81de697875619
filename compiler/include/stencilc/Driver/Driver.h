//===- Driver.h - The stencilc command line --------------------*- C++ -*-===//
///
/// \file
/// Parses the command line (LibTooling conventions), runs Frontend, Analysis,
/// Planning and Emission, each once per input, and writes the outputs and a
/// depfile.
///
/// Exit codes: 0 success; 1 errors in the input (diagnostics printed);
/// 2 bad command line; 3 an output could not be written.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_DRIVER_DRIVER_H
#define STENCILC_DRIVER_DRIVER_H

namespace stencilc {

enum ExitCode {
  ExitSuccess = 0,
  ExitInputError = 1,
  ExitUsageError = 2,
  ExitOutputError = 3
};

int runDriver(int Argc, const char **Argv);

} // namespace stencilc

#endif // STENCILC_DRIVER_DRIVER_H
