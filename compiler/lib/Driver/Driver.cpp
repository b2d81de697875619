//===- Driver.cpp - The stencilc command line -----------------------------===//
//
// Reads like the pipeline: parse options, run the Frontend (which runs
// Analysis) per translation unit, then Planning and Emission per output.
//
//===----------------------------------------------------------------------===//
#include "stencilc/Driver/Driver.h"
#include "stencilc/Basic/Diagnostic.h"
#include "stencilc/Basic/Version.h"
#include "stencilc/CodeGen/Emitter.h"
#include "stencilc/Driver/Depfile.h"
#include "stencilc/Driver/IRJson.h"
#include "stencilc/Frontend/FrontendAction.h"
#include "stencilc/IR/IRPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <set>

using namespace stencilc;
namespace cl = llvm::cl;

static cl::OptionCategory StencilcCategory("stencilc options");

static cl::opt<std::string>
    OutputDir("o",
              cl::desc("Output directory ('-': stdout, for one --emit kind)"),
              cl::value_desc("dir"), cl::init("."), cl::cat(StencilcCategory));
static cl::opt<std::string> EmitKinds(
    "emit", cl::desc("What to write: cuda, cpu, ir or all (comma-separated)"),
    cl::value_desc("kinds"), cl::init("cuda,cpu"), cl::cat(StencilcCategory));
static cl::opt<std::string> DepfilePath("depfile",
                                        cl::desc("Write a make-style depfile"),
                                        cl::value_desc("file"),
                                        cl::cat(StencilcCategory));
static cl::opt<bool>
    ListStencils("list",
                 cl::desc("List the stencils found, with their footprints"),
                 cl::cat(StencilcCategory));
static cl::opt<bool>
    ListDiagnostics("list-diagnostics",
                    cl::desc("Print every diagnostic stencilc can emit"),
                    cl::cat(StencilcCategory));

static const char Overview[] =
    "stencilc: compiles annotated C++ stencils (STENCIL_KERNEL) to CUDA and "
    "OpenMP\n\n"
    "  For INPUT.cpp it writes, into -o DIR:\n"
    "    INPUT.stencil.cu   (--emit=cuda)  CUDA kernels and launchers\n"
    "    INPUT.stencil.cpp  (--emit=cpu)   OpenMP loops\n"
    "    INPUT.stencil.json (--emit=ir)    the analysed IR\n"
    "  Compiler flags go after '--' (or come from -p "
    "BUILD_DIR/compile_commands.json).\n\n"
    "  Exit codes: 0 success, 1 errors in the input, 2 bad command line,\n"
    "  3 an output could not be written.\n";

namespace {
struct Output {
  std::string Kind; // "cuda", "cpu", "ir"
  std::string Suffix;
};
} // namespace

/// Parses --emit; returns false on an unknown kind.
static bool parseEmitKinds(llvm::StringRef Spec, std::vector<Output> &Outputs) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Spec.split(Parts, ',', -1, /*KeepEmpty=*/false);
  std::set<std::string> Kinds;
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    if (P == "all") {
      Kinds.insert({"cuda", "cpu", "ir"});
    } else if (P == "cuda" || P == "cpu" || P == "ir") {
      Kinds.insert(P.str());
    } else {
      llvm::errs() << "stencilc: error: unknown --emit kind '" << P
                   << "' (expected cuda, cpu, ir or all)\n";
      return false;
    }
  }
  for (const char *K : {"cuda", "cpu", "ir"})
    if (Kinds.count(K))
      Outputs.push_back({K, std::string(K) == "cuda"  ? ".stencil.cu"
                            : std::string(K) == "cpu" ? ".stencil.cpp"
                                                      : ".stencil.json"});
  if (Outputs.empty()) {
    llvm::errs() << "stencilc: error: --emit names nothing to write\n";
    return false;
  }
  return true;
}

/// Adds "--" when the user gave neither a compilation database nor flags,
/// so LibTooling does not go looking for compile_commands.json.
static std::vector<const char *> withFixedDatabase(int Argc,
                                                   const char **Argv) {
  std::vector<const char *> Args(Argv, Argv + Argc);
  bool HasSeparator = false, HasDatabase = false;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    HasSeparator |= A == "--";
    HasDatabase |=
        A == "-p" || A.startswith("-p=") || A == "--p" || A.startswith("--p=");
  }
  if (!HasSeparator && !HasDatabase)
    Args.push_back("--");
  return Args;
}

/// Flags every parse needs: C++17 (never CUDA: clang 16 cannot parse CUDA
/// 13's headers), the DSL's marker macro, and clang's built-in headers.
static void addParseFlags(clang::tooling::ClangTool &Tool) {
  using namespace clang::tooling;
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      CommandLineArguments{"-xc++", "-std=c++17", "-D__STENCILC__=1"},
      ArgumentInsertPosition::BEGIN));
  Tool.appendArgumentsAdjuster(
      [](const CommandLineArguments &Args, llvm::StringRef) {
        CommandLineArguments Out = Args;
        if (llvm::none_of(Args, [](const std::string &A) {
              return llvm::StringRef(A).startswith("-resource-dir");
            }))
          Out.push_back("-resource-dir=" STENCILC_CLANG_RESOURCE_DIR);
        return Out;
      });
}

static void printDiagnosticTable(llvm::raw_ostream &OS) {
  for (const DiagInfo &D : allDiagnostics())
    OS << D.Name << "\t" << diagLevelName(D.Level) << "\t" << D.Text << "\n";
}

static std::string haloText(const analysis::Halo &H, unsigned Dims) {
  std::string Out;
  for (unsigned D = 0; D < Dims; ++D)
    Out += std::string(D ? " " : "") + "xyzw"[D] + "[" +
           std::to_string(H[D].Lo) + "," + std::to_string(H[D].Hi) + "]";
  return Out;
}

/// Counts as integers when they are whole ("13"), as the JSON prints them.
static std::string formatCount(double V) {
  if (V == std::floor(V) && std::fabs(V) < 1e15)
    return std::to_string(static_cast<long long>(V));
  return llvm::formatv("{0:g}", V).str();
}

static void printListing(const FrontendResult &R, llvm::raw_ostream &OS) {
  for (size_t I = 0; I < R.Module.Stencils.size(); ++I) {
    const ir::Stencil &S = R.Module.Stencils[I];
    const analysis::StencilInfo &Info = R.Infos[I];
    OS << S.Loc.File << ":" << S.Loc.Line << ": " << S.qualifiedName() << " ("
       << (S.Form == ir::StencilForm::Functor ? "functor" : "function") << ", "
       << S.Dims << "-D): halo " << haloText(Info.Width, S.Dims)
       << ", flops/point " << formatCount(Info.FlopsPerPoint)
       << ", bytes/point " << formatCount(Info.BytesPerPoint) << "\n";
    for (const analysis::ArrayInfo &A : Info.Arrays) {
      const ir::Param &P = S.Params[A.Param];
      OS << "  " << P.Name << ": " << analysis::intentName(A.Use) << " "
         << P.Ty.irName();
      if (A.Read)
        OS << ", " << A.ReadOffsets.size() << " offsets, halo "
           << haloText(A.Width, S.Dims);
      OS << "\n";
    }
  }
}

static bool writeFile(const std::string &Path, const std::string &Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "stencilc: error: cannot write '" << Path
                 << "': " << EC.message() << "\n";
    return false;
  }
  OS << Text;
  OS.close();
  if (OS.has_error()) {
    llvm::errs() << "stencilc: error: cannot write '" << Path << "'\n";
    OS.clear_error();
    return false;
  }
  return true;
}

static std::string generate(const Output &Out, const FrontendResult &R) {
  if (Out.Kind == "ir")
    return printIRJson(R.Module, R.Infos);
  planning::ModulePlan Plan = planning::planModule(R.Module, R.Infos);
  std::unique_ptr<codegen::Emitter> E = Out.Kind == "cuda"
                                            ? codegen::createCudaEmitter()
                                            : codegen::createOpenMPEmitter();
  return E->emit(Plan);
}

int stencilc::runDriver(int Argc, const char **Argv) {
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "stencilc version " << getVersionString() << " (LLVM "
       << LLVM_VERSION_STRING << ")\n";
  });
  std::vector<const char *> Args = withFixedDatabase(Argc, Argv);
  int ArgCount = static_cast<int>(Args.size());
  auto Parser = clang::tooling::CommonOptionsParser::create(
      ArgCount, Args.data(), StencilcCategory, cl::ZeroOrMore, Overview);
  if (!Parser) {
    llvm::errs() << "stencilc: error: " << llvm::toString(Parser.takeError())
                 << "\n";
    return ExitUsageError;
  }
  if (ListDiagnostics) {
    printDiagnosticTable(llvm::outs());
    return ExitSuccess;
  }
  const std::vector<std::string> &Sources = Parser->getSourcePathList();
  if (Sources.empty()) {
    llvm::errs() << "stencilc: error: no input files (see --help)\n";
    return ExitUsageError;
  }
  std::vector<Output> Outputs;
  if (!parseEmitKinds(EmitKinds, Outputs))
    return ExitUsageError;
  bool ToStdout = OutputDir == "-";
  if (ToStdout && (Outputs.size() != 1 || Sources.size() != 1)) {
    llvm::errs() << "stencilc: error: '-o -' needs exactly one input and one "
                    "--emit kind\n";
    return ExitUsageError;
  }
  if (ToStdout && !DepfilePath.empty()) {
    llvm::errs() << "stencilc: error: --depfile needs output files; it cannot "
                    "be used with '-o -'\n";
    return ExitUsageError;
  }

  clang::tooling::ClangTool Tool(Parser->getCompilations(), Sources);
  addParseFlags(Tool);
  std::vector<FrontendResult> Results;
  int ToolStatus = Tool.run(createStencilActionFactory(Results).get());
  if (ToolStatus != 0 || Results.size() != Sources.size())
    return ExitInputError;
  // With -Xclang -verify the expected errors were consumed: success, but
  // there is nothing valid to emit.
  if (llvm::any_of(Results,
                   [](const FrontendResult &R) { return R.HadErrors; }))
    return ExitSuccess;

  if (ListStencils) {
    for (const FrontendResult &R : Results)
      printListing(R, llvm::outs());
    return ExitSuccess;
  }

  std::vector<std::string> Written, Dependencies;
  if (!ToStdout)
    if (std::error_code EC = llvm::sys::fs::create_directories(OutputDir)) {
      llvm::errs() << "stencilc: error: cannot create '" << OutputDir
                   << "': " << EC.message() << "\n";
      return ExitOutputError;
    }
  std::set<std::string> Stems;
  for (const FrontendResult &R : Results) {
    std::string Stem = llvm::sys::path::stem(R.Module.InputFile).str();
    if (!Stems.insert(Stem).second) {
      llvm::errs()
          << "stencilc: error: two inputs named '" << Stem
          << "' would write the same outputs; run stencilc once per input\n";
      return ExitUsageError;
    }
    Dependencies.insert(Dependencies.end(), R.Dependencies.begin(),
                        R.Dependencies.end());
    for (const Output &Out : Outputs) {
      std::string Text = generate(Out, R);
      if (ToStdout) {
        llvm::outs() << Text;
        continue;
      }
      llvm::SmallString<256> Path(OutputDir);
      llvm::sys::path::append(Path, Stem + Out.Suffix);
      if (!writeFile(std::string(Path), Text))
        return ExitOutputError;
      Written.push_back(std::string(Path));
    }
  }
  if (!DepfilePath.empty() &&
      !writeFile(DepfilePath, formatDepfile(Written, Dependencies)))
    return ExitOutputError;
  return ExitSuccess;
}
