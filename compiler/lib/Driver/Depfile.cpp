//===- Depfile.cpp - Make-style dependency files --------------------------===//
#include "stencilc/Driver/Depfile.h"

using namespace stencilc;

/// Escapes a path the way make and ninja read depfiles.
static std::string escapePath(const std::string &Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#' || C == '\\')
      Out += '\\';
    else if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

std::string
stencilc::formatDepfile(const std::vector<std::string> &Targets,
                        const std::vector<std::string> &Dependencies) {
  std::string Out;
  for (size_t I = 0; I < Targets.size(); ++I)
    Out += (I ? " " : "") + escapePath(Targets[I]);
  Out += ":";
  for (const std::string &Dep : Dependencies)
    Out += " \\\n  " + escapePath(Dep);
  return Out + "\n";
}
