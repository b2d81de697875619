//===- Diagnostic.cpp - The diagnostics table and the sink ----------------===//
#include "stencilc/Basic/Diagnostic.h"
#include <cassert>
#include <cctype>

using namespace stencilc;

static const DiagInfo Table[] = {
#define DIAG(Id, Level, Text) {DiagId::Id, #Id, DiagLevel::Level, Text},
#include "stencilc/Basic/DiagnosticKinds.def"
};

llvm::ArrayRef<DiagInfo> stencilc::allDiagnostics() { return Table; }

const DiagInfo &stencilc::getDiagInfo(DiagId Id) {
  const DiagInfo &Info = Table[static_cast<unsigned>(Id)];
  assert(Info.Id == Id && "diagnostic table out of order");
  return Info;
}

const char *stencilc::diagLevelName(DiagLevel Level) {
  switch (Level) {
  case DiagLevel::Error:
    return "error";
  case DiagLevel::Warning:
    return "warning";
  case DiagLevel::Note:
    return "note";
  }
  return "error";
}

std::string stencilc::printedText(const DiagInfo &Info) {
  if (Info.Level == DiagLevel::Note)
    return Info.Text;
  return std::string(Info.Text) + " [" + Info.Name + "]";
}

DiagnosticSink::~DiagnosticSink() = default;

void DiagnosticSink::report(DiagId Id, SourceRange Range,
                            llvm::ArrayRef<std::string> Args) {
  const DiagInfo &Info = getDiagInfo(Id);
  if (Info.Level == DiagLevel::Error)
    ++ErrorCount;
  emit(Info, Range, Args);
}

std::string stencilc::formatDiagnostic(const char *Text,
                                       llvm::ArrayRef<std::string> Args) {
  std::string Out;
  for (const char *P = Text; *P; ++P) {
    if (*P == '%' && std::isdigit(static_cast<unsigned char>(P[1]))) {
      unsigned N = static_cast<unsigned>(P[1] - '0');
      if (N < Args.size())
        Out += Args[N];
      ++P;
      continue;
    }
    Out += *P;
  }
  return Out;
}
