//===- BodyPrinter.cpp - A stencil's body as C++ statements ---------------===//
#include "stencilc/CodeGen/BodyPrinter.h"
#include "llvm/Support/Casting.h"
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>

using namespace stencilc;
using namespace stencilc::codegen;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

BodyPrinterHooks::~BodyPrinterHooks() = default;

std::string BodyPrinterHooks::printLoad(unsigned /*Param*/,
                                        const ir::Offset & /*Off*/,
                                        const std::string &Memory) const {
  return Memory;
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// Identifiers the generated code defines or calls around and inside a body;
/// user names that equal one of them get renamed.
static const char *const ReservedNames[] = {
    // Kernel, loop nest and launcher.
    "g", "r", "v", "cfg", "args", "c", "i", "j", "k", "w", "sy", "sz", "sw",
    "nx", "ny", "nz", "nw", "gx", "gy", "gz", "zblocks", "block", "grid", "err",
    // A temporal pass's kernel (its template parameters too) and launchers.
    "STEPS", "BX", "BY", "gm", "m0", "m1", "chunk", "steps", "margins",
    "shared", "stream", "kernel",
    // Namespaces, helpers and CUDA built-ins the generated code names.
    "std", "stencil", "stencilc_generated", "stencilc_min", "stencilc_max",
    "stencilc_from_integer", "threadIdx", "blockIdx", "blockDim", "gridDim",
    "dim3", "cudaStream_t", "cudaError_t", "cudaSuccess", "cudaGetLastError",
    "cudaGetErrorString", "abs", "llabs", "min", "max"};

BodyNames::BodyNames(const ir::Stencil &S) {
  std::set<std::string> Taken(std::begin(ReservedNames),
                              std::end(ReservedNames));
  // CUDA calls math functions unqualified: "sqrt", "sqrtf", ...
  for (unsigned F = 0; F <= static_cast<unsigned>(ir::MathFunc::Max); ++F) {
    std::string Name = ir::mathFuncName(static_cast<ir::MathFunc>(F));
    Taken.insert(Name);
    Taken.insert(Name + "f");
  }
  auto Unique = [&Taken](std::string Name) {
    // The generated code's own names begin so (stencilc_side<N>, the values
    // of an if printed as selects; a staged group's rings and tile).
    if (Name.rfind("stencilc_", 0) == 0)
      Name = "u_" + Name;
    while (Taken.count(Name))
      Name += '_';
    Taken.insert(Name);
    return Name;
  };
  for (const ir::Param &P : S.Params)
    Params.push_back(Unique(P.Name));
  for (const ir::Local &L : S.Locals)
    Locals.push_back(Unique(L.Name));
}

//===----------------------------------------------------------------------===//
// Scanning
//===----------------------------------------------------------------------===//

/// True if \p C converts an integer that is not a constant to a floating
/// type (see BodyPrinterHooks::guardsIntegerConversions).
static bool convertsIntegerValue(const ir::CastExpr &C) {
  return C.type().isFloat() && !C.Operand->type().isFloat() &&
         !isa<ir::ConstantExpr>(*C.Operand);
}

BodyUses codegen::scanBody(const ir::Stencil &S) {
  BodyUses Uses;
  Uses.Params.assign(S.Params.size(), false);
  if (!S.Body)
    return Uses;
  auto OnExpr = [&Uses](const ir::Expr &Top) {
    ir::walkExpr(Top, [&Uses](const ir::Expr &E) {
      if (const auto *P = dyn_cast<ir::ParamRefExpr>(&E))
        Uses.Params[P->Param] = true;
      else if (const auto *L = dyn_cast<ir::LoadExpr>(&E))
        Uses.Params[L->Param] = true;
      else if (const auto *C = dyn_cast<ir::CallExpr>(&E)) {
        if (C->Func == ir::MathFunc::Min || C->Func == ir::MathFunc::Max)
          Uses.MinMax = true;
        else
          Uses.MathCalls = true;
      } else if (const auto *B = dyn_cast<ir::BinaryExpr>(&E)) {
        Uses.ExactDivisions |= B->Reciprocal.has_value();
      } else if (const auto *C = dyn_cast<ir::CastExpr>(&E)) {
        Uses.IntegerConversions |= convertsIntegerValue(*C);
      }
    });
  };
  auto OnStmt = [&Uses](const ir::Stmt &St) {
    if (const auto *Store = dyn_cast<ir::StoreStmt>(&St))
      Uses.Params[Store->Param] = true;
  };
  ir::walkStmt(*S.Body, OnStmt, OnExpr);
  return Uses;
}

//===----------------------------------------------------------------------===//
// Literals and indices
//===----------------------------------------------------------------------===//

static std::string parenthesiseNegative(std::string Text) {
  return Text[0] == '-' ? "(" + Text + ")" : Text;
}

static std::string printFloat(ir::Type Ty, double Value) {
  const bool F32 = Ty.kind() == ir::ScalarKind::Float32;
  if (std::isnan(Value)) {
    std::string NaN = F32 ? "__builtin_nanf(\"\")" : "__builtin_nan(\"\")";
    return std::signbit(Value) ? "(-" + NaN + ")" : NaN;
  }
  if (std::isinf(Value)) {
    std::string Inf = F32 ? "__builtin_huge_valf()" : "__builtin_huge_val()";
    return Value < 0 ? "(-" + Inf + ")" : Inf;
  }
  // fmt prints the shortest text that reads back as the same value.
  std::string Text = F32 ? fmt::format("{}", static_cast<float>(Value))
                         : fmt::format("{}", Value);
  if (Text.find_first_of(".e") == std::string::npos)
    Text += ".0";
  if (F32)
    Text += 'f';
  return parenthesiseNegative(Text);
}

std::string codegen::printConstant(ir::Type Ty, std::int64_t IntValue,
                                   double FloatValue) {
  switch (Ty.kind()) {
  case ir::ScalarKind::Bool:
    return IntValue ? "true" : "false";
  case ir::ScalarKind::Int32: {
    auto V = static_cast<std::int32_t>(IntValue);
    if (V == std::numeric_limits<std::int32_t>::min())
      return "(-2147483647 - 1)";
    return parenthesiseNegative(std::to_string(V));
  }
  case ir::ScalarKind::UInt32:
    return std::to_string(static_cast<std::uint32_t>(IntValue)) + "U";
  case ir::ScalarKind::Int64:
    if (IntValue == std::numeric_limits<std::int64_t>::min())
      return "(-9223372036854775807LL - 1)";
    return parenthesiseNegative(std::to_string(IntValue) + "LL");
  case ir::ScalarKind::UInt64:
    return std::to_string(static_cast<std::uint64_t>(IntValue)) + "ULL";
  case ir::ScalarKind::Float32:
  case ir::ScalarKind::Float64:
    return printFloat(Ty, FloatValue);
  }
  return "0";
}

std::string codegen::printLinearIndex(const ir::Offset &Off, unsigned Dims) {
  static const char *const Strides[] = {"", "sy", "sz", "sw"};
  std::string Out = "c";
  for (unsigned D = 0; D < Dims && D < ir::MaxDims; ++D) {
    long long Delta = Off[D];
    if (Delta == 0)
      continue;
    Out += Delta < 0 ? " - " : " + ";
    long long Magnitude = Delta < 0 ? -Delta : Delta;
    if (D == 0)
      Out += std::to_string(Magnitude);
    else if (Magnitude == 1)
      Out += Strides[D];
    else
      Out += fmt::format("{} * {}", Magnitude, Strides[D]);
  }
  return Out;
}

const PositionNames codegen::PointPositions = {"i", "j", "k", "w"};

std::string codegen::printArrayIndex(const ir::Param &P, const ir::Offset &Off,
                                     unsigned Dims,
                                     const PositionNames &Positions) {
  if (!ir::isLowerRank(P, Dims))
    return printLinearIndex(Off, Dims);
  // x-first dimensions share the full arrays' strides; others multiply the
  // extents of the dimensions below them in the array.
  static const char *const PrefixStrides[] = {"", "sy", "sz", "sw"};
  const unsigned Axes = ir::arrayAxes(P, Dims);
  std::string Out, Stride;
  bool Prefix = true;
  unsigned Rank = 0;
  for (unsigned D = 0; D < Dims; ++D) {
    if (!((Axes >> D) & 1))
      continue;
    Prefix &= D == Rank;
    const long long Delta = Off[D];
    std::string Term = Positions[D];
    if (Delta)
      Term += fmt::format(" {} {}", Delta < 0 ? '-' : '+',
                          Delta < 0 ? -Delta : Delta);
    if (Rank == 0) {
      Out = Term;
    } else {
      const std::string &S = Prefix ? PrefixStrides[Rank] : Stride;
      Out += fmt::format(" + {} * {}", Delta ? "(" + Term + ")" : Term, S);
    }
    Stride = Stride.empty() ? fmt::format("g.extent[{}]", D)
                            : fmt::format("{} * g.extent[{}]", Stride, D);
    ++Rank;
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

namespace {

class ExprPrinter {
public:
  ExprPrinter(const ir::Stencil &S, const BodyNames &Names,
              const BodyPrinterHooks &Hooks)
      : S(S), Names(Names), Hooks(Hooks) {}

  /// \p Top: the expression stands alone (a statement's right-hand side, a
  /// condition, an argument), so its outermost parentheses are left out.
  std::string print(const ir::Expr &E, bool Top = false) const;

private:
  std::string printCall(const ir::CallExpr &C) const;
  std::string wrap(std::string Text, bool Top) const {
    return Top ? Text : "(" + Text + ")";
  }

  const ir::Stencil &S;
  const BodyNames &Names;
  const BodyPrinterHooks &Hooks;
};

} // namespace

std::string ExprPrinter::print(const ir::Expr &E, bool Top) const {
  switch (E.kind()) {
  case ir::ExprKind::Constant: {
    const auto *C = cast<ir::ConstantExpr>(&E);
    std::string Text = printConstant(C->type(), C->IntValue, C->FloatValue);
    // "(-1.5f)" needs no parentheses where it stands alone.
    if (Top && Text.size() > 2 && Text.front() == '(' && Text[1] == '-' &&
        Text.find('(', 1) == std::string::npos)
      return Text.substr(1, Text.size() - 2);
    return Text;
  }
  case ir::ExprKind::ParamRef:
    return Names.param(cast<ir::ParamRefExpr>(&E)->Param);
  case ir::ExprKind::LocalRef:
    return Names.local(cast<ir::LocalRefExpr>(&E)->Local);
  case ir::ExprKind::Load: {
    const auto *L = cast<ir::LoadExpr>(&E);
    return Hooks.printLoad(
        L->Param, L->Off,
        fmt::format("{}[{}]", Names.param(L->Param),
                    printArrayIndex(S.Params[L->Param], L->Off, S.Dims)));
  }
  case ir::ExprKind::Coord: {
    static const char *const Positions[] = {"i", "j", "k", "w"};
    unsigned Dim = cast<ir::CoordExpr>(&E)->Dim;
    // As Index::i(): origin plus position, converted to int.
    return fmt::format("static_cast<int>(g.origin[{}] + {})", Dim,
                       Positions[Dim]);
  }
  case ir::ExprKind::Unary: {
    const auto *U = cast<ir::UnaryExpr>(&E);
    return wrap(ir::opSpelling(U->Op) + print(*U->Operand), Top);
  }
  case ir::ExprKind::Binary: {
    const auto *B = cast<ir::BinaryExpr>(&E);
    if (B->Reciprocal && Hooks.exactReciprocals()) {
      const ir::Type F32(ir::ScalarKind::Float32);
      const ir::ExactReciprocal &R = *B->Reciprocal;
      const std::string Smallest =
          R.LeastDividend > 0 ? Hooks.smallestDividend() : "";
      // The divisor, a constant, is not printed where the product alone is.
      if (!Smallest.empty())
        return fmt::format("stencilc_divide_or({}, {}, {}, {})",
                           print(*B->LHS, /*Top=*/true),
                           printConstant(F32, 0, R.High),
                           printConstant(F32, 0, R.Low), Smallest);
      return fmt::format(
          "stencilc_divide({}, {}, {}, {}, {})", print(*B->LHS, /*Top=*/true),
          print(*B->RHS, /*Top=*/true), printConstant(F32, 0, R.High),
          printConstant(F32, 0, R.Low), printConstant(F32, 0, R.Least));
    }
    return wrap(fmt::format("{} {} {}", print(*B->LHS), ir::opSpelling(B->Op),
                            print(*B->RHS)),
                Top);
  }
  case ir::ExprKind::Select: {
    const auto *Sel = cast<ir::SelectExpr>(&E);
    return wrap(fmt::format("{} ? {} : {}", print(*Sel->Cond),
                            print(*Sel->TrueValue), print(*Sel->FalseValue)),
                Top);
  }
  case ir::ExprKind::Call:
    return printCall(*cast<ir::CallExpr>(&E));
  case ir::ExprKind::Cast: {
    const auto *C = cast<ir::CastExpr>(&E);
    const bool Guarded =
        Hooks.guardsIntegerConversions() && convertsIntegerValue(*C);
    return fmt::format("{}<{}>({})",
                       Guarded ? "stencilc_from_integer" : "static_cast",
                       C->type().cppName(), print(*C->Operand, /*Top=*/true));
  }
  }
  return "0";
}

std::string ExprPrinter::printCall(const ir::CallExpr &C) const {
  ir::Type Ty = C.type();
  std::string Args;
  if (C.Func == ir::MathFunc::Min || C.Func == ir::MathFunc::Max) {
    // The explicit template argument converts both operands like std::min<T>.
    for (const ir::ExprRef &A : C.Args)
      Args += (Args.empty() ? "" : ", ") + print(*A, /*Top=*/true);
    return fmt::format("{}<{}>({})",
                       C.Func == ir::MathFunc::Min ? "stencilc_min"
                                                   : "stencilc_max",
                       Ty.cppName(), Args);
  }
  if (ir::mathFuncClassifies(C.Func)) {
    // A bool of the argument, in the argument's own type.
    const ir::Expr &A = *C.Args.front();
    return fmt::format("{}({})", Hooks.mathCallee(C.Func, A.type()),
                       print(A, /*Top=*/true));
  }
  if (Hooks.callsAsWritten() && !C.Callee.empty()) {
    for (const ir::ExprRef &A : C.Args)
      Args += (Args.empty() ? "" : ", ") + print(*A, /*Top=*/true);
    return fmt::format("{}({})", C.Callee, Args);
  }
  // The call is computed in its own type: an argument of another type is
  // converted first, so the overload (or f-suffixed function) matches.
  for (const ir::ExprRef &A : C.Args) {
    std::string Arg = print(*A, /*Top=*/true);
    if (A->type() != Ty)
      Arg = fmt::format("static_cast<{}>({})", Ty.cppName(), Arg);
    Args += (Args.empty() ? "" : ", ") + Arg;
  }
  return fmt::format("{}({})", Hooks.mathCallee(C.Func, Ty), Args);
}

std::string codegen::printExpression(const ir::Stencil &S,
                                     const BodyNames &Names,
                                     const BodyPrinterHooks &Hooks,
                                     const ir::Expr &E) {
  return ExprPrinter(S, Names, Hooks).print(E, /*Top=*/true);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

namespace {

class StmtPrinter {
public:
  StmtPrinter(const ir::Stencil &S, const BodyNames &Names,
              const BodyPrinterHooks &Hooks, CodeWriter &W)
      : S(S), Names(Names), Hooks(Hooks), Exprs(S, Names, Hooks), W(W) {
    if (S.Body)
      ir::walkStmt(
          *S.Body, [](const ir::Stmt &) {},
          [this](const ir::Expr &Top) {
            ir::walkExpr(Top, [this](const ir::Expr &E) {
              if (const auto *L = dyn_cast<ir::LocalRefExpr>(&E))
                Read.insert(L->Local);
            });
          });
  }

  void print(const ir::Stmt &St);
  /// A block's statements without braces (the caller prints them).
  void printInner(const ir::Stmt &St);

private:
  void printIf(const ir::IfStmt &If, bool Chained);
  bool printIfAsSelects(const ir::IfStmt &If);
  bool cannotTrap(const ir::Expr &E) const;
  void printFor(const ir::ForStmt &F);
  /// Attributes the next line to \p St's line in the user's source.
  void mapLine(const ir::Stmt &St) {
    auto It = S.StmtLines.find(St.range().Begin);
    if (It != S.StmtLines.end())
      W.mapLine(It->second);
  }
  std::string expr(const ir::ExprRef &E) const { return Exprs.print(*E, true); }

  const ir::Stencil &S;
  const BodyNames &Names;
  const BodyPrinterHooks &Hooks;
  ExprPrinter Exprs;
  CodeWriter &W;
  /// Locals that hold a value wherever they are read from here on: declared
  /// with an initialiser, or the counters of the loops being printed.
  std::set<unsigned> Initialised;
  /// Constants printIfAsSelects has named (stencilc_side0, ...).
  unsigned SideValues = 0;
  /// Locals some expression reads: the others (a helper's parameter a
  /// branch leaves unused) are declared [[maybe_unused]], so that the
  /// user's -Wall -Werror, which the generated code is compiled with, holds.
  std::set<unsigned> Read;
};

} // namespace

void StmtPrinter::printInner(const ir::Stmt &St) {
  if (const auto *B = dyn_cast<ir::BlockStmt>(&St)) {
    for (const ir::StmtRef &Child : B->Body)
      print(*Child);
    return;
  }
  print(St);
}

void StmtPrinter::print(const ir::Stmt &St) {
  // A loop's line is its header's, after the unroll pragma.
  if (St.kind() != ir::StmtKind::Block && St.kind() != ir::StmtKind::For)
    mapLine(St);
  switch (St.kind()) {
  case ir::StmtKind::Block:
    // A nested block keeps its own scope, as in the source.
    W.open("{");
    printInner(St);
    W.close();
    return;
  case ir::StmtKind::LocalDecl: {
    const auto *D = cast<ir::LocalDeclStmt>(&St);
    const char *Ty = S.Locals[D->Local].Ty.cppName();
    if (D->Init)
      Initialised.insert(D->Local);
    const char *Unused = Read.count(D->Local) ? "" : "[[maybe_unused]] ";
    if (D->Init)
      W.line("{}{} {} = {};", Unused, Ty, Names.local(D->Local), expr(D->Init));
    else
      W.line("{}{} {};", Unused, Ty, Names.local(D->Local));
    return;
  }
  case ir::StmtKind::Assign: {
    const auto *A = cast<ir::AssignStmt>(&St);
    W.line("{} = {};", Names.local(A->Local), expr(A->Value));
    return;
  }
  case ir::StmtKind::Store: {
    const auto *Store = cast<ir::StoreStmt>(&St);
    W.line("{} = {};",
           Hooks.storeTarget(Store->Param, Names.param(Store->Param) + "[c]"),
           expr(Store->Value));
    return;
  }
  case ir::StmtKind::If:
    printIf(*cast<ir::IfStmt>(&St), /*Chained=*/false);
    return;
  case ir::StmtKind::For:
    printFor(*cast<ir::ForStmt>(&St));
    return;
  }
}

/// True if evaluating \p E where the source would not cannot trap, overflow
/// a signed integer, convert out of range or set errno, so it may be
/// evaluated on both sides of a select. Loads stay within the halo, which the
/// runtime checks before launching.
bool StmtPrinter::cannotTrap(const ir::Expr &E) const {
  switch (E.kind()) {
  case ir::ExprKind::Constant:
  case ir::ExprKind::ParamRef:
  case ir::ExprKind::Load:
  case ir::ExprKind::Coord:
    return true;
  case ir::ExprKind::LocalRef:
    // An uninitialised local must not be read on the side not taken.
    return Initialised.count(cast<ir::LocalRefExpr>(&E)->Local) != 0;
  case ir::ExprKind::Unary: {
    const auto *U = cast<ir::UnaryExpr>(&E);
    if (U->Op == ir::UnaryOp::Neg && U->type().isInteger() &&
        U->type().isSigned())
      return false;
    return cannotTrap(*U->Operand);
  }
  case ir::ExprKind::Binary: {
    const auto *B = cast<ir::BinaryExpr>(&E);
    if (B->LHS->type().isInteger() || B->RHS->type().isInteger()) {
      switch (B->Op) {
      case ir::BinaryOp::Div:
      case ir::BinaryOp::Rem:
      case ir::BinaryOp::Shl:
      case ir::BinaryOp::Shr:
        return false;
      case ir::BinaryOp::Add:
      case ir::BinaryOp::Sub:
      case ir::BinaryOp::Mul:
        if (B->type().isSigned())
          return false;
        break;
      default:
        break;
      }
    }
    return cannotTrap(*B->LHS) && cannotTrap(*B->RHS);
  }
  case ir::ExprKind::Select: {
    const auto *Sel = cast<ir::SelectExpr>(&E);
    return cannotTrap(*Sel->Cond) && cannotTrap(*Sel->TrueValue) &&
           cannotTrap(*Sel->FalseValue);
  }
  case ir::ExprKind::Call: {
    const auto *C = cast<ir::CallExpr>(&E);
    switch (C->Func) {
    case ir::MathFunc::Min:
    case ir::MathFunc::Max:
      break;
    case ir::MathFunc::Fabs:
    case ir::MathFunc::Floor:
    case ir::MathFunc::Ceil:
    case ir::MathFunc::Trunc:
    case ir::MathFunc::Fmin:
    case ir::MathFunc::Fmax:
    case ir::MathFunc::Copysign:
      if (!C->type().isFloat())
        return false;
      break;
    case ir::MathFunc::IsNan:
    case ir::MathFunc::IsInf:
    case ir::MathFunc::IsFinite:
    case ir::MathFunc::SignBit:
      break; // of a float: never traps

    default:
      return false; // may set errno, or abs of the most negative integer
    }
    for (const ir::ExprRef &A : C->Args)
      if (!cannotTrap(*A))
        return false;
    return true;
  }
  case ir::ExprKind::Cast: {
    const auto *C = cast<ir::CastExpr>(&E);
    // A floating value out of an integer's range is undefined behaviour.
    if (C->Operand->type().isFloat() && !C->type().isFloat())
      return false;
    return cannotTrap(*C->Operand);
  }
  }
  return false;
}

/// Collects \p St's statements (through blocks) into \p Out if all are
/// assignments or stores.
static bool collectAssignments(const ir::Stmt *St,
                               std::vector<const ir::Stmt *> &Out) {
  if (!St)
    return true;
  if (const auto *B = dyn_cast<ir::BlockStmt>(St)) {
    for (const ir::StmtRef &Child : B->Body)
      if (!collectAssignments(Child.get(), Out))
        return false;
    return true;
  }
  if (!isa<ir::AssignStmt>(St) && !isa<ir::StoreStmt>(St))
    return false;
  Out.push_back(St);
  return true;
}

/// The target of an assignment or store: a local, or an array (offset by
/// the number of locals).
static unsigned targetOf(const ir::Stencil &S, const ir::Stmt *St) {
  if (const auto *A = dyn_cast<ir::AssignStmt>(St))
    return A->Local;
  return S.Locals.size() + cast<ir::StoreStmt>(St)->Param;
}

static const ir::Expr &valueOf(const ir::Stmt *St) {
  if (const auto *A = dyn_cast<ir::AssignStmt>(St))
    return *A->Value;
  return *cast<ir::StoreStmt>(St)->Value;
}

/// True if \p E reads a target in \p Targets (a local, or any element of
/// a stored array).
static bool readsTarget(const ir::Stencil &S, const ir::Expr &E,
                        const std::set<unsigned> &Targets) {
  bool Reads = false;
  ir::walkExpr(E, [&](const ir::Expr &X) {
    if (const auto *L = dyn_cast<ir::LocalRefExpr>(&X))
      Reads |= Targets.count(L->Local) != 0;
    else if (const auto *Ld = dyn_cast<ir::LoadExpr>(&X))
      Reads |= Targets.count(S.Locals.size() + Ld->Param) != 0;
  });
  return Reads;
}

/// Prints \p If as selects if that computes the same (see selectsForIfs):
/// branches of at most MaxSelects assignments and stores, each value and the
/// condition unable to trap. Matching branches (the same targets in the same
/// order, no value reading a target) become "t = cond ? a : b;"; otherwise
/// each statement in order becomes "t = cond ? v : t;" (or "cond ? t : v"),
/// reading the target's current value, so the condition must not read a
/// target and every local target must already hold a value.
bool StmtPrinter::printIfAsSelects(const ir::IfStmt &If) {
  constexpr size_t MaxSelects = 8;
  std::vector<const ir::Stmt *> Then, Else;
  if (!collectAssignments(If.Then.get(), Then) ||
      !collectAssignments(If.Else.get(), Else) ||
      Then.size() + Else.size() > MaxSelects || !cannotTrap(*If.Cond))
    return false;
  std::set<unsigned> Targets;
  for (const std::vector<const ir::Stmt *> *Side : {&Then, &Else})
    for (const ir::Stmt *St : *Side) {
      // "?:" would convert its operands to a common type first.
      ir::Type Ty = isa<ir::AssignStmt>(St)
                        ? S.Locals[cast<ir::AssignStmt>(St)->Local].Ty
                        : S.Params[cast<ir::StoreStmt>(St)->Param].Ty;
      if (!cannotTrap(valueOf(St)) || valueOf(St).type() != Ty)
        return false;
      Targets.insert(targetOf(S, St));
    }
  auto TargetText = [this](const ir::Stmt *St) {
    if (const auto *A = dyn_cast<ir::AssignStmt>(St))
      return Names.local(A->Local);
    const unsigned Param = cast<ir::StoreStmt>(St)->Param;
    return Hooks.storeTarget(Param, Names.param(Param) + "[c]");
  };
  const std::string Cond = Exprs.print(*If.Cond);
  if (Then.empty() && Else.empty()) {
    // Nothing to select (a switch's empty cases): the condition, which
    // cannot trap, is still read, so what only it reads is not unused.
    W.line("(void)({});", Cond);
    return true;
  }
  // Each side's value goes to a constant first: GCC does not speculate a load
  // that only one arm of "?:" makes (it leaves the loop scalar, "control flow
  // in loop"), but selects between values it has.
  auto Hoist = [this](const ir::Stmt *St) {
    std::string Name = fmt::format("stencilc_side{}", SideValues++);
    W.line("const {} {} = {};", valueOf(St).type().cppName(), Name,
           Exprs.print(valueOf(St), /*Top=*/true));
    return Name;
  };
  bool Paired = Then.size() == Else.size();
  for (size_t I = 0; Paired && I < Then.size(); ++I)
    Paired = targetOf(S, Then[I]) == targetOf(S, Else[I]) &&
             !readsTarget(S, valueOf(Then[I]), Targets) &&
             !readsTarget(S, valueOf(Else[I]), Targets);
  if (Paired) {
    for (size_t I = 0; I < Then.size(); ++I) {
      std::string A = Hoist(Then[I]), B = Hoist(Else[I]);
      W.line("{} = {} ? {} : {};", TargetText(Then[I]), Cond, A, B);
    }
    return true;
  }
  if (readsTarget(S, *If.Cond, Targets))
    return false;
  for (unsigned T : Targets)
    if (T < S.Locals.size() && !Initialised.count(T))
      return false;
  for (const ir::Stmt *St : Then) {
    std::string V = Hoist(St);
    W.line("{0} = {1} ? {2} : {0};", TargetText(St), Cond, V);
  }
  for (const ir::Stmt *St : Else) {
    std::string V = Hoist(St);
    W.line("{0} = {1} ? {0} : {2};", TargetText(St), Cond, V);
  }
  return true;
}

void StmtPrinter::printIf(const ir::IfStmt &If, bool Chained) {
  if (!Chained && Hooks.selectsForIfs() && printIfAsSelects(If))
    return;
  std::string Head = fmt::format("if ({}) {{", expr(If.Cond));
  if (Chained) {
    W.dedent();
    W.open("} else " + Head);
  } else {
    W.open(Head);
  }
  printInner(*If.Then);
  if (If.Else) {
    if (const auto *ElseIf = dyn_cast<ir::IfStmt>(If.Else.get())) {
      mapLine(*ElseIf);
      printIf(*ElseIf, /*Chained=*/true);
      return; // The chained if closed the whole chain.
    }
    W.dedent();
    W.open("} else {");
    printInner(*If.Else);
  }
  W.close();
}

void StmtPrinter::printFor(const ir::ForStmt &F) {
  ir::Type Ty = S.Locals[F.Var].Ty;
  const std::string &Var = Names.local(F.Var);
  auto Literal = [Ty](std::int64_t V) { return printConstant(Ty, V, 0.0); };
  std::string Cond, Step;
  if (!Ty.isSigned())
    // Unsigned counters wrap: stop at the exact end value instead of
    // comparing (the end of a downward loop may be below zero).
    Cond = fmt::format("{} != {}", Var, Literal(F.end()));
  else
    Cond =
        fmt::format("{} {} {}", Var, F.Step < 0 ? ">" : "<", Literal(F.end()));
  if (F.Step == 1)
    Step = "++" + Var;
  else if (F.Step == -1)
    Step = "--" + Var;
  else if (F.Step < 0)
    Step = fmt::format("{} -= {}", Var, Literal(-F.Step));
  else
    Step = fmt::format("{} += {}", Var, Literal(F.Step));
  // Full unrolling of a long loop (up to 2^20 trips are accepted) makes
  // nvcc run for tens of seconds and emit megabytes: unroll those by 4.
  constexpr std::int64_t MaxFullUnroll = 64;
  if (!Hooks.loopPragma().empty() && F.TripCount <= MaxFullUnroll)
    W.line("{}", Hooks.loopPragma());
  else if (!Hooks.loopPragma().empty())
    W.line("{} 4", Hooks.loopPragma());
  mapLine(F);
  W.open(fmt::format("for ({} {} = {}; {}; {}) {{", Ty.cppName(), Var,
                     Literal(F.Begin), Cond, Step));
  Initialised.insert(F.Var);
  printInner(*F.Body);
  Initialised.erase(F.Var);
  W.close();
}

void codegen::printBody(const ir::Stencil &S, const BodyNames &Names,
                        const BodyPrinterHooks &Hooks, CodeWriter &W) {
  if (S.Body)
    StmtPrinter(S, Names, Hooks, W).printInner(*S.Body);
  W.endMappedLines();
}

void codegen::printStrides(CodeWriter &W, unsigned Dims) {
  W.line("const long long sy = g.extent[0];");
  if (Dims >= 3)
    W.line("const long long sz = sy * g.extent[1];");
  if (Dims >= 4)
    W.line("const long long sw = sz * g.extent[2];");
}

std::string codegen::centreIndex(unsigned Dims) {
  std::string Centre = "i + j * sy";
  if (Dims >= 3)
    Centre += " + k * sz";
  if (Dims >= 4)
    Centre += " + w * sw";
  return Centre;
}

void codegen::printPointIndex(CodeWriter &W, unsigned Dims) {
  printStrides(W, Dims);
  // Unused where only arrays of lower rank are read (a recomputed producer).
  W.line("[[maybe_unused]] const long long c = {};", centreIndex(Dims));
}

void codegen::printDivideHelper(CodeWriter &W, bool CheckedProducts) {
  W.line(
      "// x / d for a float constant d, bit for bit: the product by d's split "
      "reciprocal where");
  W.line("// its quotient is at least 'least' (ExactReciprocal.h), the "
         "division elsewhere.");
  W.line("__device__ __forceinline__ float stencilc_divide(float x, float d, "
         "float high, float low, float least) {{ const float q = "
         "__fmaf_rn(x, high, __fmul_rn(x, low)); return fabsf(q) >= least ? "
         "q : __fdiv_rn(x, d); }}");
  if (!CheckedProducts)
    return;
  // A test on x alone, not on q: it does not wait for the product, and
  // costs two instructions a division (the test on q and the zeros' sign
  // took three). Twice the bits less two drops the sign and makes zeros the
  // largest.
  W.line("// The product alone, by a split whose parts share a sign (zeros "
         "and infinities are quotients");
  W.line("// too); 'smallest' keeps the least dividend's bits, twice and "
         "less two (the sign dropped,");
  W.line("// zeros the largest): below the least dividend's so computed, a "
         "product may differ.");
  W.line("__device__ __forceinline__ float stencilc_divide_or(float x, float "
         "high, float low, unsigned &smallest) {{ const unsigned b = "
         "__float_as_uint(x) * 2u - 2u; smallest = b < smallest ? b : "
         "smallest; return __fmaf_rn(x, high, __fmul_rn(x, low)); }}");
}

void codegen::printSmallestDividend(CodeWriter &W) {
  W.line("unsigned stencilc_smallest = 0xffffffffu;");
}

std::string codegen::dividendsMayDiffer(float LeastDividend) {
  std::uint32_t Bits;
  std::memcpy(&Bits, &LeastDividend, sizeof Bits);
  return fmt::format("stencilc_smallest < {:#010x}u", Bits * 2u - 2u);
}

void codegen::printIntegerConversionHelper(CodeWriter &W) {
  W.line("// An integer as a floating value, whose zero is +0 even where GCC "
         "makes (float)(int)x trunc(x).");
  W.line("template <typename T, typename I> inline T stencilc_from_integer(I "
         "v) {{ const T r = static_cast<T>(v); return r == T(0) ? T(0) : r; "
         "}}");
}

void codegen::printMinMaxHelpers(CodeWriter &W, std::string_view Qualifiers) {
  W.line("// min and max exactly as std::min and std::max compute them.");
  W.line("template <typename T> {} T stencilc_min(T a, T b) {{ return b < a ? "
         "b : a; }}",
         Qualifiers);
  W.line("template <typename T> {} T stencilc_max(T a, T b) {{ return a < b ? "
         "b : a; }}",
         Qualifiers);
}
