//===- BuildCommand.cpp - A build's compile command, fit for stencilc -----===//
#include "stencilc/Driver/BuildCommand.h"
#include "clang/Driver/Options.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <set>

using namespace stencilc;
using clang::tooling::CommandLineArguments;

/// The indices in \p Args of the options Clang's driver does not know.
static std::set<unsigned> unknownOptions(const CommandLineArguments &Args) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  unsigned MissingIndex, MissingCount;
  llvm::opt::InputArgList Parsed = clang::driver::getDriverOptTable().ParseArgs(
      llvm::ArrayRef(Argv).drop_front(), MissingIndex, MissingCount);
  std::set<unsigned> Out;
  for (const llvm::opt::Arg *A :
       Parsed.filtered(clang::driver::options::OPT_UNKNOWN))
    Out.insert(A->getIndex() + 1); // +1: the program name was dropped
  return Out;
}

/// Warns once a process about flag \p Flag.
static void warnDropped(const std::string &Flag) {
  static std::mutex M;
  static llvm::StringSet<> Warned;
  std::lock_guard<std::mutex> Guard(M);
  if (Warned.insert(Flag).second)
    llvm::errs() << "stencilc: warning: the compile command's flag '" << Flag
                 << "' is not Clang's; stencilc parses without it\n";
}

clang::tooling::ArgumentsAdjuster stencilc::buildCommandAdjuster() {
  return [](const CommandLineArguments &Args, llvm::StringRef) {
    CommandLineArguments Unescaped = Args;
    for (std::string &A : Unescaped)
      for (size_t Pos = 0; (Pos = A.find("$$", Pos)) != std::string::npos;)
        A.erase(Pos++, 1);
    const std::set<unsigned> Unknown = unknownOptions(Unescaped);
    CommandLineArguments Out;
    for (unsigned I = 0; I < Unescaped.size(); ++I) {
      const std::string &A = Unescaped[I];
      if (Unknown.count(I)) {
        warnDropped(A);
        continue;
      }
      // The build's own: Clang warns of other things than GCC.
      if (llvm::StringRef(A).startswith("-Werror") || A == "-pedantic-errors")
        continue;
      if (A == "-include" && I + 1 < Unescaped.size()) {
        Out.insert(Out.end(),
                   {"-Xclang", "-include", "-Xclang", Unescaped[++I]});
        continue;
      }
      if (A == "--") // the inputs follow: stencilc's flag goes before
        Out.push_back("-Wno-unknown-warning-option");
      Out.push_back(A);
    }
    if (std::find(Out.begin(), Out.end(), "--") == Out.end())
      Out.push_back("-Wno-unknown-warning-option");
    return Out;
  };
}
