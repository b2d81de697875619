//===- CodeGenTest.cpp - Unit tests of the Emission stage -----------------===//
///
/// \file
/// Hand-built stencils go through both backends. The printed text is checked
/// piece by piece (names, load deltas, literals, registration), and the real
/// check compiles it: the OpenMP file with g++ -Werror and a main that runs
/// every stencil through the runtime's registry and compares bit-for-bit with
/// the same stencil written in C++ and called directly; the CUDA file with
/// nvcc -c where nvcc is available.
///
//===----------------------------------------------------------------------===//
#include "stencilc/IR/Module.h"
#include "stencilc/Analysis/Footprint.h"
#include "stencilc/CodeGen/BodyPrinter.h"
#include "stencilc/CodeGen/Emitter.h"
#include "stencilc/CodeGen/RegistrationGlue.h"
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <stencil/generated_abi.hpp>
#include <unistd.h>

using namespace stencilc;
using namespace stencilc::codegen;
using namespace stencilc::ir;

namespace {

const Type F32(ScalarKind::Float32);
const Type F64(ScalarKind::Float64);
const Type I32(ScalarKind::Int32);
const Type Bool(ScalarKind::Bool);

//===----------------------------------------------------------------------===//
// IR builders
//===----------------------------------------------------------------------===//

ExprRef load(unsigned Param, Offset Off, Type Ty = F32) {
  return std::make_shared<LoadExpr>(Ty, Param, Off, SourceRange{});
}
ExprRef param(unsigned Param, Type Ty = F32) {
  return std::make_shared<ParamRefExpr>(Ty, Param, SourceRange{});
}
ExprRef local(unsigned Local, Type Ty = F32) {
  return std::make_shared<LocalRefExpr>(Ty, Local, SourceRange{});
}
ExprRef fconst(double V, Type Ty = F32) {
  return std::make_shared<ConstantExpr>(Ty, 0, V, SourceRange{});
}
ExprRef iconst(std::int64_t V, Type Ty = I32) {
  return std::make_shared<ConstantExpr>(Ty, V, 0.0, SourceRange{});
}
ExprRef coord(unsigned Dim) {
  return std::make_shared<CoordExpr>(I32, Dim, SourceRange{});
}
ExprRef binary(BinaryOp Op, ExprRef L, ExprRef R) {
  Type Ty = isComparisonOrLogical(Op) ? Bool : L->type();
  return std::make_shared<BinaryExpr>(Ty, Op, std::move(L), std::move(R),
                                      SourceRange{});
}
ExprRef add(ExprRef L, ExprRef R) {
  return binary(BinaryOp::Add, std::move(L), std::move(R));
}
ExprRef mul(ExprRef L, ExprRef R) {
  return binary(BinaryOp::Mul, std::move(L), std::move(R));
}
ExprRef neg(ExprRef E) {
  Type Ty = E->type();
  return std::make_shared<UnaryExpr>(Ty, UnaryOp::Neg, std::move(E),
                                     SourceRange{});
}
ExprRef call(MathFunc F, Type Ty, std::vector<ExprRef> Args) {
  return std::make_shared<CallExpr>(Ty, F, std::move(Args), SourceRange{});
}
ExprRef castTo(Type Ty, ExprRef E) {
  return std::make_shared<CastExpr>(Ty, std::move(E), SourceRange{});
}
ExprRef select(ExprRef C, ExprRef T, ExprRef F) {
  Type Ty = T->type();
  return std::make_shared<SelectExpr>(Ty, std::move(C), std::move(T),
                                      std::move(F), SourceRange{});
}
StmtRef store(unsigned Param, ExprRef V) {
  return std::make_shared<StoreStmt>(Param, std::move(V), SourceRange{});
}
StmtRef declare(unsigned Local, ExprRef Init) {
  return std::make_shared<LocalDeclStmt>(Local, std::move(Init), SourceRange{});
}
StmtRef assign(unsigned Local, ExprRef V) {
  return std::make_shared<AssignStmt>(Local, std::move(V), SourceRange{});
}
StmtRef block(std::vector<StmtRef> Body) {
  return std::make_shared<BlockStmt>(std::move(Body), SourceRange{});
}
StmtRef ifElse(ExprRef C, StmtRef T, StmtRef E = nullptr) {
  return std::make_shared<IfStmt>(std::move(C), std::move(T), std::move(E),
                                  SourceRange{});
}
StmtRef loop(unsigned Var, std::int64_t Begin, std::int64_t Step,
             std::int64_t Trips, StmtRef Body) {
  return std::make_shared<ForStmt>(Var, Begin, Step, Trips, std::move(Body),
                                   SourceRange{});
}

Param indexParam(unsigned /*Dims*/) { return makeIndexParam(); }
Param scalarParam(std::string Name, Type Ty = F32) {
  return makeParam(std::move(Name), Ty, /*Array=*/false);
}
Param arrayParam(std::string Name, bool ReadOnly) {
  return makeParam(std::move(Name), F32, /*Array=*/true, ReadOnly);
}

//===----------------------------------------------------------------------===//
// The stencils
//===----------------------------------------------------------------------===//

/// ns::Diffusion3d, the seed's 7-point functor:
/// fn = cc*f + cw*f[-x] + ce*f[+x] + cs*f[-y] + cn*f[+y] + cb*f[-z] + ct*f[+z].
Stencil diffusion3d() {
  Stencil S;
  S.Name = "Diffusion3d";
  S.Namespaces = {"ns"};
  S.Form = StencilForm::Functor;
  S.TypeKey = "N2ns11Diffusion3dE";
  S.Dims = 3;
  S.Params = {indexParam(3)};
  for (const char *Name : {"cc", "cw", "ce", "cs", "cn", "cb", "ct"})
    S.Params.push_back(scalarParam(Name));
  S.Params.push_back(arrayParam("f", true));   // 8
  S.Params.push_back(arrayParam("fn", false)); // 9
  const Offset Offs[] = {{0, 0, 0, 0},  {-1, 0, 0, 0}, {1, 0, 0, 0},
                         {0, -1, 0, 0}, {0, 1, 0, 0},  {0, 0, -1, 0},
                         {0, 0, 1, 0}};
  ExprRef Sum = mul(param(1), load(8, Offs[0]));
  for (unsigned I = 1; I < 7; ++I)
    Sum = add(Sum, mul(param(1 + I), load(8, Offs[I])));
  S.Body = block({store(9, Sum)});
  S.Loc = {"diffusion.cpp", 12, 3};
  return S;
}

/// app::blur, a 2-D free function with a local, a loop, a math call in each
/// precision, coordinates, if / else if / else, ?: and min:
///   float acc = 0.0f;
///   for (int m = 0; m < 3; ++m) acc = acc + static_cast<float>(m) * src[-x];
///   double d = std::pow(static_cast<double>(acc), 2.0);
///   if (idx.i() > 2) dst = std::sqrt(acc) + scale;
///   else if (idx.j() == 0) dst = static_cast<float>(d);
///   else dst = acc < 0.5f ? std::min(acc, src[+y]) : -src[-y];
Stencil blur2d() {
  Stencil S;
  S.Name = "blur";
  S.Namespaces = {"app"};
  S.Form = StencilForm::Function;
  S.Dims = 2;
  S.Params = {indexParam(2), scalarParam("scale"), arrayParam("src", true),
              arrayParam("dst", false)};
  S.Locals = {{"acc", F32}, {"m", I32}, {"d", F64}};
  StmtRef Loop =
      loop(1, 0, 1, 3,
           block({assign(0, add(local(0), mul(castTo(F32, local(1, I32)),
                                              load(2, {-1, 0, 0, 0}))))}));
  StmtRef Else =
      ifElse(binary(BinaryOp::EQ, coord(1), iconst(0)),
             block({store(3, castTo(F32, local(2, F64)))}),
             block({store(3, select(binary(BinaryOp::LT, local(0), fconst(0.5)),
                                    call(MathFunc::Min, F32,
                                         {local(0), load(2, {0, 1, 0, 0})}),
                                    neg(load(2, {0, -1, 0, 0}))))}));
  S.Body =
      block({declare(0, fconst(0.0)), Loop,
             declare(2, call(MathFunc::Pow, F64,
                             {castTo(F64, local(0)), fconst(2.0, F64)})),
             ifElse(binary(BinaryOp::GT, coord(0), iconst(2)),
                    block({store(3, add(call(MathFunc::Sqrt, F32, {local(0)}),
                                        param(1)))}),
                    Else)});
  S.Loc = {"blur.cpp", 40, 1};
  return S;
}

/// lift4d, a 4-D function in the global namespace whose parameter names
/// clash with the generated code's ("c", "g"):
///   g[centre] = std::max(c[+x-w] * 0.25f, -inf) + static_cast<float>(idx.w());
Stencil lift4d() {
  Stencil S;
  S.Name = "lift4d";
  S.Form = StencilForm::Function;
  S.Dims = 4;
  S.Params = {indexParam(4), arrayParam("c", true), arrayParam("g", false)};
  ExprRef Scaled = mul(load(1, {1, 0, 0, -1}), fconst(0.25));
  ExprRef Max =
      call(MathFunc::Max, F32,
           {Scaled, fconst(-std::numeric_limits<double>::infinity())});
  S.Body = block({store(2, add(Max, castTo(F32, coord(3))))});
  S.Loc = {"lift.cpp", 7, 1};
  return S;
}

/// The user's source of the three stencils, for the reference run.
const char *const UserSource = R"cpp(
#include <stencil/index.hpp>
#include <algorithm>
#include <cmath>
#include <limits>

namespace ns {
struct Diffusion3d {
  void operator()(const stencil::Index3D &idx, float cc, float cw, float ce,
                  float cs, float cn, float cb, float ct, const float *f,
                  float *fn) const {
    fn[idx.ix()] = cc * f[idx.ix()] + cw * f[idx.ix<-1, 0, 0>()] +
                   ce * f[idx.ix<1, 0, 0>()] + cs * f[idx.ix<0, -1, 0>()] +
                   cn * f[idx.ix<0, 1, 0>()] + cb * f[idx.ix<0, 0, -1>()] +
                   ct * f[idx.ix<0, 0, 1>()];
  }
};
} // namespace ns

namespace app {
void blur(const stencil::Index2D &idx, float scale, const float *src, float *dst) {
  float acc = 0.0f;
  for (int m = 0; m < 3; ++m)
    acc = acc + static_cast<float>(m) * src[idx.ix<-1, 0>()];
  double d = std::pow(static_cast<double>(acc), 2.0);
  if (idx.i() > 2)
    dst[idx.ix()] = std::sqrt(acc) + scale;
  else if (idx.j() == 0)
    dst[idx.ix()] = static_cast<float>(d);
  else
    dst[idx.ix()] = acc < 0.5f ? std::min(acc, src[idx.ix<0, 1>()]) : -src[idx.ix<0, -1>()];
}
} // namespace app

void lift4d(const stencil::Index4D &idx, const float *c, float *g) {
  g[idx.ix()] = std::max(c[idx.ix<1, 0, 0, -1>()] * 0.25f,
                         -std::numeric_limits<float>::infinity()) +
                static_cast<float>(idx.w());
}
)cpp";

/// Runs each stencil through the registry and directly, over a region that
/// leaves a halo of one, with a non-zero origin; exits non-zero on a mismatch.
const char *const MainSource = R"cpp(
#include <stencil/generated.hpp>
#include <cstdio>
#include <cstring>
#include <vector>

static float value(long long N) { return static_cast<float>((N * 7919 % 1013) - 500) / 97.0f; }

template <int Dims, typename Reference, typename... Args>
static int check(const char *Name, const stencil::GeneratedStencil *E, const long long *N,
                 Reference Ref, Args... A) {
  if (!E || E->dims != Dims) {
    std::printf("%s: not registered\n", Name);
    return 1;
  }
  if (*E->signature != typeid(void(Args..., const float *, float *))) {
    std::printf("%s: wrong signature\n", Name);
    return 1;
  }
  long long Total = 1;
  stencil::Grid G;
  stencil::Region R;
  G.dims = Dims;
  for (int D = 0; D < Dims; ++D) {
    G.extent[D] = N[D];
    G.origin[D] = D + 1;
    R.lo[D] = 1;
    R.hi[D] = N[D] - 1;
    Total *= N[D];
  }
  std::vector<float> In(Total), Expected(Total, -7.0f), Got(Total, -7.0f);
  for (long long I = 0; I < Total; ++I)
    In[I] = value(I);
  // The host reference: the user's code at every point of the region.
  stencil::Index<Dims> Idx = [&] {
    if constexpr (Dims == 2) return stencil::Index<2>(N[0], N[1]);
    else if constexpr (Dims == 3) return stencil::Index<3>(N[0], N[1], N[2]);
    else return stencil::Index<4>(N[0], N[1], N[2], N[3]);
  }();
  long long P[4] = {1, 1, Dims > 2 ? 1 : 0, Dims > 3 ? 1 : 0};
  for (long long W = P[3]; W < (Dims > 3 ? N[3] - 1 : 1); ++W)
    for (long long K = P[2]; K < (Dims > 2 ? N[2] - 1 : 1); ++K)
      for (long long J = 1; J < N[1] - 1; ++J)
        for (long long I = 1; I < N[0] - 1; ++I) {
          if constexpr (Dims == 2) { Idx.set_pos(I, J); Idx.set_origin(1, 2); }
          else if constexpr (Dims == 3) { Idx.set_pos(I, J, K); Idx.set_origin(1, 2, 3); }
          else { Idx.set_pos(I, J, K, W); Idx.set_origin(1, 2, 3, 4); }
          Ref(Idx, A..., In.data(), Expected.data());
        }
  const float *InPtr = In.data();
  float *OutPtr = Got.data();
  void *Packed[] = {&A..., &InPtr, &OutPtr};
  stencil::LaunchConfig C;
  if (const char *Error = E->launch(G, R, C, Packed)) {
    std::printf("%s: %s\n", Name, Error);
    return 1;
  }
  if (std::memcmp(Expected.data(), Got.data(), Total * sizeof(float)) != 0) {
    std::printf("%s: differs from the reference\n", Name);
    return 1;
  }
  return 0;
}

int main() {
  using stencil::Backend;
  const long long N3[] = {9, 7, 6}, N2[] = {10, 8}, N4[] = {6, 5, 4, 5};
  int Failures = 0;
  Failures += check<3>("diffusion3d", stencil::findGenerated(Backend::OpenMP, typeid(ns::Diffusion3d)),
                       N3, ns::Diffusion3d(), 0.5f, 0.125f, 0.25f, 0.0625f, 0.03125f, 0.75f, 1.5f);
  Failures += check<2>("blur", stencil::findGenerated(Backend::OpenMP, reinterpret_cast<const void *>(&app::blur)),
                       N2, app::blur, 1.25f);
  Failures += check<4>("lift4d", stencil::findGenerated(Backend::OpenMP, reinterpret_cast<const void *>(&lift4d)),
                       N4, lift4d);
  if (stencil::generatedStencils().size() != 3) {
    std::printf("expected 3 registered stencils\n");
    ++Failures;
  }
  return Failures;
}
)cpp";

//===----------------------------------------------------------------------===//
// Fixture
//===----------------------------------------------------------------------===//

class CodeGenTest : public ::testing::Test {
protected:
  void SetUp() override {
    M.InputFile = "stencils.cpp";
    M.Stencils = {diffusion3d(), blur2d(), lift4d()};
    Infos.resize(M.Stencils.size());
    Plan = planning::planModule(M, Infos);
  }

  std::string emitOpenMP() const { return createOpenMPEmitter()->emit(Plan); }
  std::string emitCuda() const { return createCudaEmitter()->emit(Plan); }

  /// A fresh directory for files compiled by one test.
  static std::filesystem::path scratchDir() {
    const auto *Info = ::testing::UnitTest::GetInstance()->current_test_info();
    auto Dir = std::filesystem::temp_directory_path() /
               (std::string("stencilc-codegen-") + Info->name() + "-" +
                std::to_string(::getpid()));
    std::filesystem::create_directories(Dir);
    return Dir;
  }
  /// STENCILC_KEEP_TEST_FILES=1 keeps the generated files for reading.
  static void removeUnlessKept(const std::filesystem::path &Dir) {
    if (!std::getenv("STENCILC_KEEP_TEST_FILES"))
      std::filesystem::remove_all(Dir);
  }
  static void write(const std::filesystem::path &P, const std::string &Text) {
    std::ofstream(P) << Text;
  }
  /// Runs \p Command with its output in \p Log; returns the exit status.
  static int run(const std::string &Command, const std::filesystem::path &Log,
                 std::string &Output) {
    int Status =
        std::system((Command + " > " + Log.string() + " 2>&1").c_str());
    std::ifstream In(Log);
    Output.assign(std::istreambuf_iterator<char>(In), {});
    return Status;
  }

  Module M;
  std::vector<analysis::StencilInfo> Infos;
  planning::ModulePlan Plan;
};

/// Counts the occurrences of \p Needle in \p Text.
size_t count(const std::string &Text, const std::string &Needle) {
  size_t N = 0;
  for (size_t At = Text.find(Needle); At != std::string::npos;
       At = Text.find(Needle, At + 1))
    ++N;
  return N;
}

//===----------------------------------------------------------------------===//
// Pieces of text
//===----------------------------------------------------------------------===//

TEST(CodeGenPieces, LinearIndexDeltas) {
  EXPECT_EQ(printLinearIndex({0, 0, 0, 0}, 3), "c");
  EXPECT_EQ(printLinearIndex({-1, 0, 0, 0}, 3), "c - 1");
  EXPECT_EQ(printLinearIndex({0, 1, 0, 0}, 3), "c + sy");
  EXPECT_EQ(printLinearIndex({1, 0, -2, 0}, 3), "c + 1 - 2 * sz");
  EXPECT_EQ(printLinearIndex({0, -3, 0, 2}, 4), "c - 3 * sy + 2 * sw");
  EXPECT_EQ(printLinearIndex({2, 1, 0, 0}, 2), "c + 2 + sy");
}

TEST(CodeGenPieces, Constants) {
  EXPECT_EQ(printConstant(F32, 0, 1.0), "1.0f");
  EXPECT_EQ(printConstant(F32, 0, 0.1), "0.1f");
  EXPECT_EQ(printConstant(F64, 0, 0.1), "0.1");
  EXPECT_EQ(printConstant(F64, 0, 2.0), "2.0");
  EXPECT_EQ(printConstant(F32, 0, 1e20), "1e+20f");
  EXPECT_EQ(printConstant(F64, 0, -2.5), "(-2.5)");
  EXPECT_EQ(printConstant(F32, 0, std::numeric_limits<double>::infinity()),
            "__builtin_huge_valf()");
  EXPECT_EQ(printConstant(F64, 0, -std::numeric_limits<double>::infinity()),
            "(-__builtin_huge_val())");
  EXPECT_EQ(printConstant(I32, -3, 0), "(-3)");
  EXPECT_EQ(printConstant(I32, std::numeric_limits<std::int32_t>::min(), 0),
            "(-2147483647 - 1)");
  EXPECT_EQ(printConstant(Type(ScalarKind::UInt32), 7, 0), "7U");
  EXPECT_EQ(printConstant(Type(ScalarKind::Int64), -2, 0), "(-2LL)");
  EXPECT_EQ(printConstant(Type(ScalarKind::UInt64), -1, 0),
            "18446744073709551615ULL");
  EXPECT_EQ(printConstant(Bool, 1, 0), "true");
}

TEST(CodeGenPieces, ArgumentTypes) {
  // Printed from the IR's own type, never from a spelling.
  Param P = scalarParam("x");
  EXPECT_EQ(argumentValueType(P), "float");
  P.Builtin = CppBuiltin::LongLong;
  EXPECT_EQ(argumentValueType(P), "long long");
  P = arrayParam("f", true);
  EXPECT_EQ(argumentValueType(P), "const float *");
  P.Builtin = CppBuiltin::ULong;
  EXPECT_EQ(argumentValueType(P), "const unsigned long *");
  EXPECT_EQ(argumentValueType(arrayParam("g", false)), "float *");
  Param Index = indexParam(3);
  EXPECT_EQ(declaredType(Index, 3), "const stencil::Index<3> &");
  Index.ByReference = false;
  EXPECT_EQ(declaredType(Index, 2), "stencil::Index<2>");
  EXPECT_EQ(cStringLiteral("a\"b\\c"), "\"a\\\"b\\\\c\"");
}

//===----------------------------------------------------------------------===//
// Whole files
//===----------------------------------------------------------------------===//

TEST_F(CodeGenTest, FileSuffixes) {
  EXPECT_STREQ(createCudaEmitter()->fileSuffix(), ".stencil.cu");
  EXPECT_STREQ(createOpenMPEmitter()->fileSuffix(), ".stencil.cpp");
}

TEST_F(CodeGenTest, OpenMPFile) {
  std::string Out = emitOpenMP();
  EXPECT_EQ(Out.rfind("// Generated by stencilc ", 0), 0u) << Out;
  EXPECT_NE(Out.find(" from stencils.cpp. Do not edit.\n"), std::string::npos);
  EXPECT_NE(Out.find("#include <stencil/generated.hpp>\n"), std::string::npos);
  EXPECT_NE(Out.find("#include <cmath>\n"), std::string::npos);
  EXPECT_EQ(Out.find("device_ops"), std::string::npos);
  EXPECT_NE(Out.find("namespace stencilc_generated {\nnamespace {\n"),
            std::string::npos);
  EXPECT_NE(Out.find("// Stencil 'ns::Diffusion3d' from diffusion.cpp:12, "
                     "variant grid\nstatic const char "
                     "*stencilc_ns_Diffusion3d_openmp(const stencil::Grid &g, "
                     "const stencil::Region &r, const stencil::LaunchConfig "
                     "&/*cfg*/, void *const *args) {\n"),
            std::string::npos)
      << Out;
  // Arguments after the index, in order.
  EXPECT_NE(
      Out.find("  const float cc = *static_cast<const float *>(args[0]);"),
      std::string::npos);
  EXPECT_NE(Out.find("  const float *const f = *static_cast<const float *const "
                     "*>(args[7]);"),
            std::string::npos);
  EXPECT_NE(
      Out.find("  float *const fn = *static_cast<float *const *>(args[8]);"),
      std::string::npos);
  // The cache-blocked loop nest (y tiles x z chunks from the runtime) and
  // the fully parenthesised sum in source order.
  EXPECT_NE(Out.find("  const stencil::CpuTiles stencilc_t = "
                     "stencil::cpuTiles(r, 3, "),
            std::string::npos);
  EXPECT_NE(Out.find("stencil::openmpThreads());\n"
                     "  #pragma omp parallel for collapse(2) schedule(static) "
                     "num_threads(stencil::openmpThreads())\n"
                     "  for (long long stencilc_kt = 0; stencilc_kt < "
                     "stencilc_t.chunksZ; ++stencilc_kt) {\n"
                     "    for (long long stencilc_jt = 0; stencilc_jt < "
                     "stencilc_t.tilesY; ++stencilc_jt) {\n"
                     "      for (long long k = stencilc_t.zBegin(stencilc_kt); "
                     "k < stencilc_t.zEnd(stencilc_kt); ++k) {\n"
                     "        for (long long j = stencilc_t.yBegin(stencilc_jt); "
                     "j < stencilc_t.yEnd(stencilc_jt); ++j) {\n"
                     "          #pragma omp simd\n"
                     "          for (long long i = r.lo[0]; i < r.hi[0]; ++i) "
                     "{\n"
                     "            const long long c = i + j * sy + k * sz;\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("fn[c] = ((((((cc * f[c]) + (cw * f[c - 1])) + (ce * "
                     "f[c + 1])) + (cs * f[c - sy])) + (cn * f[c + sy])) + "
                     "(cb * f[c - sz])) + (ct * f[c + sz]);"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("#pragma omp parallel for schedule(static) "
                     "num_threads(stencil::openmpThreads())\n"),
            std::string::npos);
  EXPECT_NE(Out.find("#pragma omp parallel for collapse(3) schedule(static) "
                     "num_threads(stencil::openmpThreads())\n"),
            std::string::npos);
  EXPECT_EQ(Out.find("#pragma unroll"), std::string::npos);
  // Registration, both forms.
  EXPECT_NE(Out.find("[[maybe_unused]] static const bool "
                     "stencilc_registered_ns_Diffusion3d = "
                     "stencil::registerGenerated(/*abiVersion=*/" +
                     std::to_string(stencil::GeneratedAbiVersion) +
                     ", {\n"
                     "    /*name=*/\"ns::Diffusion3d\",\n"
                     "    /*source=*/\"diffusion.cpp:12\",\n"
                     "    /*typeKey=*/\"N2ns11Diffusion3dE\",\n"
                     "    /*functionKey=*/nullptr,\n"
                     "    /*backend=*/stencil::Backend::OpenMP,\n"
                     "    /*dims=*/3,\n"
                     "    /*signature=*/&typeid(void(float, float, float, "
                     "float, float, float, float, const float *, float *)),\n"
                     "    /*launch=*/&stencilc_ns_Diffusion3d_openmp,\n"
                     "    /*variant=*/\"grid\",\n"
                     "    /*halo=*/{{0, 0}, {0, 0}, {0, 0}, {0, 0}},\n"
                     "    /*readsDiagonal=*/false,\n"
                     "    /*irHash=*/\""),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("    /*typeKey=*/nullptr,\n"
                     "    /*functionKey=*/reinterpret_cast<const void "
                     "*>(static_cast<void (*)(const stencil::Index<2> &, "
                     "float, const float *, float *)>(&::app::blur)),\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("namespace app {\nvoid blur(const stencil::Index<2> &, "
                     "float, const float *, float *);\n} // namespace app\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("\nvoid lift4d(const stencil::Index<4> &, const float *, "
                     "float *);\n"),
            std::string::npos);
}

TEST_F(CodeGenTest, BodyStatements) {
  std::string Out = emitOpenMP();
  // The 2-D function's body inside its loop nest (3 levels of indentation).
  const char *Expected = R"(      const long long c = i + j * sy;
      float acc = 0.0f;
      for (int m = 0; m < 3; ++m) {
        acc = acc + (stencilc_from_integer<float>(m) * src[c - 1]);
      }
      double d = std::pow(static_cast<double>(acc), 2.0);
      if (static_cast<int>(g.origin[0] + i) > 2) {
        dst[c] = std::sqrt(acc) + scale;
      } else if (static_cast<int>(g.origin[1] + j) == 0) {
        dst[c] = static_cast<float>(d);
      } else {
        dst[c] = (acc < 0.5f) ? stencilc_min<float>(acc, src[c + sy]) : (-src[c - sy]);
      }
)";
  EXPECT_NE(Out.find(Expected), std::string::npos) << Out;
  EXPECT_NE(
      Out.find("inline T stencilc_min(T a, T b) { return b < a ? b : a; }"),
      std::string::npos);
  EXPECT_NE(
      Out.find("inline T stencilc_max(T a, T b) { return a < b ? b : a; }"),
      std::string::npos);
  // The loop counter's conversion goes through the helper (its zero is +0).
  EXPECT_NE(Out.find("inline T stencilc_from_integer(I v)"), std::string::npos);
}

TEST_F(CodeGenTest, ClashingNamesAreRenamed) {
  std::string Out = emitOpenMP();
  EXPECT_NE(Out.find("const float *const c_ = *static_cast<const float *const "
                     "*>(args[0]);"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("g_[c] = stencilc_max<float>(c_[c + 1 - sw] * 0.25f, "
                     "(-__builtin_huge_valf())) + stencilc_from_integer<float>("
                     "static_cast<int>(g.origin[3] + w));"),
            std::string::npos)
      << Out;
}

TEST_F(CodeGenTest, UnusedParametersAreNotUnpacked) {
  Stencil &S = M.Stencils[0];
  // cw is no longer read: fn = cc * f.
  S.Body = block({store(9, mul(param(1), load(8, {0, 0, 0, 0})))});
  std::string Out = emitOpenMP();
  EXPECT_NE(Out.find("const float cc = "), std::string::npos);
  EXPECT_EQ(Out.find("const float cw = "), std::string::npos) << Out;
  // The CUDA kernel keeps every parameter.
  EXPECT_NE(emitCuda().find("float cw, "), std::string::npos);
}

TEST_F(CodeGenTest, DuplicateSymbolNamesAreNumbered) {
  // a_b::c and a::b_c both give "a_b_c".
  M.Stencils[0].Namespaces = {"a_b"};
  M.Stencils[0].Name = "c";
  M.Stencils[1].Namespaces = {"a"};
  M.Stencils[1].Name = "b_c";
  std::vector<std::string> Names = uniqueSymbolNames(Plan);
  ASSERT_EQ(Names.size(), 3u);
  EXPECT_EQ(Names[0], "a_b_c");
  EXPECT_EQ(Names[1], "a_b_c_2");
  EXPECT_EQ(Names[2], "lift4d");
}

TEST_F(CodeGenTest, CudaFile) {
  std::string Out = emitCuda();
  EXPECT_NE(Out.find("#include <stencil/cuda/device_ops.cuh>\n"),
            std::string::npos);
  EXPECT_EQ(count(Out, "stencil::cuda_ops::install()"), 1u);
  EXPECT_NE(Out.find("__global__ void stencilc_ns_Diffusion3d_grid(const "
                     "stencil::Grid g, const stencil::Region r, float cc, "
                     "float cw, float ce, float cs, float cn, float cb, float "
                     "ct, const float *__restrict__ f, float *__restrict__ "
                     "fn) {\n"
                     "  const long long i = r.lo[0] + blockIdx.x * "
                     "static_cast<long long>(blockDim.x) + threadIdx.x;\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  if (i >= r.hi[0] || j >= r.hi[1] || k >= r.hi[2])\n"
                     "    return;\n"),
            std::string::npos);
  EXPECT_NE(Out.find("static const char "
                     "*stencilc_ns_Diffusion3d_cuda_launch(const stencil::Grid "
                     "&g, const stencil::Region &r, const "
                     "stencil::LaunchConfig &cfg, void *const *args) {\n"),
            std::string::npos);
  EXPECT_NE(Out.find("stencilc_ns_Diffusion3d_grid<<<grid, block, 0, "
                     "static_cast<cudaStream_t>(cfg.stream)>>>(g, r, cc, cw, "
                     "ce, cs, cn, cb, ct, f, fn);"),
            std::string::npos);
  EXPECT_NE(Out.find("    /*backend=*/stencil::Backend::Cuda,\n"),
            std::string::npos);
  EXPECT_NE(Out.find("    /*launch=*/&stencilc_app_blur_cuda_launch,\n"),
            std::string::npos);
  // Math in the call's precision, loops unrolled, min/max on the device.
  EXPECT_NE(Out.find("dst[c] = sqrtf(acc) + scale;"), std::string::npos);
  EXPECT_NE(Out.find("double d = pow(static_cast<double>(acc), 2.0);"),
            std::string::npos);
  EXPECT_NE(Out.find("  #pragma unroll\n  for (int m = 0; m < 3; ++m) {\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("template <typename T> __device__ __forceinline__ T "
                     "stencilc_min(T a, T b)"),
            std::string::npos);
  // 4-D: z and w folded into blockIdx.z.
  EXPECT_NE(Out.find("const long long w = r.lo[3] + blockIdx.z / zblocks;"),
            std::string::npos);
  EXPECT_NE(Out.find("const long long gz = (nz + block.z - 1) / block.z * nw;"),
            std::string::npos);
  // 2-D: no z in the block.
  EXPECT_NE(Out.find("const dim3 block(cfg.block[0], cfg.block[1], 1);"),
            std::string::npos);
}

TEST(CodeGenMath, DeviceAndHostCallees) {
  Stencil S = blur2d();
  S.Locals.push_back({"n", Type(ScalarKind::Int64)});
  BodyNames Names(S);
  ExprRef AbsF32 = call(MathFunc::Abs, F32, {local(0)});
  ExprRef AbsI64 = call(MathFunc::Abs, Type(ScalarKind::Int64),
                        {local(3, Type(ScalarKind::Int64))});
  ExprRef FmaF64 = call(MathFunc::Fma, F64,
                        {local(2, F64), castTo(F64, local(0)), fconst(1, F64)});
  // An argument of another type is converted to the call's type.
  ExprRef HypotF32 = call(MathFunc::Hypot, F32, {local(0), local(1, I32)});
  struct Host : BodyPrinterHooks {
    std::string mathCallee(MathFunc F, Type) const override {
      return std::string("std::") + mathFuncName(F);
    }
    std::string_view loopPragma() const override { return {}; }
  } HostHooks;
  EXPECT_EQ(printExpression(S, Names, HostHooks, *HypotF32),
            "std::hypot(acc, static_cast<float>(m))");
  // The CUDA spellings come through the backend's own hooks: emit a file.
  Module Mod;
  Mod.InputFile = "math.cpp";
  Mod.Stencils = {S};
  Mod.Stencils[0].Body = block(
      {declare(0, fconst(1)), declare(2, fconst(1, F64)),
       declare(3, iconst(-4, Type(ScalarKind::Int64))), declare(1, iconst(2)),
       store(3, add(add(AbsF32, castTo(F32, AbsI64)),
                    add(castTo(F32, FmaF64), HypotF32)))});
  std::vector<analysis::StencilInfo> MathInfos(1);
  planning::ModulePlan MathPlan = planning::planModule(Mod, MathInfos);
  std::string Cuda = createCudaEmitter()->emit(MathPlan);
  EXPECT_NE(Cuda.find("dst[c] = (fabsf(acc) + static_cast<float>(llabs(n))) + "
                      "(static_cast<float>(fma(d, static_cast<double>(acc), "
                      "1.0)) + hypotf(acc, static_cast<float>(m)));"),
            std::string::npos)
      << Cuda;
  std::string Host = createOpenMPEmitter()->emit(MathPlan);
  EXPECT_NE(
      Host.find("dst[c] = (std::abs(acc) + "
                "stencilc_from_integer<float>(std::abs(n)))"),
      std::string::npos)
      << Host;
}

//===----------------------------------------------------------------------===//
// Compiling the output
//===----------------------------------------------------------------------===//

TEST_F(CodeGenTest, OpenMPOutputCompilesAndMatchesTheHostReference) {
  auto Dir = scratchDir();
  write(Dir / "stencils.stencil.cpp", emitOpenMP());
  write(Dir / "user.hpp", UserSource);
  write(Dir / "main.cpp", std::string("#include \"user.hpp\"\n") + MainSource);
  std::string Output;
  std::string Command =
      "g++ -std=c++17 -O2 -fopenmp -Wall -Wextra -Werror -I " +
      std::string(STENCILC_RUNTIME_INCLUDE_DIR) + " -o " +
      (Dir / "check").string() + " " + (Dir / "stencils.stencil.cpp").string() +
      " " + (Dir / "main.cpp").string();
  ASSERT_EQ(run(Command, Dir / "compile.log", Output), 0) << Command << "\n"
                                                          << Output;
  EXPECT_EQ(run("OMP_NUM_THREADS=2 " + (Dir / "check").string(),
                Dir / "run.log", Output),
            0)
      << Output;
  removeUnlessKept(Dir);
}

TEST_F(CodeGenTest, CudaOutputCompilesWithNvcc) {
  if (std::system("command -v nvcc > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "nvcc is not on PATH";
  auto Dir = scratchDir();
  write(Dir / "stencils.stencil.cu", emitCuda());
  std::string Output;
  std::string Command = "nvcc -std=c++17 -arch=sm_90 -Werror all-warnings "
                        "-Xcompiler -Wall,-Wextra,-Werror -I " +
                        std::string(STENCILC_RUNTIME_INCLUDE_DIR) + " -c -o " +
                        (Dir / "stencils.o").string() + " " +
                        (Dir / "stencils.stencil.cu").string();
  EXPECT_EQ(run(Command, Dir / "compile.log", Output), 0) << Command << "\n"
                                                          << Output;
  removeUnlessKept(Dir);
}

} // namespace

//===----------------------------------------------------------------------===//
// Hostile inputs: extreme offsets, text printed into comments
//===----------------------------------------------------------------------===//

TEST(CodeGenLimits, ExtremeOffsetsStaySmallAndExact) {
  // A z offset of 10^6 used to print a register per slot of the queue
  // between it and the centre (264 MB of CUDA); INT_MIN used to overflow
  // the halo and the queue length.
  constexpr int IntMin = std::numeric_limits<int>::min();
  constexpr int IntMax = std::numeric_limits<int>::max();
  Module M;
  M.InputFile = "far.cpp";
  Stencil S;
  S.Name = "far";
  S.Dims = 3;
  S.Params = {indexParam(3), arrayParam("f", true), arrayParam("fn", false)};
  S.Body = block(
      {store(2, add(add(load(1, {0, 0, 0, 0}), load(1, {0, 0, 1000000, 0})),
                    add(load(1, {IntMin, 0, 0, 0}),
                        load(1, {0, IntMax, IntMin, 0}))))});
  S.Loc = {"far.cpp", 3, 1};
  S.TypeKey = "3far";
  M.Stencils.push_back(std::move(S));
  std::vector<analysis::StencilInfo> Infos(1);
  analysis::inferFootprint(M.Stencils[0], Infos[0]);
  planning::ModulePlan Plan = planning::planModule(M, Infos);
  ASSERT_EQ(Plan.Stencils[0].Variants,
            (std::vector<planning::VariantKind>{planning::VariantKind::Grid}));
  for (const std::string &Text :
       {createCudaEmitter()->emit(Plan), createOpenMPEmitter()->emit(Plan)}) {
    EXPECT_LT(Text.size(), 20000u);
    EXPECT_NE(Text.find("f[c - 2147483648]"), std::string::npos);
    EXPECT_NE(Text.find("2147483647 * sy - 2147483648 * sz"),
              std::string::npos);
    EXPECT_NE(Text.find("/*halo=*/{{2147483648, 0}, {0, 2147483647}, "
                        "{2147483648, 1000000}, {0, 0}},"),
              std::string::npos);
  }
}

TEST(CodeGenPieces, CommentTextEscapesControlCharacters) {
  EXPECT_EQ(commentText("plain/dir\\file.cpp"), "plain/dir\\file.cpp");
  EXPECT_EQ(commentText("evil\nname\r.cpp"), "evil\\nname\\015.cpp");
  EXPECT_EQ(commentText("tab\there\x7f"), "tab\\there\\177");
  Stencil S;
  S.Name = "s";
  S.Loc = {"a\nb.cpp", 2, 1};
  std::string Comment = stencilComment(S, planning::VariantKind::Grid);
  EXPECT_EQ(Comment.find('\n'), std::string::npos) << Comment;
  EXPECT_EQ(Comment, "// Stencil 's' from a\\nb.cpp:2, variant grid");
}
