//===- Expr.cpp - Expressions of the stencil IR ---------------------------===//
#include "stencilc/IR/Expr.h"
#include <cstdint>

using namespace stencilc::ir;

Expr::~Expr() = default;

namespace {
struct MathFuncInfo {
  const char *Name;
  unsigned Arity;
  /// False where the result is exact (fabs, floor, min...).
  bool Rounds;
};
} // namespace

static const MathFuncInfo MathFuncs[] = {
    {"sqrt", 1, true},      {"cbrt", 1, true},     {"exp", 1, true},
    {"exp2", 1, true},      {"expm1", 1, true},    {"log", 1, true},
    {"log2", 1, true},      {"log10", 1, true},    {"log1p", 1, true},
    {"pow", 2, true},       {"sin", 1, true},      {"cos", 1, true},
    {"tan", 1, true},       {"asin", 1, true},     {"acos", 1, true},
    {"atan", 1, true},      {"atan2", 2, true},    {"sinh", 1, true},
    {"cosh", 1, true},      {"tanh", 1, true},     {"fabs", 1, false},
    {"floor", 1, false},    {"ceil", 1, false},    {"trunc", 1, false},
    {"round", 1, false},    {"fmod", 2, false},    {"fmin", 2, false},
    {"fmax", 2, false},     {"hypot", 2, true},    {"fma", 3, true},
    {"copysign", 2, false}, {"isnan", 1, false},   {"isinf", 1, false},
    {"isfinite", 1, false}, {"signbit", 1, false}, {"abs", 1, false},
    {"min", 2, false},      {"max", 2, false}};

unsigned stencilc::ir::mathFuncArity(MathFunc F) {
  return MathFuncs[static_cast<unsigned>(F)].Arity;
}

const char *stencilc::ir::mathFuncName(MathFunc F) {
  return MathFuncs[static_cast<unsigned>(F)].Name;
}

bool stencilc::ir::mathFuncRounds(MathFunc F) {
  return MathFuncs[static_cast<unsigned>(F)].Rounds;
}

bool stencilc::ir::mathFuncClassifies(MathFunc F) {
  return F == MathFunc::IsNan || F == MathFunc::IsInf ||
         F == MathFunc::IsFinite || F == MathFunc::SignBit;
}

bool stencilc::ir::isComparisonOrLogical(BinaryOp Op) {
  switch (Op) {
  case BinaryOp::LT:
  case BinaryOp::GT:
  case BinaryOp::LE:
  case BinaryOp::GE:
  case BinaryOp::EQ:
  case BinaryOp::NE:
  case BinaryOp::LAnd:
  case BinaryOp::LOr:
    return true;
  default:
    return false;
  }
}

const char *stencilc::ir::opSpelling(BinaryOp Op) {
  switch (Op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::Rem:
    return "%";
  case BinaryOp::Shl:
    return "<<";
  case BinaryOp::Shr:
    return ">>";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::LT:
    return "<";
  case BinaryOp::GT:
    return ">";
  case BinaryOp::LE:
    return "<=";
  case BinaryOp::GE:
    return ">=";
  case BinaryOp::EQ:
    return "==";
  case BinaryOp::NE:
    return "!=";
  case BinaryOp::LAnd:
    return "&&";
  case BinaryOp::LOr:
    return "||";
  }
  return "?";
}

const char *stencilc::ir::opSpelling(UnaryOp Op) {
  switch (Op) {
  case UnaryOp::Neg:
    return "-";
  case UnaryOp::Plus:
    return "+";
  case UnaryOp::LNot:
    return "!";
  case UnaryOp::BitNot:
    return "~";
  }
  return "?";
}

std::optional<float> stencilc::ir::floatConstantValue(const Expr &E) {
  const Expr *Value = &E;
  if (const auto *C = llvm::dyn_cast<CastExpr>(Value);
      C && C->type().kind() == ScalarKind::Float32)
    Value = C->Operand.get();
  // Rounding is symmetric: the negated value converts to the negated float.
  // Not so an unsigned negation, which wraps (-3u is 2^32 - 3).
  if (const auto *U = llvm::dyn_cast<UnaryExpr>(Value);
      U && U->Op == UnaryOp::Neg && U->type().isSigned())
    if (std::optional<float> V = floatConstantValue(*U->Operand))
      return -*V;
  const auto *K = llvm::dyn_cast<ConstantExpr>(Value);
  if (!K)
    return std::nullopt;
  switch (K->type().kind()) {
  case ScalarKind::Float32:
  case ScalarKind::Float64:
    return static_cast<float>(K->FloatValue);
  case ScalarKind::Bool:
  case ScalarKind::Int32:
  case ScalarKind::Int64:
    return static_cast<float>(K->IntValue);
  case ScalarKind::UInt32:
  case ScalarKind::UInt64:
    // Held in IntValue's bits: 2^64 - 1 is -1 there.
    return static_cast<float>(static_cast<std::uint64_t>(K->IntValue));
  }
  return std::nullopt;
}
