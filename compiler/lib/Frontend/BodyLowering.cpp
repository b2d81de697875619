//===- BodyLowering.cpp - A stencil's body as IR --------------------------===//
//
// Expressions are lowered with clang's types and implicit conversions made
// explicit, so the IR computes exactly what the C++ computes. Helper calls
// are inlined: their statements are emitted before the statement that uses
// the result, which lives in a fresh local.
//
//===----------------------------------------------------------------------===//
#include "BodyLowering.h"
#include "ClangDiagnosticSink.h"
#include "EvaluationOrder.h"
#include "MathFunctions.h"
#include "SwitchCases.h"
#include "TypeMapping.h"
#include "stencilc/IR/IRPrinter.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>
#include <array>
#include <limits>
#include <tuple>

using namespace clang;
using namespace stencilc;
using stencilc::ir::ExprRef;
using stencilc::ir::StmtRef;

namespace {

/// Whether \p Arg, passed for \p P, binds a reference to an object that
/// exists (an array's element), not to a temporary holding its value.
bool bindsObject(const ParmVarDecl *P, const Expr *Arg) {
  if (!P->getType()->isReferenceType())
    return false;
  const Expr *E = Arg->IgnoreParens();
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    if (Cast->getCastKind() != CK_NoOp)
      break;
    E = Cast->getSubExpr()->IgnoreParens();
  }
  return E->isGLValue() && !isa<MaterializeTemporaryExpr>(E);
}

/// Limits that keep lowering and every later stage fast and within the
/// default 8 MB stack on hostile input (documented in docs/dsl-reference.md).
/// Iterations of one loop: the trip count is found by running the loop's
/// counter exactly as C++ does, so it must be bounded.
constexpr std::uint64_t MaxLoopTrips = std::uint64_t(1) << 20;
/// |offset| of an access: keeps all offset and halo arithmetic far from
/// overflow.
constexpr std::int64_t MaxOffset = std::int64_t(1) << 20;
/// Nesting of expressions, statements and inlined helpers: every stage
/// walks the IR recursively.
constexpr unsigned MaxNestingDepth = 2000;
/// Source nodes lowered for one stencil, helpers inlined (each inlined copy
/// counts): inlining can grow exponentially with the helper call depth.
constexpr std::uint64_t MaxLoweredNodes = 200000;

/// What a variable of the source stands for in the IR.
struct Binding {
  enum KindT { Scalar, Array, Index, Local } Kind;
  unsigned Id; ///< Param index (Scalar, Array, Index) or local index.
};

/// One function being lowered: the stencil itself, or an inlined helper.
struct Frame {
  const FunctionDecl *Fn = nullptr;
  llvm::DenseMap<const VarDecl *, Binding> Vars;
  std::optional<unsigned> Result; ///< Local receiving a helper's return value.
  clang::SourceRange CallRange;   ///< Where the helper was called.
};

using StmtList = std::vector<StmtRef>;

class BodyLowering {
public:
  BodyLowering(ASTContext &Ctx, ir::Stencil &S, DiagnosticSink &Diags)
      : Ctx(Ctx), S(S), Diags(Diags) {}

  bool run(const FunctionDecl *FD);

private:
  // Reporting: an error inside inlined helpers gets a note per call site.
  void error(DiagId Id, clang::SourceRange R, llvm::ArrayRef<std::string> Args);
  void error(DiagId Id, const Stmt *St, llvm::ArrayRef<std::string> Args) {
    error(Id, St->getSourceRange(), Args);
  }

  // Statements.
  StmtRef lowerBlock(const Stmt *St);
  void lowerStmt(const Stmt *St, StmtList &Out);
  void lowerStmtKind(const Stmt *St, StmtList &Out);
  void lowerDecl(const VarDecl *VD, StmtList &Out);
  enum class ConstReference { Alias, Copy, Refused };
  ConstReference bindConstReference(const VarDecl *VD);
  bool isUnwritable(const Expr *E);
  bool isWrittenIn(const FunctionDecl *Fn, const VarDecl *Var);
  void lowerFor(const ForStmt *For, StmtList &Out);
  void lowerIf(const IfStmt *If, StmtList &Out, bool TailReturn);
  void lowerSwitch(const SwitchStmt *Sw, StmtList &Out, bool TailReturn);
  void lowerExprStmt(const Expr *E, StmtList &Out);
  void lowerAssign(const Expr *LHS, const Expr *E, ExprRef Value,
                   StmtList &Out);
  void lowerTail(const Stmt *St, StmtList &Out);
  /// Lowers a full-expression through \p Lower, then refuses a helper that
  /// writes an array the rest of it reaches in an order C++ leaves open.
  void fullExpression(llvm::function_ref<void()> Lower);

  // Expressions: null after reporting an error.
  ExprRef lowerExpr(const Expr *E, StmtList &Out);
  ExprRef lowerExprKind(const Expr *E, StmtList &Out);
  ExprRef lowerCast(const CastExpr *E, StmtList &Out);
  ExprRef lowerDeclRef(const DeclRefExpr *E);
  ExprRef lowerUnary(const UnaryOperator *E, StmtList &Out);
  ExprRef lowerBinary(const BinaryOperator *E, StmtList &Out);
  ExprRef lowerConditional(const ConditionalOperator *E, StmtList &Out);
  void lowerVoidConditional(const ConditionalOperator *E, StmtList &Out);
  bool isAssertion(const Expr *E) const;
  ExprRef lowerConditionalParts(
      const ConditionalOperator *CO, StmtList &Out, StmtList &TrueOut,
      StmtList &FalseOut,
      llvm::function_ref<void(const Expr *, StmtList &, bool)> Arm);
  ExprRef lowerLoad(const ArraySubscriptExpr *E);
  ExprRef lowerMemberCall(const CXXMemberCallExpr *E);
  ExprRef lowerCall(const CallExpr *E, StmtList &Out);
  bool lowerMathArgs(const CallExpr *E, const FunctionDecl *FD, StmtList &Out,
                     std::vector<ExprRef> &Args);
  ExprRef constantCall(const CallExpr *E);
  bool libraryFunction(const FunctionDecl *FD) const;
  ExprRef inlineHelper(const CallExpr *E, const FunctionDecl *Def,
                       StmtList &Out);
  ExprRef constantOf(const Expr *E);

  // Pieces.
  std::optional<ir::Type> typeOf(const Expr *E);
  std::optional<Binding> lookup(const Expr *E);
  std::optional<ir::Offset> ixOffsets(const Expr *Index,
                                      const std::string &Array, unsigned &Count,
                                      bool &OutOfRange, unsigned &Axes,
                                      std::string &Method);
  bool checkArrayAxes(unsigned Param, unsigned Axes, const std::string &Method,
                      unsigned Count, const Expr *Index);
  std::optional<unsigned> loopCounter(const ForStmt *For, const VarDecl *Var,
                                      const BinaryOperator *Cond,
                                      std::int64_t &Begin, std::int64_t &Step,
                                      std::int64_t &Trips);
  /// Counts one more nested construct; false (after one report) once the
  /// limits on nesting or size are exceeded.
  bool enter(const Stmt *St);
  void leave() { --Depth; }
  std::optional<std::pair<unsigned, ir::Offset>>
  arrayAccess(const ArraySubscriptExpr *E);
  unsigned addLocal(llvm::StringRef Name, ir::Type Ty);
  ExprRef castTo(ir::Type Ty, ExprRef E, clang::SourceRange R);
  ExprRef localRef(unsigned Local, clang::SourceRange R) {
    return std::make_shared<ir::LocalRefExpr>(S.Locals[Local].Ty, Local,
                                              toIRRange(R));
  }
  Frame &frame() { return Frames.back(); }

  ASTContext &Ctx;
  /// The breaks that end a switch's case (see lowerSwitch).
  llvm::SmallPtrSet<const Stmt *, 4> EndingBreaks;
  /// Where each array access sits among the parts C++ orders.
  frontend::EvaluationOrder Order;
  ir::Stencil &S;
  DiagnosticSink &Diags;
  std::vector<Frame> Frames;
  llvm::StringSet<> LocalNames;
  /// The next suffix to try per base name, so that thousands of inlined
  /// copies of one helper get unique names in linear time.
  llvm::StringMap<unsigned> NextSuffix;
  /// Locals whose declaration was rejected: their uses report nothing more.
  llvm::DenseSet<const VarDecl *> Rejected;
  /// Locals whose initialiser is being lowered (`float t = half(t);`).
  llvm::DenseSet<const VarDecl *> Initialising;
  /// Per function: the variables it assigns or increments (isWrittenIn).
  llvm::DenseMap<const FunctionDecl *, llvm::DenseSet<const VarDecl *>>
      WrittenIn;
  /// Expressions refused for their type: the expressions inside one (the
  /// operand converted to `long double`, the literal) say it no more.
  std::vector<clang::SourceRange> TypeRefused;
  unsigned Depth = 0;
  std::uint64_t Lowered = 0;
  /// Per parameter: the first access that decided an array's axes (see
  /// ir::Param::Axes), and its method ("ix", "ix_z").
  llvm::DenseMap<unsigned, std::pair<clang::SourceRange, std::string>>
      FirstIndexed;
  /// The counters run so far (Begin, Step, Trips), by loop: a helper
  /// inlined N times runs its loops' counters once (at up to 2^20 trips,
  /// tens of milliseconds each), as their values come from constants alone.
  llvm::DenseMap<const ForStmt *, std::array<std::int64_t, 3>> CountedLoops;
  /// Set once a limit of enter() is exceeded: lowering stops everywhere.
  bool OverLimit = false;
  bool Failed = false;
};

} // namespace

void BodyLowering::error(DiagId Id, clang::SourceRange R,
                         llvm::ArrayRef<std::string> Args) {
  Failed = true;
  Diags.report(Id, toIRRange(R), Args);
  for (size_t I = Frames.size(); I-- > 1;)
    Diags.report(DiagId::note_inlined_from, toIRRange(Frames[I].CallRange),
                 {Frames[I].Fn->getNameAsString()});
}

bool BodyLowering::run(const FunctionDecl *FD) {
  Frames.push_back({FD, {}, std::nullopt, {}});
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    Binding::KindT Kind =
        S.Params[I].Kind == ir::ParamKind::Index   ? Binding::Index
        : S.Params[I].Kind == ir::ParamKind::Array ? Binding::Array
                                                   : Binding::Scalar;
    frame().Vars[FD->getParamDecl(I)] = {Kind, I};
  }
  StmtList Body;
  if (const auto *Try = dyn_cast_or_null<CXXTryStmt>(FD->getBody())) {
    error(DiagId::err_function_try_block, Try->getSourceRange(),
          {FD->getQualifiedNameAsString()});
    return false;
  }
  const auto *CS = cast<CompoundStmt>(FD->getBody());
  for (const Stmt *Child : CS->body()) {
    // A `return` ends the stencil; only at the end is it harmless. Its value
    // (a void helper's call, or what an `int operator()` returns) is
    // evaluated, for what it writes, and dropped, as the engines drop it.
    if (const auto *Ret = dyn_cast<ReturnStmt>(Child);
        Ret && Child == CS->body_back()) {
      // The value's own conversion (`return c[i] = x;` from an `int
      // operator()`) has no effect; `return void();` none at all.
      const Expr *Value = Ret->getRetValue()
                              ? Ret->getRetValue()->IgnoreParenImpCasts()
                              : nullptr;
      if (Value && !isa<CXXScalarValueInitExpr>(Value))
        lowerStmt(Value, Body);
      continue;
    }
    lowerStmt(Child, Body);
  }
  S.Body = std::make_shared<ir::BlockStmt>(std::move(Body),
                                           toIRRange(CS->getSourceRange()));
  return !Failed;
}

//===-- Pieces -----------------------------------------------------------===//

std::optional<ir::Type> BodyLowering::typeOf(const Expr *E) {
  if (std::optional<ir::Type> Ty =
          stencilc::frontend::toScalarType(E->getType()))
    return Ty;
  if (E->getType()->isPointerType()) {
    if (std::optional<Binding> B = lookup(E); B && B->Kind == Binding::Array) {
      error(DiagId::err_array_escape, E, {S.Params[B->Id].Name});
      return std::nullopt;
    }
  }
  const clang::SourceRange R = E->getSourceRange();
  const clang::SourceManager &SM = Ctx.getSourceManager();
  auto Inside = [&](const clang::SourceRange &Outer) {
    return !SM.isBeforeInTranslationUnit(R.getBegin(), Outer.getBegin()) &&
           !SM.isBeforeInTranslationUnit(Outer.getEnd(), R.getEnd());
  };
  if (std::none_of(TypeRefused.begin(), TypeRefused.end(), Inside)) {
    error(DiagId::err_unsupported_type, E,
          {E->getType().getAsString(Ctx.getPrintingPolicy())});
    TypeRefused.push_back(R);
  }
  return std::nullopt;
}

std::optional<Binding> BodyLowering::lookup(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!Ref)
    return std::nullopt;
  const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
  if (!VD)
    return std::nullopt;
  auto It = frame().Vars.find(VD);
  if (It == frame().Vars.end())
    return std::nullopt;
  return It->second;
}

unsigned BodyLowering::addLocal(llvm::StringRef Name, ir::Type Ty) {
  std::string Unique = Name.empty() ? "tmp" : Name.str();
  // Parameters keep their names in generated code, so locals avoid them too.
  auto Taken = [&](const std::string &N) {
    if (LocalNames.count(N))
      return true;
    for (const ir::Param &P : S.Params)
      if (P.Name == N)
        return true;
    return false;
  };
  if (Taken(Unique)) {
    std::string Base = Unique;
    unsigned &Suffix = NextSuffix[Base];
    do
      Unique = Base + "_" + std::to_string(++Suffix);
    while (Taken(Unique));
  }
  LocalNames.insert(Unique);
  S.Locals.push_back({Unique, Ty});
  return static_cast<unsigned>(S.Locals.size() - 1);
}

bool BodyLowering::enter(const Stmt *St) {
  ++Depth;
  if (OverLimit)
    return false;
  if (Depth > MaxNestingDepth) {
    OverLimit = true;
    error(DiagId::err_nesting_too_deep, St, {std::to_string(MaxNestingDepth)});
    return false;
  }
  if (++Lowered > MaxLoweredNodes) {
    OverLimit = true;
    error(DiagId::err_stencil_too_large, St,
          {S.Name, std::to_string(MaxLoweredNodes)});
    return false;
  }
  return true;
}

ExprRef BodyLowering::castTo(ir::Type Ty, ExprRef E, clang::SourceRange R) {
  if (!E || E->type() == Ty)
    return E;
  return std::make_shared<ir::CastExpr>(Ty, std::move(E), toIRRange(R));
}

/// L Op R; a float division by a constant carries its exact reciprocal.
static ExprRef binary(ir::Type Ty, ir::BinaryOp Op, ExprRef L, ExprRef R,
                      stencilc::SourceRange Range) {
  auto B = std::make_shared<ir::BinaryExpr>(Ty, Op, std::move(L), R, Range);
  if (Op == ir::BinaryOp::Div && Ty.kind() == ir::ScalarKind::Float32)
    if (std::optional<float> D = ir::floatConstantValue(*R))
      B->Reciprocal = ir::exactReciprocal(*D);
  return B;
}

/// The dimensions an index method names: every one for "ix", those of its
/// letters for "ix_z", "ix_xy", ... (x, y, z, w, each at most once, in
/// order); 0 for any other name.
static unsigned indexMethodAxes(llvm::StringRef Name, unsigned Dims) {
  if (Name == "ix")
    return ir::allAxes(Dims);
  if (!Name.consume_front("ix_") || Name.empty())
    return 0;
  unsigned Axes = 0;
  int Last = -1;
  for (char C : Name) {
    const size_t D = llvm::StringRef("xyzw").find(C);
    if (D == llvm::StringRef::npos || int(D) <= Last)
      return 0;
    Axes |= 1u << D;
    Last = int(D);
  }
  return Axes;
}

std::optional<ir::Offset>
BodyLowering::ixOffsets(const Expr *Index, const std::string &Array,
                        unsigned &Count, bool &OutOfRange, unsigned &Axes,
                        std::string &Method) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(Index->IgnoreParenImpCasts());
  if (!Call || !Call->getMethodDecl())
    return std::nullopt;
  Method = Call->getMethodDecl()->getName().str();
  Axes = indexMethodAxes(Method, S.Dims);
  if (!Axes)
    return std::nullopt;
  std::optional<Binding> Obj = lookup(Call->getImplicitObjectArgument());
  if (!Obj || Obj->Kind != Binding::Index)
    return std::nullopt;
  // The offsets fill the dimensions the method names, x first.
  unsigned Slots[ir::MaxDims] = {};
  unsigned NumSlots = 0;
  for (unsigned D = 0; D < ir::MaxDims; ++D)
    if ((Axes >> D) & 1)
      Slots[NumSlots++] = D;
  ir::Offset Off{};
  Count = 0;
  const TemplateArgumentList *Args =
      Call->getMethodDecl()->getTemplateSpecializationArgs();
  OutOfRange = false;
  const llvm::APSInt Limit(llvm::APInt(64, MaxOffset), /*isUnsigned=*/false);
  auto Add = [&](const TemplateArgument &A) {
    if (A.getKind() == TemplateArgument::Integral && Count < ir::MaxDims) {
      // Checked before narrowing: the argument may be any integer type.
      const llvm::APSInt V = A.getAsIntegral();
      if (llvm::APSInt::compareValues(V, Limit) > 0 ||
          llvm::APSInt::compareValues(V, -Limit) < 0) {
        // The dimension the offset stands for (z for ix_z<...>'s first).
        const unsigned Dim = Count < NumSlots ? Slots[Count] : Count;
        if (!OutOfRange)
          error(DiagId::err_offset_too_large, Index,
                {Array,
                 std::to_string(Dim + 1) +
                     (Dim < ir::MaxDims ? std::string(" (") + "xyzw"[Dim] + ")"
                                        : std::string()),
                 llvm::toString(V, 10), std::to_string(MaxOffset)});
        OutOfRange = true;
      } else if (Count < NumSlots) {
        Off[Slots[Count]] = static_cast<int>(V.getExtValue());
      }
    }
    ++Count;
  };
  if (Args)
    for (const TemplateArgument &A : Args->asArray()) {
      if (A.getKind() == TemplateArgument::Pack)
        for (const TemplateArgument &P : A.pack_elements())
          Add(P);
      else
        Add(A);
    }
  return Off;
}

/// The array a subscript indexes, through the subscripts of an array of
/// arrays (`w[1][2]`'s `w`), or null where it is not a named one.
static const DeclRefExpr *subscriptedArray(const ArraySubscriptExpr *E) {
  const Expr *Base = E->getBase()->IgnoreParenImpCasts();
  while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Base))
    Base = Inner->getBase()->IgnoreParenImpCasts();
  return dyn_cast<DeclRefExpr>(Base);
}

std::optional<std::pair<unsigned, ir::Offset>>
BodyLowering::arrayAccess(const ArraySubscriptExpr *E) {
  const Expr *Base = E->getBase()->IgnoreParenImpCasts();
  std::optional<Binding> Array = lookup(Base);
  if (!Array || Array->Kind != Binding::Array) {
    // (f + 1)[...], (*p)[...]: anything but a named array.
    std::string Name = "?";
    if (const auto *BO = dyn_cast<BinaryOperator>(Base))
      if (std::optional<Binding> B = lookup(BO->getLHS());
          B && B->Kind == Binding::Array)
        Name = S.Params[B->Id].Name;
    const DeclRefExpr *Ref = subscriptedArray(E);
    if (Name != "?")
      error(DiagId::err_pointer_arithmetic, Base, {Name});
    else if (Ref && Ref->getType()->isArrayType())
      // A table of weights, say: the generated code has no arrays but the
      // stencil's.
      error(DiagId::err_unsupported_expr, E,
            {"subscript of '" + Ref->getDecl()->getNameAsString() +
             "', an array that is not a parameter of the stencil (a table of "
             "constants: name each entry, e.g. constexpr float w0 = ...)"});
    else
      error(DiagId::err_unsupported_expr, E,
            {"subscript of something other than an array parameter"});
    return std::nullopt;
  }
  const std::string &Name = S.Params[Array->Id].Name;
  unsigned Count = 0, Axes = 0;
  bool OutOfRange = false;
  std::string Method;
  std::optional<ir::Offset> Off =
      ixOffsets(E->getIdx(), Name, Count, OutOfRange, Axes, Method);
  if (OutOfRange)
    return std::nullopt;
  if (!Off) {
    // (Not again through a local refused where it was declared: `j.ix()`.)
    const auto *Call =
        dyn_cast<CXXMemberCallExpr>(E->getIdx()->IgnoreParenImpCasts());
    const auto *Object =
        Call ? dyn_cast<DeclRefExpr>(
                   Call->getImplicitObjectArgument()->IgnoreParenImpCasts())
             : nullptr;
    const auto *Local = Object ? dyn_cast<VarDecl>(Object->getDecl()) : nullptr;
    if (!Local || !Rejected.count(Local))
      error(DiagId::err_non_constant_offset, E->getIdx(), {Name});
    return std::nullopt;
  }
  if (!checkArrayAxes(Array->Id, Axes, Method, Count, E->getIdx()))
    return std::nullopt;
  return std::make_pair(Array->Id, *Off);
}

/// Checks an access of array \p Param through idx.\p Method (spanning
/// \p Axes, with \p Count offsets) and records the array's axes: every
/// access of one array spans the same dimensions, all of the stencil's or
/// some of them (an array of lower rank).
bool BodyLowering::checkArrayAxes(unsigned Param, unsigned Axes,
                                  const std::string &Method, unsigned Count,
                                  const Expr *Index) {
  const std::string &Name = S.Params[Param].Name;
  const unsigned All = ir::allAxes(S.Dims);
  if (Axes & ~All) {
    const unsigned Outside = Axes & ~All;
    unsigned D = 0;
    while (!((Outside >> D) & 1))
      ++D;
    error(DiagId::err_axes_outside_stencil, Index,
          {Method, std::string(1, "xyzw"[D]), std::to_string(S.Dims)});
    return false;
  }
  if (Axes == All && Method != "ix") {
    error(DiagId::err_axes_every_dimension, Index,
          {Method, std::to_string(S.Dims)});
    return false;
  }
  unsigned Spanned = 0;
  for (unsigned D = 0; D < ir::MaxDims; ++D)
    Spanned += (Axes >> D) & 1;
  if (Count != 0 && Count != Spanned) {
    if (Method == "ix")
      error(DiagId::err_offset_dims, Index,
            {Name, std::to_string(Count), std::to_string(S.Dims)});
    else
      error(DiagId::err_offset_count_lower_rank, Index,
            {Name, Method, std::to_string(Count), std::to_string(Spanned)});
    return false;
  }
  auto [It, First] =
      FirstIndexed.try_emplace(Param, Index->getSourceRange(), Method);
  if (!First && It->second.second != Method) {
    error(DiagId::err_array_axes_mismatch, Index,
          {Name, Method, It->second.second});
    Diags.report(DiagId::note_array_first_indexed, toIRRange(It->second.first),
                 {Name});
    return false;
  }
  S.Params[Param].Axes = Axes == All ? 0 : Axes;
  return true;
}

//===-- Statements -------------------------------------------------------===//

StmtRef BodyLowering::lowerBlock(const Stmt *St) {
  StmtList Body;
  if (const auto *CS = dyn_cast<CompoundStmt>(St))
    for (const Stmt *Child : CS->body())
      lowerStmt(Child, Body);
  else
    lowerStmt(St, Body);
  return std::make_shared<ir::BlockStmt>(std::move(Body),
                                         toIRRange(St->getSourceRange()));
}

void BodyLowering::lowerStmt(const Stmt *St, StmtList &Out) {
  if (enter(St))
    lowerStmtKind(St, Out);
  leave();
}

void BodyLowering::lowerStmtKind(const Stmt *St, StmtList &Out) {
  if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
    Out.push_back(lowerBlock(CS));
    return;
  }
  if (isa<NullStmt>(St))
    return;
  // [[likely]], [[unlikely]]: hints, the statement is the same.
  if (const auto *AS = dyn_cast<AttributedStmt>(St))
    return lowerStmt(AS->getSubStmt(), Out);
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls()) {
      if (const auto *VD = dyn_cast<VarDecl>(D))
        lowerDecl(VD, Out);
      else if (!isa<TypedefNameDecl, StaticAssertDecl, UsingDecl,
                    UsingDirectiveDecl, EnumDecl>(
                   D)) // (enumerators: constants)
        error(DiagId::err_unsupported_stmt, D->getSourceRange(),
              {std::string("declaration of a ") + D->getDeclKindName()});
    }
    return;
  }
  if (const auto *For = dyn_cast<ForStmt>(St))
    return lowerFor(For, Out);
  if (const auto *If = dyn_cast<IfStmt>(St))
    return lowerIf(If, Out, /*TailReturn=*/false);
  if (const auto *Sw = dyn_cast<SwitchStmt>(St))
    return lowerSwitch(Sw, Out, /*TailReturn=*/false);
  // The break that ends a case: its branch ends there anyway.
  if (isa<BreakStmt>(St) && EndingBreaks.count(St))
    return;
  if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(St)) {
    error(DiagId::err_loop_trip_count, St, {});
    return;
  }
  if (isa<ReturnStmt>(St)) {
    if (Frames.size() > 1)
      error(DiagId::err_helper_return, St, {frame().Fn->getNameAsString()});
    else
      error(DiagId::err_unsupported_stmt, St,
            {"'return' before the end of the stencil"});
    return;
  }
  if (const auto *E = dyn_cast<Expr>(St))
    return fullExpression([&] { lowerExprStmt(E, Out); });
  std::string What = St->getStmtClassName();
  if (isa<BreakStmt>(St))
    What = "'break'";
  else if (isa<ContinueStmt>(St))
    What = "'continue'";
  else if (isa<SwitchCase>(St))
    What = "a 'case' or 'default' label inside a statement of its 'switch'";
  else if (isa<GotoStmt>(St))
    What = "'goto'";
  else if (isa<LabelStmt>(St))
    What = "a label";
  else if (isa<CXXTryStmt>(St))
    What = "'try'";
  error(DiagId::err_unsupported_stmt, St, {What});
}

void BodyLowering::lowerDecl(const VarDecl *VD, StmtList &Out) {
  if (!VD->isLocalVarDecl() || VD->isStaticLocal()) {
    error(DiagId::err_unsupported_stmt, VD->getSourceRange(),
          {"static local variable"});
    return;
  }
  std::optional<ir::Type> Ty = stencilc::frontend::toScalarType(VD->getType());
  if (VD->getType()->isReferenceType()) {
    Ty = stencilc::frontend::toScalarType(VD->getType().getNonReferenceType());
    if (Ty)
      switch (bindConstReference(VD)) {
      case ConstReference::Alias:
        return;
      case ConstReference::Copy:
        break; // declared as a local holding the value, below
      case ConstReference::Refused:
        error(DiagId::err_reference_local, VD->getSourceRange(),
              {VD->getName().str()});
        Rejected.insert(VD);
        return;
      }
  }
  if (!Ty) {
    // A copy of the index, or a reference to it: the index is used in place.
    const Expr *Init = VD->getInit();
    if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(Init))
      Init = Copy->getNumArgs() == 1 ? Copy->getArg(0) : nullptr;
    if (Init)
      if (std::optional<Binding> B = lookup(Init);
          B && B->Kind == Binding::Index) {
        error(DiagId::err_index_escape, VD->getSourceRange(),
              {S.Params[B->Id].Name});
        Rejected.insert(VD);
        return;
      }
    if (VD->getType()->isPointerType())
      if (const Expr *Init = VD->getInit())
        if (std::optional<Binding> B = lookup(Init);
            B && B->Kind == Binding::Array) {
          error(DiagId::err_array_escape, VD->getSourceRange(),
                {S.Params[B->Id].Name});
          return;
        }
    error(DiagId::err_unsupported_type, VD->getSourceRange(),
          {VD->getType().getAsString(Ctx.getPrintingPolicy())});
    Rejected.insert(VD);
    return;
  }
  // Bound before the initialiser is lowered, so an error there does not
  // cascade into every later use of the variable.
  unsigned Local = addLocal(VD->getName(), *Ty);
  frame().Vars[VD] = {Binding::Local, Local};
  ExprRef Init;
  if (const Expr *InitE = VD->getInit()) {
    if (const auto *List = dyn_cast<InitListExpr>(InitE->IgnoreImplicit())) {
      if (List->getNumInits() > 1) {
        error(DiagId::err_unsupported_expr, InitE, {"initializer list"});
        return;
      }
      InitE = List->getNumInits() ? List->getInit(0) : nullptr;
    }
    if (InitE) {
      // C++ lets the initialiser name the variable (reading it is undefined);
      // the generated code could not even declare it in that order.
      Initialising.insert(VD);
      // A constexpr local's value is the compiler's, rounded to nearest
      // whatever the rounding mode at run time: its constant, as a constant
      // global's (with -frounding-math, `1.0 / 3.0` divided at run time was
      // another double under FE_UPWARD).
      Expr::EvalResult Folded;
      const bool Constant = VD->isConstexpr() &&
                            InitE->EvaluateAsRValue(Folded, Ctx) &&
                            !Folded.HasSideEffects;
      fullExpression([&] {
        Init = castTo(*Ty, Constant ? constantOf(InitE) : lowerExpr(InitE, Out),
                      InitE->getSourceRange());
      });
      Initialising.erase(VD);
      if (!Init)
        return;
    } else {
      Init = std::make_shared<ir::ConstantExpr>(
          *Ty, 0, 0.0, toIRRange(VD->getSourceRange()));
    }
  }
  Out.push_back(std::make_shared<ir::LocalDeclStmt>(
      Local, std::move(Init), toIRRange(VD->getSourceRange())));
}

/// A `const T &` local that no write can reach through it: to a local or a
/// scalar parameter, an alias of that (Alias: bound here); to a temporary,
/// or to an object no write of the stencil can change (isUnwritable), the
/// value (Copy). Others are refused.
BodyLowering::ConstReference
BodyLowering::bindConstReference(const VarDecl *VD) {
  const Expr *Init = VD->getInit();
  if (!Init || !VD->getType().getNonReferenceType().isConstQualified())
    return ConstReference::Refused;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(Init))
    Init = EWC->getSubExpr();
  Init = Init->IgnoreParens();
  if (isa<MaterializeTemporaryExpr>(Init))
    return ConstReference::Copy;
  Init = Init->IgnoreParenImpCasts();
  if (std::optional<Binding> B = lookup(Init);
      B && (B->Kind == Binding::Local || B->Kind == Binding::Scalar)) {
    frame().Vars[VD] = *B;
    return ConstReference::Alias;
  }
  return isUnwritable(Init) ? ConstReference::Copy : ConstReference::Refused;
}

/// True when \p E designates an object no write of the stencil can change,
/// so that a reference to it may hold its value: an element of an array the
/// stencil takes as const (the arrays of a launch do not overlap); a local
/// or scalar parameter that is const or never written in its function; a
/// local const reference to one of these; std::min, std::max or std::clamp
/// of these (they return a reference to an argument). A temporary is not one:
/// a reference to a call's result that is one dangles.
bool BodyLowering::isUnwritable(const Expr *E) {
  // Parentheses and added qualifiers only: a conversion (std::max<double>
  // of floats) binds a temporary, which the reference would outlive.
  for (;;) {
    E = E->IgnoreParens();
    const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
    if (!Cast || Cast->getCastKind() != CK_NoOp)
      break;
    E = Cast->getSubExpr();
  }
  if (isa<MaterializeTemporaryExpr>(E))
    return false;
  if (const auto *Element = dyn_cast<ArraySubscriptExpr>(E)) {
    const QualType Base = Element->getBase()->IgnoreParenImpCasts()->getType();
    std::optional<Binding> B = lookup(Element->getBase());
    return Base->isPointerType() && Base->getPointeeType().isConstQualified() &&
           B && B->Kind == Binding::Array;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return false;
    if (Var->getType()->isReferenceType()) {
      // A helper's reference parameter: the caller's object, not known here.
      const Expr *Init = isa<ParmVarDecl>(Var) ? nullptr : Var->getInit();
      if (const auto *EWC = dyn_cast_or_null<ExprWithCleanups>(Init))
        Init = EWC->getSubExpr();
      // A temporary a local reference extends.
      return Init && (isa<MaterializeTemporaryExpr>(Init->IgnoreParens()) ||
                      isUnwritable(Init));
    }
    if (Var->getType().isConstQualified())
      return true;
    const auto *Fn =
        dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
    return (Var->isLocalVarDecl() || isa<ParmVarDecl>(Var)) && Fn &&
           !isWrittenIn(Fn, Var);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    std::optional<ir::MathFunc> F = frontend::recognizeMathFunction(FD);
    const bool ReturnsArgument =
        FD && FD->getReturnType()->isReferenceType() &&
        (frontend::isStdClamp(FD) ||
         (F && (*F == ir::MathFunc::Min || *F == ir::MathFunc::Max)));
    return ReturnsArgument &&
           llvm::all_of(Call->arguments(),
                        [&](const Expr *A) { return isUnwritable(A); });
  }
  return false;
}

/// Calls \p Write for each assignment and increment inside \p St, in source
/// order, with the variable it writes (null where it writes no variable),
/// until \p Write returns true; returns that statement. A worklist, not
/// recursion: bodies may nest very deep.
static const Stmt *
findWrite(const Stmt *St,
          llvm::function_ref<bool(const VarDecl *Written)> Write) {
  auto Var = [](const Expr *E) -> const VarDecl * {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  };
  llvm::SmallVector<const Stmt *, 32> Work;
  if (St)
    Work.push_back(St);
  while (!Work.empty()) {
    St = Work.pop_back_val();
    if (const auto *BO = dyn_cast<BinaryOperator>(St);
        BO && BO->isAssignmentOp() && Write(Var(BO->getLHS())))
      return St;
    if (const auto *UO = dyn_cast<UnaryOperator>(St);
        UO && UO->isIncrementDecrementOp() && Write(Var(UO->getSubExpr())))
      return St;
    size_t First = Work.size();
    for (const Stmt *Child : St->children())
      if (Child)
        Work.push_back(Child);
    std::reverse(Work.begin() + First, Work.end());
  }
  return nullptr;
}

/// The first assignment to \p Var inside \p St, in source order.
static const Stmt *findWriteTo(const Stmt *St, const VarDecl *Var) {
  return findWrite(St, [&](const VarDecl *W) { return W == Var; });
}

bool BodyLowering::isWrittenIn(const FunctionDecl *Fn, const VarDecl *Var) {
  auto [It, New] = WrittenIn.try_emplace(Fn);
  // One walk a function, however many references ask.
  if (New)
    findWrite(Fn->getBody(), [&](const VarDecl *W) {
      It->second.insert(W);
      return false;
    });
  return It->second.contains(Var);
}

void BodyLowering::lowerFor(const ForStmt *For, StmtList &Out) {
  // for (T v = Begin; v OP End; ++v | --v | v += c | v -= c)
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const VarDecl *Var = Init && Init->isSingleDecl()
                           ? dyn_cast<VarDecl>(Init->getSingleDecl())
                           : nullptr;
  if (!Var || !Var->getInit() || !Var->getType()->isIntegerType()) {
    error(DiagId::err_loop_trip_count, For->getInit() ? For->getInit() : For,
          {});
    return;
  }
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  std::int64_t Begin = 0, Step = 0, Trips = 0;
  std::optional<unsigned> Local =
      loopCounter(For, Var, Cond, Begin, Step, Trips);
  if (!Local)
    return;
  StmtRef Body = lowerBlock(For->getBody());
  Out.push_back(
      std::make_shared<ir::ForStmt>(*Local, Begin, Step, Trips, std::move(Body),
                                    toIRRange(For->getSourceRange())));
}

/// Converts \p V to the integer type \p T as C++ does (modulo 2^width).
static llvm::APSInt convertInt(const llvm::APSInt &V, QualType T,
                               ASTContext &Ctx) {
  llvm::APSInt R = V.extOrTrunc(Ctx.getIntWidth(T));
  R.setIsUnsigned(T->isUnsignedIntegerOrEnumerationType());
  return R;
}

/// Finds the loop's trip count by running its counter exactly as C++ does,
/// in the counter's type: the comparison after C++'s conversions, unsigned
/// wraparound, the step computed in the compound assignment's type. What
/// the generated loop (Begin, Step, Trips in the counter's type) cannot
/// reproduce exactly is reported. Returns the counter's local.
std::optional<unsigned>
BodyLowering::loopCounter(const ForStmt *For, const VarDecl *Var,
                          const BinaryOperator *Cond, std::int64_t &Begin,
                          std::int64_t &Step, std::int64_t &Trips) {
  auto Fail = [&](const Stmt *At) -> std::optional<unsigned> {
    error(DiagId::err_loop_trip_count, At ? At : For, {});
    return std::nullopt;
  };
  auto IsVar = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == Var;
  };
  QualType VarTy = Var->getType().getUnqualifiedType();
  std::optional<ir::Type> IRTy = stencilc::frontend::toScalarType(VarTy);
  if (!IRTy || !IRTy->isInteger()) {
    error(DiagId::err_loop_var_type, Var->getSourceRange(),
          {Var->getNameAsString(), VarTy.getAsString(Ctx.getPrintingPolicy())});
    return std::nullopt;
  }
  Expr::EvalResult BeginV, EndV, StepV;
  if (!Var->getInit()->EvaluateAsInt(BeginV, Ctx))
    return Fail(For->getInit());
  // The comparison runs in the type C++ converts both sides to.
  if (!Cond || !Cond->isComparisonOp() || !IsVar(Cond->getLHS()) ||
      !Cond->getLHS()->getType()->isIntegerType() ||
      !Cond->getRHS()->EvaluateAsInt(EndV, Ctx))
    return Fail(For->getCond());
  QualType CmpTy = Cond->getLHS()->getType();
  const llvm::APSInt End = convertInt(EndV.Val.getInt(), CmpTy, Ctx);

  // The step: v = v + Delta computed in StepTy (++/-- in the counter's own
  // type, which is never narrower than int here).
  QualType StepTy = VarTy;
  llvm::APSInt Delta;
  bool Subtract = false;
  const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParens() : nullptr;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc);
      UO && UO->isIncrementDecrementOp() && IsVar(UO->getSubExpr())) {
    Delta = convertInt(llvm::APSInt::get(1), VarTy, Ctx);
    Subtract = UO->isDecrementOp();
  } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
             CA && IsVar(CA->getLHS()) &&
             (CA->getOpcode() == BO_AddAssign ||
              CA->getOpcode() == BO_SubAssign) &&
             CA->getComputationResultType()->isIntegerType() &&
             Ctx.hasSameType(CA->getComputationLHSType(),
                             CA->getComputationResultType()) &&
             CA->getRHS()->EvaluateAsInt(StepV, Ctx)) {
    StepTy = CA->getComputationResultType();
    Delta = convertInt(StepV.Val.getInt(), StepTy, Ctx);
    Subtract = CA->getOpcode() == BO_SubAssign;
  } else {
    return Fail(For->getInc());
  }
  if (const Stmt *W = findWriteTo(For->getBody(), Var)) {
    error(DiagId::err_loop_var_modified, W, {Var->getNameAsString()});
    return std::nullopt;
  }

  auto Continues = [&](const llvm::APSInt &V) {
    llvm::APSInt L = convertInt(V, CmpTy, Ctx);
    switch (Cond->getOpcode()) {
    case BO_LT:
      return L < End;
    case BO_LE:
      return L <= End;
    case BO_GT:
      return L > End;
    case BO_GE:
      return L >= End;
    case BO_EQ:
      return L == End;
    default:
      return L != End;
    }
  };
  const bool Signed = IRTy->isSigned();
  const unsigned Width = Ctx.getIntWidth(VarTy);
  // Exact values in 128 bits: the difference of two 64-bit values fits.
  auto Wide = [](const llvm::APSInt &V) { return V.extend(128); };
  const llvm::APSInt First = convertInt(BeginV.Val.getInt(), VarTy, Ctx);
  if (const auto Counted = CountedLoops.find(For);
      Counted != CountedLoops.end()) {
    std::tie(Begin, Step, Trips) =
        std::tuple(Counted->second[0], Counted->second[1], Counted->second[2]);
    unsigned Local = addLocal(Var->getName(), *IRTy);
    frame().Vars[Var] = {Binding::Local, Local};
    return Local;
  }
  llvm::APSInt V = First;
  std::optional<llvm::APInt> Diff; // the exact step (in 128 bits)
  llvm::APInt DiffInType;          // the step in the counter's width
  bool DiffFits = false;
  std::uint64_t Count = 0;
  if (Delta.isZero() && Continues(V)) {
    error(DiagId::err_loop_trip_limit, For, {std::to_string(MaxLoopTrips)});
    return std::nullopt;
  }
  while (Continues(V)) {
    if (++Count > MaxLoopTrips) {
      error(DiagId::err_loop_trip_limit, For, {std::to_string(MaxLoopTrips)});
      return std::nullopt;
    }
    // C++ evaluates the step after every trip, the last one included.
    llvm::APSInt X = convertInt(V, StepTy, Ctx), R;
    bool Overflow = false;
    if (StepTy->isSignedIntegerOrEnumerationType())
      R = llvm::APSInt(Subtract ? X.ssub_ov(Delta, Overflow)
                                : X.sadd_ov(Delta, Overflow),
                       /*isUnsigned=*/false);
    else
      R = Subtract ? X - Delta : X + Delta;
    llvm::APSInt Next = convertInt(R, VarTy, Ctx);
    // The generated loop steps by one constant in the counter's own type:
    // a signed counter must move by exactly that step without wrapping.
    if (!Diff) {
      // The exact step, once; later steps are checked in the counter's own
      // width (no wide arithmetic in this loop of up to 2^20 trips).
      llvm::APInt D = static_cast<const llvm::APInt &>(Wide(Next)) -
                      static_cast<const llvm::APInt &>(Wide(V));
      if (!Signed)
        D = D.trunc(Width).sext(128); // modulo 2^Width
      Diff = D;
      DiffFits = D.isSignedIntN(Width);
      DiffInType = D.trunc(Width);
    }
    if (Signed) {
      // A step that does not fit the type moves a signed counter only once
      // without leaving its range (or wraps it): the second one is an error.
      bool Wraps = false;
      if (DiffFits)
        Overflow |= V.sadd_ov(DiffInType, Wraps) != Next || Wraps;
      else
        Overflow |= Count > 1;
    }
    if (Overflow) {
      error(DiagId::err_loop_var_overflow, For->getInc(),
            {Var->getNameAsString(), VarTy.getAsString(Ctx.getPrintingPolicy()),
             llvm::toString(V, 10)});
      return std::nullopt;
    }
    V = Next;
  }
  auto ToInt64 = [](const llvm::APSInt &X) {
    return X.isSigned() ? X.getSExtValue()
                        : static_cast<std::int64_t>(X.getZExtValue());
  };
  Begin = ToInt64(First);
  Trips = static_cast<std::int64_t>(Count);
  // With fewer than two trips only the direction matters, and a step of one
  // keeps the generated end value (Begin + Trips * Step) in range.
  bool Fits = Diff && Diff->isSignedIntN(64) &&
              Diff->getSExtValue() != std::numeric_limits<std::int64_t>::min();
  if (Count >= 2 && !Fits)
    return Fail(For->getInc());
  if (Count < 2)
    Step = !Diff || !Diff->isNegative() ? 1 : -1;
  else
    Step = Diff->getSExtValue();
  CountedLoops[For] = {Begin, Step, Trips};
  unsigned Local = addLocal(Var->getName(), *IRTy);
  frame().Vars[Var] = {Binding::Local, Local};
  return Local;
}

void BodyLowering::lowerIf(const IfStmt *If, StmtList &Out, bool TailReturn) {
  if (If->getConditionVariable()) {
    error(DiagId::err_unsupported_stmt, If,
          {"a declaration in an if condition"});
    return;
  }
  StmtList Scope;
  StmtList &Target = If->getInit() ? Scope : Out;
  if (If->getInit())
    lowerStmt(If->getInit(), Scope);
  auto Branch = [&](const Stmt *St) -> StmtRef {
    if (!TailReturn)
      return lowerBlock(St);
    StmtList Body;
    lowerTail(St, Body);
    return std::make_shared<ir::BlockStmt>(std::move(Body),
                                           toIRRange(St->getSourceRange()));
  };
  auto CloseScope = [&] {
    if (If->getInit())
      Out.push_back(std::make_shared<ir::BlockStmt>(
          std::move(Scope), toIRRange(If->getSourceRange())));
  };
  // if constexpr: C++ runs the branch its constant condition takes (the
  // other is discarded, in a template not even instantiated).
  if (If->isConstexpr()) {
    if (std::optional<const Stmt *> Taken = If->getNondiscardedCase(Ctx)) {
      if (*Taken)
        Target.push_back(Branch(*Taken));
      CloseScope();
    } else {
      error(DiagId::err_unsupported_stmt, If,
            {"'if constexpr' whose condition is not known"});
    }
    return;
  }
  ExprRef Cond;
  fullExpression([&] { Cond = lowerExpr(If->getCond(), Target); });
  StmtRef Then = Branch(If->getThen());
  StmtRef Else = If->getElse() ? Branch(If->getElse()) : nullptr;
  // `else if` stays a chain (an if as the else branch), not an if nested in
  // a block one level deeper per branch: printers and later stages would
  // otherwise indent and recurse once per branch.
  if (const auto *B = dyn_cast_or_null<ir::BlockStmt>(Else.get());
      B && isa<IfStmt>(If->getElse()) && B->Body.size() == 1 &&
      isa<ir::IfStmt>(B->Body.front().get()))
    Else = B->Body.front();
  if (!Cond)
    return;
  Target.push_back(std::make_shared<ir::IfStmt>(
      std::move(Cond), std::move(Then), std::move(Else),
      toIRRange(If->getSourceRange())));
  CloseScope();
}

/// A switch as an if/else chain on its value, kept in a local: each group of
/// cases a branch (the default's last), its ending break dropped. At a
/// helper's end (\p TailReturn) each branch ends as the helper does.
void BodyLowering::lowerSwitch(const SwitchStmt *Sw, StmtList &Out,
                               bool TailReturn) {
  if (Sw->getConditionVariable()) {
    error(DiagId::err_unsupported_stmt, Sw,
          {"a declaration in a switch condition"});
    return;
  }
  frontend::SwitchCases Cases = frontend::groupCases(*Sw);
  if (Cases.Problem) {
    error(DiagId::err_unsupported_stmt, Cases.Problem, {Cases.Why});
    return;
  }
  // The chain nests a level a label (an else-if a group, an || a label
  // more in it): held to the limit of an else-if chain's, which later
  // stages walk level by level.
  unsigned Levels = 0;
  for (const frontend::CaseGroup &G : Cases.Groups)
    Levels += static_cast<unsigned>(G.Cases.size()) + G.Default;
  if (Depth + Levels > MaxNestingDepth) {
    if (!OverLimit)
      error(DiagId::err_nesting_too_deep, Sw,
            {std::to_string(MaxNestingDepth)});
    OverLimit = true;
    return;
  }
  Depth += Levels;
  struct Unnest {
    unsigned &Depth, Levels;
    ~Unnest() { Depth -= Levels; }
  } Nested{Depth, Levels};
  EndingBreaks.insert(Cases.EndingBreaks.begin(), Cases.EndingBreaks.end());
  StmtList Scope;
  if (Sw->getInit())
    lowerStmt(Sw->getInit(), Scope);
  ExprRef Value;
  fullExpression([&] { Value = lowerExpr(Sw->getCond(), Scope); });
  std::optional<ir::Type> Ty = typeOf(Sw->getCond());
  const stencilc::SourceRange Range = toIRRange(Sw->getSourceRange());
  auto Branch = [&](const frontend::CaseGroup &G) -> StmtRef {
    StmtList Body;
    for (const Stmt *St : G.Body) {
      if (TailReturn && St == G.Body.back())
        lowerTail(St, Body);
      else
        lowerStmt(St, Body);
    }
    if (TailReturn && G.Body.empty() && frame().Result)
      error(DiagId::err_helper_return, Sw, {frame().Fn->getNameAsString()});
    return std::make_shared<ir::BlockStmt>(std::move(Body), Range);
  };
  StmtRef Chain;
  for (const frontend::CaseGroup &G : Cases.Groups)
    if (G.Default)
      Chain = Branch(G);
  if (!Chain && TailReturn && frame().Result)
    // No default: a value the cases miss leaves without a return.
    error(DiagId::err_helper_return, Sw, {frame().Fn->getNameAsString()});
  if (!Value || !Ty)
    return;
  // The value's side effects are statements of Scope already: with no case
  // to compare it with, the value itself is not needed.
  const bool Compared =
      llvm::any_of(Cases.Groups, [](const auto &G) { return !G.Default; });
  const unsigned Local = Compared ? addLocal("switch_value", *Ty) : 0;
  if (Compared)
    Scope.push_back(std::make_shared<ir::LocalDeclStmt>(Local, Value, Range));
  for (auto G = Cases.Groups.rbegin(); G != Cases.Groups.rend(); ++G) {
    if (G->Default)
      continue;
    ExprRef Test;
    for (const CaseStmt *Case : G->Cases) {
      ExprRef Label = constantOf(Case->getLHS());
      if (!Label)
        return;
      ExprRef Equal =
          binary(ir::ScalarKind::Bool, ir::BinaryOp::EQ,
                 localRef(Local, Case->getSourceRange()),
                 castTo(*Ty, Label, Case->getLHS()->getSourceRange()),
                 toIRRange(Case->getSourceRange()));
      Test = Test ? binary(ir::ScalarKind::Bool, ir::BinaryOp::LOr, Test, Equal,
                           Range)
                  : Equal;
    }
    Chain = std::make_shared<ir::IfStmt>(std::move(Test), Branch(*G),
                                         std::move(Chain), Range);
  }
  if (Chain)
    Scope.push_back(std::move(Chain));
  Out.push_back(std::make_shared<ir::BlockStmt>(std::move(Scope), Range));
}

/// The statement that ends a helper: a return, a block ending in one, or an
/// if/else whose branches both end in one. The value goes to the result local.
void BodyLowering::lowerTail(const Stmt *St, StmtList &Out) {
  if (const auto *Ret = dyn_cast<ReturnStmt>(St)) {
    if (!Ret->getRetValue())
      return;
    ExprRef V;
    fullExpression([&] { V = lowerExpr(Ret->getRetValue(), Out); });
    if (V && frame().Result)
      Out.push_back(std::make_shared<ir::AssignStmt>(
          *frame().Result,
          castTo(S.Locals[*frame().Result].Ty, V, Ret->getSourceRange()),
          toIRRange(Ret->getSourceRange())));
    return;
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(St);
      CS && !(CS->body_empty() && frame().Result)) {
    StmtList Body;
    for (const Stmt *Child : CS->body()) {
      if (Child == CS->body_back())
        lowerTail(Child, Body);
      else
        lowerStmt(Child, Body);
    }
    Out.push_back(std::make_shared<ir::BlockStmt>(
        std::move(Body), toIRRange(CS->getSourceRange())));
    return;
  }
  // An if/else, or an if constexpr whose taken branch is there (a
  // template's instance keeps no discarded else).
  if (const auto *If = dyn_cast<IfStmt>(St);
      If && (If->getElse() || (If->isConstexpr() &&
                               If->getNondiscardedCase(Ctx).value_or(nullptr))))
    return lowerIf(If, Out, /*TailReturn=*/true);
  if (const auto *Sw = dyn_cast<SwitchStmt>(St))
    return lowerSwitch(Sw, Out, /*TailReturn=*/true);
  if (frame().Result) {
    // A value-returning helper must end in a return on every path.
    error(DiagId::err_helper_return, St, {frame().Fn->getNameAsString()});
    return;
  }
  lowerStmt(St, Out);
}

void BodyLowering::fullExpression(llvm::function_ref<void()> Lower) {
  Order.beginFullExpression();
  Lower();
  if (std::optional<frontend::EvaluationOrder::Conflict> C =
          Order.endFullExpression())
    error(DiagId::err_helper_write_unsequenced, C->Call,
          {C->Helper, S.Params[C->Array].Name,
           C->OtherWrites ? "writes" : "reads"});
}

void BodyLowering::lowerExprStmt(const Expr *E, StmtList &Out) {
  E = E->IgnoreParens();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    E = EWC->getSubExpr()->IgnoreParens();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->isAssignmentOp()) {
    ExprRef RHS = lowerExpr(BO->getRHS(), Out);
    if (!RHS)
      return;
    return lowerAssign(BO->getLHS(), BO, RHS, Out);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->isIncrementDecrementOp())
    return lowerAssign(UO->getSubExpr(), UO, nullptr, Out);
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
      Cast && Cast->getType()->isVoidType()) {
    // (void)f of an array or the index, to quiet "unused": reads nothing.
    if (std::optional<Binding> B = lookup(Cast->getSubExpr());
        B && B->Kind != Binding::Local)
      return;
    (void)lowerExpr(Cast->getSubExpr(), Out); // (void)x: checked, then dropped
    return;
  }
  if (isAssertion(E)) {
    error(DiagId::err_assert_in_stencil, E, {});
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && Call->getType()->isVoidType()) {
    (void)lowerCall(Call, Out);
    return;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E);
      CO && CO->getType()->isVoidType())
    return lowerVoidConditional(CO, Out);
  (void)lowerExpr(E, Out); // a value nobody uses: checked, then dropped
}

/// Whether \p E is what an active assert() expands to (under NDEBUG it is
/// a cast to void, accepted above), through any macros that wrap it.
bool BodyLowering::isAssertion(const Expr *E) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (SourceLocation Loc = E->getBeginLoc(); Loc.isMacroID();
       Loc = SM.getImmediateMacroCallerLoc(Loc))
    if (Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts()) == "assert")
      return true;
  return false;
}

/// LHS = Value, LHS op= Value, ++LHS, LHS--: \p Op is the assignment
/// expression, \p Value its lowered right-hand side (null for ++/--).
void BodyLowering::lowerAssign(const Expr *LHS, const Expr *Op, ExprRef Value,
                               StmtList &Out) {
  LHS = LHS->IgnoreParens();
  ExprRef Current; // the old value, for compound forms
  std::optional<unsigned> StoreParam, AssignLocal;
  ir::Type Ty;
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(LHS)) {
    std::optional<std::pair<unsigned, ir::Offset>> Access = arrayAccess(Sub);
    if (!Access)
      return;
    if (ir::isLowerRank(S.Params[Access->first], S.Dims)) {
      error(DiagId::err_write_lower_rank, Sub,
            {S.Params[Access->first].Name,
             ir::axesName(ir::arrayAxes(S.Params[Access->first], S.Dims))});
      return;
    }
    if (Access->second != ir::Offset{}) {
      error(DiagId::err_write_off_centre, Sub,
            {S.Params[Access->first].Name,
             ir::printOffset(Access->second, S.Dims)});
      return;
    }
    StoreParam = Access->first;
    Order.access(Access->first, /*Write=*/true, /*Target=*/true);
    Ty = S.Params[Access->first].Ty;
    Current = std::make_shared<ir::LoadExpr>(Ty, Access->first, ir::Offset{},
                                             toIRRange(Sub->getSourceRange()));
  } else if (std::optional<Binding> B = lookup(LHS);
             B && B->Kind == Binding::Local) {
    AssignLocal = B->Id;
    Ty = S.Locals[B->Id].Ty;
    Current = localRef(B->Id, LHS->getSourceRange());
  } else {
    std::string What = "assignment to something other than a local variable or "
                       "'array[idx.ix()]'";
    if (B && B->Kind == Binding::Scalar)
      What = "assignment to parameter '" + S.Params[B->Id].Name +
             "' (copy it into a local)";
    error(DiagId::err_unsupported_expr, Op, {What});
    return;
  }

  stencilc::SourceRange R = toIRRange(Op->getSourceRange());
  if (const auto *UO = dyn_cast<UnaryOperator>(Op)) {
    // x++ is x = x + 1 computed in x's type (after promotion for small ints).
    ir::Type OpTy =
        Ty.isFloat() ? Ty
                     : (Ty.bytes() < 4 ? ir::Type(ir::ScalarKind::Int32) : Ty);
    ExprRef One = std::make_shared<ir::ConstantExpr>(OpTy, 1, 1.0, R);
    ExprRef Sum = std::make_shared<ir::BinaryExpr>(
        OpTy, UO->isIncrementOp() ? ir::BinaryOp::Add : ir::BinaryOp::Sub,
        castTo(OpTy, Current, Op->getSourceRange()), One, R);
    Value = castTo(Ty, Sum, Op->getSourceRange());
  } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Op)) {
    std::optional<ir::Type> LhsTy =
        stencilc::frontend::toScalarType(CA->getComputationLHSType());
    std::optional<ir::Type> ResTy =
        stencilc::frontend::toScalarType(CA->getComputationResultType());
    if (!LhsTy || !ResTy) {
      error(DiagId::err_unsupported_type, Op,
            {CA->getComputationResultType().getAsString()});
      return;
    }
    static const std::pair<BinaryOperatorKind, ir::BinaryOp> Ops[] = {
        {BO_MulAssign, ir::BinaryOp::Mul},
        {BO_DivAssign, ir::BinaryOp::Div},
        {BO_RemAssign, ir::BinaryOp::Rem},
        {BO_AddAssign, ir::BinaryOp::Add},
        {BO_SubAssign, ir::BinaryOp::Sub},
        {BO_ShlAssign, ir::BinaryOp::Shl},
        {BO_ShrAssign, ir::BinaryOp::Shr},
        {BO_AndAssign, ir::BinaryOp::BitAnd},
        {BO_XorAssign, ir::BinaryOp::BitXor},
        {BO_OrAssign, ir::BinaryOp::BitOr}};
    ir::BinaryOp IROp = ir::BinaryOp::Add;
    for (const auto &P : Ops)
      if (P.first == CA->getOpcode())
        IROp = P.second;
    ExprRef Combined =
        binary(*ResTy, IROp, castTo(*LhsTy, Current, Op->getSourceRange()),
               castTo(*ResTy, Value, Op->getSourceRange()), R);
    Value = castTo(Ty, Combined, Op->getSourceRange());
  } else {
    Value = castTo(Ty, Value, Op->getSourceRange());
  }
  if (StoreParam)
    Out.push_back(
        std::make_shared<ir::StoreStmt>(*StoreParam, std::move(Value), R));
  else
    Out.push_back(
        std::make_shared<ir::AssignStmt>(*AssignLocal, std::move(Value), R));
}

//===-- Expressions ------------------------------------------------------===//

ExprRef BodyLowering::lowerExpr(const Expr *E, StmtList &Out) {
  ExprRef Result = enter(E) ? lowerExprKind(E, Out) : nullptr;
  leave();
  return Result;
}

ExprRef BodyLowering::lowerExprKind(const Expr *E, StmtList &Out) {
  E = E->IgnoreParens();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return lowerExpr(M->getSubExpr(), Out);
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return lowerExpr(EWC->getSubExpr(), Out);
  if (const auto *Def = dyn_cast<CXXDefaultArgExpr>(E))
    return lowerExpr(Def->getExpr(), Out);
  if (const auto *C = dyn_cast<CastExpr>(E))
    return lowerCast(C, Out);
  // sizeof/alignof, a template's value parameter (N in x * N) and T() are
  // compile-time constants like literals.
  // A ConstantExpr holds a consteval call's value.
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral,
          UnaryExprOrTypeTraitExpr, SubstNonTypeTemplateParmExpr,
          CXXScalarValueInitExpr, SizeOfPackExpr, SourceLocExpr, ConstantExpr>(
          E))
    return constantOf(E);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return lowerDeclRef(Ref);
  // A scalar's braces, float{x} or T{}: its value (C++ allows no narrowing
  // there), or zero.
  if (const auto *List = dyn_cast<InitListExpr>(E);
      List && List->getNumInits() <= 1)
    if (std::optional<ir::Type> Ty =
            stencilc::frontend::toScalarType(E->getType())) {
      if (!List->getNumInits())
        return std::make_shared<ir::ConstantExpr>(
            *Ty, 0, 0.0, toIRRange(E->getSourceRange()));
      ExprRef V = lowerExpr(List->getInit(0), Out);
      return V ? castTo(*Ty, V, E->getSourceRange()) : nullptr;
    }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return lowerUnary(UO, Out);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return lowerBinary(BO, Out);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return lowerConditional(CO, Out);
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E))
    return lowerLoad(Sub);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return lowerMemberCall(MC);
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && !isa<CXXOperatorCallExpr>(E))
    return lowerCall(Call, Out);
  std::string What = E->getStmtClassName();
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) {
      error(DiagId::err_functor_member, E,
            {S.Name, ME->getMemberDecl()->getNameAsString()});
      return nullptr;
    }
    What = "access of member '" + ME->getMemberDecl()->getNameAsString() +
           "' of an object";
  }
  if (isa<CXXOperatorCallExpr>(E))
    What = "call of an overloaded operator or a lambda";
  else if (isa<LambdaExpr>(E))
    What = "lambda";
  else if (isa<CXXNewExpr, CXXDeleteExpr>(E))
    What = "dynamic allocation";
  else if (isa<CXXThrowExpr>(E))
    What = "'throw'";
  else if (isa<StmtExpr>(E))
    What = "a statement expression '({ ... })' (a GNU extension: use a "
           "helper function)";
  error(DiagId::err_unsupported_expr, E, {What});
  return nullptr;
}

ExprRef BodyLowering::constantOf(const Expr *E) {
  std::optional<ir::Type> Ty = typeOf(E);
  if (!Ty)
    return nullptr;
  stencilc::SourceRange R = toIRRange(E->getSourceRange());
  if (const auto *FL = dyn_cast<FloatingLiteral>(E))
    return std::make_shared<ir::ConstantExpr>(
        *Ty, 0, FL->getValueAsApproximateDouble(), R);
  Expr::EvalResult Result;
  if (!E->EvaluateAsRValue(Result, Ctx) || Result.HasSideEffects) {
    error(DiagId::err_unsupported_expr, E,
          {"a constant that cannot be evaluated"});
    return nullptr;
  }
  const APValue &V = Result.Val;
  if (V.isFloat()) {
    bool LosesInfo = false;
    llvm::APFloat F = V.getFloat();
    F.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &LosesInfo);
    return std::make_shared<ir::ConstantExpr>(*Ty, 0, F.convertToDouble(), R);
  }
  if (V.isInt()) {
    const llvm::APSInt &I = V.getInt();
    int64_t Value = I.isSigned() ? I.getSExtValue()
                                 : static_cast<int64_t>(I.getZExtValue());
    return std::make_shared<ir::ConstantExpr>(*Ty, Value,
                                              static_cast<double>(Value), R);
  }
  error(DiagId::err_unsupported_expr, E, {"a constant of unsupported kind"});
  return nullptr;
}

ExprRef BodyLowering::lowerCast(const CastExpr *E, StmtList &Out) {
  switch (E->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
    return lowerExpr(E->getSubExpr(), Out);
  case CK_IntegralCast:
  case CK_FloatingCast:
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_IntegralToBoolean:
  case CK_FloatingToBoolean: {
    std::optional<ir::Type> Ty = typeOf(E);
    ExprRef Sub = lowerExpr(E->getSubExpr(), Out);
    if (!Ty || !Sub)
      return nullptr;
    return castTo(*Ty, Sub, E->getSourceRange());
  }
  default:
    break;
  }
  if (E->getSubExpr()->getType()->isPointerType())
    if (std::optional<Binding> B = lookup(E->getSubExpr());
        B && B->Kind == Binding::Array) {
      error(DiagId::err_array_escape, E, {S.Params[B->Id].Name});
      return nullptr;
    }
  error(DiagId::err_unsupported_expr, E,
        {E->getCastKind() == CK_ToVoid
             ? std::string("a value discarded by a cast to void here (a "
                           "statement of its own, `(void)x;`, is accepted)")
             : std::string("conversion '") + E->getCastKindName() + "'"});
  return nullptr;
}

ExprRef BodyLowering::lowerDeclRef(const DeclRefExpr *E) {
  stencilc::SourceRange R = toIRRange(E->getSourceRange());
  if (isa<EnumConstantDecl>(E->getDecl()))
    return constantOf(E);
  const auto *VD = dyn_cast<VarDecl>(E->getDecl());
  if (!VD) {
    error(DiagId::err_unsupported_expr, E, {"reference to a function"});
    return nullptr;
  }
  if (Initialising.count(VD)) {
    error(DiagId::err_local_self_init, E, {VD->getNameAsString()});
    return nullptr;
  }
  auto It = frame().Vars.find(VD);
  if (It == frame().Vars.end() && Rejected.count(VD))
    return nullptr; // its declaration was already reported
  if (It == frame().Vars.end()) {
    // Globals: only compile-time constants, folded into the IR.
    if (VD->hasGlobalStorage() && VD->getType().isConstQualified())
      if (Expr::EvalResult Result; E->EvaluateAsRValue(Result, Ctx))
        return constantOf(E);
    error(DiagId::err_unsupported_global, E, {VD->getNameAsString()});
    return nullptr;
  }
  const Binding &B = It->second;
  switch (B.Kind) {
  case Binding::Scalar:
    return std::make_shared<ir::ParamRefExpr>(S.Params[B.Id].Ty, B.Id, R);
  case Binding::Local:
    return std::make_shared<ir::LocalRefExpr>(S.Locals[B.Id].Ty, B.Id, R);
  case Binding::Array:
    error(DiagId::err_array_escape, E, {S.Params[B.Id].Name});
    return nullptr;
  case Binding::Index:
    error(DiagId::err_index_escape, E, {S.Params[B.Id].Name});
    return nullptr;
  }
  return nullptr;
}

ExprRef BodyLowering::lowerUnary(const UnaryOperator *E, StmtList &Out) {
  ir::UnaryOp Op;
  switch (E->getOpcode()) {
  case UO_Minus:
    Op = ir::UnaryOp::Neg;
    break;
  case UO_Plus:
    Op = ir::UnaryOp::Plus;
    break;
  case UO_LNot:
    Op = ir::UnaryOp::LNot;
    break;
  case UO_Not:
    Op = ir::UnaryOp::BitNot;
    break;
  case UO_Deref:
    if (std::optional<Binding> B = lookup(E->getSubExpr());
        B && B->Kind == Binding::Array) {
      error(DiagId::err_pointer_arithmetic, E, {S.Params[B->Id].Name});
      return nullptr;
    }
    if (const auto *BO =
            dyn_cast<BinaryOperator>(E->getSubExpr()->IgnoreParenImpCasts()))
      if (std::optional<Binding> B = lookup(BO->getLHS());
          B && B->Kind == Binding::Array) {
        error(DiagId::err_pointer_arithmetic, E, {S.Params[B->Id].Name});
        return nullptr;
      }
    [[fallthrough]];
  default:
    error(DiagId::err_unsupported_expr, E,
          {E->isIncrementDecrementOp()
               ? "increment or decrement inside an expression"
               : std::string("operator '") +
                     UnaryOperator::getOpcodeStr(E->getOpcode()).str() + "'"});
    return nullptr;
  }
  std::optional<ir::Type> Ty = typeOf(E);
  ExprRef Sub = lowerExpr(E->getSubExpr(), Out);
  if (!Ty || !Sub)
    return nullptr;
  return std::make_shared<ir::UnaryExpr>(*Ty, Op, Sub,
                                         toIRRange(E->getSourceRange()));
}

ExprRef BodyLowering::lowerBinary(const BinaryOperator *E, StmtList &Out) {
  if (E->getLHS()->getType()->isPointerType() ||
      E->getRHS()->getType()->isPointerType()) {
    std::optional<std::string> Name;
    for (const Expr *Side : {E->getLHS(), E->getRHS()})
      if (std::optional<Binding> B = lookup(Side);
          B && B->Kind == Binding::Array)
        Name = S.Params[B->Id].Name;
    if (Name)
      error(DiagId::err_pointer_arithmetic, E, {*Name});
    else // this != nullptr, a pointer local's comparison
      error(DiagId::err_unsupported_expr, E,
            {"pointer operand of '" + E->getOpcodeStr().str() + "'"});
    return nullptr;
  }
  if (E->isAssignmentOp() || E->getOpcode() == BO_Comma) {
    error(DiagId::err_unsupported_expr, E,
          {E->isAssignmentOp() ? "assignment inside an expression"
                               : "comma operator"});
    return nullptr;
  }
  static const std::pair<BinaryOperatorKind, ir::BinaryOp> Ops[] = {
      {BO_Mul, ir::BinaryOp::Mul},    {BO_Div, ir::BinaryOp::Div},
      {BO_Rem, ir::BinaryOp::Rem},    {BO_Add, ir::BinaryOp::Add},
      {BO_Sub, ir::BinaryOp::Sub},    {BO_Shl, ir::BinaryOp::Shl},
      {BO_Shr, ir::BinaryOp::Shr},    {BO_LT, ir::BinaryOp::LT},
      {BO_GT, ir::BinaryOp::GT},      {BO_LE, ir::BinaryOp::LE},
      {BO_GE, ir::BinaryOp::GE},      {BO_EQ, ir::BinaryOp::EQ},
      {BO_NE, ir::BinaryOp::NE},      {BO_And, ir::BinaryOp::BitAnd},
      {BO_Xor, ir::BinaryOp::BitXor}, {BO_Or, ir::BinaryOp::BitOr},
      {BO_LAnd, ir::BinaryOp::LAnd},  {BO_LOr, ir::BinaryOp::LOr}};
  std::optional<ir::BinaryOp> Op;
  for (const auto &P : Ops)
    if (P.first == E->getOpcode())
      Op = P.second;
  if (!Op) {
    error(DiagId::err_unsupported_expr, E,
          {"operator '" + E->getOpcodeStr().str() + "'"});
    return nullptr;
  }
  std::optional<ir::Type> Ty = typeOf(E);
  bool ShortCircuit = *Op == ir::BinaryOp::LAnd || *Op == ir::BinaryOp::LOr;
  // && and || evaluate their left side first, and so does the lowering
  // (into a local before the right side's helpers). C++17 orders << and >>
  // likewise, but the lowering runs the right side's helpers first: left
  // unordered, so such a helper is refused.
  const bool LeftFirst = ShortCircuit;
  const unsigned Node = Order.node();
  if (LeftFirst)
    Order.enter(Node, 0);
  ExprRef L = lowerExpr(E->getLHS(), Out);
  if (LeftFirst) {
    Order.leave();
    Order.enter(Node, 1);
  }
  // The right side of && and || lowers apart: C++ evaluates it only when the
  // left side does not decide, so helpers it calls must run only then.
  StmtList RightOut;
  ExprRef R = lowerExpr(E->getRHS(), ShortCircuit ? RightOut : Out);
  if (LeftFirst)
    Order.leave();
  if (!Ty || !L || !R)
    return nullptr;
  stencilc::SourceRange Range = toIRRange(E->getSourceRange());
  if (RightOut.empty())
    return binary(*Ty, *Op, L, R, Range);
  // bool v = L; if (v) { helpers; v = R; }   (if (!v) for ||)
  unsigned Local = addLocal("cond", *Ty);
  Out.push_back(std::make_shared<ir::LocalDeclStmt>(
      Local, castTo(*Ty, L, E->getSourceRange()), Range));
  RightOut.push_back(std::make_shared<ir::AssignStmt>(
      Local, castTo(*Ty, R, E->getSourceRange()), Range));
  ExprRef Test = localRef(Local, E->getSourceRange());
  if (*Op == ir::BinaryOp::LOr)
    Test = std::make_shared<ir::UnaryExpr>(*Ty, ir::UnaryOp::LNot, Test, Range);
  Out.push_back(std::make_shared<ir::IfStmt>(
      std::move(Test),
      std::make_shared<ir::BlockStmt>(std::move(RightOut), Range), nullptr,
      Range));
  return localRef(Local, E->getSourceRange());
}

/// ?:'s condition, lowered into \p Out, then each arm by \p Arm into its
/// own list: C++ evaluates only the chosen one, so helpers called in an arm
/// must run only when it is taken.
ExprRef BodyLowering::lowerConditionalParts(
    const ConditionalOperator *CO, StmtList &Out, StmtList &TrueOut,
    StmtList &FalseOut,
    llvm::function_ref<void(const Expr *, StmtList &, bool)> Arm) {
  const unsigned Node = Order.node();
  Order.enter(Node, 0);
  ExprRef Cond = lowerExpr(CO->getCond(), Out);
  Order.leave();
  Order.enter(Node, 1);
  Arm(CO->getTrueExpr(), TrueOut, true);
  Order.leave();
  Order.enter(Node, 2);
  Arm(CO->getFalseExpr(), FalseOut, false);
  Order.leave();
  return Cond;
}

/// `c ? f() : g();` of void helpers, as a statement: if (c) f(); else g();
void BodyLowering::lowerVoidConditional(const ConditionalOperator *CO,
                                        StmtList &Out) {
  StmtList TrueOut, FalseOut;
  ExprRef Cond = lowerConditionalParts(
      CO, Out, TrueOut, FalseOut,
      [&](const Expr *E, StmtList &To, bool) { lowerExprStmt(E, To); });
  if (!Cond)
    return;
  stencilc::SourceRange Range = toIRRange(CO->getSourceRange());
  Out.push_back(std::make_shared<ir::IfStmt>(
      std::move(Cond),
      std::make_shared<ir::BlockStmt>(std::move(TrueOut), Range),
      std::make_shared<ir::BlockStmt>(std::move(FalseOut), Range), Range));
}

ExprRef BodyLowering::lowerConditional(const ConditionalOperator *CO,
                                       StmtList &Out) {
  std::optional<ir::Type> Ty = typeOf(CO);
  StmtList TrueOut, FalseOut;
  ExprRef T, F;
  ExprRef Cond = lowerConditionalParts(
      CO, Out, TrueOut, FalseOut, [&](const Expr *E, StmtList &To, bool True) {
        (True ? T : F) = lowerExpr(E, To);
      });
  if (!Ty || !Cond || !T || !F)
    return nullptr;
  T = castTo(*Ty, T, CO->getSourceRange());
  F = castTo(*Ty, F, CO->getSourceRange());
  stencilc::SourceRange Range = toIRRange(CO->getSourceRange());
  if (TrueOut.empty() && FalseOut.empty())
    return std::make_shared<ir::SelectExpr>(*Ty, Cond, T, F, Range);
  // T v; if (Cond) { helpers; v = T; } else { helpers; v = F; }
  unsigned Local = addLocal("cond", *Ty);
  Out.push_back(std::make_shared<ir::LocalDeclStmt>(Local, nullptr, Range));
  TrueOut.push_back(std::make_shared<ir::AssignStmt>(Local, T, Range));
  FalseOut.push_back(std::make_shared<ir::AssignStmt>(Local, F, Range));
  Out.push_back(std::make_shared<ir::IfStmt>(
      std::move(Cond),
      std::make_shared<ir::BlockStmt>(std::move(TrueOut), Range),
      std::make_shared<ir::BlockStmt>(std::move(FalseOut), Range), Range));
  return localRef(Local, CO->getSourceRange());
}

ExprRef BodyLowering::lowerLoad(const ArraySubscriptExpr *E) {
  // An entry of a constant global table at a constant subscript is a
  // constant, as a constant global is.
  if (const DeclRefExpr *Ref = subscriptedArray(E))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
        VD && VD->hasGlobalStorage() &&
        Ctx.getBaseElementType(VD->getType()).isConstQualified())
      if (Expr::EvalResult R; E->EvaluateAsRValue(R, Ctx) && !R.HasSideEffects)
        return constantOf(E);
  std::optional<std::pair<unsigned, ir::Offset>> Access = arrayAccess(E);
  if (!Access)
    return nullptr;
  Order.access(Access->first, /*Write=*/false);
  return std::make_shared<ir::LoadExpr>(S.Params[Access->first].Ty,
                                        Access->first, Access->second,
                                        toIRRange(E->getSourceRange()));
}

ExprRef BodyLowering::lowerMemberCall(const CXXMemberCallExpr *E) {
  std::optional<Binding> Obj = lookup(E->getImplicitObjectArgument());
  const CXXMethodDecl *MD = E->getMethodDecl();
  if (Obj && Obj->Kind == Binding::Index && MD) {
    static const char *Coords[] = {"i", "j", "k", "w"};
    for (unsigned D = 0; D < ir::MaxDims; ++D)
      if (MD->getName() == Coords[D] && D < S.Dims) {
        std::optional<ir::Type> Ty = typeOf(E);
        if (!Ty)
          return nullptr;
        return std::make_shared<ir::CoordExpr>(*Ty, D,
                                               toIRRange(E->getSourceRange()));
      }
    for (unsigned D = S.Dims; D < ir::MaxDims; ++D)
      if (MD->getName() == Coords[D]) { // idx.k() of a 2-D index
        error(DiagId::err_unsupported_expr, E,
              {"'" + std::string(Coords[D]) + "()' of a " +
               std::to_string(S.Dims) + "-D index (it has " + "i()" +
               (S.Dims == 2 ? " and " : " to ") + Coords[S.Dims - 1] + "()" +
               ")"});
        return nullptr;
      }
    error(DiagId::err_index_escape, E, {S.Params[Obj->Id].Name});
    return nullptr;
  }
  error(DiagId::err_unsupported_expr, E,
        {"call of a member function (make it a free function)"});
  return nullptr;
}

/// Calls that name a constant: the builtins behind INFINITY, NAN and
/// HUGE_VAL (__builtin_inff ...) and std::numeric_limits<T>'s members.
static bool isConstantCall(const FunctionDecl *FD) {
  if (FD->getBuiltinID())
    return true;
  const auto *Method = dyn_cast<CXXMethodDecl>(FD);
  const auto *Limits =
      Method ? dyn_cast<ClassTemplateSpecializationDecl>(Method->getParent())
             : nullptr;
  return Method && Method->isStatic() && Limits &&
         Limits->getName() == "numeric_limits" &&
         Limits->getDeclContext()->isStdNamespace();
}

/// Lowers the arguments of a call of a math function (or std::clamp) into
/// \p Args, each converted to its parameter's type; false if one failed.
bool BodyLowering::lowerMathArgs(const CallExpr *E, const FunctionDecl *FD,
                                 StmtList &Out, std::vector<ExprRef> &Args) {
  bool Ok = true;
  // An argument bound to a reference (std::min's) is read in the call,
  // after every argument; the others as they are evaluated.
  const unsigned Node = Order.node();
  for (unsigned I = 0; I < E->getNumArgs(); ++I) {
    Order.enter(Node, I < FD->getNumParams() &&
                          bindsObject(FD->getParamDecl(I), E->getArg(I)));
    ExprRef A = lowerExpr(E->getArg(I), Out);
    Order.leave();
    Ok &= A != nullptr;
    if (A && I < FD->getNumParams())
      // Arguments bound to references (std::min) arrive without a conversion.
      if (std::optional<ir::Type> PT = stencilc::frontend::toScalarType(
              FD->getParamDecl(I)->getType().getNonReferenceType()))
        A = castTo(*PT, A, E->getArg(I)->getSourceRange());
    Args.push_back(A);
  }
  return Ok;
}

ExprRef BodyLowering::lowerCall(const CallExpr *E, StmtList &Out) {
  const FunctionDecl *FD = E->getDirectCallee();
  if (!FD) {
    error(DiagId::err_unsupported_expr, E, {"indirect call"});
    return nullptr;
  }
  std::optional<ir::MathFunc> F = stencilc::frontend::recognizeMathFunction(FD);
  const bool Clamp = !F && stencilc::frontend::isStdClamp(FD);
  if (F || Clamp) {
    std::optional<ir::Type> Ty = typeOf(E);
    std::vector<ExprRef> Args;
    if (!lowerMathArgs(E, FD, Out, Args) || !Ty)
      return nullptr;
    const auto Range = toIRRange(E->getSourceRange());
    // <cmath> classifies an integer as the double it converts to (false,
    // but signbit: n < 0), which CUDA's functions take.
    if (F && ir::mathFuncClassifies(*F) && !Args.front()->type().isFloat())
      Args.front() = castTo(ir::ScalarKind::Float64, Args.front(),
                            E->getArg(0)->getSourceRange());
    if (!Clamp) {
      auto Call =
          std::make_shared<ir::CallExpr>(*Ty, *F, std::move(Args), Range);
      // The C library's function or <cmath>'s: what the generated file's
      // <cmath> declares too (another header's overload keeps the call's
      // type, as before).
      if (ir::mathFuncRounds(*F) &&
          (FD->getBuiltinID() || FD->isInStdNamespace()))
        Call->Callee = "::" + FD->getQualifiedNameAsString();
      return Call;
    }
    // libstdc++'s std::clamp(v, lo, hi): std::min(std::max(v, lo), hi),
    // which also says which operand a tie or a NaN gives.
    ExprRef Lower = std::make_shared<ir::CallExpr>(
        *Ty, ir::MathFunc::Max, std::vector<ExprRef>{Args[0], Args[1]}, Range);
    return std::make_shared<ir::CallExpr>(
        *Ty, ir::MathFunc::Min, std::vector<ExprRef>{Lower, Args[2]}, Range);
  }
  if (isConstantCall(FD))
    return constantCall(E);

  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def) {
    error(DiagId::err_call_no_definition, E, {FD->getQualifiedNameAsString()});
    // Its body was skipped (shouldSkipFunctionBody): a helper beside a
    // stencil in a header reached through -isystem.
    for (const FunctionDecl *R : FD->redecls())
      if (R->hasSkippedBody()) {
        Diags.report(DiagId::note_body_in_system_header,
                     toIRRange(R->getSourceRange()),
                     {FD->getQualifiedNameAsString()});
        break;
      }
    return nullptr;
  }
  return inlineHelper(E, Def, Out);
}

/// True for a C library function the compiler knows (sqrtl, erff), also as
/// its __builtin_ spelling, which <cmath>'s overloads call.
bool BodyLowering::libraryFunction(const FunctionDecl *FD) const {
  const unsigned ID = FD->getBuiltinID();
  if (!ID)
    return false;
  auto Library = [&](unsigned B) {
    return Ctx.BuiltinInfo.isLibFunction(B) ||
           Ctx.BuiltinInfo.isPredefinedLibFunction(B);
  };
  if (Library(ID))
    return true;
  llvm::StringRef Name = FD->getName();
  if (!Name.consume_front("__builtin_"))
    return false;
  const unsigned Plain = Ctx.Idents.get(Name).getBuiltinID();
  return Plain && Library(Plain);
}

/// The constant \p E computes, as the host computes it: its value as the
/// compiler evaluates it (exact: no arithmetic happens at run time). A NaN
/// other than the default quiet one (a payload, a signalling NaN) is
/// refused: the generated code writes the default.
ExprRef BodyLowering::constantCall(const CallExpr *E) {
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || R.HasSideEffects ||
      !(R.Val.isInt() || R.Val.isFloat())) {
    // A builtin that is neither a math function stencilc knows nor a
    // constant has no body to inline.
    const FunctionDecl *FD = E->getDirectCallee();
    if (libraryFunction(FD)) {
      // A math function off stencilc's list (erf, sqrtl, labs), called by
      // its name or through <cmath>'s inline std:: overload: said at the
      // user's call, by the name the user wrote.
      clang::SourceRange Where = E->getSourceRange();
      std::string Name = FD->getQualifiedNameAsString();
      const clang::SourceManager &SM = Ctx.getSourceManager();
      for (size_t I = 1; I < Frames.size(); ++I)
        if (SM.isInSystemHeader(Frames[I].Fn->getLocation())) {
          Where = Frames[I].CallRange;
          Name = Frames[I].Fn->getQualifiedNameAsString();
          break;
        }
      error(DiagId::err_call_no_definition, Where, {Name});
    } else if (FD->getBuiltinID()) {
      error(DiagId::err_unsupported_expr, E,
            {"call of the builtin '" + FD->getNameAsString() +
             "' (stencils call math functions by their names, and builtins "
             "only as constants)"});
    } else {
      error(DiagId::err_call_no_definition, E,
            {FD->getQualifiedNameAsString()});
    }
    return nullptr;
  }
  if (R.Val.isFloat()) {
    const llvm::APFloat &F = R.Val.getFloat();
    if (F.isNaN() && !F.bitwiseIsEqual(llvm::APFloat::getQNaN(
                         F.getSemantics(), F.isNegative()))) {
      error(DiagId::err_unsupported_expr, E,
            {"a NaN other than the default quiet NaN (its bits)"});
      return nullptr;
    }
  }
  return constantOf(E);
}

ExprRef BodyLowering::inlineHelper(const CallExpr *E, const FunctionDecl *Def,
                                   StmtList &Out) {
  std::string Name = Def->getNameAsString();
  for (const Frame &F : Frames)
    if (F.Fn->getCanonicalDecl() == Def->getCanonicalDecl()) {
      error(DiagId::err_recursive_call, E, {Name});
      return nullptr;
    }
  // A static member function is a free function in a class's scope.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Def);
      Method && !Method->isStatic()) {
    error(DiagId::err_unsupported_expr, E,
          {"call of a member function (make it a free function)"});
    return nullptr;
  }
  if (Def->isVariadic()) {
    error(DiagId::err_unsupported_expr, E,
          {"call of a variadic helper (its '...' arguments)"});
    return nullptr;
  }
  // Bind parameters in the caller's frame, then enter the helper's.
  Frame Callee{Def, {}, std::nullopt, E->getSourceRange()};
  StmtList Body;
  bool Ok = true;
  const unsigned Node = Order.call(Name, E->getSourceRange());
  // const T& parameters bound to an object, with the arrays it may be an
  // element of (what the argument read: a?b:c and std::min name either).
  std::vector<std::pair<unsigned, llvm::DenseSet<unsigned>>> ElementReferences;
  Order.enter(Node, 0);
  for (unsigned I = 0; I < Def->getNumParams() && I < E->getNumArgs(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    const Expr *Arg = E->getArg(I);
    QualType PT = P->getType();
    if (stencilc::frontend::indexDims(PT)) {
      // The index by value: the argument is a copy of the caller's index
      // (of a copy, written Index3D(idx) ...).
      const Expr *IndexArg = Arg->IgnoreParenCasts();
      while (const auto *Copy = dyn_cast<CXXConstructExpr>(IndexArg)) {
        if (Copy->getNumArgs() != 1 ||
            !Copy->getConstructor()->isCopyOrMoveConstructor())
          break;
        IndexArg = Copy->getArg(0)->IgnoreParenCasts();
      }
      std::optional<Binding> B = lookup(IndexArg);
      if (B && B->Kind == Binding::Index) {
        Callee.Vars[P] = *B;
        continue;
      }
    } else if (stencilc::frontend::arrayElementType(PT)) {
      std::optional<Binding> B = lookup(Arg);
      if (B && B->Kind == Binding::Array) {
        Callee.Vars[P] = *B;
        continue;
      }
      if (isa<BinaryOperator>(Arg->IgnoreParenImpCasts())) {
        (void)lowerExpr(Arg, Out); // reports the pointer arithmetic
        Ok = false;
        continue;
      }
    } else if (std::optional<ir::Type> Ty =
                   stencilc::frontend::toScalarType(PT.getNonReferenceType());
               Ty && (!PT->isReferenceType() ||
                      PT.getNonReferenceType().isConstQualified())) {
      // Scalars (also const T&) become locals initialised with the argument.
      const std::size_t Reads = Order.readMark();
      ExprRef V = lowerExpr(Arg, Out);
      if (!V) {
        Ok = false;
        continue;
      }
      // The local is a copy: exact unless the helper writes the element.
      if (bindsObject(P, Arg))
        ElementReferences.push_back({I, Order.readsSince(Reads)});
      unsigned Local = addLocal(P->getName(), *Ty);
      Out.push_back(std::make_shared<ir::LocalDeclStmt>(
          Local, castTo(*Ty, V, Arg->getSourceRange()),
          toIRRange(Arg->getSourceRange())));
      Callee.Vars[P] = {Binding::Local, Local};
      continue;
    }
    error(
        DiagId::err_helper_param, Arg,
        {P->getNameAsString(), Name, PT.getAsString(Ctx.getPrintingPolicy())});
    Ok = false;
  }
  Order.leave();
  if (!Ok)
    return nullptr;

  ExprRef Result;
  if (!Def->getReturnType()->isVoidType()) {
    std::optional<ir::Type> Ty =
        stencilc::frontend::toScalarType(Def->getReturnType());
    if (!Ty) {
      error(DiagId::err_unsupported_type, E,
            {Def->getReturnType().getAsString(Ctx.getPrintingPolicy())});
      return nullptr;
    }
    unsigned Local = addLocal(Name + "_result", *Ty);
    Out.push_back(std::make_shared<ir::LocalDeclStmt>(
        Local, nullptr, toIRRange(E->getSourceRange())));
    Callee.Result = Local;
    Result = localRef(Local, E->getSourceRange());
  }
  Frames.push_back(std::move(Callee));
  Order.enter(Node, 1, /*CallBody=*/true);
  if (const auto *Try = dyn_cast<CXXTryStmt>(Def->getBody()))
    error(DiagId::err_function_try_block, Try->getSourceRange(),
          {Def->getQualifiedNameAsString()});
  else
    lowerTail(Def->getBody(), Body);
  Order.leave();
  Frames.pop_back();
  for (const auto &[Param, Arrays] : ElementReferences)
    for (unsigned Array = 0; Array < S.Params.size(); ++Array)
      if (Arrays.contains(Array) && Order.callWrites(Node, Array)) {
        error(DiagId::err_helper_reference_written, E->getArg(Param),
              {Def->getParamDecl(Param)->getNameAsString(), Name,
               S.Params[Array].Name});
        break;
      }
  Out.insert(Out.end(), Body.begin(), Body.end());
  return Result;
}

bool stencilc::frontend::lowerBody(ASTContext &Ctx, const FunctionDecl *FD,
                                   ir::Stencil &S, DiagnosticSink &Diags) {
  return BodyLowering(Ctx, S, Diags).run(FD);
}
