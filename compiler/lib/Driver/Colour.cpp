//===- Colour.cpp - Coloured diagnostics from the compiler flags ----------===//
#include "stencilc/Driver/Colour.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

using namespace stencilc;

std::string
stencilc::applyColourFlags(llvm::ArrayRef<std::string> CompilerFlags) {
  enum { Auto, Always, Never } Choice = Auto;
  for (llvm::StringRef Flag : CompilerFlags) {
    if (Flag == "-fcolor-diagnostics" || Flag == "-fdiagnostics-color" ||
        Flag == "-fdiagnostics-color=always")
      Choice = Always;
    else if (Flag == "-fno-color-diagnostics" ||
             Flag == "-fno-diagnostics-color" ||
             Flag == "-fdiagnostics-color=never")
      Choice = Never;
    else if (Flag == "-fdiagnostics-color=auto")
      Choice = Auto;
  }
  llvm::raw_fd_ostream &Err = llvm::errs();
  bool Colours = Choice == Always || (Choice == Auto && Err.has_colors());
  Err.enable_colors(Colours);
  return Colours ? "-fcolor-diagnostics" : "-fno-color-diagnostics";
}
