//===- Type.h - Scalar types of the stencil IR -----------------*- C++ -*-===//
///
/// \file
/// The scalar types a stencil computes with. Arrays are pointers to these;
/// every IR expression has one of these types, exactly as clang typed the
/// source (implicit conversions are explicit Cast nodes).
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_IR_TYPE_H
#define STENCILC_IR_TYPE_H

#include <string>

namespace stencilc::ir {

enum class ScalarKind { Bool, Int32, UInt32, Int64, UInt64, Float32, Float64 };

class Type {
public:
  Type() = default;
  constexpr Type(ScalarKind Kind) : Kind(Kind) {}

  ScalarKind kind() const { return Kind; }
  bool isFloat() const {
    return Kind == ScalarKind::Float32 || Kind == ScalarKind::Float64;
  }
  bool isBool() const { return Kind == ScalarKind::Bool; }
  bool isInteger() const { return !isFloat() && !isBool(); }
  bool isSigned() const {
    return Kind == ScalarKind::Int32 || Kind == ScalarKind::Int64 || isFloat();
  }
  /// Size in bytes, as on the host and the device (LP64).
  unsigned bytes() const;
  /// The C++ spelling used in generated code ("float", "std::int64_t", ...).
  const char *cppName() const;
  /// The short name used in the IR dump ("f32", "i64", ...).
  const char *irName() const;

  friend bool operator==(Type A, Type B) { return A.Kind == B.Kind; }
  friend bool operator!=(Type A, Type B) { return A.Kind != B.Kind; }

private:
  ScalarKind Kind = ScalarKind::Int32;
};

} // namespace stencilc::ir

#endif // STENCILC_IR_TYPE_H
