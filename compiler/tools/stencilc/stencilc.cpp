//===- stencilc.cpp - The stencilc command line ---------------------------===//
#include "stencilc/Driver/Driver.h"

int main(int Argc, const char **Argv) {
  return stencilc::runDriver(Argc, Argv);
}
