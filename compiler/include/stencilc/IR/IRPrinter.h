//===- IRPrinter.h - Textual form of IR expressions and statements -*- C++
//-*-===//
///
/// \file
/// A compact, stable text form of the IR for the JSON dump and for tests:
/// `fn[0,0,0] = ((cc * f[0,0,0]) + ...)`. Not C++; CodeGen prints C++.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_IR_IRPRINTER_H
#define STENCILC_IR_IRPRINTER_H

#include "stencilc/IR/Stencil.h"
#include <string>

namespace stencilc::ir {

std::string printExpr(const Stencil &S, const Expr &E);
/// One line per statement, nested blocks indented by two spaces.
std::string printStmt(const Stencil &S, const Stmt &St, unsigned Indent = 0);
/// "[dx,dy,dz]" with as many components as the stencil has dimensions.
std::string printOffset(const Offset &Off, unsigned Dims);
/// A load's offset as the IR dump shows it: printOffset for an array of
/// every dimension, "[z:1]" or "[xy:0,-1]" for one of lower rank.
std::string printArrayOffset(const Param &P, const Offset &Off, unsigned Dims);

} // namespace stencilc::ir

#endif // STENCILC_IR_IRPRINTER_H
