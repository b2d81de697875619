//===- StepPrinter.h - A step's plan as code -------------------*- C++ -*-===//
///
/// \file
/// What both backends print for a planned step (planning::StepPlan): the
/// recomputation functions of its fused groups (a producer's body evaluated
/// at another point, returning the value it stores to one array), the fused
/// body at one point (the producer, then the consumer with its loads of the
/// recomputed arrays replaced), the launcher's calls of single stencils, and
/// the registration. The backends print the loop nest or kernel around the
/// fused body and the launcher's frame. Decisions are the plan's.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_CODEGEN_STEPPRINTER_H
#define STENCILC_CODEGEN_STEPPRINTER_H

#include "stencilc/CodeGen/BodyPrinter.h"
#include "stencilc/CodeGen/CodeWriter.h"
#include "stencilc/Planning/Plan.h"
#include <functional>
#include <string>
#include <vector>

namespace stencilc::codegen {

/// The backend's hooks, with loads or stores changed by a subclass.
class ForwardingHooks : public BodyPrinterHooks {
public:
  explicit ForwardingHooks(const BodyPrinterHooks &Base) : Base(Base) {}
  std::string mathCallee(ir::MathFunc F, ir::Type Ty) const override {
    return Base.mathCallee(F, Ty);
  }
  bool callsAsWritten() const override { return Base.callsAsWritten(); }
  bool guardsIntegerConversions() const override {
    return Base.guardsIntegerConversions();
  }
  std::string_view loopPragma() const override { return Base.loopPragma(); }
  bool selectsForIfs() const override { return Base.selectsForIfs(); }
  bool exactReciprocals() const override { return Base.exactReciprocals(); }
  std::string smallestDividend() const override {
    return Base.smallestDividend();
  }

protected:
  const BodyPrinterHooks &Base;
};

/// The hooks of a fused group's producer at the consumer's point: its
/// stores of the group's unstored arrays (StepGroup::Unstored) go to the
/// variables keptName names instead of memory.
class KeepStores : public ForwardingHooks {
public:
  KeepStores(const BodyPrinterHooks &Base, const ir::StepCall &Call,
             const std::vector<unsigned> &Unstored)
      : ForwardingHooks(Base), Call(Call), Unstored(Unstored) {}
  std::string printLoad(unsigned Param, const ir::Offset &Off,
                        const std::string &Memory) const override {
    return Base.printLoad(Param, Off, Memory);
  }
  std::string storeTarget(unsigned Param,
                          const std::string &Memory) const override;

private:
  const ir::StepCall &Call;
  const std::vector<unsigned> &Unstored;
};

/// The variable holding unstored step array \p Param's value at the point.
std::string keptName(unsigned Param);

/// `T stencilc_at<X>{};` for each unstored array of \p Group.
void printKeptVariables(CodeWriter &W, const ir::Step &St,
                        const planning::StepGroup &Group);

/// A step's parameter \p N (after the stencil::Step) in generated code.
std::string stepParamName(unsigned N);

/// A literal the step passes to a stencil (`s.run(Square(), 2.0f, ...)`):
/// generated code holds it in a local that the launchers read through a
/// volatile (stencil::runTimeConstant) and kernels take as a parameter, so
/// that it is a value known at run time only, as the host engine and the
/// stencil's own code get it. One a distinct literal and type.
struct StepConstant {
  std::string Name;    ///< The local's name.
  std::string Type;    ///< The literal's type: "float".
  std::string Literal; ///< "2.0f".
};
std::vector<StepConstant> stepConstants(const ir::Step &St);

/// ", <type> stencilc_s<N>" per step parameter after the Step, then
/// ", const <type> <name>" per constant (stepConstants); arrays
/// `__restrict__` when \p Restrict (the step's arrays do not overlap).
std::string stepParameters(const ir::Step &St, bool Restrict);

/// ", stencilc_s<N>" per step parameter after the Step, then ", <name>" per
/// constant: the arguments of a kernel of stepParameters.
std::string stepArguments(const ir::Step &St);

/// The name of recomputation function of array \p Param in group \p G.
std::string recomputeName(const std::string &Symbol, unsigned G,
                          unsigned Param);

/// The step's comment, then one function per recomputed array of each
/// fused group of \p SP:
/// `<Qualifiers> T <recomputeName>(const stencil::Grid &g, i, j, k[, w],
/// the producer's parameters it reads)`.
void printRecomputeFunctions(CodeWriter &W, const planning::ModulePlan &Plan,
                             const planning::StepPlan &SP,
                             const std::string &Symbol,
                             const std::string &Qualifiers, bool Restrict,
                             const BodyPrinterHooks &Hooks);

/// True if call \p C writes step array \p Param.
bool writes(const planning::ModulePlan &Plan, const ir::StepCall &C,
            unsigned Param);

/// The call of fused group \p G that writes recomputed array \p X.
unsigned producerOf(const planning::ModulePlan &Plan,
                    const planning::StepPlan &SP, unsigned G, unsigned X);

/// ", <inputs>": what group \p G's recomputation of array \p X is passed
/// after the point, as the step passes it to the producer.
std::string recomputeArguments(const planning::ModulePlan &Plan,
                               const planning::StepPlan &SP, unsigned G,
                               unsigned X);

/// `{ // '<stencil>' at this point<Comment>`: \p Call's body at the point
/// i, j, k (w), c, its parameters bound to what the step passes, but for
/// \p Unnamed: arrays every load of which \p Hooks prints otherwise.
void printCallAtPoint(CodeWriter &W, const planning::ModulePlan &Plan,
                      const ir::StepCall &Call, const std::string &Comment,
                      const BodyPrinterHooks &Hooks,
                      const std::vector<unsigned> &Unnamed = {});

/// Producer \p Prod of a fused group at the consumer's point
/// (printCallAtPoint), its stores of \p Unstored arrays kept in variables
/// (KeepStores) and those arrays unnamed.
void printProducerAtPoint(CodeWriter &W, const planning::ModulePlan &Plan,
                          const ir::StepCall &Prod,
                          const std::vector<unsigned> &Unstored,
                          const BodyPrinterHooks &Hooks);

/// "'FluxX', 'FluxY'": the producers of fused group \p Group of step \p St,
/// for comments.
std::string producerList(const planning::ModulePlan &Plan, const ir::Step &St,
                         const planning::StepGroup &Group);

/// The body of fused group \p G at the point i, j, k (w), c, with the
/// step's values named by stepParamName: each producer's block, then the
/// consumer's, which recomputes where it reads a point of the region v; a
/// Together group's parts so, one after another.
void printFusedBody(CodeWriter &W, const planning::ModulePlan &Plan,
                    const planning::StepPlan &SP, unsigned G,
                    const std::string &Symbol, const BodyPrinterHooks &Hooks);

/// `const float stencilc_s1 = *static_cast<...>(args[0]);` per parameter,
/// then each constant's local (stepConstants).
void printStepArgumentUnpacking(CodeWriter &W, const ir::Step &St);

/// One stencil call of a step through its own launcher \p Launcher with the
/// configuration \p Config, returning its error if it fails.
void printStencilLaunch(CodeWriter &W, const planning::ModulePlan &Plan,
                        const planning::StepPlan &SP, unsigned Call,
                        const std::string &Launcher, const std::string &Config);

/// Prints call \p Call of a step through its stencil's own code (what a
/// backend launches for a single stencil).
using CallPrinter = std::function<void(CodeWriter &W, unsigned Call)>;

/// The step launcher's body: its groups in order, a group of one kernel per
/// stencil through \p Call, a fused group through \p Fused (its index).
void printStepGroups(CodeWriter &W, const planning::StepPlan &SP,
                     const CallPrinter &Call, const CallPrinter &Fused);

/// `static const char *<Name>(int call, g, r, cfg, args)`: one call of the
/// step alone, for the distributed runtime. A call given one array (at run
/// time) for two parameters of its stencil (\p M's), either written,
/// returns why instead of launching.
void printStepCallLauncher(CodeWriter &W, const ir::Module &M,
                           const ir::Step &St, const std::string &Name,
                           const CallPrinter &Call);

/// True if some group of \p SP is fused (and the step has a group
/// launcher).
bool hasFusedGroups(const planning::StepPlan &SP);

/// `static const char *<Name>(int group, g, r, v, cfg, args)`: one fused
/// group of the step alone over r, recomputing where its consumer reads a
/// point of v, for the distributed runtime. With \p Alternatives (a backend
/// that compiles them), group N + g (N groups) is group g by its
/// alternative strategy (StepGroup::Alternative).
void printStepGroupLauncher(CodeWriter &W, const planning::StepPlan &SP,
                            const std::string &Name, bool Alternatives,
                            const CallPrinter &Fused);

/// Declares every step function in its namespaces (the registration takes
/// its address).
void printStepDeclarations(CodeWriter &W, const planning::ModulePlan &Plan);

/// `stencil::registerGeneratedStep(...)` for \p Launcher.
/// With the tables of each call's halo and of the exchanges (StepInfo),
/// \p CallLauncher (printStepCallLauncher), the plan's rounds and
/// \p GroupLauncher (printStepGroupLauncher; empty: no fused group), its
/// alternatives registered with \p Alternatives.
void printStepRegistration(CodeWriter &W, const planning::ModulePlan &Plan,
                           const planning::StepPlan &SP,
                           const std::string &Symbol,
                           const std::string &BackendEnumerator,
                           const std::string &Launcher,
                           const std::string &CallLauncher,
                           const std::string &GroupLauncher,
                           bool Alternatives);

} // namespace stencilc::codegen

#endif // STENCILC_CODEGEN_STEPPRINTER_H
