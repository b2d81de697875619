//===- Stencil.h - A stencil and a module of stencils ----------*- C++ -*-===//
///
/// \file
/// One stencil as the Frontend found it: its parameters (the index, scalars,
/// arrays), its locals and its body, plus what the runtime needs to find the
/// generated code again (the functor's type key or the function's name).
/// The module of a translation unit is in Module.h.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_IR_STENCIL_H
#define STENCILC_IR_STENCIL_H

#include "stencilc/IR/Stmt.h"
#include <map>
#include <string>
#include <vector>

namespace stencilc::ir {

enum class ParamKind { Index, Scalar, Array };

/// The C++ builtin type a scalar or an array's element is declared with.
/// Type tells how it computes; C++ (and so the runtime's check of a call's
/// argument types) also tells `long` from `long long`.
enum class CppBuiltin {
  Bool,
  Int,
  UInt,
  Long,
  ULong,
  LongLong,
  ULongLong,
  Float,
  Double
};
/// "unsigned long", ...
const char *cppBuiltinName(CppBuiltin B);
/// How a value of builtin \p B computes: `long` and `long long` are both i64.
Type typeOf(CppBuiltin B);
/// The builtin a value of \p Ty is usually declared with (LP64: `long` for
/// 64 bits), for IR made without a C++ declaration (tests, builders).
CppBuiltin usualBuiltin(Type Ty);

/// A scalar (Array: false) or array parameter of \p Ty, declared with its
/// usual builtin.
struct Param;
Param makeParam(std::string Name, Type Ty, bool Array, bool ReadOnly = false);
/// The index parameter, as `const stencil::Index<N> &`.
Param makeIndexParam(std::string Name = "idx");

struct Param {
  ParamKind Kind;
  std::string Name;
  Type Ty;               ///< Scalar type, or element type of an array.
  bool ReadOnly = false; ///< Array declared `const T*`.
  /// Scalars and arrays: the C++ builtin of the value or element.
  CppBuiltin Builtin = CppBuiltin::Int;
  /// The index: passed as `const stencil::Index<N> &` (else by value).
  bool ByReference = false;
  /// Arrays: the dimensions the array spans (bit d: dimension d), or 0 for
  /// all of the stencil's. An array of lower rank (a 1-D profile along z,
  /// 0b100; a 2-D surface field, 0b011) has the full arrays' extents along
  /// the dimensions it spans, the first of them contiguous; its loads'
  /// offsets are 0 in the others. See arrayAxes().
  unsigned Axes = 0;
  /// A step's array marked STENCIL_SCRATCH: the step writes it before
  /// reading it and nothing reads it after the step, so its values need not
  /// reach memory (StepGroup::Unstored).
  bool Scratch = false;
  SourceRange Range;
};

/// Every dimension of a \p Dims-D stencil, as an axes mask.
constexpr unsigned allAxes(unsigned Dims) { return (1u << Dims) - 1; }
/// The dimensions array parameter \p P spans (never 0).
unsigned arrayAxes(const Param &P, unsigned Dims);
/// True if array \p P spans fewer dimensions than the stencil.
bool isLowerRank(const Param &P, unsigned Dims);
struct Stencil;
/// True if every run of \p S's body stores array parameter \p Param (at
/// its top level, or in both branches of an if/else).
bool storesOnEveryPath(const Stencil &S, unsigned Param);
/// True if some statement of \p S's body stores array parameter \p Param.
bool storesSomewhere(const Stencil &S, unsigned Param);
/// "z", "xy": the letters of the dimensions in \p Axes, x first.
std::string axesName(unsigned Axes);

/// The parameter's C++ type as generated code declares it, without top-level
/// qualifiers (which do not change a function's type): "const float *",
/// "float", "const stencil::Index<3> &"; \p Dims for the index.
std::string declaredType(const Param &P, unsigned Dims);

/// A scalar's type or an array's element type: "float".
const char *valueTypeName(const Param &P);

struct Local {
  std::string
      Name; ///< Unique within the stencil (the Frontend renames clashes).
  Type Ty;
};

/// How the user wrote the stencil; decides how the runtime identifies it.
enum class StencilForm { Function, Functor };

struct Stencil {
  std::string Name; ///< Unqualified ("Diffusion3d").
  std::vector<std::string>
      Namespaces; ///< Enclosing namespaces, outermost first.
  StencilForm Form = StencilForm::Functor;
  /// Functor: the Itanium-mangled type name, as typeid(T).name() returns it.
  std::string TypeKey;
  /// Function: declared `extern "C"`; the generated declaration says so too,
  /// or it would name another (C++-mangled) function.
  bool ExternC = false;
  unsigned Dims = 3;
  std::vector<Param> Params; ///< Params[0] is the index.
  std::vector<Local> Locals;
  StmtRef Body;
  PresumedLoc Loc; ///< The declaration, for comments and the IR dump.
  SourceRange Range;
  /// Where each statement of the body begins in the user's source (absolute
  /// file path, line), by its range's Begin: what the generated code's
  /// #line directives name. A statement of an inlined helper maps to the
  /// helper's line, as a debugger shows inlined code.
  std::map<unsigned, PresumedLoc> StmtLines;
  /// Passed to a loop's repeat() (a time loop the program runs): CUDA gets
  /// its passes of several time steps (Planning/TemporalPlan.h).
  bool TimeLoop = false;

  /// "ns::Name".
  std::string qualifiedName() const;
  /// A C identifier unique within a module ("ns_Name"), for emitted symbols.
  std::string symbolName() const;
};

/// "ns::Name" of a declaration named \p Name in \p Namespaces (outermost
/// first).
std::string qualifiedName(const std::vector<std::string> &Namespaces,
                          const std::string &Name);
/// A C identifier for it, unique within a module: "ns_Name".
std::string symbolName(const std::vector<std::string> &Namespaces,
                       const std::string &Name);

} // namespace stencilc::ir

#endif // STENCILC_IR_STENCIL_H
