//===- MathFunctions.h - Which calls are math functions --------*- C++ -*-===//
#ifndef STENCILC_LIB_FRONTEND_MATHFUNCTIONS_H
#define STENCILC_LIB_FRONTEND_MATHFUNCTIONS_H

#include "stencilc/IR/Expr.h"
#include <optional>

namespace clang {
class FunctionDecl;
}

namespace stencilc::frontend {

/// The math function \p FD is: a <cmath> function in the global namespace
/// or std (including its float-suffixed C names, "sqrtf"), std::abs,
/// std::min or std::max, declared without a body or in a system header.
/// These are lowered to IR calls; a user's own `min` with a body is inlined.
std::optional<ir::MathFunc>
recognizeMathFunction(const clang::FunctionDecl *FD);

/// True for std::clamp(v, lo, hi) of the standard library (declared in a
/// system header), which is lowered as std::min(std::max(v, lo), hi).
bool isStdClamp(const clang::FunctionDecl *FD);

} // namespace stencilc::frontend

#endif // STENCILC_LIB_FRONTEND_MATHFUNCTIONS_H
