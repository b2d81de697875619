//===- StepPrinter.cpp - A step's plan as code ----------------------------===//
#include "stencilc/CodeGen/StepPrinter.h"
#include "stencilc/CodeGen/RegistrationGlue.h"
#include "stencilc/IR/StencilHash.h"
#include "stencilc/Planning/StepPlan.h"
#include "llvm/Support/Casting.h"
#include <algorithm>
#include <functional>
#include <stencil/generated_abi.hpp>

using namespace stencilc;
using namespace stencilc::codegen;

static const char *const Positions[] = {"i", "j", "k", "w"};

std::string codegen::stepParamName(unsigned N) {
  return "stencilc_s" + std::to_string(N);
}

std::string codegen::recomputeName(const std::string &Symbol, unsigned G,
                                   unsigned Param) {
  return fmt::format("stencilc_{}_g{}_recompute{}", Symbol, G, Param);
}

/// The literal of constant argument \p Arg.
static std::string literal(const ir::StepArg &Arg) {
  const auto *C = llvm::cast<ir::ConstantExpr>(Arg.Value.get());
  return printConstant(C->type(), C->IntValue, C->FloatValue);
}

/// The name of the local holding constant argument \p Arg, the same for
/// every call passing that literal of that type: its text in hexadecimal.
static std::string constantName(const ir::StepArg &Arg) {
  std::string Name = "stencilc_k";
  for (unsigned char Ch :
       std::string(Arg.Value->type().cppName()) + ":" + literal(Arg))
    Name += fmt::format("{:02x}", Ch);
  return Name;
}

std::vector<StepConstant> codegen::stepConstants(const ir::Step &St) {
  std::vector<StepConstant> Out;
  for (const ir::StepCall &C : St.Calls)
    for (const ir::StepArg &A : C.Args) {
      if (A.From != ir::StepArg::Kind::Constant)
        continue;
      StepConstant K{constantName(A), A.Value->type().cppName(), literal(A)};
      if (std::none_of(Out.begin(), Out.end(),
                       [&](const StepConstant &O) { return O.Name == K.Name; }))
        Out.push_back(std::move(K));
    }
  return Out;
}

std::string codegen::stepParameters(const ir::Step &St, bool Restrict) {
  std::string Out;
  for (unsigned P = 1; P < St.Params.size(); ++P) {
    std::string Ty = argumentValueType(St.Params[P]);
    if (Restrict && St.Params[P].Kind == ir::ParamKind::Array)
      Ty += "__restrict__";
    Out += fmt::format(", {} {}", Ty, stepParamName(P));
  }
  for (const StepConstant &K : stepConstants(St))
    Out += fmt::format(", const {} {}", K.Type, K.Name);
  return Out;
}

std::string codegen::stepArguments(const ir::Step &St) {
  std::string Out;
  for (unsigned P = 1; P < St.Params.size(); ++P)
    Out += ", " + stepParamName(P);
  for (const StepConstant &K : stepConstants(St))
    Out += ", " + K.Name;
  return Out;
}

/// What the step passes for \p Arg: its parameter's name, or the local
/// holding the constant (stepConstants).
static std::string stepValue(const ir::StepArg &Arg) {
  if (Arg.From == ir::StepArg::Kind::Param)
    return stepParamName(Arg.Param);
  return constantName(Arg);
}

/// \p Value as a value of parameter \p P's type (a scalar converted as C++
/// converts an argument).
static std::string converted(const ir::Param &P, const std::string &Value) {
  if (P.Kind == ir::ParamKind::Array)
    return Value;
  return fmt::format("static_cast<{}>({})", argumentValueType(P), Value);
}

/// The producer's parameters a recomputation needs: scalars it names and
/// arrays it reads.
static std::vector<unsigned> recomputeInputs(const ir::Stencil &S,
                                             const analysis::StencilInfo &I) {
  const BodyUses Uses = scanBody(S);
  std::vector<unsigned> Out;
  for (unsigned P = 1; P < S.Params.size(); ++P) {
    if (S.Params[P].Kind == ir::ParamKind::Scalar) {
      if (Uses.Params[P])
        Out.push_back(P);
      continue;
    }
    for (const analysis::ArrayInfo &A : I.Arrays)
      if (A.Param == P && A.Read)
        Out.push_back(P);
  }
  return Out;
}

bool codegen::writes(const planning::ModulePlan &Plan, const ir::StepCall &C,
                   unsigned Param) {
  for (const analysis::ArrayInfo &A : Plan.Stencils[C.Stencil].Info->Arrays)
    if (A.Written && C.Args[A.Param - 1].From == ir::StepArg::Kind::Param &&
        C.Args[A.Param - 1].Param == Param)
      return true;
  return false;
}

unsigned codegen::producerOf(const planning::ModulePlan &Plan,
                           const planning::StepPlan &SP, unsigned G,
                           unsigned X) {
  const std::vector<unsigned> &Calls = SP.Groups[G].Calls;
  for (size_t I = 0; I + 1 < Calls.size(); ++I)
    if (writes(Plan, SP.Step->Calls[Calls[I]], X))
      return Calls[I];
  return Calls.front();
}

namespace {

/// A recomputation: the stored value of one array goes to stencilc_r, the
/// producer's other stores to locals nobody reads.
class RecomputeStores : public ForwardingHooks {
public:
  RecomputeStores(const BodyPrinterHooks &Base, unsigned Target)
      : ForwardingHooks(Base), Target(Target) {}
  std::string storeTarget(unsigned Param, const std::string &) const override {
    return Param == Target ? "stencilc_r"
                           : "stencilc_d" + std::to_string(Param);
  }

private:
  unsigned Target;
};

/// The consumer of a fused group: loads of a recomputed array at an offset
/// call its recomputation where the point read is in the region v where the
/// producer's values are defined (the launch region, or over MPI the rank's
/// points and the halo its neighbours fill), and read memory (what the
/// producer left there: the array's margin) elsewhere.
class RecomputeLoads : public ForwardingHooks {
public:
  RecomputeLoads(const BodyPrinterHooks &Base, unsigned Dims)
      : ForwardingHooks(Base), Dims(Dims) {}
  std::string printLoad(unsigned Param, const ir::Offset &Off,
                        const std::string &Memory) const override {
    auto It = std::find_if(Calls.begin(), Calls.end(),
                           [&](const Call &C) { return C.Param == Param; });
    if (It == Calls.end())
      return Base.printLoad(Param, Off, Memory);
    std::string Inside, Args = "g";
    for (unsigned D = 0; D < Dims; ++D) {
      const long long O = Off[D];
      std::string Pos = Positions[D];
      if (O)
        Pos = fmt::format("{} {} {}", Pos, O < 0 ? '-' : '+', O < 0 ? -O : O);
      Args += ", " + Pos;
      if (O)
        Inside += fmt::format("{}{} {} v.{}[{}]", Inside.empty() ? "" : " && ",
                              Pos, O < 0 ? ">=" : "<", O < 0 ? "lo" : "hi",
                              D);
    }
    // At the point itself the producer has just computed the value (this
    // thread, in program order): a cache hit when it stored it, else the
    // variable it kept it in.
    if (Inside.empty())
      return It->Kept.empty() ? Base.printLoad(Param, Off, Memory) : It->Kept;
    std::string Call = fmt::format("{}({}{})", It->Function, Args, It->Inputs);
    return fmt::format("({} ? {} : {})", Inside, Call, Memory);
  }

  struct Call {
    unsigned Param;       ///< The consumer's parameter.
    std::string Function; ///< The recomputation.
    std::string Inputs;   ///< ", " and the producer's inputs.
    std::string Kept;     ///< The value at the point, if not stored.
  };
  std::vector<Call> Calls;

private:
  unsigned Dims;
};

} // namespace

void codegen::printRecomputeFunctions(CodeWriter &W,
                                      const planning::ModulePlan &Plan,
                                      const planning::StepPlan &SP,
                                      const std::string &Symbol,
                                      const std::string &Qualifiers,
                                      bool Restrict,
                                      const BodyPrinterHooks &Hooks) {
  const ir::Step &St = *SP.Step;
  W.blank();
  W.line("// Step '{}' from {}:{}", St.qualifiedName(), commentText(St.Loc.File),
         St.Loc.Line);
  for (unsigned G = 0; G < SP.Groups.size(); ++G) {
    const planning::StepGroup &Group = SP.Groups[G];
    if (Group.Strategy == planning::StepStrategy::MultiKernel)
      continue;
    for (unsigned X : Group.Recomputed) {
      const ir::StepCall &Prod = St.Calls[producerOf(Plan, SP, G, X)];
      const ir::Stencil &P = Plan.Module->Stencils[Prod.Stencil];
      const analysis::StencilInfo &Info = *Plan.Stencils[Prod.Stencil].Info;
      BodyNames Names(P);
      std::string Params;
      for (unsigned In : recomputeInputs(P, Info)) {
        std::string Ty = argumentValueType(P.Params[In]);
        if (Restrict && P.Params[In].Kind == ir::ParamKind::Array)
          Ty += "__restrict__";
        Params += fmt::format(", {} {}", Ty, Names.param(In));
      }
      unsigned Target = 0;
      for (const analysis::ArrayInfo &A : Info.Arrays)
        if (A.Written &&
            Prod.Args[A.Param - 1].From == ir::StepArg::Kind::Param &&
            Prod.Args[A.Param - 1].Param == X)
          Target = A.Param;
      const std::string Elem = ir::valueTypeName(P.Params[Target]);
      std::string Pos;
      for (unsigned D = 0; D < St.Dims; ++D)
        Pos += fmt::format(", const long long {}", Positions[D]);
      W.line("// What '{}' stores to '{}' at point ({}).", P.qualifiedName(),
             St.Params[X].Name, "i, j" + std::string(St.Dims >= 3 ? ", k" : "") +
                                    (St.Dims >= 4 ? ", w" : ""));
      W.open(fmt::format("{} {} {}(const stencil::Grid &g{}{}) {{",
                         Qualifiers, Elem, recomputeName(Symbol, G, X), Pos,
                         Params));
      printPointIndex(W, St.Dims);
      W.line("{} stencilc_r{{}};", Elem);
      for (const analysis::ArrayInfo &A : Info.Arrays)
        if (A.Written && A.Param != Target)
          W.line("[[maybe_unused]] {} stencilc_d{}{{}};",
                 ir::valueTypeName(P.Params[A.Param]), A.Param);
      RecomputeStores Stores(Hooks, Target);
      printBody(P, Names, Stores, W);
      W.line("return stencilc_r;");
      W.close();
      W.blank();
    }
  }
}

/// The locals a stencil's body names for its parameters, bound to what
/// call \p C passes, except \p Unnamed.
static void printAliases(CodeWriter &W, const ir::Stencil &S,
                         const BodyNames &Names, const ir::StepCall &C,
                         const std::vector<unsigned> &Unnamed) {
  const BodyUses Uses = scanBody(S);
  for (unsigned P = 1; P < S.Params.size(); ++P)
    if (Uses.Params[P] &&
        std::find(Unnamed.begin(), Unnamed.end(), P) == Unnamed.end())
      W.line("{} {} = {};", constQualified(argumentValueType(S.Params[P])),
             Names.param(P), converted(S.Params[P], stepValue(C.Args[P - 1])));
}

std::string codegen::recomputeArguments(const planning::ModulePlan &Plan,
                                       const planning::StepPlan &SP,
                                       unsigned G, unsigned X) {
  const ir::StepCall &Prod = SP.Step->Calls[producerOf(Plan, SP, G, X)];
  const ir::Stencil &P = Plan.Module->Stencils[Prod.Stencil];
  std::string Inputs;
  for (unsigned In : recomputeInputs(P, *Plan.Stencils[Prod.Stencil].Info))
    Inputs += ", " + converted(P.Params[In], stepValue(Prod.Args[In - 1]));
  return Inputs;
}

void codegen::printCallAtPoint(CodeWriter &W, const planning::ModulePlan &Plan,
                               const ir::StepCall &Call,
                               const std::string &Comment,
                               const BodyPrinterHooks &Hooks,
                               const std::vector<unsigned> &Unnamed) {
  const ir::Stencil &S = Plan.Module->Stencils[Call.Stencil];
  BodyNames Names(S);
  W.open(fmt::format("{{ // '{}' at this point{}", S.qualifiedName(), Comment));
  printAliases(W, S, Names, Call, Unnamed);
  printBody(S, Names, Hooks, W);
  W.close();
}

std::string codegen::producerList(const planning::ModulePlan &Plan,
                                  const ir::Step &St,
                                  const planning::StepGroup &Group) {
  std::string Out;
  for (size_t I = 0; I + 1 < Group.Calls.size(); ++I)
    Out += fmt::format("{}'{}'", Out.empty() ? "" : ", ",
                       Plan.Module->Stencils[St.Calls[Group.Calls[I]].Stencil]
                           .qualifiedName());
  return Out;
}

std::string codegen::keptName(unsigned Param) {
  return "stencilc_at" + std::to_string(Param);
}

void codegen::printKeptVariables(CodeWriter &W, const ir::Step &St,
                                 const planning::StepGroup &Group) {
  for (unsigned X : Group.Unstored)
    W.line("[[maybe_unused]] {} {}{{}};", ir::valueTypeName(St.Params[X]),
           keptName(X));
}

std::string KeepStores::storeTarget(unsigned Param,
                                    const std::string &Memory) const {
  const ir::StepArg &A = Call.Args[Param - 1];
  if (A.From == ir::StepArg::Kind::Param &&
      std::count(Unstored.begin(), Unstored.end(), A.Param))
    return keptName(A.Param);
  return Base.storeTarget(Param, Memory);
}

void codegen::printProducerAtPoint(CodeWriter &W,
                                   const planning::ModulePlan &Plan,
                                   const ir::StepCall &Prod,
                                   const std::vector<unsigned> &Unstored,
                                   const BodyPrinterHooks &Hooks) {
  // A producer reads none of the arrays it writes (whyNotFusible): the
  // unstored ones need no name.
  std::vector<unsigned> Unnamed;
  for (unsigned X : Unstored)
    for (unsigned P : Prod.boundTo(X))
      Unnamed.push_back(P);
  printCallAtPoint(W, Plan, Prod, "", KeepStores(Hooks, Prod, Unstored),
                   Unnamed);
}

/// Fused group \p Part (or a call alone) of group \p G at one point: its
/// producers, storing what they store but the scratch arrays, then its
/// consumer, recomputing what they store where it reads it.
static void printPartBody(CodeWriter &W, const planning::ModulePlan &Plan,
                          const planning::StepPlan &SP, unsigned G,
                          const planning::StepGroup &Part,
                          const std::string &Symbol,
                          const BodyPrinterHooks &Hooks) {
  const ir::Step &St = *SP.Step;
  const ir::StepCall &Cons = St.Calls[Part.Calls.back()];
  for (size_t I = 0; I + 1 < Part.Calls.size(); ++I)
    printProducerAtPoint(W, Plan, St.Calls[Part.Calls[I]], Part.Unstored,
                         Hooks);
  RecomputeLoads Loads(Hooks, St.Dims);
  for (unsigned X : Part.Recomputed) {
    const bool Kept =
        std::count(Part.Unstored.begin(), Part.Unstored.end(), X) != 0;
    for (unsigned CP : Cons.boundTo(X))
      Loads.Calls.push_back({CP, recomputeName(Symbol, G, X),
                             recomputeArguments(Plan, SP, G, X),
                             Kept ? keptName(X) : std::string()});
  }
  printCallAtPoint(W, Plan, Cons,
                   Part.Recomputed.empty()
                       ? std::string()
                       : ", recomputing what " + producerList(Plan, St, Part) +
                             " stores where it reads it",
                   Loads);
}

void codegen::printFusedBody(CodeWriter &W, const planning::ModulePlan &Plan,
                             const planning::StepPlan &SP, unsigned G,
                             const std::string &Symbol,
                             const BodyPrinterHooks &Hooks) {
  const planning::StepGroup &Group = SP.Groups[G];
  printKeptVariables(W, *SP.Step, Group);
  if (Group.Parts.empty()) {
    printPartBody(W, Plan, SP, G, Group, Symbol, Hooks);
    return;
  }
  for (const planning::StepGroup &Part : Group.Parts)
    printPartBody(W, Plan, SP, G, Part, Symbol, Hooks);
}

void codegen::printStepArgumentUnpacking(CodeWriter &W, const ir::Step &St) {
  for (unsigned P = 1; P < St.Params.size(); ++P) {
    std::string Const = constQualified(argumentValueType(St.Params[P]));
    W.line("[[maybe_unused]] {} {} = *static_cast<{} *>(args[{}]);", Const,
           stepParamName(P), Const, P - 1);
  }
  for (const StepConstant &K : stepConstants(St))
    W.line(
        "[[maybe_unused]] const {0} {1} = stencil::runTimeConstant<{0}>({2});",
        K.Type, K.Name, K.Literal);
}

void codegen::printStencilLaunch(CodeWriter &W,
                                 const planning::ModulePlan &Plan,
                                 const planning::StepPlan &SP, unsigned Call,
                                 const std::string &Launcher,
                                 const std::string &Config) {
  const ir::StepCall &C = SP.Step->Calls[Call];
  const ir::Stencil &S = Plan.Module->Stencils[C.Stencil];
  W.open(fmt::format("{{ // '{}'", S.qualifiedName()));
  std::string Args;
  for (unsigned P = 1; P < S.Params.size(); ++P) {
    W.line("{} stencilc_v{} = {};", argumentValueType(S.Params[P]), P,
           converted(S.Params[P], stepValue(C.Args[P - 1])));
    Args += fmt::format("{}&stencilc_v{}", P > 1 ? ", " : "", P);
  }
  W.line("void *stencilc_a[] = {{{}}};", Args.empty() ? "nullptr" : Args);
  W.line("if (const char *stencilc_e = {}(g, r, {}, stencilc_a))", Launcher,
         Config);
  W.line("  return stencilc_e;");
  W.close();
}

void codegen::printStepGroups(CodeWriter &W, const planning::StepPlan &SP,
                              const CallPrinter &Call,
                              const CallPrinter &Fused) {
  for (unsigned G = 0; G < SP.Groups.size(); ++G) {
    const planning::StepGroup &Group = SP.Groups[G];
    if (Group.Strategy != planning::StepStrategy::MultiKernel) {
      Fused(W, G);
      continue;
    }
    for (unsigned C : Group.Calls)
      Call(W, C);
  }
}

/// `static const char *<Name>(int <Selector>, g, r, <Regions>cfg, args)`:
/// a switch over \p Cases, each printed by \p Print.
static void printSwitchLauncher(CodeWriter &W, const ir::Step &St,
                                const std::string &Name, const char *Selector,
                                const char *Regions,
                                const std::vector<unsigned> &Cases,
                                const CallPrinter &Print) {
  W.open(fmt::format("static const char *{}(int {}, const stencil::Grid &g, "
                     "const stencil::Region &r, {}const stencil::LaunchConfig "
                     "&cfg, void *const *{}) {{",
                     Name, Selector, Regions,
                     St.Params.size() > 1 ? "args" : "/*args*/"));
  printStepArgumentUnpacking(W, St);
  W.line("(void)cfg;");
  W.open(fmt::format("switch ({}) {{", Selector));
  for (unsigned C : Cases) {
    W.line("case {}:", C);
    Print(W, C);
    W.line("return nullptr;");
  }
  W.line("default:");
  W.line("  return \"no such {} of the step\";", Selector);
  W.close();
  W.close();
}

/// Returns from a call launcher where the step's arguments give call \p C
/// one array for two parameters of its stencil \p S and it writes either:
/// the launch would read what it writes (stencilc refuses one step
/// parameter passed twice; two parameters given one array only show at run
/// time).
static void printCallAliasChecks(CodeWriter &W, const ir::Step &St,
                                 const ir::Stencil &S, unsigned C) {
  const ir::StepCall &Call = St.Calls[C];
  for (unsigned A = 0; A < Call.Args.size(); ++A)
    for (unsigned B = A + 1; B < Call.Args.size(); ++B) {
      const ir::StepArg &X = Call.Args[A], &Y = Call.Args[B];
      if (X.From != ir::StepArg::Kind::Param ||
          Y.From != ir::StepArg::Kind::Param || X.Param == Y.Param ||
          S.Params[A + 1].Kind != ir::ParamKind::Array ||
          S.Params[B + 1].Kind != ir::ParamKind::Array)
        continue;
      const bool WritesB = ir::storesSomewhere(S, B + 1);
      if (!WritesB && !ir::storesSomewhere(S, A + 1))
        continue;
      W.line("if (static_cast<const void *>(stencilc_s{}) == "
             "static_cast<const void *>(stencilc_s{}))",
             X.Param, Y.Param);
      W.line("  return {};",
             cStringLiteral(fmt::format(
                 "stencil '{}' gets one array for its parameters '{}' and "
                 "'{}' (the step's '{}' and '{}'), and it writes '{}': a "
                 "launch would read what it writes",
                 S.qualifiedName(), S.Params[A + 1].Name, S.Params[B + 1].Name,
                 St.Params[X.Param].Name, St.Params[Y.Param].Name,
                 S.Params[WritesB ? B + 1 : A + 1].Name)));
    }
}

void codegen::printStepCallLauncher(CodeWriter &W, const ir::Module &M,
                                    const ir::Step &St, const std::string &Name,
                                    const CallPrinter &Call) {
  W.line("// One call of the step alone, for the distributed runtime.");
  std::vector<unsigned> Calls;
  for (unsigned C = 0; C < St.Calls.size(); ++C)
    Calls.push_back(C);
  printSwitchLauncher(
      W, St, Name, "call", "", Calls, [&](CodeWriter &Out, unsigned C) {
        printCallAliasChecks(Out, St, M.Stencils[St.Calls[C].Stencil], C);
        Call(Out, C);
      });
}

bool codegen::hasFusedGroups(const planning::StepPlan &SP) {
  return std::any_of(SP.Groups.begin(), SP.Groups.end(),
                     [](const planning::StepGroup &G) {
                       return G.Strategy != planning::StepStrategy::MultiKernel;
                     });
}

void codegen::printStepGroupLauncher(CodeWriter &W,
                                     const planning::StepPlan &SP,
                                     const std::string &Name,
                                     bool Alternatives,
                                     const CallPrinter &Fused) {
  W.line("// One fused group of the step alone, for the distributed runtime:");
  W.line("// recomputed where the consumer reads a point of v.");
  std::vector<unsigned> Groups;
  for (unsigned G = 0; G < SP.Groups.size(); ++G)
    if (SP.Groups[G].Strategy != planning::StepStrategy::MultiKernel)
      Groups.push_back(G);
  if (Alternatives)
    W.line("// Group {} + g: group g by its alternative strategy.",
           SP.Groups.size());
  for (unsigned G = 0; Alternatives && G < SP.Groups.size(); ++G)
    if (SP.Groups[G].Alternative != planning::StepStrategy::MultiKernel)
      Groups.push_back(SP.Groups.size() + G);
  printSwitchLauncher(W, *SP.Step, Name, "group",
                      "[[maybe_unused]] const stencil::Region &v, ", Groups,
                      Fused);
}

/// "stencil::Step<3> &, float, const float *": the step's parameters.
static std::string stepFunctionParameters(const ir::Step &St) {
  std::string Out = fmt::format("{}stencil::Step<{}> &",
                                St.Params[0].ReadOnly ? "const " : "", St.Dims);
  for (unsigned P = 1; P < St.Params.size(); ++P)
    Out += ", " + ir::declaredType(St.Params[P], St.Dims);
  return Out;
}

void codegen::printStepDeclarations(CodeWriter &W,
                                    const planning::ModulePlan &Plan) {
  if (Plan.Module->Steps.empty())
    return;
  W.blank();
  W.line("// The step functions registered below, defined in {}.",
         commentText(Plan.Module->InputFile));
  for (const ir::Step &St : Plan.Module->Steps) {
    std::string Namespace;
    for (const std::string &NS : St.Namespaces)
      Namespace += (Namespace.empty() ? "" : "::") + NS;
    if (!Namespace.empty())
      W.line("namespace {} {{", Namespace);
    W.line("{}void {}({});", St.ExternC ? "extern \"C\" " : "", St.Name,
           stepFunctionParameters(St));
    if (!Namespace.empty())
      W.line("}} // namespace {}", Namespace);
  }
}

void codegen::printStepRegistration(CodeWriter &W,
                                    const planning::ModulePlan &Plan,
                                    const planning::StepPlan &SP,
                                    const std::string &Symbol,
                                    const std::string &BackendEnumerator,
                                    const std::string &Launcher,
                                    const std::string &CallLauncher,
                                    const std::string &GroupLauncher,
                                    bool Alternatives) {
  const ir::Step &St = *SP.Step;
  const std::string Tables = "stencilc_" + Symbol;
  W.line("static const int {}_call_halos[][4][2] = {{", Tables);
  for (const ir::StepCall &C : St.Calls)
    W.line("    {},", haloInitializer(Plan.Stencils[C.Stencil].Info->Halo));
  W.line("}};");
  const std::string Exchanges =
      SP.Info->Exchanges.empty() ? "nullptr" : Tables + "_exchanges";
  if (!SP.Info->Exchanges.empty()) {
    W.line("static const stencil::GeneratedStepExchange {}[] = {{", Exchanges);
    for (const analysis::HaloNeed &N : SP.Info->Exchanges)
      W.line("    {{{}, {}, {}, {}, {}}},", N.Param - 1, N.After, N.Before,
             haloInitializer(N.Halo), N.Diagonal ? "true" : "false");
    W.line("}};");
  }
  const std::string Rounds = Tables + "_rounds";
  for (unsigned R = 0; R < SP.Rounds.size(); ++R) {
    if (SP.Rounds[R].Halos.empty())
      continue;
    W.line("static const stencil::GeneratedStepHalo {}_round{}[] = {{", Tables,
           R);
    for (const planning::RoundHalo &H : SP.Rounds[R].Halos)
      W.line("    {{{}, {}, {}, {}, {}, {}}},", H.Param - 1,
             haloInitializer(H.Halo), H.Diagonal ? "true" : "false",
             H.Exchange ? "true" : "false", haloInitializer(H.Sends),
             H.SendsDiagonal ? "true" : "false");
    W.line("}};");
  }
  auto CallName = [&](unsigned C) {
    return Plan.Module->Stencils[St.Calls[C].Stencil].qualifiedName();
  };
  W.line("static const char *const {}_call_names[] = {{", Tables);
  for (unsigned C = 0; C < St.Calls.size(); ++C)
    W.line("    {},", cStringLiteral(CallName(C)));
  W.line("}};");
  // "recompute(Flux, Update)", or a call alone by its stencil's name; a
  // Together group of fused parts "together(recompute(F, U), Other)".
  std::function<std::string(const planning::StepGroup &, bool,
                            planning::StepStrategy)>
      GroupText = [&](const planning::StepGroup &G, bool Bare,
                      planning::StepStrategy S) {
        std::string Names;
        if (!G.Parts.empty())
          for (const planning::StepGroup &P : G.Parts)
            Names +=
                (Names.empty() ? "" : ", ") +
                GroupText(P, P.Strategy == planning::StepStrategy::MultiKernel,
                          P.Strategy);
        else
          for (size_t I = 0; I < G.Calls.size(); ++I)
            Names += (I ? ", " : "") + CallName(G.Calls[I]);
        if (Bare)
          return Names;
        return std::string(planning::stepStrategyName(S)) + "(" + Names + ")";
      };
  // A fused group's members and recomputed arrays.
  auto List = [](const std::vector<unsigned> &Values, int Minus) {
    std::string Out;
    for (unsigned V : Values)
      Out += fmt::format("{}{}", Out.empty() ? "" : ", ", int(V) - Minus);
    return Out;
  };
  for (unsigned R = 0; R < SP.Rounds.size(); ++R) {
    const planning::StepGroup &G = SP.Groups[SP.Rounds[R].Group];
    if (G.Strategy == planning::StepStrategy::MultiKernel)
      continue;
    W.line("static const int {}_round{}_calls[] = {{{}}};", Tables, R,
           List(G.Calls, 0));
    if (!G.Recomputed.empty()) // no empty arrays in C++
      W.line("static const int {}_round{}_recomputed[] = {{{}}};", Tables, R,
             List(G.Recomputed, 1));
  }
  W.line("static const stencil::GeneratedStepRound {}[] = {{", Rounds);
  for (unsigned R = 0; R < SP.Rounds.size(); ++R) {
    const planning::StepRound &Round = SP.Rounds[R];
    const planning::StepGroup &G = SP.Groups[Round.Group];
    const bool Fused = G.Strategy != planning::StepStrategy::MultiKernel;
    const std::string Members =
        Fused
            ? fmt::format("{0}_round{1}_calls, {2}, {3}, {4}", Tables, R,
                          G.Calls.size(),
                          G.Recomputed.empty()
                              ? std::string("nullptr")
                              : fmt::format("{}_round{}_recomputed", Tables, R),
                          G.Recomputed.size())
            : std::string("nullptr, 0, nullptr, 0");
    const bool Alternative =
        Alternatives && G.Alternative != planning::StepStrategy::MultiKernel;
    const std::string Other =
        Alternative
            ? fmt::format("{}, {}", SP.Groups.size() + Round.Group,
                          cStringLiteral(GroupText(G, false, G.Alternative)))
            : std::string("-1, nullptr");
    W.line("    {{{}, {}, {}, {}, {}, {}, {}, {}u, {}, {}}},",
           Fused ? -1 : int(G.Calls[0]), Fused ? int(Round.Group) : -1,
           haloInitializer(Round.Reads),
           Round.Halos.empty() ? std::string("nullptr")
                               : fmt::format("{}_round{}", Tables, R),
           Round.Halos.size(), cStringLiteral(GroupText(G, !Fused, G.Strategy)),
           Members, Round.CoordinateDims, Other, G.Producers);
  }
  W.line("}};");
  std::string Signature, Halo, Description;
  for (unsigned P = 1; P < St.Params.size(); ++P)
    Signature += (P > 1 ? ", " : "") + ir::declaredType(St.Params[P], St.Dims);
  for (unsigned D = 0; D < ir::MaxDims; ++D)
    Halo += fmt::format("{}{{{}, {}}}", D ? ", " : "", SP.Halo[D].Lo,
                        SP.Halo[D].Hi);
  for (const planning::StepGroup &G : SP.Groups)
    Description +=
        (Description.empty() ? "" : ", ") + GroupText(G, false, G.Strategy);
  std::string Axes = "nullptr", Writes = "nullptr";
  if (St.Params.size() > 1) {
    Axes = Tables + "_array_axes";
    std::string List;
    for (unsigned P = 1; P < St.Params.size(); ++P)
      List += fmt::format("{}{}u", P > 1 ? ", " : "", SP.Info->ArrayAxes[P]);
    W.line("static const unsigned {}[] = {{{}}};", Axes, List);
    Writes = Tables + "_writes";
    List.clear();
    for (unsigned P = 1; P < St.Params.size(); ++P)
      List += fmt::format("{}{}", P > 1 ? ", " : "",
                          SP.Info->Written[P] ? "true" : "false");
    W.line("static const bool {}[] = {{{}}};", Writes, List);
  }
  W.line("[[maybe_unused]] static const bool stencilc_registered_{} = "
         "stencil::registerGeneratedStep(/*abiVersion=*/{}, {{",
         Symbol, stencil::GeneratedAbiVersion);
  W.indent();
  W.indent();
  W.line("/*name=*/{},", cStringLiteral(St.qualifiedName()));
  W.line("/*source=*/{},",
         cStringLiteral(fmt::format("{}:{}", St.Loc.File, St.Loc.Line)));
  W.line("/*functionKey=*/reinterpret_cast<const void *>(static_cast<void "
         "(*)({})>(&::{})),",
         stepFunctionParameters(St), St.qualifiedName());
  W.line("/*backend=*/{},", BackendEnumerator);
  W.line("/*dims=*/{},", St.Dims);
  W.line("/*signature=*/&typeid(void({})),", Signature);
  W.line("/*launch=*/&{},", Launcher);
  W.line("/*halo=*/{{{}}},", Halo);
  W.line("/*plan=*/{},", cStringLiteral(Description));
  W.line("/*unit=*/__FILE__,");
  W.line("/*launchCall=*/&{},", CallLauncher);
  W.line("/*callCount=*/{},", St.Calls.size());
  W.line("/*callHalos=*/{}_call_halos,", Tables);
  W.line("/*exchanges=*/{},", Exchanges);
  W.line("/*exchangeCount=*/{},", SP.Info->Exchanges.size());
  W.line("/*launchGroup=*/{},",
         GroupLauncher.empty() ? "nullptr" : "&" + GroupLauncher);
  W.line("/*rounds=*/{},", Rounds);
  W.line("/*roundCount=*/{},", SP.Rounds.size());
  W.line("/*callNames=*/{}_call_names,", Tables);
  W.line("/*irHash=*/{},",
         cStringLiteral(ir::hashStep(Plan.Module->Stencils, St, Description)));
  W.line("/*arrayAxes=*/{},", Axes);
  W.line("/*writes=*/{}}});", Writes);
  W.dedent();
  W.dedent();
}
