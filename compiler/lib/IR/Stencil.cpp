//===- Stencil.cpp - A stencil and a module of stencils -------------------===//
#include "stencilc/IR/Stencil.h"
#include "llvm/Support/Casting.h"
#include <algorithm>
#include <cctype>

using namespace stencilc::ir;

std::string stencilc::ir::qualifiedName(
    const std::vector<std::string> &Namespaces, const std::string &Name) {
  std::string Out;
  for (const std::string &NS : Namespaces)
    Out += NS + "::";
  return Out + Name;
}

std::string stencilc::ir::symbolName(const std::vector<std::string> &Namespaces,
                                     const std::string &Name) {
  std::string Joined;
  for (const std::string &NS : Namespaces)
    Joined += NS + "_";
  Joined += Name;
  // nvcc refuses universal characters in a kernel's name: a UTF-8 byte past
  // ASCII is spelled _xHH; a run of other characters no identifier holds (a
  // class template instance's arguments, "Wrap<1, float>") is one _
  // (uniqueSymbolNames separates names this makes equal to another).
  std::string Out;
  for (unsigned char C : Joined) {
    if (C < 0x80 && !std::isalnum(C) && C != '_') {
      if (Out.empty() || Out.back() != '_')
        Out += '_';
      continue;
    }
    if (C < 0x80) {
      Out += static_cast<char>(C);
      continue;
    }
    static const char Hex[] = "0123456789abcdef";
    Out += "_x";
    Out += Hex[C >> 4];
    Out += Hex[C & 15];
  }
  return Out;
}

std::string Stencil::qualifiedName() const {
  return ir::qualifiedName(Namespaces, Name);
}

std::string Stencil::symbolName() const {
  return ir::symbolName(Namespaces, Name);
}

const char *stencilc::ir::cppBuiltinName(CppBuiltin B) {
  switch (B) {
  case CppBuiltin::Bool:
    return "bool";
  case CppBuiltin::Int:
    return "int";
  case CppBuiltin::UInt:
    return "unsigned int";
  case CppBuiltin::Long:
    return "long";
  case CppBuiltin::ULong:
    return "unsigned long";
  case CppBuiltin::LongLong:
    return "long long";
  case CppBuiltin::ULongLong:
    return "unsigned long long";
  case CppBuiltin::Float:
    return "float";
  case CppBuiltin::Double:
    return "double";
  }
  return "int";
}

const char *stencilc::ir::valueTypeName(const Param &P) {
  return cppBuiltinName(P.Builtin);
}

std::string stencilc::ir::declaredType(const Param &P, unsigned Dims) {
  switch (P.Kind) {
  case ParamKind::Index: {
    std::string Index = "stencil::Index<" + std::to_string(Dims) + ">";
    return P.ByReference ? "const " + Index + " &" : Index;
  }
  case ParamKind::Scalar:
    return cppBuiltinName(P.Builtin);
  case ParamKind::Array:
    return std::string(P.ReadOnly ? "const " : "") + cppBuiltinName(P.Builtin) +
           " *";
  }
  return {};
}

CppBuiltin stencilc::ir::usualBuiltin(Type Ty) {
  switch (Ty.kind()) {
  case ScalarKind::Bool:
    return CppBuiltin::Bool;
  case ScalarKind::Int32:
    return CppBuiltin::Int;
  case ScalarKind::UInt32:
    return CppBuiltin::UInt;
  case ScalarKind::Int64:
    return CppBuiltin::Long;
  case ScalarKind::UInt64:
    return CppBuiltin::ULong;
  case ScalarKind::Float32:
    return CppBuiltin::Float;
  case ScalarKind::Float64:
    return CppBuiltin::Double;
  }
  return CppBuiltin::Int;
}

Param stencilc::ir::makeParam(std::string Name, Type Ty, bool Array,
                              bool ReadOnly) {
  Param P;
  P.Kind = Array ? ParamKind::Array : ParamKind::Scalar;
  P.Name = std::move(Name);
  P.Ty = Ty;
  P.ReadOnly = Array && ReadOnly;
  P.Builtin = usualBuiltin(Ty);
  return P;
}

unsigned stencilc::ir::arrayAxes(const Param &P, unsigned Dims) {
  return P.Axes ? P.Axes : allAxes(Dims);
}

bool stencilc::ir::isLowerRank(const Param &P, unsigned Dims) {
  return arrayAxes(P, Dims) != allAxes(Dims);
}

std::string stencilc::ir::axesName(unsigned Axes) {
  std::string Name;
  for (unsigned D = 0; D < MaxDims; ++D)
    if ((Axes >> D) & 1)
      Name += "xyzw"[D];
  return Name;
}

Param stencilc::ir::makeIndexParam(std::string Name) {
  Param P;
  P.Kind = ParamKind::Index;
  P.Name = std::move(Name);
  P.Ty = Type(ScalarKind::Int64);
  P.ByReference = true;
  return P;
}

Type stencilc::ir::typeOf(CppBuiltin B) {
  switch (B) {
  case CppBuiltin::Bool:
    return Type(ScalarKind::Bool);
  case CppBuiltin::Int:
    return Type(ScalarKind::Int32);
  case CppBuiltin::UInt:
    return Type(ScalarKind::UInt32);
  case CppBuiltin::Long:
  case CppBuiltin::LongLong:
    return Type(ScalarKind::Int64);
  case CppBuiltin::ULong:
  case CppBuiltin::ULongLong:
    return Type(ScalarKind::UInt64);
  case CppBuiltin::Float:
    return Type(ScalarKind::Float32);
  case CppBuiltin::Double:
    return Type(ScalarKind::Float64);
  }
  return Type(ScalarKind::Int32);
}

/// True if \p St stores array parameter \p Param: with \p EveryPath, on
/// every run (a store, a block with such a statement, or an if/else whose
/// branches both are; a loop may run no trip), else on some.
static bool stores(const Stmt *St, unsigned Param, bool EveryPath) {
  if (!St)
    return false;
  if (const auto *Store = llvm::dyn_cast<StoreStmt>(St))
    return Store->Param == Param;
  if (const auto *Block = llvm::dyn_cast<BlockStmt>(St))
    return std::any_of(
        Block->Body.begin(), Block->Body.end(),
        [&](const StmtRef &S) { return stores(S.get(), Param, EveryPath); });
  if (const auto *If = llvm::dyn_cast<IfStmt>(St)) {
    const bool Then = stores(If->Then.get(), Param, EveryPath),
               Else = stores(If->Else.get(), Param, EveryPath);
    return EveryPath ? Then && Else : Then || Else;
  }
  if (const auto *For = llvm::dyn_cast<ForStmt>(St))
    return !EveryPath && stores(For->Body.get(), Param, EveryPath);
  return false;
}

bool stencilc::ir::storesOnEveryPath(const Stencil &S, unsigned Param) {
  return stores(S.Body.get(), Param, /*EveryPath=*/true);
}

bool stencilc::ir::storesSomewhere(const Stencil &S, unsigned Param) {
  return stores(S.Body.get(), Param, /*EveryPath=*/false);
}
