//===- IRTest.cpp - Unit tests of the stencil IR --------------------------===//
///
/// \file
/// Builds IR by hand (as the Frontend would) and checks the printed form,
/// the type helpers, the walkers and the names used by later stages.
///
//===----------------------------------------------------------------------===//
#include "IRBuilders.h"
#include "stencilc/IR/IRPrinter.h"
#include "stencilc/IR/Stencil.h"
#include <gtest/gtest.h>

using namespace stencilc;
using namespace stencilc::ir;
using namespace stencilc::ir::build;

namespace {

/// fn = cc*f + cw*f[-x] + ce*f[+x] + cs*f[-y] + cn*f[+y] + cb*f[-z] + ct*f[+z]
Stencil diffusion3d() {
  Stencil S;
  S.Name = "Diffusion3d";
  S.Dims = 3;
  S.Params.push_back(indexParam(3));
  for (const char *Name : {"cc", "cw", "ce", "cs", "cn", "cb", "ct"})
    S.Params.push_back(scalarParam(Name));
  S.Params.push_back(arrayParam("f", /*ReadOnly=*/true));   // 8
  S.Params.push_back(arrayParam("fn", /*ReadOnly=*/false)); // 9
  const Offset Offs[] = {{0, 0, 0, 0},  {-1, 0, 0, 0}, {1, 0, 0, 0},
                         {0, -1, 0, 0}, {0, 1, 0, 0},  {0, 0, -1, 0},
                         {0, 0, 1, 0}};
  ExprRef Sum;
  for (unsigned I = 0; I < 7; ++I) {
    ExprRef Term = mul(param(1 + I), load(8, Offs[I]));
    Sum = Sum ? add(Sum, Term) : Term;
  }
  S.Body = block({store(9, Sum)});
  return S;
}

} // namespace

TEST(TypeTest, SizesAndNames) {
  EXPECT_EQ(Type(ScalarKind::Bool).bytes(), 1u);
  EXPECT_EQ(Type(ScalarKind::Int32).bytes(), 4u);
  EXPECT_EQ(Type(ScalarKind::UInt64).bytes(), 8u);
  EXPECT_EQ(F32.bytes(), 4u);
  EXPECT_EQ(F64.bytes(), 8u);
  EXPECT_STREQ(F32.irName(), "f32");
  EXPECT_STREQ(F64.irName(), "f64");
  EXPECT_STREQ(Type(ScalarKind::Int64).irName(), "i64");
  EXPECT_STREQ(Type(ScalarKind::UInt32).irName(), "u32");
  EXPECT_STREQ(Bool.irName(), "bool");
  EXPECT_STREQ(F32.cppName(), "float");
  EXPECT_STREQ(F64.cppName(), "double");
  EXPECT_STREQ(I32.cppName(), "int");
}

TEST(TypeTest, Predicates) {
  EXPECT_TRUE(F32.isFloat());
  EXPECT_TRUE(F64.isFloat());
  EXPECT_FALSE(I32.isFloat());
  EXPECT_FALSE(Bool.isFloat());
  EXPECT_TRUE(Bool.isBool());
  EXPECT_FALSE(Bool.isInteger());
  EXPECT_TRUE(I32.isInteger());
  EXPECT_TRUE(Type(ScalarKind::UInt64).isInteger());
  EXPECT_FALSE(F64.isInteger());
  EXPECT_TRUE(I32.isSigned());
  EXPECT_TRUE(F32.isSigned());
  EXPECT_FALSE(Type(ScalarKind::UInt32).isSigned());
  EXPECT_EQ(Type(), I32);
  EXPECT_NE(F32, F64);
}

TEST(ExprTest, OperatorsAndMathFunctions) {
  EXPECT_STREQ(opSpelling(BinaryOp::LE), "<=");
  EXPECT_STREQ(opSpelling(BinaryOp::LOr), "||");
  EXPECT_STREQ(opSpelling(BinaryOp::Rem), "%");
  EXPECT_STREQ(opSpelling(UnaryOp::LNot), "!");
  EXPECT_TRUE(isComparisonOrLogical(BinaryOp::NE));
  EXPECT_TRUE(isComparisonOrLogical(BinaryOp::LAnd));
  EXPECT_FALSE(isComparisonOrLogical(BinaryOp::Sub));
  EXPECT_FALSE(isComparisonOrLogical(BinaryOp::BitAnd));
  EXPECT_STREQ(mathFuncName(MathFunc::Sqrt), "sqrt");
  EXPECT_STREQ(mathFuncName(MathFunc::Copysign), "copysign");
  EXPECT_STREQ(mathFuncName(MathFunc::Max), "max");
  EXPECT_EQ(mathFuncArity(MathFunc::Sqrt), 1u);
  EXPECT_EQ(mathFuncArity(MathFunc::Atan2), 2u);
  EXPECT_EQ(mathFuncArity(MathFunc::Fma), 3u);
}

TEST(ExprTest, Casting) {
  ExprRef L = load(8, {1, 0, 0, 0});
  EXPECT_TRUE(llvm::isa<LoadExpr>(L.get()));
  EXPECT_FALSE(llvm::isa<ParamRefExpr>(L.get()));
  EXPECT_EQ(llvm::cast<LoadExpr>(L.get())->Off[0], 1);
  EXPECT_EQ(llvm::dyn_cast<BinaryExpr>(L.get()), nullptr);
}

TEST(PrinterTest, Offsets) {
  EXPECT_EQ(printOffset({1, -2, 3, 0}, 3), "[1,-2,3]");
  EXPECT_EQ(printOffset({1, -2, 3, 0}, 2), "[1,-2]");
  EXPECT_EQ(printOffset({0, 0, 0, -4}, 4), "[0,0,0,-4]");
}

TEST(PrinterTest, Diffusion3dBody) {
  Stencil S = diffusion3d();
  EXPECT_EQ(printStmt(S, *S.Body), "fn[0,0,0] = (((((("
                                   "(cc * f[0,0,0]) + (cw * f[-1,0,0]))"
                                   " + (ce * f[1,0,0]))"
                                   " + (cs * f[0,-1,0]))"
                                   " + (cn * f[0,1,0]))"
                                   " + (cb * f[0,0,-1]))"
                                   " + (ct * f[0,0,1]))\n");
  EXPECT_EQ(printStmt(S, *S.Body, 4).substr(0, 14), "    fn[0,0,0] ");
}

TEST(PrinterTest, Expressions) {
  Stencil S = diffusion3d();
  EXPECT_EQ(printExpr(S, *fconst(0.5)), "0.5:f32");
  EXPECT_EQ(printExpr(S, *fconst(0.1, F64)), "0.10000000000000001:f64");
  EXPECT_EQ(printExpr(S, *iconst(-3)), "-3");
  EXPECT_EQ(printExpr(S, *iconst(1, Bool)), "true");
  EXPECT_EQ(printExpr(S, *iconst(0, Bool)), "false");
  EXPECT_EQ(printExpr(S, *std::make_shared<CoordExpr>(I32, 2, SourceRange{})),
            "idx.k()");
  EXPECT_EQ(printExpr(S, *std::make_shared<UnaryExpr>(F32, UnaryOp::Neg,
                                                      param(1), SourceRange{})),
            "(-cc)");
  EXPECT_EQ(
      printExpr(S, *std::make_shared<CastExpr>(F64, param(2), SourceRange{})),
      "f64(cw)");
  ExprRef Fma = std::make_shared<CallExpr>(
      F32, MathFunc::Fma,
      std::vector<ExprRef>{param(1), load(8, {}), fconst(1)}, SourceRange{});
  EXPECT_EQ(printExpr(S, *Fma), "fma:f32(cc, f[0,0,0], 1:f32)");
  EXPECT_EQ(printExpr(S, *binary(BinaryOp::GE, param(1), param(2))),
            "(cc >= cw)");
}

TEST(StencilTest, Names) {
  Stencil S = diffusion3d();
  EXPECT_EQ(S.qualifiedName(), "Diffusion3d");
  EXPECT_EQ(S.symbolName(), "Diffusion3d");
  S.Namespaces = {"phys", "dyn"};
  EXPECT_EQ(S.qualifiedName(), "phys::dyn::Diffusion3d");
  EXPECT_EQ(S.symbolName(), "phys_dyn_Diffusion3d");
}

namespace {

/// A 2-D stencil with locals, a loop, if/else and ?:
///   float a = u[0,0]; float s = 0;
///   for (int t = 0; t < 3; ++t) s = s + u[1,0] * w;
///   if (idx.i() > 0) out = a > s ? a : s; else { out = sqrt(-a); }
Stencil control2d() {
  Stencil S;
  S.Name = "control2d";
  S.Form = StencilForm::Function;
  S.Dims = 2;
  S.Params = {indexParam(2), scalarParam("w"), arrayParam("u", true),
              arrayParam("out", false)};
  S.Locals = {{"a", F32}, {"s", F32}, {"t", I32}};
  StmtRef Loop = std::make_shared<ForStmt>(
      2, 0, 1, 3,
      std::make_shared<AssignStmt>(
          1, add(local(1), mul(load(2, {1, 0}), param(1))), SourceRange{}),
      SourceRange{});
  ExprRef Sel = std::make_shared<SelectExpr>(
      F32, binary(BinaryOp::GT, local(0), local(1)), local(0), local(1),
      SourceRange{});
  ExprRef Sqrt = std::make_shared<CallExpr>(
      F32, MathFunc::Sqrt,
      std::vector<ExprRef>{std::make_shared<UnaryExpr>(
          F32, UnaryOp::Neg, local(0), SourceRange{})},
      SourceRange{});
  StmtRef If = std::make_shared<IfStmt>(
      binary(BinaryOp::GT, std::make_shared<CoordExpr>(I32, 0, SourceRange{}),
             iconst(0)),
      store(3, Sel), block({store(3, Sqrt)}), SourceRange{});
  S.Body = block(
      {std::make_shared<LocalDeclStmt>(0, load(2, {}), SourceRange{}),
       std::make_shared<LocalDeclStmt>(1, fconst(0), SourceRange{}),
       std::make_shared<LocalDeclStmt>(2, nullptr, SourceRange{}), Loop, If});
  return S;
}

} // namespace

TEST(PrinterTest, ControlFlow2d) {
  Stencil S = control2d();
  EXPECT_EQ(printStmt(S, *S.Body), "local a: f32 = u[0,0]\n"
                                   "local s: f32 = 0:f32\n"
                                   "local t: i32\n"
                                   "for t = 0 step 1 trips 3\n"
                                   "  s = (s + (u[1,0] * w))\n"
                                   "if (idx.i() > 0)\n"
                                   "  out[0,0] = ((a > s) ? a : s)\n"
                                   "else\n"
                                   "  out[0,0] = sqrt:f32((-a))\n");
}

TEST(ForStmtTest, End) {
  ForStmt F(0, 2, 3, 4, block({}), SourceRange{});
  EXPECT_EQ(F.end(), 14);
  ForStmt Down(0, 10, -2, 5, block({}), SourceRange{});
  EXPECT_EQ(Down.end(), 0);
}

TEST(WalkTest, VisitsEveryStatementAndLoad) {
  Stencil S = control2d();
  unsigned Stmts = 0, Stores = 0, Loads = 0, Exprs = 0;
  walkStmt(
      *S.Body,
      [&](const Stmt &St) {
        ++Stmts;
        Stores += llvm::isa<StoreStmt>(&St);
      },
      [&](const Expr &Top) {
        walkExpr(Top, [&](const Expr &E) {
          ++Exprs;
          Loads += llvm::isa<LoadExpr>(&E);
        });
      });
  // Block, 3 decls, for, assign, if, store, else-block, store.
  EXPECT_EQ(Stmts, 10u);
  EXPECT_EQ(Stores, 2u);
  EXPECT_EQ(Loads, 2u);
  // u; 0; s+u*w (5); i>0 (3); a>s?a:s (6); sqrt(-a) (3).
  EXPECT_EQ(Exprs, 19u);
}

TEST(WalkTest, PreOrder) {
  std::vector<ExprKind> Kinds;
  walkExpr(*mul(param(1), add(load(8, {}), param(2))),
           [&](const Expr &E) { Kinds.push_back(E.kind()); });
  EXPECT_EQ(Kinds, (std::vector<ExprKind>{ExprKind::Binary, ExprKind::ParamRef,
                                          ExprKind::Binary, ExprKind::Load,
                                          ExprKind::ParamRef}));
}
