//===- Expr.cpp - Expressions of the stencil IR ---------------------------===//
#include "stencilc/IR/Expr.h"
#include <cstdint>

using namespace stencilc::ir;

Expr::~Expr() = default;

namespace {
struct MathFuncInfo {
  const char *Name;
  unsigned Arity;
};
} // namespace

static const MathFuncInfo MathFuncs[] = {
    {"sqrt", 1},     {"cbrt", 1},  {"exp", 1},   {"exp2", 1},  {"expm1", 1},
    {"log", 1},      {"log2", 1},  {"log10", 1}, {"log1p", 1}, {"pow", 2},
    {"sin", 1},      {"cos", 1},   {"tan", 1},   {"asin", 1},  {"acos", 1},
    {"atan", 1},     {"atan2", 2}, {"sinh", 1},  {"cosh", 1},  {"tanh", 1},
    {"fabs", 1},     {"floor", 1}, {"ceil", 1},  {"trunc", 1}, {"round", 1},
    {"fmod", 2},     {"fmin", 2},  {"fmax", 2},  {"hypot", 2}, {"fma", 3},
    {"copysign", 2}, {"abs", 1},   {"min", 2},   {"max", 2}};

unsigned stencilc::ir::mathFuncArity(MathFunc F) {
  return MathFuncs[static_cast<unsigned>(F)].Arity;
}

const char *stencilc::ir::mathFuncName(MathFunc F) {
  return MathFuncs[static_cast<unsigned>(F)].Name;
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
