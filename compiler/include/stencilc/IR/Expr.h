//===- Expr.h - Expressions of the stencil IR ------------------*- C++ -*-===//
///
/// \file
/// stencilc's own expression IR: immutable nodes shared through ExprRef.
/// Loads name an array parameter and a constant offset; everything else is
/// scalar arithmetic. The order of operations is the source's, so a printed
/// expression computes bit-for-bit what the user's C++ computes.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_IR_EXPR_H
#define STENCILC_IR_EXPR_H

#include "stencilc/Basic/SourceLocation.h"
#include "stencilc/IR/ExactReciprocal.h"
#include "stencilc/IR/Type.h"
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace stencilc::ir {

/// Up to four dimensions, in x, y, z, w order; unused ones are 0.
using Offset = std::array<int, 4>;
constexpr unsigned MaxDims = 4;

enum class ExprKind {
  Constant,
  ParamRef,
  LocalRef,
  Load,
  Coord,
  Unary,
  Binary,
  Select,
  Call,
  Cast
};

class Expr;
using ExprRef = std::shared_ptr<const Expr>;

class Expr {
public:
  virtual ~Expr();
  ExprKind kind() const { return Kind; }
  Type type() const { return Ty; }
  SourceRange range() const { return Range; }

protected:
  Expr(ExprKind Kind, Type Ty, SourceRange Range)
      : Kind(Kind), Ty(Ty), Range(Range) {}

private:
  ExprKind Kind;
  Type Ty;
  SourceRange Range;
};

/// A literal. Integers and bools use IntValue, floating types FloatValue.
class ConstantExpr : public Expr {
public:
  ConstantExpr(Type Ty, std::int64_t IntValue, double FloatValue, SourceRange R)
      : Expr(ExprKind::Constant, Ty, R), IntValue(IntValue),
        FloatValue(FloatValue) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Constant; }
  std::int64_t IntValue;
  double FloatValue;
};

/// A scalar parameter of the stencil (index into Stencil::Params).
class ParamRefExpr : public Expr {
public:
  ParamRefExpr(Type Ty, unsigned Param, SourceRange R)
      : Expr(ExprKind::ParamRef, Ty, R), Param(Param) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::ParamRef; }
  unsigned Param;
};

/// A local variable (index into Stencil::Locals).
class LocalRefExpr : public Expr {
public:
  LocalRefExpr(Type Ty, unsigned Local, SourceRange R)
      : Expr(ExprKind::LocalRef, Ty, R), Local(Local) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::LocalRef; }
  unsigned Local;
};

/// array[idx.ix<Off>()]: a read of an array parameter at a constant offset.
class LoadExpr : public Expr {
public:
  LoadExpr(Type Ty, unsigned Param, Offset Off, SourceRange R)
      : Expr(ExprKind::Load, Ty, R), Param(Param), Off(Off) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Load; }
  unsigned Param;
  Offset Off;
};

/// idx.i(), idx.j(), idx.k(), idx.w(): the point's global coordinate.
class CoordExpr : public Expr {
public:
  CoordExpr(Type Ty, unsigned Dim, SourceRange R)
      : Expr(ExprKind::Coord, Ty, R), Dim(Dim) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Coord; }
  unsigned Dim;
};

enum class UnaryOp { Neg, Plus, LNot, BitNot };

class UnaryExpr : public Expr {
public:
  UnaryExpr(Type Ty, UnaryOp Op, ExprRef Operand, SourceRange R)
      : Expr(ExprKind::Unary, Ty, R), Op(Op), Operand(std::move(Operand)) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Unary; }
  UnaryOp Op;
  ExprRef Operand;
};

enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  BitAnd,
  BitOr,
  BitXor,
  LT,
  GT,
  LE,
  GE,
  EQ,
  NE,
  LAnd,
  LOr
};

class BinaryExpr : public Expr {
public:
  BinaryExpr(Type Ty, BinaryOp Op, ExprRef LHS, ExprRef RHS, SourceRange R)
      : Expr(ExprKind::Binary, Ty, R), Op(Op), LHS(std::move(LHS)),
        RHS(std::move(RHS)) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Binary; }
  BinaryOp Op;
  ExprRef LHS, RHS;
  /// A float division by a constant: the split reciprocal that computes it
  /// exactly as a product (ExactReciprocal.h), where one does.
  std::optional<ExactReciprocal> Reciprocal;
};

/// Cond ? TrueValue : FalseValue (only the chosen side is evaluated).
class SelectExpr : public Expr {
public:
  SelectExpr(Type Ty, ExprRef Cond, ExprRef TrueValue, ExprRef FalseValue,
             SourceRange R)
      : Expr(ExprKind::Select, Ty, R), Cond(std::move(Cond)),
        TrueValue(std::move(TrueValue)), FalseValue(std::move(FalseValue)) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Select; }
  ExprRef Cond, TrueValue, FalseValue;
};

/// The math functions a stencil may call. Each is computed in the call's type
/// (sqrt on a float is sqrtf).
enum class MathFunc {
  Sqrt,
  Cbrt,
  Exp,
  Exp2,
  Expm1,
  Log,
  Log2,
  Log10,
  Log1p,
  Pow,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Atan2,
  Sinh,
  Cosh,
  Tanh,
  Fabs,
  Floor,
  Ceil,
  Trunc,
  Round,
  Fmod,
  Fmin,
  Fmax,
  Hypot,
  Fma,
  Copysign,
  IsNan,
  IsInf,
  IsFinite,
  SignBit,
  Abs,
  Min,
  Max
};
/// Number of arguments, and the C name of the double version ("sqrt").
unsigned mathFuncArity(MathFunc F);
const char *mathFuncName(MathFunc F);
/// False for the functions whose result is exact (fabs, floor, min...).
bool mathFuncRounds(MathFunc F);
/// True for the classification functions (isnan, isinf, isfinite, signbit):
/// a bool of their argument, computed in the argument's own type.
bool mathFuncClassifies(MathFunc F);

class CallExpr : public Expr {
public:
  CallExpr(Type Ty, MathFunc Func, std::vector<ExprRef> Args, SourceRange R)
      : Expr(ExprKind::Call, Ty, R), Func(Func), Args(std::move(Args)) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Call; }
  MathFunc Func;
  /// Each argument in the type of the callee's parameter.
  std::vector<ExprRef> Args;
  /// The function the source called, qualified from the global namespace
  /// ("::powf", "::std::pow"), where it rounds; empty for the exact ones
  /// and for calls stencilc makes. GCC folds and inlines by the spelling
  /// (powf(x, -1.0f) is 1 / x at -O0, std::pow's template a call of powf),
  /// so the host's backends call what the source called.
  std::string Callee;
};

/// A conversion to this expression's type (C++ conversion rules).
class CastExpr : public Expr {
public:
  CastExpr(Type Ty, ExprRef Operand, SourceRange R)
      : Expr(ExprKind::Cast, Ty, R), Operand(std::move(Operand)) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Cast; }
  ExprRef Operand;
};

/// True for comparisons and logical operators (result is bool).
bool isComparisonOrLogical(BinaryOp Op);
/// The C++ spelling of an operator ("+", "<=", "&&", ...).
const char *opSpelling(BinaryOp Op);
const char *opSpelling(UnaryOp Op);

/// The value as a float of a constant, of a negated one (`-0.1f`), or of a
/// constant converted to float (the divisor of `x / 6` in float), as the
/// conversion rounds it; nothing for any other expression. A float division
/// by such a value is what BinaryExpr::Reciprocal is sought for.
std::optional<float> floatConstantValue(const Expr &E);

/// Calls \p Fn on \p E and every sub-expression, parents first.
template <typename Fn> void walkExpr(const Expr &E, Fn &&Callback);

} // namespace stencilc::ir

#include "stencilc/IR/ExprWalk.h"

#endif // STENCILC_IR_EXPR_H
