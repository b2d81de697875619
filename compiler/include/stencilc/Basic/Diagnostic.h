//===- Diagnostic.h - The diagnostics table and the sink -------*- C++ -*-===//
///
/// \file
/// Every diagnostic stencilc can emit, as one table (DiagnosticKinds.def), and
/// the interface through which every stage reports them. The Frontend
/// implements the sink on top of clang's DiagnosticsEngine, so diagnostics
/// carry file:line:col, ranges, and work with clang's -verify mode.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_BASIC_DIAGNOSTIC_H
#define STENCILC_BASIC_DIAGNOSTIC_H

#include "stencilc/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace stencilc {

enum class DiagId {
#define DIAG(Id, Level, Text) Id,
#include "stencilc/Basic/DiagnosticKinds.def"
};

enum class DiagLevel { Error, Warning, Note };

struct DiagInfo {
  DiagId Id;
  const char *Name;
  DiagLevel Level;
  const char *Text;
};

/// The whole table, in declaration order.
llvm::ArrayRef<DiagInfo> allDiagnostics();
const DiagInfo &getDiagInfo(DiagId Id);
const char *diagLevelName(DiagLevel Level);
/// The text as stencilc prints it: an error or warning ends with its id in
/// brackets ("... [err_write_off_centre]"), as clang-tidy names its checks,
/// so that it can be looked up in docs/diagnostics.md. A note belongs to the
/// diagnostic before it and is printed without one.
std::string printedText(const DiagInfo &Info);

/// Where stages report user errors. Compiler bugs are asserts, not diagnostics.
class DiagnosticSink {
public:
  virtual ~DiagnosticSink();
  /// Reports \p Id at \p Range; \p Args fill %0, %1, ... in the text.
  void report(DiagId Id, SourceRange Range,
              llvm::ArrayRef<std::string> Args = {});
  bool hadError() const { return ErrorCount != 0; }
  unsigned errorCount() const { return ErrorCount; }

protected:
  virtual void emit(const DiagInfo &Info, SourceRange Range,
                    llvm::ArrayRef<std::string> Args) = 0;

private:
  unsigned ErrorCount = 0;
};

/// Substitutes %0, %1, ... in \p Text (used by sinks that print themselves).
std::string formatDiagnostic(const char *Text,
                             llvm::ArrayRef<std::string> Args);

} // namespace stencilc

#endif // STENCILC_BASIC_DIAGNOSTIC_H
