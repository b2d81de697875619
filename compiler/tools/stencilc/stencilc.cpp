//===- stencilc.cpp - The stencilc command line ---------------------------===//
#include "stencilc/Driver/Driver.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/thread.h"
#include <cstdlib>
#include <optional>
#include <unistd.h>

/// The stack the driver runs on. Clang parses an `else if` chain, a sum or a
/// run of unary minuses by recursion, about a kilobyte a level: the default
/// 8 MB overflowed near 10000 levels of valid C++ (g++ takes them). With
/// this, such input reaches stencilc's own limit (err_nesting_too_deep at
/// 2000 levels) and fails with a located error; the pages are only used as
/// deep as the input goes.
static constexpr unsigned DriverStackBytes = 1u << 30;

/// A reader that went away (`stencilc -o - ... | head`) is an output that
/// could not be written: its message and exit code 3, not death by SIGPIPE.
/// (A signal handler: write(2) and _Exit only.)
static void exitOnBrokenPipe() {
  static const char Message[] =
      "stencilc: error: cannot write to standard output: Broken pipe\n";
  [[maybe_unused]] const ssize_t Written =
      ::write(2, Message, sizeof Message - 1);
  std::_Exit(stencilc::ExitOutputError);
}

int main(int Argc, const char **Argv) {
  // Before InitLLVM: the signal handlers are installed once, SIGPIPE's only
  // if a pipe function is known by then.
  llvm::sys::SetOneShotPipeSignalFunction(exitOnBrokenPipe);
  // On a crash: the program's arguments, what it was doing, and the stack.
  llvm::InitLLVM Crash(Argc, Argv, /*InstallPipeSignalExitHandler=*/false);
  llvm::setBugReportMsg("PLEASE report this stencilc crash with the command "
                        "line and the input file(s) below.\n");
  int Status = 0;
  llvm::thread Driver(std::optional<unsigned>(DriverStackBytes), [&] {
    // The crash report's "Program arguments" line is per thread.
    llvm::PrettyStackTraceProgram Arguments(Argc, Argv);
    Status = stencilc::runDriver(Argc, Argv);
  });
  Driver.join();
  return Status;
}
