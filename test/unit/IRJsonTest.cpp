//===- IRJsonTest.cpp - Unit tests of the --emit=ir JSON document ---------===//
///
/// \file
/// Analyses hand-built stencils, prints the document, parses it back and
/// checks every field the Driver promises (see stencilc/Driver/IRJson.h).
///
//===----------------------------------------------------------------------===//
#include "stencilc/IR/Module.h"
#include "stencilc/Driver/IRJson.h"
#include "IRBuilders.h"
#include "stencilc/Analysis/AnalyzeStencil.h"
#include "stencilc/IR/IRPrinter.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace stencilc;
using namespace stencilc::ir;
using namespace stencilc::ir::build;
using Json = nlohmann::ordered_json;

namespace {

/// The seed framework's 7-point diffusion, as a functor in namespace "phys".
Stencil diffusion3d() {
  Stencil S;
  S.Name = "Diffusion3d";
  S.Namespaces = {"phys"};
  S.Form = StencilForm::Functor;
  S.TypeKey = "N4phys11Diffusion3dE";
  S.Dims = 3;
  S.Loc = {"diffusion.cpp", 12, 8};
  S.Params.push_back(makeIndexParam());
  for (const char *Name : {"cc", "cw", "ce", "cs", "cn", "cb", "ct"})
    S.Params.push_back(makeParam(Name, F32, /*Array=*/false));
  S.Params.push_back(makeParam("f", F32, /*Array=*/true, /*ReadOnly=*/true));
  S.Params.push_back(makeParam("fn", F32, /*Array=*/true));
  const Offset Offs[] = {{0, 0, 0, 0},  {-1, 0, 0, 0}, {1, 0, 0, 0},
                         {0, -1, 0, 0}, {0, 1, 0, 0},  {0, 0, -1, 0},
                         {0, 0, 1, 0}};
  ExprRef Sum;
  for (unsigned I = 0; I < 7; ++I) {
    ExprRef Term = binary(BinaryOp::Mul, param(1 + I), load(8, Offs[I]));
    Sum = Sum ? binary(BinaryOp::Add, Sum, Term) : Term;
  }
  S.Body = block({store(9, Sum)});
  return S;
}

/// A 2-D double-precision free function: u = u + a * (v[+x] - v[-2y]).
Stencil update2d() {
  Stencil S;
  S.Name = "update2d";
  S.Form = StencilForm::Function;
  S.Dims = 2;
  S.Loc = {"update.cpp", 3, 1};
  S.Params.push_back(makeIndexParam());
  S.Params.push_back(makeParam("a", F64, /*Array=*/false));
  S.Params.push_back(makeParam("v", F64, /*Array=*/true, /*ReadOnly=*/true));
  S.Params.push_back(makeParam("u", F64, /*Array=*/true));
  S.Body = block(
      {store(3, binary(BinaryOp::Add, load(3, {}, F64),
                       binary(BinaryOp::Mul, param(1, F64),
                              binary(BinaryOp::Sub, load(2, {1, 0, 0, 0}, F64),
                                     load(2, {0, -2, 0, 0}, F64)))))});
  return S;
}

class NullSink : public DiagnosticSink {
  void emit(const DiagInfo &, SourceRange,
            llvm::ArrayRef<std::string>) override {}
};

std::string printModule(const Module &M) {
  NullSink Sink;
  std::vector<analysis::StencilInfo> Infos;
  for (const Stencil &S : M.Stencils)
    Infos.push_back(analysis::analyzeStencil(S, Sink));
  EXPECT_FALSE(Sink.hadError());
  return printIRJson(M, Infos);
}

std::vector<std::string> keysOf(const Json &J) {
  std::vector<std::string> Keys;
  for (const auto &Item : J.items())
    Keys.push_back(Item.key());
  return Keys;
}

} // namespace

TEST(IRJsonTest, FormattingAndKeyOrder) {
  Module M;
  M.InputFile = "diffusion.cpp";
  M.Stencils.push_back(diffusion3d());
  std::string Text = printModule(M);
  ASSERT_FALSE(Text.empty());
  EXPECT_EQ(Text.back(), '\n');
  // A reader learns what it reads, and which version, from the first lines.
  EXPECT_EQ(Text.substr(0, 60),
            "{\n  \"format\": \"stencilc-ir\",\n  \"version\": 1,\n  "
            "\"stencils\": [");
  Json Doc = Json::parse(Text);
  EXPECT_EQ(keysOf(Doc),
            (std::vector<std::string>{"format", "version", "stencils"}));
  EXPECT_EQ(Doc["format"], "stencilc-ir");
  EXPECT_EQ(Doc["version"], 1);
  const Json &S = Doc["stencils"][0];
  EXPECT_EQ(keysOf(S), (std::vector<std::string>{
                           "name", "qualified_name", "form", "type_key", "dims",
                           "source", "params", "arrays", "halo",
                           "flops_per_point", "bytes_per_point", "body"}));
  EXPECT_EQ(keysOf(S["source"]),
            (std::vector<std::string>{"file", "line", "column"}));
  EXPECT_EQ(keysOf(S["params"][0]),
            (std::vector<std::string>{"name", "kind", "type", "cpp_type"}));
  EXPECT_EQ(keysOf(S["arrays"][0]),
            (std::vector<std::string>{"name", "type", "intent", "axes",
                                      "offsets", "halo"}));
  // Offsets and halos stay on one line each; strings are left alone.
  EXPECT_NE(Text.find("\n            [-1, 0, 0],\n"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("f[-1,0,0]"), std::string::npos) << Text;
  // The same input prints the same text.
  EXPECT_EQ(printModule(M), Text);
}

TEST(IRJsonTest, Diffusion3d) {
  Module M;
  M.Stencils.push_back(diffusion3d());
  Json Doc = Json::parse(printModule(M));
  ASSERT_EQ(Doc["stencils"].size(), 1u);
  const Json &S = Doc["stencils"][0];
  EXPECT_EQ(S["name"], "Diffusion3d");
  EXPECT_EQ(S["qualified_name"], "phys::Diffusion3d");
  EXPECT_EQ(S["form"], "functor");
  EXPECT_EQ(S["dims"], 3);
  EXPECT_EQ(S["source"]["file"], "diffusion.cpp");
  EXPECT_EQ(S["source"]["line"], 12);
  EXPECT_EQ(S["source"]["column"], 8);

  ASSERT_EQ(S["params"].size(), 10u);
  EXPECT_EQ(S["params"][0]["name"], "idx");
  EXPECT_EQ(S["params"][0]["kind"], "index");
  EXPECT_EQ(S["params"][0]["cpp_type"], "const stencil::Index<3> &");
  EXPECT_EQ(S["params"][1]["name"], "cc");
  EXPECT_EQ(S["params"][1]["kind"], "scalar");
  EXPECT_EQ(S["params"][1]["type"], "f32");
  EXPECT_EQ(S["params"][8]["kind"], "array");
  EXPECT_EQ(S["params"][8]["type"], "f32");
  EXPECT_EQ(S["params"][8]["cpp_type"], "const float *");

  ASSERT_EQ(S["arrays"].size(), 2u);
  const Json &F = S["arrays"][0];
  EXPECT_EQ(F["name"], "f");
  EXPECT_EQ(F["type"], "f32");
  EXPECT_EQ(F["intent"], "in");
  EXPECT_EQ(F["offsets"], Json::parse("[[-1,0,0],[0,-1,0],[0,0,-1],[0,0,0],"
                                      "[0,0,1],[0,1,0],[1,0,0]]"));
  EXPECT_EQ(F["halo"], Json::parse("[[1,1],[1,1],[1,1]]"));
  const Json &FN = S["arrays"][1];
  EXPECT_EQ(FN["name"], "fn");
  EXPECT_EQ(FN["intent"], "out");
  EXPECT_EQ(FN["offsets"], Json::array());
  EXPECT_EQ(FN["halo"], Json::parse("[[0,0],[0,0],[0,0]]"));

  EXPECT_EQ(S["halo"], Json::parse("[[1,1],[1,1],[1,1]]"));
  EXPECT_TRUE(S["flops_per_point"].is_number_integer());
  EXPECT_EQ(S["flops_per_point"], 13);
  EXPECT_TRUE(S["bytes_per_point"].is_number_integer());
  EXPECT_EQ(S["bytes_per_point"], 8);
  EXPECT_EQ(S["body"], printStmt(M.Stencils[0], *M.Stencils[0].Body));
  EXPECT_EQ(S["body"].get<std::string>().substr(0, 12), "fn[0,0,0] = ");
}

TEST(IRJsonTest, TwoStencilsInSourceOrder) {
  Module M;
  M.Stencils.push_back(diffusion3d());
  M.Stencils.push_back(update2d());
  Json Doc = Json::parse(printModule(M));
  ASSERT_EQ(Doc["stencils"].size(), 2u);
  EXPECT_EQ(Doc["stencils"][0]["name"], "Diffusion3d");
  const Json &S = Doc["stencils"][1];
  EXPECT_EQ(S["name"], "update2d");
  EXPECT_EQ(S["qualified_name"], "update2d");
  EXPECT_EQ(S["form"], "function");
  EXPECT_EQ(S["dims"], 2);
  EXPECT_EQ(S["params"][1]["type"], "f64");
  // Offsets and halos have exactly `dims` components.
  const Json &V = S["arrays"][0];
  EXPECT_EQ(V["intent"], "in");
  EXPECT_EQ(V["type"], "f64");
  EXPECT_EQ(V["offsets"], Json::parse("[[0,-2],[1,0]]"));
  EXPECT_EQ(V["halo"], Json::parse("[[0,1],[2,0]]"));
  const Json &U = S["arrays"][1];
  EXPECT_EQ(U["intent"], "inout");
  EXPECT_EQ(U["offsets"], Json::parse("[[0,0]]"));
  EXPECT_EQ(S["halo"], Json::parse("[[0,1],[2,0]]"));
  EXPECT_EQ(S["flops_per_point"], 3);
  // v read (8), u read and written (8 + 8).
  EXPECT_EQ(S["bytes_per_point"], 24);
}

TEST(IRJsonTest, EmptyModule) {
  EXPECT_EQ(printIRJson(Module{}, {}),
            "{\n  \"format\": \"stencilc-ir\",\n  \"version\": 1,\n  "
            "\"stencils\": []\n}\n");
}
