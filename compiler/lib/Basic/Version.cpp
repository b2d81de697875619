//===- Version.cpp - stencilc version -------------------------------------===//
#include "stencilc/Basic/Version.h"

const char *stencilc::getVersionString() { return STENCILC_VERSION; }
