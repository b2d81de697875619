//===- TypeMapping.cpp - clang types as IR types --------------------------===//
#include "TypeMapping.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"

using namespace clang;
using namespace stencilc;

/// The C++ builtin \p T is (cv-qualifiers and typedefs ignored), if it is
/// one stencils use.
static std::optional<ir::CppBuiltin> builtinOf(QualType T) {
  const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
  if (!BT)
    return std::nullopt;
  switch (BT->getKind()) {
  case BuiltinType::Bool:
    return ir::CppBuiltin::Bool;
  case BuiltinType::Int:
    return ir::CppBuiltin::Int;
  case BuiltinType::UInt:
    return ir::CppBuiltin::UInt;
  case BuiltinType::Long:
    return ir::CppBuiltin::Long;
  case BuiltinType::ULong:
    return ir::CppBuiltin::ULong;
  case BuiltinType::LongLong:
    return ir::CppBuiltin::LongLong;
  case BuiltinType::ULongLong:
    return ir::CppBuiltin::ULongLong;
  case BuiltinType::Float:
    return ir::CppBuiltin::Float;
  case BuiltinType::Double:
    return ir::CppBuiltin::Double;
  default:
    return std::nullopt;
  }
}

std::optional<ir::Type> frontend::toScalarType(QualType T) {
  // Enumerators compute as their underlying integer type.
  if (const auto *ET = T.getCanonicalType()->getAs<EnumType>())
    T = ET->getDecl()->getIntegerType();
  if (T.isNull())
    return std::nullopt;
  if (std::optional<ir::CppBuiltin> B = builtinOf(T))
    return ir::typeOf(*B);
  return std::nullopt;
}

/// N when \p T is stencil::<Class><N> (by value or reference), N in 2..4.
static unsigned runtimeTemplateDims(QualType T, llvm::StringRef Class) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != Class)
    return 0;
  const auto *NS =
      dyn_cast<NamespaceDecl>(Spec->getDeclContext()->getRedeclContext());
  if (!NS || NS->getName() != "stencil" ||
      !NS->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return 0;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() != 1 || Args[0].getKind() != TemplateArgument::Integral)
    return 0;
  int64_t Dims = Args[0].getAsIntegral().getSExtValue();
  return Dims >= 2 && Dims <= 4 ? static_cast<unsigned>(Dims) : 0;
}

unsigned frontend::indexDims(QualType T) {
  return runtimeTemplateDims(T, "Index");
}

unsigned frontend::stepDims(QualType T) {
  return runtimeTemplateDims(T, "Step");
}

std::optional<ir::Type> frontend::arrayElementType(QualType T) {
  const auto *PT = T.getCanonicalType()->getAs<PointerType>();
  if (!PT)
    return std::nullopt;
  return toScalarType(PT->getPointeeType());
}

std::optional<ir::CppBuiltin> frontend::parameterBuiltin(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType().getCanonicalType();
  if (T.isVolatileQualified())
    return std::nullopt;
  return builtinOf(T);
}
