//===- LLVMCompat.h - Every LLVM-version difference, in one place -*- C++
//-*-===//
///
/// \file
/// Shims for the Clang/LLVM APIs that change between releases. Code elsewhere
/// calls these and never tests LLVM_VERSION_MAJOR itself. Only the Frontend
/// and Driver include this (it pulls in clang headers).
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_BASIC_LLVMCOMPAT_H
#define STENCILC_BASIC_LLVMCOMPAT_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "llvm/Config/llvm-config.h"

namespace stencilc::compat {

/// A custom diagnostic id for a run-time format string. (Newer clang replaces
/// getCustomDiagID with CustomDiagDesc.)
inline unsigned getCustomDiagID(clang::DiagnosticsEngine &Diags,
                                clang::DiagnosticIDs::Level Level,
                                llvm::StringRef Format) {
#if LLVM_VERSION_MAJOR <= 19
  return Diags.getDiagnosticIDs()->getCustomDiagID(Level, Format);
#else
#error "port getCustomDiagID to this LLVM version"
#endif
}

} // namespace stencilc::compat

#endif // STENCILC_BASIC_LLVMCOMPAT_H
