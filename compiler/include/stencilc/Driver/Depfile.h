//===- Depfile.h - Make-style dependency files -----------------*- C++ -*-===//
#ifndef STENCILC_DRIVER_DEPFILE_H
#define STENCILC_DRIVER_DEPFILE_H

#include <string>
#include <vector>

namespace stencilc {

/// "out1 out2: dep1 dep2 ...\n" with spaces and '#'/'$' escaped for make/ninja.
std::string formatDepfile(const std::vector<std::string> &Targets,
                          const std::vector<std::string> &Dependencies);

} // namespace stencilc

#endif // STENCILC_DRIVER_DEPFILE_H
