//===- CompileCommandCheck.cpp - Compiler flags checked up front ----------===//
#include "stencilc/Driver/CompileCommandCheck.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Options.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Frontend/Utils.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace stencilc;

static const char *languageName(clang::Language L) {
  switch (L) {
  case clang::Language::Unknown:
    return "an unknown language";
  case clang::Language::Asm:
    return "assembly";
  case clang::Language::LLVM_IR:
    return "LLVM IR";
  case clang::Language::C:
    return "C";
  case clang::Language::CXX:
    return "C++";
  case clang::Language::ObjC:
    return "Objective-C";
  case clang::Language::ObjCXX:
    return "Objective-C++";
  case clang::Language::OpenCL:
    return "OpenCL";
  case clang::Language::OpenCLCXX:
    return "C++ for OpenCL";
  case clang::Language::CUDA:
    return "CUDA";
  case clang::Language::RenderScript:
    return "RenderScript";
  case clang::Language::HIP:
    return "HIP";
  case clang::Language::HLSL:
    return "HLSL";
  }
  return "an unknown language";
}

/// The language a '-x' value names, or "" for C++, "none" and values clang
/// does not know (its driver reports those in its own words).
static std::string xLanguageName(llvm::StringRef X) {
  for (llvm::StringRef Suffix :
       {"-cpp-output", "-user-header", "-system-header", "-header"})
    if (X.consume_back(Suffix))
      break;
  return llvm::StringSwitch<std::string>(X)
      .Case("c", "C")
      .Case("cuda", "CUDA")
      .Case("hip", "HIP")
      .Case("objective-c", "Objective-C")
      .Case("objective-c++", "Objective-C++")
      .Case("cl", "OpenCL")
      .Case("clcpp", "C++ for OpenCL")
      .Case("renderscript", "RenderScript")
      .Case("hlsl", "HLSL")
      .Cases("ir", "ast", "assembler", "assembler-with-cpp", "another language")
      .Default("");
}

static std::string languageProblem(llvm::StringRef Source,
                                   const llvm::Twine &Language) {
  return ("the compiler flags make '" + Source + "' " + Language +
          "; stencilc parses sources as C++ only (drop the '-x' flag)")
      .str();
}

/// The value of the last '-x' (which applies to the inputs after it). An
/// offloading language is found here, before the driver fails to find its
/// SDK and hides the cause.
static std::string lastLanguageFlag(const std::vector<const char *> &Argv) {
  unsigned MissingIndex, MissingCount;
  llvm::opt::InputArgList Args = clang::driver::getDriverOptTable().ParseArgs(
      llvm::ArrayRef(Argv).drop_front(), MissingIndex, MissingCount);
  std::string Last;
  for (const llvm::opt::Arg *A : Args.filtered(clang::driver::options::OPT_x))
    Last = A->getValue();
  return Last;
}

/// Runs clang's driver and option parser on one command line, as the tool
/// will, and appends its errors to \p Problems (warnings are left to the
/// parse itself).
static void checkCommand(const std::vector<std::string> &CommandLine,
                         llvm::StringRef Source,
                         std::vector<std::string> &Problems) {
  std::vector<const char *> Argv;
  for (const std::string &A : CommandLine)
    Argv.push_back(A.c_str());
  std::string Language = xLanguageName(lastLanguageFlag(Argv));
  if (!Language.empty()) {
    Problems.push_back(languageProblem(Source, Language));
    return;
  }
  clang::TextDiagnosticBuffer Errors;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> Options =
      new clang::DiagnosticOptions;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> Diags =
      clang::CompilerInstance::createDiagnostics(Options.get(), &Errors,
                                                 /*ShouldOwnClient=*/false);
  clang::CreateInvocationOptions Opts;
  Opts.Diags = Diags;
  Opts.RecoverOnError = true; // still learn the language after a bad flag
  std::unique_ptr<clang::CompilerInvocation> Invocation =
      clang::createInvocation(Argv, std::move(Opts));

  // The language first: after '-x cuda' the driver's other complaints (no
  // CUDA installation found) only hide the cause.
  if (Invocation)
    for (const clang::FrontendInputFile &Input :
         Invocation->getFrontendOpts().Inputs)
      if (Input.getKind().getLanguage() != clang::Language::CXX) {
        Problems.push_back(languageProblem(
            Source, languageName(Input.getKind().getLanguage())));
        return;
      }
  size_t Before = Problems.size();
  for (auto It = Errors.err_begin(); It != Errors.err_end(); ++It)
    Problems.push_back(It->second);
  if (Problems.size() == Before && !Invocation)
    Problems.push_back(
        ("the compiler flags for '" + Source + "' make no C++ compilation")
            .str());
}

bool stencilc::checkCompileCommands(
    const clang::tooling::CompilationDatabase &DB,
    const std::vector<std::string> &Sources,
    const clang::tooling::ArgumentsAdjuster &Adjust) {
  std::vector<std::string> Problems;
  for (const std::string &Source : Sources) {
    // ClangTool looks sources up by absolute path.
    llvm::SmallString<256> Path(Source);
    llvm::sys::fs::make_absolute(Path);
    std::vector<clang::tooling::CompileCommand> Commands =
        DB.getCompileCommands(Path);
    if (Commands.empty())
      Problems.push_back(
          "the compilation database has no compile command for '" + Source +
          "'");
    // Several (targets that compile it with other flags): stencilc would
    // parse the source once per command.
    if (Commands.size() > 1)
      Problems.push_back(
          "the compilation database has " + std::to_string(Commands.size()) +
          " compile commands for '" + Source +
          "'; pick one with --database-output=<part of its output>");
    for (const clang::tooling::CompileCommand &C : Commands)
      checkCommand(Adjust(C.CommandLine, C.Filename), Source, Problems);
  }
  // One bad flag given after '--' is the same error for every source.
  llvm::StringSet<> Printed;
  for (const std::string &P : Problems)
    if (Printed.insert(P).second)
      llvm::errs() << "stencilc: error: " << P << "\n";
  return Problems.empty();
}

bool stencilc::checkFlagsNameNoInputs(llvm::ArrayRef<const char *> Flags) {
  unsigned MissingIndex, MissingCount;
  llvm::opt::InputArgList Args = clang::driver::getDriverOptTable().ParseArgs(
      Flags, MissingIndex, MissingCount);
  bool Found = false;
  for (const llvm::opt::Arg *A :
       Args.filtered(clang::driver::options::OPT_INPUT)) {
    Found = true;
    llvm::errs() << "stencilc: error: '" << A->getValue()
                 << "' among the compiler flags after '--' is an input file "
                    "to clang; give sources before '--'\n";
  }
  // A second "--": clang's driver reads what follows as input files.
  for (const llvm::opt::Arg *A :
       Args.filtered(clang::driver::options::OPT__DASH_DASH))
    if (A->getNumValues()) {
      Found = true;
      llvm::errs() << "stencilc: error: a second '--' among the compiler "
                      "flags, after which clang reads '"
                   << A->getValue(0) << "'"
                   << (A->getNumValues() > 1 ? " and the rest" : "")
                   << " as input files; give every flag after the first "
                      "'--'\n";
    }
  return !Found;
}
