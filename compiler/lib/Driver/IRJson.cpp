//===- IRJson.cpp - The --emit=ir JSON document ---------------------------===//
#include "stencilc/Driver/IRJson.h"
#include "stencilc/IR/IRPrinter.h"
#include <cassert>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <regex>

using namespace stencilc;
using namespace stencilc::ir;
using Json = nlohmann::ordered_json;

static const char *formName(StencilForm F) {
  return F == StencilForm::Functor ? "functor" : "function";
}

static const char *paramKindName(ParamKind K) {
  switch (K) {
  case ParamKind::Index:
    return "index";
  case ParamKind::Scalar:
    return "scalar";
  case ParamKind::Array:
    return "array";
  }
  return "scalar";
}

/// Counts print as integers ("13", not "13.0") so golden files stay stable.
static Json number(double V) {
  if (std::isfinite(V) && V == std::floor(V) && std::fabs(V) < 9.0e15)
    return static_cast<std::int64_t>(V);
  return V;
}

/// [[lo, hi], ...] for the stencil's dimensions only.
static Json halo(const analysis::Halo &H, unsigned Dims) {
  Json Out = Json::array();
  for (unsigned D = 0; D < Dims; ++D)
    Out.push_back(Json::array({H[D].Lo, H[D].Hi}));
  return Out;
}

static Json offset(const Offset &Off, unsigned Dims) {
  Json Out = Json::array();
  for (unsigned D = 0; D < Dims; ++D)
    Out.push_back(Off[D]);
  return Out;
}

static Json sourceJson(const PresumedLoc &Loc) {
  return {{"file", Loc.File}, {"line", Loc.Line}, {"column", Loc.Column}};
}

static Json paramJson(const Param &P, unsigned Dims) {
  Json JP;
  JP["name"] = P.Name;
  JP["kind"] = paramKindName(P.Kind);
  // The index has no scalar type of its own; cpp_type says which index it is.
  JP["type"] = P.Kind == ParamKind::Index ? "index" : P.Ty.irName();
  JP["cpp_type"] = declaredType(P, Dims);
  return JP;
}

static Json stencilJson(const Stencil &S, const analysis::StencilInfo &Info) {
  Json J;
  J["name"] = S.Name;
  J["qualified_name"] = S.qualifiedName();
  J["form"] = formName(S.Form);
  if (S.Form == StencilForm::Functor)
    J["type_key"] = S.TypeKey; // what typeid(T).name() returns at run time
  J["dims"] = S.Dims;
  J["source"] = sourceJson(S.Loc);

  Json Params = Json::array();
  for (const Param &P : S.Params)
    Params.push_back(paramJson(P, S.Dims));
  J["params"] = std::move(Params);

  Json Arrays = Json::array();
  for (const analysis::ArrayInfo &A : Info.Arrays) {
    const Param &P = S.Params[A.Param];
    Json JA;
    JA["name"] = P.Name;
    JA["type"] = P.Ty.irName();
    JA["intent"] = analysis::intentName(A.Use);
    // The dimensions the array spans: all of them, or fewer for an array of
    // lower rank ("z": a profile; its offsets are 0 in x and y).
    JA["axes"] = axesName(arrayAxes(P, S.Dims));
    Json Offsets = Json::array();
    for (const Offset &Off : A.ReadOffsets)
      Offsets.push_back(offset(Off, S.Dims));
    JA["offsets"] = std::move(Offsets);
    JA["halo"] = halo(A.Halo, S.Dims);
    Arrays.push_back(std::move(JA));
  }
  J["arrays"] = std::move(Arrays);

  J["halo"] = halo(Info.Halo, S.Dims);
  J["flops_per_point"] = number(Info.FlopsPerPoint);
  J["bytes_per_point"] = number(Info.BytesPerPoint);
  J["body"] = S.Body ? printStmt(S, *S.Body) : std::string();
  return J;
}

/// Puts arrays of plain numbers ([dx, dy, dz], [lo, hi]) on one line: the
/// dump stays readable and golden tests can match one offset per line.
static std::string collapseNumberLists(const std::string &Text) {
  static const std::regex NumberList(
      R"(\[\s*(-?[0-9.eE+-]+(\s*,\s*-?[0-9.eE+-]+)*)\s*\])");
  static const std::regex Spaces(R"(\s*,\s*)");
  std::string Out;
  auto Begin = std::sregex_iterator(Text.begin(), Text.end(), NumberList);
  size_t Last = 0;
  for (auto It = Begin; It != std::sregex_iterator(); ++It) {
    Out += Text.substr(Last, It->position() - Last);
    // Only the dump's own multi-line lists; "[0,0,0]" inside strings stays.
    if (It->str().find('\n') == std::string::npos)
      Out += It->str();
    else
      Out += "[" + std::regex_replace((*It)[1].str(), Spaces, ", ") + "]";
    Last = It->position() + It->length();
  }
  return Out + Text.substr(Last);
}

/// A step: its parameters, its calls (each stencil with what it gets), the
/// dependences between calls and the halos a distributed run must exchange.
static Json stepJson(const Module &M, const Step &S,
                     const analysis::StepInfo &Info) {
  Json J;
  J["name"] = S.Name;
  J["qualified_name"] = S.qualifiedName();
  J["dims"] = S.Dims;
  J["source"] = sourceJson(S.Loc);
  Json Params = Json::array();
  for (const Param &P : S.Params) {
    Params.push_back(paramJson(P, S.Dims));
    if (P.Scratch)
      Params.back()["scratch"] = true;
  }
  // The first parameter is the stencil::Step, not an index.
  Params[0]["kind"] = "step";
  Params[0]["type"] = "step";
  Params[0]["cpp_type"] = "stencil::Step<" + std::to_string(S.Dims) + "> &";
  J["params"] = std::move(Params);
  Json Calls = Json::array();
  for (const StepCall &C : S.Calls) {
    Json Args = Json::array();
    for (const StepArg &A : C.Args)
      Args.push_back(A.From == StepArg::Kind::Param
                         ? S.Params[A.Param].Name
                         : printExpr(M.Stencils[C.Stencil], *A.Value));
    Calls.push_back({{"stencil", M.Stencils[C.Stencil].qualifiedName()},
                     {"args", std::move(Args)}});
  }
  J["calls"] = std::move(Calls);
  Json Deps = Json::array();
  for (const analysis::Dependence &D : Info.Dependences) {
    Json Offsets = Json::array();
    for (const Offset &Off : D.Offsets)
      Offsets.push_back(offset(Off, S.Dims));
    Deps.push_back({{"kind", analysis::dependenceKindName(D.Kind)},
                    {"from", D.From},
                    {"to", D.To},
                    {"array", S.Params[D.Param].Name},
                    {"offsets", std::move(Offsets)}});
  }
  J["dependences"] = std::move(Deps);
  Json Exchanges = Json::array();
  for (const analysis::HaloNeed &N : Info.Exchanges)
    Exchanges.push_back({{"array", S.Params[N.Param].Name},
                         {"after", N.After},
                         {"before", N.Before},
                         {"halo", halo(N.Halo, S.Dims)},
                         {"diagonal", N.Diagonal}});
  J["exchanges"] = std::move(Exchanges);
  return J;
}

std::string
stencilc::printIRJson(const Module &M,
                      const std::vector<analysis::StencilInfo> &Infos,
                      const std::vector<analysis::StepInfo> &StepInfos) {
  assert(Infos.size() == M.Stencils.size() && "one StencilInfo per stencil");
  assert(StepInfos.size() == M.Steps.size() && "one StepInfo per step");
  Json Stencils = Json::array();
  for (size_t I = 0; I < M.Stencils.size(); ++I)
    Stencils.push_back(stencilJson(M.Stencils[I], Infos[I]));
  Json Doc;
  Doc["format"] = IRJsonFormat;
  Doc["version"] = IRJsonVersion;
  Doc["stencils"] = std::move(Stencils);
  if (!M.Steps.empty()) {
    Json Steps = Json::array();
    for (size_t I = 0; I < M.Steps.size(); ++I)
      Steps.push_back(stepJson(M, M.Steps[I], StepInfos[I]));
    Doc["steps"] = std::move(Steps);
  }
  return collapseNumberLists(Doc.dump(2)) + "\n";
}
