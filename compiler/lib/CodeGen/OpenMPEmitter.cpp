//===- OpenMPEmitter.cpp - The OpenMP C++ backend -------------------------===//
///
/// \file
/// One function per stencil with the launcher's signature: a loop nest over
/// the region, x innermost, running the printed body at every point. In 2-D
/// the rows are shared among OpenMP threads; in 3-D and 4-D the blocks of
/// the plan's cache blocking (CpuLoopPlan, stencil/cpu_tiling.hpp). Compiled by the host
/// compiler with the user's flags, so it reproduces the host reference
/// bit-for-bit, with the conditions and exceptions of docs/correctness.md
/// (GCC needs -frounding-math, which stencilc_add_sources adds, so that it
/// folds a math call on a constant in neither; fmin/fmax of opposite zeros).
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/BodyPrinter.h"
#include "stencilc/CodeGen/CodeWriter.h"
#include "stencilc/CodeGen/Emitter.h"
#include "stencilc/CodeGen/RegistrationGlue.h"
#include "stencilc/CodeGen/StepPrinter.h"
#include "stencilc/Planning/StepPlan.h"

#include <algorithm>

using namespace stencilc;
using namespace stencilc::codegen;

namespace {

class HostHooks : public BodyPrinterHooks {
public:
  std::string mathCallee(ir::MathFunc F, ir::Type) const override {
    // <cmath>'s overloads pick the float version for float arguments.
    return std::string("std::") + ir::mathFuncName(F);
  }
  bool callsAsWritten() const override { return true; }
  bool guardsIntegerConversions() const override { return true; }
  std::string_view loopPragma() const override { return {}; }
  // The x loop is vectorized: if/else becomes selects where that computes
  // the same (GCC leaves loops with control flow scalar).
  bool selectsForIfs() const override { return true; }
};

class OpenMPEmitter : public Emitter {
public:
  std::string emit(const planning::ModulePlan &Plan) const override;
  const char *fileSuffix() const override { return ".stencil.cpp"; }

private:
  void emitGrid(CodeWriter &W, const planning::StencilPlan &Plan,
                const std::string &Symbol) const;
  void emitStep(CodeWriter &W, const planning::ModulePlan &Plan,
                const planning::StepPlan &SP,
                const std::vector<std::string> &Symbols,
                const std::string &Symbol) const;
};

} // namespace

static const char *const Positions[] = {"i", "j", "k", "w"};

/// 2-D: the rows shared among threads; the x loop follows.
static void openRowLoops(CodeWriter &W, unsigned Dims, const char *Threads) {
  W.line("#pragma omp parallel for schedule(static) {}", Threads);
  for (unsigned D = Dims; D-- > 1;)
    W.open(fmt::format("for (long long {0} = r.lo[{1}]; {0} < r.hi[{1}]; "
                       "++{0}) {{",
                       Positions[D], D));
}

/// 3-D and 4-D: the blocks of stencil::cpuTiles (the outer 4-D dimension,
/// z chunks, y tiles) shared among threads, then z and y within a block;
/// the x loop follows.
static void openBlockedLoops(CodeWriter &W, unsigned Dims,
                             const planning::CpuLoopPlan &Cpu,
                             const char *Threads) {
  // Prefixed names: the body's own (a local 't') stay as the user wrote them.
  W.line("const stencil::CpuTiles stencilc_t = stencil::cpuTiles(r, {}, {}, "
         "{}, {}, stencil::openmpThreads());",
         Dims, Cpu.RowBytesPerPoint, Cpu.HaloY, Cpu.HaloZ);
  W.line("#pragma omp parallel for collapse({}) schedule(static) {}", Dims - 1,
         Threads);
  if (Dims >= 4)
    W.open("for (long long w = r.lo[3]; w < r.hi[3]; ++w) {");
  W.open("for (long long stencilc_kt = 0; stencilc_kt < stencilc_t.chunksZ; "
         "++stencilc_kt) {");
  W.open("for (long long stencilc_jt = 0; stencilc_jt < stencilc_t.tilesY; "
         "++stencilc_jt) {");
  W.open("for (long long k = stencilc_t.zBegin(stencilc_kt); k < "
         "stencilc_t.zEnd(stencilc_kt); ++k) {");
  W.open("for (long long j = stencilc_t.yBegin(stencilc_jt); j < "
         "stencilc_t.yEnd(stencilc_jt); ++j) {");
}

/// The loop nest of \p Cpu over the region, down to the point's c; returns
/// the number of loops to close.
static unsigned openLoopNest(CodeWriter &W, unsigned Dims,
                      const planning::CpuLoopPlan &Cpu) {
  // The thread count comes from the CPUs the process may use (affinity and
  // cgroup quota), not libgomp's count of the host's CPUs.
  const char *Threads = "num_threads(stencil::openmpThreads())";
  if (Cpu.Blocked)
    openBlockedLoops(W, Dims, Cpu, Threads);
  else
    openRowLoops(W, Dims, Threads);
  if (Cpu.SimdRows)
    W.line("#pragma omp simd");
  W.open("for (long long i = r.lo[0]; i < r.hi[0]; ++i) {");
  W.line("const long long c = {};", centreIndex(Dims));
  return Dims + (Cpu.Blocked ? 2 : 0);
}

void OpenMPEmitter::emitGrid(CodeWriter &W, const planning::StencilPlan &Plan,
                             const std::string &Symbol) const {
  const ir::Stencil &S = *Plan.Stencil;
  BodyNames Names(S);
  BodyUses Uses = scanBody(S);
  // Parameters the body never names are not unpacked (no unused variables).
  bool UsesArgs = false;
  for (unsigned P = 1; P < S.Params.size(); ++P)
    UsesArgs |= Uses.Params[P];

  W.line("{}", stencilComment(S, planning::VariantKind::Grid));
  W.open(launcherSignature("stencilc_" + Symbol + "_openmp",
                           /*UsesConfig=*/false, UsesArgs) +
         " {");
  printArgumentUnpacking(W, S, Names, Uses.Params);
  printStrides(W, S.Dims);

  const unsigned Loops = openLoopNest(W, S.Dims, Plan.Cpu);
  HostHooks Hooks;
  printBody(S, Names, Hooks, W);
  for (unsigned L = 0; L < Loops; ++L)
    W.close();
  W.line("return nullptr;");
  W.close();
}

/// A step's launcher: its groups in order, a single stencil through its own
/// launcher, a fused pair as one loop nest.
void OpenMPEmitter::emitStep(CodeWriter &W, const planning::ModulePlan &Plan,
                             const planning::StepPlan &SP,
                             const std::vector<std::string> &Symbols,
                             const std::string &Symbol) const {
  const ir::Step &St = *SP.Step;
  HostHooks Hooks;
  printRecomputeFunctions(W, Plan, SP, Symbol, "static inline",
                          /*Restrict=*/false, Hooks);
  const std::string Launcher = "stencilc_" + Symbol + "_openmp";
  W.open(launcherSignature(Launcher, /*UsesConfig=*/true,
                           St.Params.size() > 1) +
         " {");
  const CallPrinter Call = [&](CodeWriter &Out, unsigned C) {
    printStencilLaunch(Out, Plan, SP, C,
                       "stencilc_" + Symbols[St.Calls[C].Stencil] + "_openmp",
                       "cfg");
  };
  printStepArgumentUnpacking(W, St);
  const CallPrinter Fused = [&](CodeWriter &Out, unsigned G) {
    // A staged group too: on a CPU the caches hold the producer's inputs.
    Out.open(SP.Groups[G].Strategy == planning::StepStrategy::Together
                 ? "{ // stencils together"
                 : "{ // fused by recomputation");
    printStrides(Out, St.Dims);
    const unsigned Loops = openLoopNest(Out, St.Dims, SP.Groups[G].Cpu);
    printFusedBody(Out, Plan, SP, G, Symbol, Hooks);
    for (unsigned L = 0; L < Loops; ++L)
      Out.close();
    Out.close();
  };
  const bool AnyFused = hasFusedGroups(SP);
  if (AnyFused)
    W.line("[[maybe_unused]] const stencil::Region &v = r; // one domain: "
           "recomputed within it");
  printStepGroups(W, SP, Call, Fused);
  W.line("(void)cfg;");
  W.line("return nullptr;");
  W.close();
  W.blank();
  printStepCallLauncher(W, *Plan.Module, St, Launcher + "_call", Call);
  W.blank();
  if (AnyFused) {
    printStepGroupLauncher(W, SP, Launcher + "_group", /*Alternatives=*/false,
                           Fused);
    W.blank();
  }
  printStepRegistration(W, Plan, SP, Symbol, "stencil::Backend::OpenMP",
                        Launcher, Launcher + "_call",
                        AnyFused ? Launcher + "_group" : "",
                        /*Alternatives=*/false);
}

std::string OpenMPEmitter::emit(const planning::ModulePlan &Plan) const {
  bool MathCalls = false, MinMax = false, IntegerConversions = false;
  for (const planning::StencilPlan &SP : Plan.Stencils) {
    BodyUses Uses = scanBody(*SP.Stencil);
    MathCalls |= Uses.MathCalls;
    MinMax |= Uses.MinMax;
    IntegerConversions |= Uses.IntegerConversions;
  }
  std::vector<std::string> Includes = {"<stencil/cpu_threads.hpp>",
                                       "<stencil/generated.hpp>"};
  if (std::any_of(Plan.Stencils.begin(), Plan.Stencils.end(),
                  [](const planning::StencilPlan &SP) { return SP.Cpu.Blocked; }))
    Includes.push_back("<stencil/cpu_tiling.hpp>");
  if (needsFunctionDeclarations(Plan))
    Includes.push_back("<stencil/index.hpp>");
  if (MathCalls)
    Includes.push_back("<cmath>");
  if (!Plan.Steps.empty())
    Includes.push_back("<stencil/step.hpp>");

  CodeWriter W;
  if (Plan.LineDirectives)
    W.enableLineDirectives(Plan.GeneratedFile);
  // GCC keeps a select of values computed by floating-point operations as a
  // branch while those may trap (-ftrapping-math): the loop then stays
  // scalar. The values are the same without it (only exception flags
  // differ, and the sign of a NaN it folds from constants, which the
  // contract leaves open: docs/correctness.md). Before the includes: GCC
  // inlines no function of other optimisation options, so std::pow(float,
  // float) of <cmath> stayed a call to powf here where the host reference
  // inlines it and turns pow(x, 2.0f) into x * x (a last bit apart).
  printFileHeader(W, *Plan.Module, Includes,
                  {"#if defined(__GNUC__) && !defined(__clang__)",
                   "#pragma GCC optimize(\"no-trapping-math\")", "#endif"});
  printUserFunctionDeclarations(W, Plan);
  printStepDeclarations(W, Plan);
  W.blank();
  // Clang says where an `omp simd` loop stays scalar (a branchy stencil's),
  // a warning without a location that -Werror makes fatal: it is a hint.
  W.line("#if defined(__clang__)");
  W.line("#pragma clang diagnostic ignored \"-Wpass-failed\"");
  W.line("#endif");
  W.line("namespace stencilc_generated {{");
  W.line("namespace {{");
  if (MinMax) {
    W.blank();
    printMinMaxHelpers(W, "inline");
  }
  if (IntegerConversions) {
    W.blank();
    printIntegerConversionHelper(W);
  }

  std::vector<std::string> Symbols = uniqueSymbolNames(Plan);
  for (size_t I = 0; I < Plan.Stencils.size(); ++I) {
    const planning::StencilPlan &SP = Plan.Stencils[I];
    // The marching variants are CUDA's; OpenMP runs the grid loop nest.
    W.blank();
    emitGrid(W, SP, Symbols[I]);
    W.blank();
    printRegistration(
        W, *SP.Stencil, *SP.Info, Symbols[I], "stencil::Backend::OpenMP",
        "stencilc_" + Symbols[I] + "_openmp", planning::VariantKind::Grid);
  }
  for (size_t I = 0; I < Plan.Steps.size(); ++I)
    emitStep(W, Plan, Plan.Steps[I], Symbols,
             Symbols[Plan.Stencils.size() + I]);

  W.blank();
  W.line("}} // namespace");
  W.line("}} // namespace stencilc_generated");
  return W.str();
}

std::unique_ptr<Emitter> codegen::createOpenMPEmitter() {
  return std::make_unique<OpenMPEmitter>();
}
