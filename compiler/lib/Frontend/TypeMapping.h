//===- TypeMapping.h - clang types as IR types -----------------*- C++ -*-===//
#ifndef STENCILC_LIB_FRONTEND_TYPEMAPPING_H
#define STENCILC_LIB_FRONTEND_TYPEMAPPING_H

#include "stencilc/IR/Stencil.h"
#include "stencilc/IR/Type.h"
#include "clang/AST/Type.h"
#include <optional>

namespace stencilc::frontend {

/// The IR scalar type of \p T (cv-qualifiers and typedefs ignored), or none
/// for anything that is not bool, int, unsigned, (unsigned) long (long),
/// float or double.
std::optional<ir::Type> toScalarType(clang::QualType T);

/// N when \p T is stencil::Index<N> (by value or reference), else 0.
unsigned indexDims(clang::QualType T);

/// N when \p T is stencil::Step<N> (by value or reference), else 0.
unsigned stepDims(clang::QualType T);

/// The C++ builtin a stencil parameter's value (\p T) or element (the
/// pointee of \p T) is declared with; none for an enumeration (generated
/// code cannot name the user's type) and for volatile values or elements
/// (a register or tile copy would change what volatile means).
std::optional<ir::CppBuiltin> parameterBuiltin(clang::QualType T);

/// The element type when \p T is a pointer to a scalar.
std::optional<ir::Type> arrayElementType(clang::QualType T);

} // namespace stencilc::frontend

#endif // STENCILC_LIB_FRONTEND_TYPEMAPPING_H
