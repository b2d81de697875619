//===- ClangDiagnosticSink.h - Stencil diagnostics through clang -*- C++
//-*-===//
///
/// \file
/// Emits stencilc's diagnostics through clang's DiagnosticsEngine, so they
/// print as `file:line:col: error: ...` with the source range underlined and
/// work with `-Xclang -verify`.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_LIB_FRONTEND_CLANGDIAGNOSTICSINK_H
#define STENCILC_LIB_FRONTEND_CLANGDIAGNOSTICSINK_H

#include "stencilc/Basic/Diagnostic.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/DenseMap.h"

namespace stencilc {

class ClangDiagnosticSink : public DiagnosticSink {
public:
  explicit ClangDiagnosticSink(clang::DiagnosticsEngine &Diags)
      : Diags(Diags) {}

protected:
  void emit(const DiagInfo &Info, SourceRange Range,
            llvm::ArrayRef<std::string> Args) override;

private:
  clang::DiagnosticsEngine &Diags;
  llvm::DenseMap<unsigned, unsigned> CustomIds;
};

/// Conversions between clang's ranges and the IR's opaque ones.
SourceRange toIRRange(clang::SourceRange R);
clang::SourceRange toClangRange(SourceRange R);

} // namespace stencilc

#endif // STENCILC_LIB_FRONTEND_CLANGDIAGNOSTICSINK_H
