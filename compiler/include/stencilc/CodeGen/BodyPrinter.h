//===- BodyPrinter.h - A stencil's body as C++ statements -----*- C++ -*-===//
///
/// \file
/// Prints the IR body of one stencil as C++ that both backends place inside
/// their loop nest (OpenMP) or kernel (CUDA). The printed code computes
/// bit-for-bit what the user's code computes on the host: every operation is
/// parenthesised in the source's order, every conversion is an explicit
/// static_cast, min/max are spelled as std::min/std::max evaluate them, and
/// math functions are called in the call's type.
///
/// The code around the body must define these names (all `long long` except
/// `g`), which is why BodyNames keeps user identifiers away from them:
///   g           the stencil::Grid (its origin turns positions into
///   coordinates) i, j, k, w  the point's position in the arrays, per dimension
///   used c           the centre's linear index: i + j * sy + k * sz + w * sw
///   sy, sz, sw  the strides of y, z and w, per dimension used
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_CODEGEN_BODYPRINTER_H
#define STENCILC_CODEGEN_BODYPRINTER_H

#include "stencilc/CodeGen/CodeWriter.h"
#include "stencilc/IR/Stencil.h"
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace stencilc::codegen {

/// What differs between backends when printing a body.
class BodyPrinterHooks {
public:
  virtual ~BodyPrinterHooks();
  /// The function to call for \p F computed in \p Ty ("std::sqrt", "sqrtf").
  /// Never asked for MathFunc::Min or MathFunc::Max (see printMinMaxHelpers).
  virtual std::string mathCallee(ir::MathFunc F, ir::Type Ty) const = 0;
  /// True to call a math function that rounds as the source named it
  /// (ir::CallExpr::Callee), its arguments in the callee's parameter types:
  /// the host's backends, where GCC folds and inlines as in the host
  /// reference whatever the optimisation level.
  virtual bool callsAsWritten() const { return false; }
  /// True to print an integer converted to a floating type through
  /// stencilc_from_integer (printIntegerConversionHelper), which makes the
  /// zero +0 again: the host's backends, whose file turns trapping math
  /// off, where GCC makes `(float)(int)x` trunc(x) if SSE4.1 has it (-0 for
  /// x in (-1, 0), where C++ gives +0).
  virtual bool guardsIntegerConversions() const { return false; }
  /// A line printed before every constant-trip loop ("#pragma unroll"), or
  /// empty for none.
  virtual std::string_view loopPragma() const = 0;
  /// How a load of array parameter \p Param at \p Off is printed; \p Memory
  /// is the plain access ("f[c + 1]"). Marching CUDA variants answer with a
  /// register of the queue, a shared-memory tile element or an __ldg.
  virtual std::string printLoad(unsigned Param, const ir::Offset &Off,
                                const std::string &Memory) const;
  /// True to print an if/else whose branches only assign or store
  /// expressions that cannot trap, overflow or set errno as selects
  /// ("x = cond ? a : b;"): both sides are evaluated, the result is the same,
  /// and the loop around it has no control flow left (GCC vectorizes it).
  virtual bool selectsForIfs() const { return false; }
  /// True to print a float division by a constant that has an exact split
  /// reciprocal (ir::BinaryExpr::Reciprocal) as a call of stencilc_divide
  /// (printDivideHelper): the GPU's backends, where a division is dear.
  virtual bool exactReciprocals() const { return false; }
  /// With exactReciprocals: the unsigned that such a division lowers to
  /// its dividend's bits where its split has a least dividend
  /// (ir::ExactReciprocal::LeastDividend; stencilc_divide_or: the product
  /// alone), which the caller tests after them (dividendsMayDiffer) and
  /// computes again where a product may differ; empty, or a split without
  /// one: the division tested where it is computed (stencilc_divide).
  virtual std::string smallestDividend() const { return ""; }
  /// What a store to array parameter \p Param assigns: \p Memory ("f[c]"),
  /// or a variable where the value is wanted instead (a step's
  /// recomputation of another stencil's output).
  virtual std::string storeTarget(unsigned Param,
                                  const std::string &Memory) const {
    (void)Param;
    return Memory;
  }
};

/// The identifiers of a stencil's parameters and locals in generated code:
/// the user's names, with '_' appended where one would clash with a name the
/// generated code defines itself (see the list above) or with another one.
class BodyNames {
public:
  explicit BodyNames(const ir::Stencil &S);
  const std::string &param(unsigned I) const { return Params[I]; }
  const std::string &local(unsigned I) const { return Locals[I]; }

private:
  std::vector<std::string> Params;
  std::vector<std::string> Locals;
};

/// What a body needs from its surroundings.
struct BodyUses {
  std::vector<bool> Params; ///< Parallel to Stencil::Params: read or written.
  bool MathCalls = false;   ///< Calls a math function other than min/max.
  bool MinMax = false;      ///< Calls min or max (needs printMinMaxHelpers).
  /// Converts an integer to a floating type (printIntegerConversionHelper).
  bool IntegerConversions = false;
  /// Divides by a constant with an exact reciprocal (printDivideHelper).
  bool ExactDivisions = false;
};
BodyUses scanBody(const ir::Stencil &S);

/// Prints the statements of \p S's body at \p W's current indentation.
void printBody(const ir::Stencil &S, const BodyNames &Names,
               const BodyPrinterHooks &Hooks, CodeWriter &W);

/// One expression as C++, without parentheses around the outermost operation.
std::string printExpression(const ir::Stencil &S, const BodyNames &Names,
                            const BodyPrinterHooks &Hooks, const ir::Expr &E);

/// The linear index of the point at \p Off from the centre: "c", "c - 1",
/// "c + sy", "c + 1 - 2 * sz".
std::string printLinearIndex(const ir::Offset &Off, unsigned Dims);

/// The names of a point's position per dimension (x first) in the code
/// around a body.
using PositionNames = std::array<std::string, ir::MaxDims>;
/// i, j, k, w: the names every backend defines around a body.
extern const PositionNames PointPositions;

/// The element of array \p P at \p Off from the point: printLinearIndex
/// for an array of every dimension; for one of lower rank
/// (ir::Param::Axes), from the point's position along the dimensions it
/// spans, named by \p Positions: "k + 1", "i + (j - 1) * sy",
/// "j + k * g.extent[1]".
std::string printArrayIndex(const ir::Param &P, const ir::Offset &Off,
                            unsigned Dims,
                            const PositionNames &Positions = PointPositions);

/// A literal of type \p Ty: "1.5f", "0.1", "3", "7U", "-2LL", "true".
/// Negative values come parenthesised.
std::string printConstant(ir::Type Ty, std::int64_t IntValue,
                          double FloatValue);

/// The strides sy (sz, sw) of a \p Dims-D grid g.
void printStrides(CodeWriter &W, unsigned Dims);
/// "i + j * sy + k * sz": the centre c of the point i, j (k, w).
std::string centreIndex(unsigned Dims);
/// printStrides and the centre c of the point, as a body needs them.
void printPointIndex(CodeWriter &W, unsigned Dims);

/// Defines stencilc_from_integer<T>(v), an integer v as floating type T
/// with +0 for zero (BodyPrinterHooks::guardsIntegerConversions).
void printIntegerConversionHelper(CodeWriter &W);

/// Defines the CUDA function stencilc_divide, which computes a float
/// division by a constant that has an exact split reciprocal, and with \p
/// CheckedProducts stencilc_divide_or, its product alone, which keeps the
/// least of the dividends (a temporal pass's steady part: TemporalPlan::
/// divisionsCheckedAPlane).
void printDivideHelper(CodeWriter &W, bool CheckedProducts);

/// Declares the variable stencilc_divide_or lowers, before the products.
void printSmallestDividend(CodeWriter &W);
/// The test, after the products, that one of them may not be its quotient:
/// a dividend below \p LeastDividend (TemporalPlan::LeastDividend), not 0.
std::string dividendsMayDiffer(float LeastDividend);

/// Defines stencilc_min and stencilc_max, which the body calls for min and
/// max with std::min/std::max's exact semantics (operands evaluated once).
/// \p Qualifiers precede each definition ("inline", "__device__ inline").
void printMinMaxHelpers(CodeWriter &W, std::string_view Qualifiers);

} // namespace stencilc::codegen

#endif // STENCILC_CODEGEN_BODYPRINTER_H
