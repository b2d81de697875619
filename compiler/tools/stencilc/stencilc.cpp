//===- stencilc.cpp - The stencilc command line ---------------------------===//
#include "stencilc/Driver/Driver.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"
#include <cstdlib>

/// A reader that went away (`stencilc -o - ... | head`) is an output that
/// could not be written: exit code 3, not death by SIGPIPE.
static void exitOnBrokenPipe() { std::_Exit(stencilc::ExitOutputError); }

int main(int Argc, const char **Argv) {
  // Before InitLLVM: the signal handlers are installed once, SIGPIPE's only
  // if a pipe function is known by then.
  llvm::sys::SetOneShotPipeSignalFunction(exitOnBrokenPipe);
  // On a crash: the program's arguments, what it was doing, and the stack.
  llvm::InitLLVM Crash(Argc, Argv, /*InstallPipeSignalExitHandler=*/false);
  llvm::setBugReportMsg("PLEASE report this stencilc crash with the command "
                        "line and the input file(s) below.\n");
  return stencilc::runDriver(Argc, Argv);
}
