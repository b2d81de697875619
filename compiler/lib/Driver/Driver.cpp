//===- Driver.cpp - The stencilc command line -----------------------------===//
//
// Reads like the pipeline: parse options, then per translation unit the
// Frontend, Analysis (in the Frontend's hook, while clang's diagnostics are
// alive), Planning and Emission, each once; one output per --emit kind.
//
//===----------------------------------------------------------------------===//
#include "stencilc/Driver/Driver.h"
#include "stencilc/Analysis/AnalyzeStencil.h"
#include "stencilc/Analysis/StepGraph.h"
#include "stencilc/Basic/Diagnostic.h"
#include "stencilc/Basic/Version.h"
#include "stencilc/CodeGen/Emitter.h"
#include "stencilc/Driver/BuildCommand.h"
#include "stencilc/Driver/Colour.h"
#include "stencilc/Driver/CompileCommandCheck.h"
#include "stencilc/Driver/Depfile.h"
#include "stencilc/Driver/IRJson.h"
#include "stencilc/Driver/OutputFiles.h"
#include "stencilc/Frontend/FrontendAction.h"
#include "stencilc/IR/IRPrinter.h"
#include "stencilc/Planning/KernelPlan.h"
#include "stencilc/Planning/StepPlan.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <unistd.h>

using namespace stencilc;
namespace cl = llvm::cl;

static cl::OptionCategory StencilcCategory("stencilc options");

static cl::opt<std::string>
    OutputDir("o",
              cl::desc("Output directory ('-': stdout, for one --emit kind)"),
              cl::value_desc("dir"), cl::init("."), cl::cat(StencilcCategory));
static cl::opt<std::string>
    EmitKinds("emit",
              cl::desc("What to write: cuda, cpu (alias: openmp), ir, plan or all "
                       "(comma-separated)"),
              cl::value_desc("kinds"), cl::init("cuda,cpu"),
              cl::cat(StencilcCategory));
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
static cl::opt<std::string>
    StampPath("stamp",
              cl::desc("Also write an empty file on every successful run, "
                       "named first in the depfile"),
              cl::value_desc("file"), cl::cat(StencilcCategory));
static cl::opt<std::string> StepStrategyOption(
    "step-strategy",
    cl::desc("How the stencils of a step (STENCIL_STEP) run: auto (the cost "
             "model picks per group), multi-kernel (one kernel each), "
             "recompute (every group it can fuse, by recalculation) or staged "
             "(every group it can fuse, intermediates in shared memory where "
             "possible)"),
    cl::value_desc("auto|multi-kernel|recompute|staged"), cl::init("auto"),
    cl::cat(StencilcCategory));
static cl::opt<bool> NoLineDirectives(
    "no-line-directives",
    cl::desc("Leave out the #line directives that attribute the generated "
             "code of each stencil statement to its line in the source"),
    cl::cat(StencilcCategory));
// The options of LibTooling's CommonOptionsParser, parsed here so that a bad
// compilation database is an error rather than "Running without flags".
static cl::opt<std::string>
    BuildPath("p", cl::desc("Build directory with compile_commands.json"),
              cl::value_desc("build-dir"), cl::cat(StencilcCategory));
static cl::opt<std::string> DatabaseOutput(
    "database-output",
    cl::desc("Of a source's compile commands in the -p database (one per "
             "target that compiles it), use those whose output contains "
             "<text>"),
    cl::value_desc("text"), cl::cat(StencilcCategory));
static cl::list<std::string>
    SourcePaths(cl::Positional, cl::desc("<source>... [-- <compiler flags>]"),
                cl::cat(StencilcCategory));
static cl::list<std::string>
    ArgsAfter("extra-arg", cl::desc("Append a flag to each compile command"),
              cl::value_desc("flag"), cl::cat(StencilcCategory));
static cl::list<std::string>
    ArgsBefore("extra-arg-before",
               cl::desc("Prepend a flag to each compile command"),
               cl::value_desc("flag"), cl::cat(StencilcCategory));
// For the crash handler's test; not in --help.
static cl::opt<bool> DebugCrash("debug-crash", cl::Hidden,
                                cl::desc("Crash on purpose"));

static const char Overview[] =
    "stencilc: compiles annotated C++ stencils (STENCIL_KERNEL) to CUDA and "
    "OpenMP\n\n"
    "  For INPUT.cpp it writes, into -o DIR:\n"
    "    INPUT.stencil.cu   (--emit=cuda)  CUDA kernels and launchers\n"
    "    INPUT.stencil.cpp  (--emit=cpu or --emit=openmp)  OpenMP loops\n"
    "    INPUT.stencil.json (--emit=ir)    the analysed IR\n"
    "    INPUT.stencil.plan (--emit=plan)  the plan: each variant's kernel, "
    "as text\n"
    "  Compiler flags go after '--' (or come from -p "
    "BUILD_DIR/compile_commands.json).\n\n"
    "  Exit codes: 0 success, 1 errors in the input, 2 bad command line,\n"
    "  3 an output could not be written.\n";

namespace {
struct Output {
  std::string Kind; // "cuda", "cpu", "ir", "plan"
  std::string Suffix;
};

/// One translation unit through the pipeline: what each stage made of it.
struct TranslationUnit {
  ir::Module Module;                        ///< Frontend.
  std::vector<std::string> Dependencies;    ///< Frontend: every file read.
  bool HadErrors = false;                   ///< Frontend or Analysis.
  std::vector<analysis::StencilInfo> Infos; ///< Analysis: per stencil.
  std::vector<analysis::StepInfo> StepInfos; ///< Analysis: per step.
  /// Planning: points into Module and Infos, so the unit stays in place
  /// once planned.
  planning::ModulePlan Plan;
};
} // namespace

/// Analysis of the translation unit the Frontend lowered into \p R; called
/// from the Frontend's hook, so that \p Diags reports into the source.
static TranslationUnit analyzeTranslationUnit(FrontendResult R,
                                              DiagnosticSink &Diags) {
  TranslationUnit TU;
  TU.Module = std::move(R.Module);
  TU.Dependencies = std::move(R.Dependencies);
  TU.Infos = analysis::analyzeModule(TU.Module, Diags);
  for (const ir::Step &S : TU.Module.Steps)
    TU.StepInfos.push_back(
        analysis::analyzeStep(TU.Module, S, TU.Infos, Diags));
  TU.HadErrors = R.HadErrors || Diags.hadError();
  return TU;
}

/// Parses --emit; returns false on an unknown kind. Outputs keep the order of
/// their first mention ("all" is cuda,cpu,ir), and so do the depfile's
/// targets: a build rule lists its outputs in the order it asked for them,
/// and Ninja wants the depfile's first target to be the rule's first output.
static bool parseEmitKinds(llvm::StringRef Spec, std::vector<Output> &Outputs) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Spec.split(Parts, ',', -1, /*KeepEmpty=*/true);
  std::vector<std::string> Kinds;
  auto Add = [&](llvm::StringRef K) {
    if (!llvm::is_contained(Kinds, K))
      Kinds.push_back(K.str());
  };
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    if (P.empty() && Parts.size() > 1) {
      // A typo like "cpu,,ir" or "cuda," more likely lost a kind than meant
      // none.
      llvm::errs() << "stencilc: error: empty kind in --emit='" << Spec
                   << "'\n";
      return false;
    }
    if (P.empty())
      continue; // "--emit=" alone: reported below as naming nothing
    if (P == "all") {
      for (const char *K : {"cuda", "cpu", "ir"})
        Add(K);
    } else if (P == "cuda" || P == "cpu" || P == "ir" || P == "plan") {
      Add(P);
    } else if (P == "openmp") {
      // The CMake helper's name for the backend (BACKENDS openmp).
      Add("cpu");
    } else {
      llvm::errs() << "stencilc: error: unknown --emit kind '" << P
                   << "' (expected cuda, cpu, openmp, ir, plan or all)\n";
      return false;
    }
  }
  for (const std::string &K : Kinds)
    Outputs.push_back({K, K == "cuda"   ? ".stencil.cu"
                          : K == "cpu"  ? ".stencil.cpp"
                          : K == "plan" ? ".stencil.plan"
                                        : ".stencil.json"});
  if (Outputs.empty()) {
    llvm::errs() << "stencilc: error: --emit names nothing to write\n";
    return false;
  }
  return true;
}

/// Flags every parse needs: C++17 (never CUDA: clang 16 cannot parse CUDA
/// 13's headers), the DSL's marker macro, and clang's built-in headers; after
/// ClangTool's own adjusters, which it would otherwise apply first.
static clang::tooling::ArgumentsAdjuster parseFlagsAdjuster() {
  using namespace clang::tooling;
  ArgumentsAdjuster Adjust =
      combineAdjusters(combineAdjusters(getClangStripOutputAdjuster(),
                                        getClangSyntaxOnlyAdjuster()),
                       getClangStripDependencyFileAdjuster());
  Adjust = combineAdjusters(
      std::move(Adjust),
      getInsertArgumentAdjuster(
          CommandLineArguments{"-xc++", "-std=gnu++17", "-D__STENCILC__=1"},
          ArgumentInsertPosition::BEGIN));
  return combineAdjusters(
      std::move(Adjust), [](const CommandLineArguments &Args, llvm::StringRef) {
        CommandLineArguments Out = Args;
        // C++23 as GCC 11+ spells it (a compiler's command from -p): Clang 16
        // knows it as c++2b.
        for (std::string &A : Out)
          if (A == "-std=c++23" || A == "-std=gnu++23")
            A.replace(A.size() - 2, 2, "2b");
        if (llvm::none_of(Args, [](const std::string &A) {
              return llvm::StringRef(A).startswith("-resource-dir");
            }))
          // Before a "--" (a -p database's command inferred for a source
          // it lacks ends "-- file"), after which everything is an input.
          Out.insert(std::find(Out.begin(), Out.end(), "--"),
                     "-resource-dir=" STENCILC_CLANG_RESOURCE_DIR);
        // Last of all, the C++ compiler's own headers (omp.h): a DSL file
        // that includes <omp.h> builds with g++, so it parses here too.
        // GCC 11's omp.h gives __malloc__ a deallocator, which Clang 16
        // refuses: the attribute without it means the same to a parse.
        if (*STENCILC_HOST_INCLUDE_DIR &&
            llvm::sys::fs::is_directory(STENCILC_HOST_INCLUDE_DIR))
          Out.insert(std::find(Out.begin(), Out.end(), "--"),
                     {"-idirafter", STENCILC_HOST_INCLUDE_DIR,
                      "-D__malloc__(...)=__malloc__"});
        // stencilc skips the bodies of the functions it does not translate,
        // so what only they use looks unused: such warnings (an error under
        // -Werror) say nothing of the program, and the compiler gives them
        // where they are true.
        Out.insert(std::find(Out.begin(), Out.end(), "--"),
                   {"-Wno-unused-private-field", "-Wno-unused-function",
                    "-Wno-unneeded-internal-declaration",
                    "-Wno-unused-member-function", "-Wno-unused-const-variable",
                    "-Wno-unused-variable", "-Wno-unused-template"});
        // A header given as the DSL source is the main file of its parse,
        // where its own `#pragma once` is right.
        Out.insert(std::find(Out.begin(), Out.end(), "--"),
                   "-Wno-pragma-once-outside-header");
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

static void printListing(const TranslationUnit &TU, llvm::raw_ostream &OS) {
  for (size_t I = 0; I < TU.Module.Stencils.size(); ++I) {
    const ir::Stencil &S = TU.Module.Stencils[I];
    const analysis::StencilInfo &Info = TU.Infos[I];
    OS << S.Loc.File << ":" << S.Loc.Line << ": " << S.qualifiedName() << " ("
       << (S.Form == ir::StencilForm::Functor ? "functor" : "function") << ", "
       << S.Dims << "-D): halo " << haloText(Info.Halo, S.Dims)
       << ", flops/point " << formatCount(Info.FlopsPerPoint)
       << ", bytes/point " << formatCount(Info.BytesPerPoint) << "\n";
    for (const analysis::ArrayInfo &A : Info.Arrays) {
      const ir::Param &P = S.Params[A.Param];
      OS << "  " << P.Name << ": " << analysis::intentName(A.Use) << " "
         << P.Ty.irName();
      if (ir::isLowerRank(P, S.Dims))
        OS << ", spans " << ir::axesName(ir::arrayAxes(P, S.Dims));
      if (A.Read)
        OS << ", " << A.ReadOffsets.size() << " offsets, halo "
           << haloText(A.Halo, S.Dims);
      OS << "\n";
    }
  }
}

/// Output \p Out of a planned translation unit \p TU: the IR and its
/// analysis, or its plan, or the code an emitter prints from the plan.
/// \p Path: the output's name, which the #line directives after each body
/// give back to the generated code.
static std::string generate(const Output &Out, TranslationUnit &TU,
                            const std::string &Path) {
  if (Out.Kind == "ir")
    return printIRJson(TU.Module, TU.Infos, TU.StepInfos);
  if (Out.Kind == "plan")
    return planning::printModulePlan(TU.Plan);
  TU.Plan.GeneratedFile = Path;
  std::unique_ptr<codegen::Emitter> E = Out.Kind == "cuda"
                                            ? codegen::createCudaEmitter()
                                            : codegen::createOpenMPEmitter();
  return E->emit(TU.Plan);
}

/// llvm::outs() reports a failed write (a full disk, /dev/full) as a fatal
/// "LLVM ERROR" when it is destroyed; found first, it is a message and exit
/// code 3.
static bool standardOutputFailed() {
  llvm::raw_fd_ostream &OS = llvm::outs();
  OS.flush();
  if (!OS.has_error())
    return false;
  llvm::errs() << "stencilc: error: cannot write to standard output: "
               << OS.error().message() << "\n";
  OS.clear_error();
  return true;
}

/// --help and --version print, then exit from inside the option parser.
/// The standard error stream while captureStandardError runs; -1 otherwise.
static int SavedStandardError = -1;

static void restoreStandardError() {
  if (SavedStandardError < 0)
    return;
  llvm::errs().flush();
  std::fflush(stderr);
  ::dup2(SavedStandardError, 2);
  ::close(SavedStandardError);
  SavedStandardError = -1;
}

static void checkStandardOutputAtExit() {
  // --help and --version exit from inside the parser, while its errors are
  // being captured: messages from here on go to the real stream.
  restoreStandardError();
  if (standardOutputFailed())
    std::_Exit(ExitOutputError);
}

[[noreturn]] static void crashOnPurpose() { LLVM_BUILTIN_TRAP; }

/// What \p F writes to the standard error stream (file descriptor 2), which
/// goes to a temporary file meanwhile; if none can be made, F writes to the
/// stream as usual and the result is empty.
static std::string captureStandardError(llvm::function_ref<void()> F) {
  llvm::errs().flush();
  std::fflush(stderr);
  std::FILE *Tmp = std::tmpfile();
  SavedStandardError = Tmp ? ::dup(2) : -1;
  if (SavedStandardError < 0 || ::dup2(::fileno(Tmp), 2) < 0) {
    if (SavedStandardError >= 0)
      ::close(SavedStandardError);
    SavedStandardError = -1;
    if (Tmp)
      std::fclose(Tmp);
    F();
    return {};
  }
  F();
  restoreStandardError();
  std::string Text;
  std::rewind(Tmp);
  char Buffer[4096];
  for (size_t N; (N = std::fread(Buffer, 1, sizeof(Buffer), Tmp)) > 0;)
    Text.append(Buffer, N);
  std::fclose(Tmp);
  return Text;
}

/// llvm::cl's messages about one option's value ("for the --emit option:
/// requires a value!", "for the --list option: '3' is invalid value for
/// boolean argument! Try 0 or 1") as "option '--emit' requires a value (see
/// --help)" and "option '--list': '3' is invalid value for boolean argument
/// (try 0 or 1)"; other text unchanged.
static std::string reformatOptionValueError(llvm::StringRef Message) {
  if (!Message.consume_front("for the "))
    return Message.str();
  size_t End = Message.find(" option: ");
  if (End == llvm::StringRef::npos)
    return ("for the " + Message).str();
  std::string Name = Message.substr(0, End).str();
  llvm::StringRef Rest = Message.substr(End + 9).trim();
  std::string Hint = " (see --help)";
  size_t Bang = Rest.find("! Try ");
  if (Bang != llvm::StringRef::npos) {
    Hint = " (try " + Rest.substr(Bang + 6).rtrim("!. ").str() + ")";
    Rest = Rest.substr(0, Bang);
  }
  Rest = Rest.rtrim("!. ");
  std::string Text = Rest.str();
  for (size_t Pos; (Pos = Text.find("! ")) != std::string::npos;)
    Text.replace(Pos, 2, ": ");
  // "requires a value", "may only occur zero or one times", "does not
  // allow a value": the option is the subject; other text follows a colon.
  const bool Verb = Rest.startswith("requires") || Rest.startswith("may ") ||
                    Rest.startswith("does ") || Rest.startswith("must ");
  return "option '" + Name + "'" + (Verb ? " " : ": ") + Text + Hint;
}

/// An option's name without its dashes and value: "emit" for "--emit=cuda".
static llvm::StringRef optionName(llvm::StringRef Arg) {
  return Arg.ltrim("'-").take_until(
      [](char C) { return C == '=' || C == '\''; });
}

/// Whether llvm::cl's suggestion \p Suggested for the unknown option
/// \p Unknown is a likely typo of it: a few edits for the name's length
/// (it offers '-o' for '--bogus', the nearest of all however far).
static bool closeEnough(llvm::StringRef Unknown, llvm::StringRef Suggested) {
  const unsigned Longer = std::max(Unknown.size(), Suggested.size());
  return Unknown.edit_distance(Suggested) <= std::max(1u, Longer / 3);
}

/// Prints llvm::cl's messages ("stencilc: Unknown command line argument
/// '--x'.  Try: '/path/to/stencilc --help'", "stencilc: Did you mean '-o'?")
/// once each, in stencilc's format: "stencilc: error: unknown command line
/// argument '--x' (see --help)", then "stencilc: note: did you mean '-o'?".
static void printOptionErrors(llvm::StringRef Text,
                              llvm::StringRef ProgramName) {
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::string Unknown; // The last unknown option's name, for its suggestion.
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    // llvm::cl names the program as it was invoked; stencilc's own messages
    // say "stencilc".
    for (llvm::StringRef Prefix : {ProgramName, llvm::StringRef("stencilc")})
      if (Line.consume_front(Prefix)) {
        Line.consume_front(":");
        Line = Line.ltrim();
        break;
      }
    Line.consume_front("error:");
    Line = Line.ltrim();
    if (Line.empty())
      continue;
    std::string Message = Line.str();
    size_t Try = Message.find(".  Try: '");
    if (Try != std::string::npos)
      Message = Message.substr(0, Try) + " (see --help)";
    Message = reformatOptionValueError(Message);
    bool Note = Line.startswith("Did you mean");
    if (!Note && Line.startswith("Unknown command line argument '"))
      Unknown = optionName(Line.drop_front(31).take_until([](char C) {
                  return C == '\'';
                })).str();
    if (Note && !closeEnough(Unknown, optionName(Line.drop_front(14))))
      continue;
    Message[0] = llvm::toLower(Message[0]);
    llvm::errs() << "stencilc: " << (Note ? "note: " : "error: ") << Message
                 << "\n";
  }
}

namespace {
/// A compilation database's commands whose output (or an argument) contains
/// a text: the command of one target where several compile a source.
class OutputFilteredDatabase : public clang::tooling::CompilationDatabase {
public:
  OutputFilteredDatabase(
      std::unique_ptr<clang::tooling::CompilationDatabase> Inner,
      std::string Text)
      : Inner(std::move(Inner)), Text(std::move(Text)) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<clang::tooling::CompileCommand> Out;
    // The output, or an argument naming it: CMake writes "output" from
    // 3.27 on, "-o CMakeFiles/<target>.dir/..." always.
    for (clang::tooling::CompileCommand &C : Inner->getCompileCommands(File))
      if (llvm::StringRef(C.Output).contains(Text) ||
          llvm::any_of(C.CommandLine, [this](const std::string &A) {
            return llvm::StringRef(A).contains(Text);
          }))
        Out.push_back(std::move(C));
    return Out;
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner->getAllFiles();
  }

private:
  std::unique_ptr<clang::tooling::CompilationDatabase> Inner;
  std::string Text;
};
} // namespace

/// -p DIR reads DIR/compile_commands.json (or the file -p names), wrapped as
/// LibTooling's JSON plugin does: response files expanded, commands for
/// sources it lacks inferred from similar ones. Unlike CommonOptionsParser it
/// neither searches parent directories nor goes on without flags.
static std::unique_ptr<clang::tooling::CompilationDatabase>
loadDatabase(llvm::StringRef Path) {
  using namespace clang::tooling;
  llvm::SmallString<256> File(Path);
  if (llvm::sys::fs::is_directory(File))
    llvm::sys::path::append(File, "compile_commands.json");
  std::string Error;
  std::unique_ptr<CompilationDatabase> DB =
      JSONCompilationDatabase::loadFromFile(File, Error,
                                            JSONCommandLineSyntax::AutoDetect);
  if (!DB) {
    llvm::StringRef Reason = llvm::StringRef(Error).trim();
    Reason.consume_front("Error while opening JSON database: ");
    llvm::errs() << "stencilc: error: cannot read the compilation database '"
                 << File << "': " << Reason << "\n";
    return nullptr;
  }
  DB = inferTargetAndDriverMode(inferMissingCompileCommands(
      expandResponseFiles(std::move(DB), llvm::vfs::getRealFileSystem())));
  if (DatabaseOutput.getNumOccurrences())
    DB =
        std::make_unique<OutputFilteredDatabase>(std::move(DB), DatabaseOutput);
  return DB;
}

static std::string normalPath(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

namespace {
/// Where one run writes, known before anything is parsed.
struct OutputPlan {
  std::vector<std::vector<std::string>> PerSource; ///< [source][output]
  std::vector<std::string> All;                    ///< In depfile order.
};
} // namespace

/// Plans the output paths and reports every conflict among them (two inputs
/// with one stem, the depfile or stamp on an output) as a usage error.
static bool planOutputs(const std::vector<std::string> &Sources,
                        const std::vector<Output> &Outputs, OutputPlan &Plan) {
  std::set<std::string> Stems;
  for (const std::string &Source : Sources) {
    std::string Stem = llvm::sys::path::stem(Source).str();
    if (!Stems.insert(Stem).second) {
      llvm::errs()
          << "stencilc: error: two inputs named '" << Stem
          << "' would write the same outputs; run stencilc once per input\n";
      return false;
    }
    std::vector<std::string> Paths;
    for (const Output &Out : Outputs) {
      llvm::SmallString<256> Path(OutputDir);
      llvm::sys::path::append(Path, Stem + Out.Suffix);
      Paths.push_back(std::string(Path));
      Plan.All.push_back(std::string(Path));
    }
    Plan.PerSource.push_back(std::move(Paths));
  }
  std::map<std::string, std::string> Claimed; // normal path -> what wrote it
  for (const std::string &Path : Plan.All)
    Claimed[normalPath(Path)] = "an output";
  for (auto [Option, Path] :
       {std::pair<const char *, std::string>("--depfile", DepfilePath),
        {"--stamp", StampPath}}) {
    if (Path.empty())
      continue;
    auto [It, New] = Claimed.try_emplace(normalPath(Path), Option);
    if (!New) {
      llvm::errs() << "stencilc: error: " << Option << " '" << Path
                   << "' is also " << It->second
                   << "; give each output its own file\n";
      return false;
    }
  }
  return true;
}

/// Options that name one thing: given twice, llvm::cl keeps the last
/// silently (a build's --emit after a user's); given empty, a path that is
/// no path. Both are usage errors.
static bool checkSingleOptions() {
  const std::pair<const cl::opt<std::string> *, const char *> Single[] = {
      {&OutputDir, "-o"},
      {&EmitKinds, "--emit"},
      {&DepfilePath, "--depfile"},
      {&StampPath, "--stamp"},
      {&StepStrategyOption, "--step-strategy"},
      {&BuildPath, "-p"},
      {&DatabaseOutput, "--database-output"}};
  for (auto [Option, Name] : Single) {
    if (Option->getNumOccurrences() > 1) {
      llvm::errs() << "stencilc: error: option '" << Name << "' given "
                   << Option->getNumOccurrences() << " times; give it once\n";
      return false;
    }
    if (Option->getNumOccurrences() && Option->getValue().empty() &&
        Option != &EmitKinds) {
      llvm::errs() << "stencilc: error: option '" << Name
                   << "' has an empty value\n";
      return false;
    }
  }
  return true;
}

/// A depfile or stamp named like a source (`--stamp a.cpp b.cpp` takes
/// a.cpp for the stamp, b.cpp for the input): a usage error before it
/// truncates the user's file.
static bool checkNotASourceName() {
  for (auto [Option, Path] :
       {std::pair<const char *, std::string>("--depfile", DepfilePath),
        {"--stamp", StampPath}}) {
    const std::string Ext =
        llvm::StringRef(llvm::sys::path::extension(Path)).lower();
    static const llvm::StringRef SourceExtensions[] = {
        ".c",   ".cc",  ".cpp", ".cxx", ".c++", ".cu",  ".h",   ".hh",
        ".hpp", ".hxx", ".h++", ".cuh", ".inc", ".inl", ".ipp", ".tcc"};
    if (llvm::is_contained(SourceExtensions, Ext)) {
      llvm::errs() << "stencilc: error: " << Option << " '" << Path
                   << "' names a source file, which it would overwrite (a "
                      "missing "
                   << Option << " value before an input?)\n";
      return false;
    }
  }
  return true;
}

/// The inputs and the files each of them includes, as files (a link and
/// another spelling are the same file).
static std::set<llvm::sys::fs::UniqueID>
readFiles(const std::vector<std::string> &Sources,
          const std::vector<std::string> &Dependencies) {
  std::set<llvm::sys::fs::UniqueID> Out;
  for (const std::vector<std::string> *List : {&Sources, &Dependencies})
    for (const std::string &Path : *List) {
      llvm::sys::fs::UniqueID Id;
      if (!llvm::sys::fs::getUniqueID(Path, Id))
        Out.insert(Id);
    }
  return Out;
}

/// An output, the depfile or the stamp naming a file stencilc reads (an
/// input, a header it includes: `--stamp a.cpp b.cpp` takes a.cpp for the
/// stamp) would destroy it: a usage error, before anything is written.
static bool checkNotRead(const std::set<llvm::sys::fs::UniqueID> &Read,
                         const OutputPlan &Plan) {
  std::vector<std::pair<std::string, std::string>> Written = {
      {"--depfile", DepfilePath}, {"--stamp", StampPath}};
  for (const std::string &Path : Plan.All)
    Written.push_back({"the output", Path});
  for (const auto &[What, Path] : Written) {
    llvm::sys::fs::UniqueID Id;
    if (Path.empty() || llvm::sys::fs::getUniqueID(Path, Id) || !Read.count(Id))
      continue;
    llvm::errs() << "stencilc: error: " << What << " '" << Path
                 << "' is a file stencilc reads; writing it would destroy it\n";
    return false;
  }
  return true;
}

static int runPipeline(int Argc, const char **Argv) {
  using namespace clang::tooling;
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "stencilc version " << getVersionString() << " (LLVM "
       << LLVM_VERSION_STRING << ")\n";
  });
  cl::HideUnrelatedOptions(StencilcCategory);
  const char **End = Argv + Argc;
  std::string FlagsError;
  std::unique_ptr<CompilationDatabase> Compilations =
      FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, FlagsError);
  if (!FlagsError.empty()) {
    // Clang's driver rejected the flags after "--": checkCompileCommands
    // below says which flag, or which language, in stencilc's words.
    const char **DoubleDash = std::find(Argv, End, llvm::StringRef("--"));
    Compilations = std::make_unique<FixedCompilationDatabase>(
        ".", std::vector<std::string>(DoubleDash + 1, End));
  }
  std::string OptionErrors;
  llvm::raw_string_ostream OptionErrorsOS(OptionErrors);
  bool OptionsParsed = false;
  // An option's value errors go to llvm::errs() whatever stream the parser
  // is given: capture them too, to print all in stencilc's format.
  std::string ValueErrors = captureStandardError([&] {
    OptionsParsed =
        cl::ParseCommandLineOptions(Argc, Argv, Overview, &OptionErrorsOS);
  });
  printOptionErrors(ValueErrors + OptionErrorsOS.str(),
                    llvm::sys::path::filename(Argv[0]));
  if (!OptionsParsed)
    return ExitUsageError;
  if (DebugCrash)
    crashOnPurpose();
  if (ListDiagnostics) {
    printDiagnosticTable(llvm::outs());
    return ExitSuccess;
  }

  // Every command-line mistake is found before anything is parsed or written.
  // The options before the inputs: `--emit heat.cpp` takes the source for
  // its value, and says so as an unknown kind rather than as no input.
  if (!checkSingleOptions())
    return ExitUsageError;
  std::vector<Output> Outputs;
  if (!parseEmitKinds(EmitKinds, Outputs))
    return ExitUsageError;
  std::vector<std::string> Sources(SourcePaths.begin(), SourcePaths.end());
  if (Sources.empty()) {
    llvm::errs() << "stencilc: error: no input files (see --help)\n";
    return ExitUsageError;
  }
  planning::StepStrategyChoice StepChoice;
  if (StepStrategyOption == "auto") {
    StepChoice = planning::StepStrategyChoice::Auto;
  } else if (StepStrategyOption == "multi-kernel") {
    StepChoice = planning::StepStrategyChoice::MultiKernel;
  } else if (StepStrategyOption == "recompute") {
    StepChoice = planning::StepStrategyChoice::Recompute;
  } else if (StepStrategyOption == "staged") {
    StepChoice = planning::StepStrategyChoice::Staged;
  } else {
    llvm::errs() << "stencilc: error: unknown --step-strategy '"
                 << StepStrategyOption
                 << "' (expected auto, multi-kernel, recompute or staged)\n";
    return ExitUsageError;
  }
  bool ToStdout = OutputDir == "-";
  if (ToStdout && (Outputs.size() != 1 || Sources.size() != 1)) {
    llvm::errs() << "stencilc: error: '-o -' needs exactly one input and one "
                    "--emit kind\n";
    return ExitUsageError;
  }
  if (ToStdout && (!DepfilePath.empty() || !StampPath.empty())) {
    llvm::errs() << "stencilc: error: --"
                 << (DepfilePath.empty() ? "stamp" : "depfile")
                 << " needs output files; it cannot be used with '-o -'\n";
    return ExitUsageError;
  }
  if (DatabaseOutput.getNumOccurrences() && BuildPath.empty()) {
    llvm::errs() << "stencilc: error: --database-output picks among the -p "
                    "database's commands; give -p\n";
    return ExitUsageError;
  }
  if (Compilations && !BuildPath.empty()) {
    llvm::errs() << "stencilc: error: both '-p' and '--' give compiler flags; "
                    "use one\n";
    return ExitUsageError;
  }
  OutputPlan Plan;
  if (!ToStdout && !ListStencils && !planOutputs(Sources, Outputs, Plan))
    return ExitUsageError;
  if (!checkNotASourceName() || !checkNotRead(readFiles(Sources, {}), Plan))
    return ExitUsageError;

  // A missing input is one line here, not clang's four (no such file, no
  // input files, no compiler job, error while processing).
  for (const std::string &Source : Sources) {
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(Source, Status) ||
        !llvm::sys::fs::exists(Status)) {
      llvm::errs() << "stencilc: error: no such file: '" << Source << "'\n";
      return ExitInputError;
    }
    if (llvm::sys::fs::is_directory(Status)) {
      llvm::errs() << "stencilc: error: '" << Source
                   << "' is a directory, not a source file\n";
      return ExitInputError;
    }
    // Clang's tooling makes a source path native, and a backslash becomes
    // '/': it would look for another file.
    if (Source.find('\\') != std::string::npos) {
      llvm::errs() << "stencilc: error: '" << Source
                   << "': a path with a backslash cannot be compiled (Clang's "
                      "tooling reads it as '/'); rename the file or its "
                      "directory\n";
      return ExitInputError;
    }
  }

  // Without "--" or -p: no flags (never a search for compile_commands.json).
  if (!BuildPath.empty())
    Compilations = loadDatabase(BuildPath);
  else if (!Compilations)
    Compilations = std::make_unique<FixedCompilationDatabase>(
        ".", std::vector<std::string>());
  if (!Compilations)
    return ExitUsageError;
  ArgumentsAdjustingCompilations Adjusted(std::move(Compilations));
  // A build's command for its own compiler, made fit for stencilc's Clang.
  if (!BuildPath.empty())
    Adjusted.appendArgumentsAdjuster(buildCommandAdjuster());
  Adjusted.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(ArgsBefore, ArgumentInsertPosition::BEGIN));
  Adjusted.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(ArgsAfter, ArgumentInsertPosition::END));
  // Colours follow the user's flags: those after "--" (which the fixed
  // database drops as unused) or the database's.
  std::vector<std::string> ColourFlags(
      std::find(Argv, Argv + Argc, llvm::StringRef("--")), Argv + Argc);
  for (const CompileCommand &C : Adjusted.getCompileCommands(Sources.front()))
    ColourFlags.insert(ColourFlags.end(), C.CommandLine.begin(),
                       C.CommandLine.end());
  std::string ColourFlag = applyColourFlags(ColourFlags);
  ArgumentsAdjuster ParseFlags = parseFlagsAdjuster();
  if (const char **DoubleDash = std::find(Argv, End, llvm::StringRef("--"));
      DoubleDash != End &&
      !checkFlagsNameNoInputs(llvm::ArrayRef<const char *>(DoubleDash + 1, End)))
    return ExitUsageError;
  if (!checkCompileCommands(Adjusted, Sources, ParseFlags))
    return ExitUsageError;
  if (!FlagsError.empty()) {
    llvm::SmallVector<llvm::StringRef, 2> Lines;
    llvm::StringRef(FlagsError).trim().split(Lines, '\n');
    for (llvm::StringRef Line : Lines) {
      if (!Line.consume_front("error: "))
        Line.consume_front("warning: ");
      llvm::errs() << "stencilc: error: the compiler flags after '--': " << Line
                   << "\n";
    }
    return ExitUsageError;
  }

  ClangTool Tool(Adjusted, Sources);
  Tool.clearArgumentsAdjusters(); // parseFlagsAdjuster has them, in order
  Tool.appendArgumentsAdjuster(ParseFlags);
  // After ParseFlags: clang's syntax-only adjuster drops colour flags.
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      ColourFlag.c_str(), ArgumentInsertPosition::END));

  // Frontend and Analysis, once per translation unit. Analysis runs in the
  // Frontend's hook: its diagnostics need clang's, which end with the TU.
  std::vector<TranslationUnit> Units;
  std::unique_ptr<FrontendActionFactory> Frontend = createStencilActionFactory(
      [&Units](FrontendResult R, DiagnosticSink &Diags) {
        Units.push_back(analyzeTranslationUnit(std::move(R), Diags));
      });
  int ToolStatus = Tool.run(Frontend.get());
  if (ToolStatus != 0 || Units.size() != Sources.size())
    return ExitInputError;
  // With -Xclang -verify the expected errors were consumed: success, but
  // there is nothing valid to emit.
  if (llvm::any_of(Units,
                   [](const TranslationUnit &TU) { return TU.HadErrors; }))
    return ExitSuccess;
  if (ListStencils) {
    for (const TranslationUnit &TU : Units)
      printListing(TU, llvm::outs());
    return ExitSuccess;
  }

  // Planning, once per translation unit.
  for (TranslationUnit &TU : Units) {
    TU.Plan = planning::planModule(TU.Module, TU.Infos);
    planning::planSteps(TU.Plan, TU.StepInfos, StepChoice);
    TU.Plan.LineDirectives = !NoLineDirectives;
  }

  // Emission: each output prints its unit's plan.
  if (ToStdout) {
    llvm::outs() << generate(Outputs.front(), Units.front(),
                             llvm::sys::path::stem(Sources.front()).str() +
                                 Outputs.front().Suffix);
    return ExitSuccess;
  }

  // All or nothing, and a file whose text is unchanged keeps its time so
  // that a build does not recompile it.
  OutputFiles Files;
  std::vector<std::string> Dependencies;
  for (size_t I = 0; I < Units.size(); ++I) {
    TranslationUnit &TU = Units[I];
    Dependencies.insert(Dependencies.end(), TU.Dependencies.begin(),
                        TU.Dependencies.end());
    for (size_t O = 0; O < Outputs.size(); ++O)
      Files.add(Plan.PerSource[I][O],
                generate(Outputs[O], TU, normalPath(Plan.PerSource[I][O])));
  }
  if (!checkNotRead(readFiles(Sources, Dependencies), Plan))
    return ExitUsageError;
  std::vector<std::string> Targets;
  if (!StampPath.empty()) {
    // Always rewritten: a rule whose first output is the stamp is up to date
    // after every run, whichever generated files changed.
    Files.add(StampPath, "", OutputFiles::Update::Always);
    Targets.push_back(StampPath);
  }
  Targets.insert(Targets.end(), Plan.All.begin(), Plan.All.end());
  if (!DepfilePath.empty())
    Files.add(DepfilePath, formatDepfile(Targets, Dependencies));
  std::string Error;
  if (!Files.commit(Error)) {
    llvm::errs() << "stencilc: error: " << Error << "\n";
    return ExitOutputError;
  }
  return ExitSuccess;
}

int stencilc::runDriver(int Argc, const char **Argv) {
  llvm::outs(); // made before the handler is registered, so destroyed after
  std::atexit(checkStandardOutputAtExit);
  // Response files (@file) first: a "--" in one starts the compiler flags,
  // as on the command line (the option parser would take what follows it
  // for sources).
  llvm::BumpPtrAllocator Allocator;
  llvm::StringSaver Saver(Allocator);
  llvm::SmallVector<const char *, 64> Args(Argv, Argv + Argc);
  if (!cl::ExpandResponseFiles(Saver, cl::TokenizeGNUCommandLine, Args)) {
    llvm::errs() << "stencilc: error: cannot expand a response file (@file) "
                    "of the command line\n";
    return ExitUsageError;
  }
  int Code = runPipeline(static_cast<int>(Args.size()), Args.data());
  if (standardOutputFailed())
    return ExitOutputError;
  return Code;
}
