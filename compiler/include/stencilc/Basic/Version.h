//===- Version.h - stencilc version ----------------------------*- C++ -*-===//
#ifndef STENCILC_BASIC_VERSION_H
#define STENCILC_BASIC_VERSION_H

namespace stencilc {
/// "MAJOR.MINOR.PATCH", from the top-level project() version.
const char *getVersionString();
} // namespace stencilc

#endif // STENCILC_BASIC_VERSION_H
