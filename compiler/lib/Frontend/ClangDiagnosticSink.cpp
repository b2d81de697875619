//===- ClangDiagnosticSink.cpp - Stencil diagnostics through clang --------===//
#include "ClangDiagnosticSink.h"
#include "stencilc/Basic/LLVMCompat.h"

using namespace stencilc;

SourceRange stencilc::toIRRange(clang::SourceRange R) {
  return {R.getBegin().getRawEncoding(), R.getEnd().getRawEncoding()};
}

clang::SourceRange stencilc::toClangRange(SourceRange R) {
  return {clang::SourceLocation::getFromRawEncoding(R.Begin),
          clang::SourceLocation::getFromRawEncoding(R.End)};
}

static clang::DiagnosticIDs::Level toClangLevel(DiagLevel Level) {
  switch (Level) {
  case DiagLevel::Error:
    return clang::DiagnosticIDs::Error;
  case DiagLevel::Warning:
    return clang::DiagnosticIDs::Warning;
  case DiagLevel::Note:
    return clang::DiagnosticIDs::Note;
  }
  return clang::DiagnosticIDs::Error;
}

/// clang treats %0 as an argument reference and '%%' as a literal; our texts
/// use only %N, so they pass through unchanged.
void ClangDiagnosticSink::emit(const DiagInfo &Info, SourceRange Range,
                               llvm::ArrayRef<std::string> Args) {
  unsigned Key = static_cast<unsigned>(Info.Id);
  auto It = CustomIds.find(Key);
  if (It == CustomIds.end())
    It = CustomIds
             .insert(
                 {Key, compat::getCustomDiagID(Diags, toClangLevel(Info.Level),
                                               printedText(Info))})
             .first;
  clang::SourceRange R = toClangRange(Range);
  clang::DiagnosticBuilder Builder = Diags.Report(R.getBegin(), It->second);
  for (const std::string &Arg : Args)
    Builder << Arg;
  if (R.isValid())
    Builder << clang::CharSourceRange::getTokenRange(R);
}
