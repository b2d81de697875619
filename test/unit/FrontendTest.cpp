//===- FrontendTest.cpp - Unit tests of the Frontend's contract -----------===//
///
/// \file
/// The Frontend over in-memory sources and the mock DSL header: it hands each
/// translation unit's IR to the hook once, runs no Analysis itself, and the
/// hook reports through clang while the source locations are alive.
///
//===----------------------------------------------------------------------===//
#include "stencilc/IR/Module.h"
#include "stencilc/Analysis/AnalyzeStencil.h"
#include "stencilc/Frontend/FrontendAction.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include <gtest/gtest.h>

using namespace stencilc;

namespace {

/// Each diagnostic as "line: level: text", its line decoded while clang's
/// SourceManager is alive.
class LineRecorder : public clang::DiagnosticConsumer {
public:
  std::vector<std::string> Lines;

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    unsigned Line =
        Info.hasSourceManager()
            ? Info.getSourceManager().getPresumedLineNumber(Info.getLocation())
            : 0;
    const char *Name = Level == clang::DiagnosticsEngine::Note      ? "note"
                       : Level == clang::DiagnosticsEngine::Warning ? "warning"
                                                                    : "error";
    Lines.push_back(std::to_string(Line) + ": " + Name + ": " +
                    std::string(Text));
  }
};

struct Source {
  std::string Path;
  std::string Code;
};

/// Runs the Frontend over \p Sources, in order, with \p Hook; returns
/// ClangTool::run's status.
int runFrontend(const std::vector<Source> &Sources, TranslationUnitHook Hook,
                LineRecorder &Diags) {
  clang::tooling::FixedCompilationDatabase DB(
      "/", {"-xc++", "-std=c++17", "-I" STENCILC_MOCK_INCLUDE_DIR});
  std::vector<std::string> Paths;
  for (const Source &S : Sources)
    Paths.push_back(S.Path);
  clang::tooling::ClangTool Tool(DB, Paths);
  for (const Source &S : Sources)
    Tool.mapVirtualFile(S.Path, S.Code);
  Tool.setDiagnosticConsumer(&Diags);
  return Tool.run(createStencilActionFactory(std::move(Hook)).get());
}

/// Line 3 reads the array it writes off the centre: an Analysis error.
const char *const Racy = R"(#include <stencil/dsl.hpp>
STENCIL_KERNEL void racy(const stencil::Index3D &idx, float *f) {
  f[idx.ix()] = f[idx.ix<-1, 0, 0>()];
}
)";

const char *const Copy = R"(#include <stencil/dsl.hpp>
STENCIL_KERNEL void copy(const stencil::Index3D &idx, const float *f,
                         float *fn) {
  fn[idx.ix()] = f[idx.ix()];
}
)";

TEST(FrontendTest, HookRunsOncePerTranslationUnit) {
  std::vector<std::string> Seen; // per call: input file and its stencils
  LineRecorder Diags;
  int Status = runFrontend(
      {{"/in/racy.cpp", Racy}, {"/in/copy.cpp", Copy}},
      [&](FrontendResult R, DiagnosticSink &) {
        std::string Call = R.Module.InputFile + ":";
        for (const ir::Stencil &S : R.Module.Stencils)
          Call += " " + S.Name;
        Seen.push_back(Call);
      },
      Diags);
  EXPECT_EQ(Status, 0);
  EXPECT_EQ(Seen, (std::vector<std::string>{"/in/racy.cpp: racy",
                                            "/in/copy.cpp: copy"}));
}

TEST(FrontendTest, RunsNoAnalysis) {
  // A racy stencil is lowered without a diagnostic: finding the race is
  // the Analysis', which the Frontend leaves to its caller.
  size_t Stencils = 0;
  bool HadErrors = true;
  LineRecorder Diags;
  int Status = runFrontend(
      {{"/in/racy.cpp", Racy}},
      [&](FrontendResult R, DiagnosticSink &) {
        Stencils = R.Module.Stencils.size();
        HadErrors = R.HadErrors;
      },
      Diags);
  EXPECT_EQ(Status, 0);
  EXPECT_EQ(Stencils, 1u);
  EXPECT_FALSE(HadErrors);
  EXPECT_EQ(Diags.Lines, std::vector<std::string>());
}

TEST(FrontendTest, HookReportsIntoTheSource) {
  bool SinkHadError = false;
  LineRecorder Diags;
  int Status = runFrontend(
      {{"/in/racy.cpp", Racy}},
      [&](FrontendResult R, DiagnosticSink &Sink) {
        analysis::analyzeModule(R.Module, Sink);
        SinkHadError = Sink.hadError();
      },
      Diags);
  EXPECT_NE(Status, 0);
  EXPECT_TRUE(SinkHadError);
  ASSERT_EQ(Diags.Lines.size(), 2u);
  EXPECT_EQ(Diags.Lines[0].rfind("3: error: array 'f' is written and also "
                                 "read at offset [-1,0,0]",
                                 0),
            0u)
      << Diags.Lines[0];
  EXPECT_EQ(Diags.Lines[1], "3: note: 'f' is written here");
}

TEST(FrontendTest, BrokenTranslationUnitReachesHookUnlowered) {
  // C++ errors: no stencil is lowered, but the hook still runs once.
  std::vector<bool> Calls; // HadErrors per call
  size_t Stencils = 0;
  LineRecorder Diags;
  int Status = runFrontend(
      {{"/in/broken.cpp", std::string(Copy) + "int x = ;\n"}},
      [&](FrontendResult R, DiagnosticSink &) {
        Calls.push_back(R.HadErrors);
        Stencils += R.Module.Stencils.size();
      },
      Diags);
  EXPECT_NE(Status, 0);
  EXPECT_EQ(Calls, std::vector<bool>{true});
  EXPECT_EQ(Stencils, 0u);
}

} // namespace
