//===- Type.cpp - Scalar types of the stencil IR --------------------------===//
#include "stencilc/IR/Type.h"

using namespace stencilc::ir;

unsigned Type::bytes() const {
  switch (Kind) {
  case ScalarKind::Bool:
    return 1;
  case ScalarKind::Int32:
  case ScalarKind::UInt32:
  case ScalarKind::Float32:
    return 4;
  case ScalarKind::Int64:
  case ScalarKind::UInt64:
  case ScalarKind::Float64:
    return 8;
  }
  return 4;
}

const char *Type::cppName() const {
  switch (Kind) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::Int32:
    return "int";
  case ScalarKind::UInt32:
    return "unsigned";
  case ScalarKind::Int64:
    return "long long";
  case ScalarKind::UInt64:
    return "unsigned long long";
  case ScalarKind::Float32:
    return "float";
  case ScalarKind::Float64:
    return "double";
  }
  return "int";
}

const char *Type::irName() const {
  switch (Kind) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::Int32:
    return "i32";
  case ScalarKind::UInt32:
    return "u32";
  case ScalarKind::Int64:
    return "i64";
  case ScalarKind::UInt64:
    return "u64";
  case ScalarKind::Float32:
    return "f32";
  case ScalarKind::Float64:
    return "f64";
  }
  return "i32";
}
