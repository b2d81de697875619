//===- SourceLocation.h - Opaque source positions for the IR ---*- C++ -*-===//
///
/// \file
/// Source positions as the stages after the Frontend see them. The Frontend
/// stores clang's raw encodings here so diagnostics emitted later (Analysis)
/// still point at the user's code; nothing after the Frontend decodes them.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_BASIC_SOURCELOCATION_H
#define STENCILC_BASIC_SOURCELOCATION_H

#include <string>

namespace stencilc {

/// A half-open range of source text, as clang raw encodings (0 = unknown).
struct SourceRange {
  unsigned Begin = 0;
  unsigned End = 0;
  bool isValid() const { return Begin != 0; }
};

/// A printable position, for comments in generated code and the IR dump.
struct PresumedLoc {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

} // namespace stencilc

#endif // STENCILC_BASIC_SOURCELOCATION_H
