//===- Module.h - Everything stencilc found in a translation unit -*- C++ -*-===//
#ifndef STENCILC_IR_MODULE_H
#define STENCILC_IR_MODULE_H

#include "stencilc/IR/Stencil.h"
#include "stencilc/IR/Step.h"
#include <string>
#include <vector>

namespace stencilc::ir {

/// The stencils and steps of one translation unit, each in source order.
struct Module {
  std::string InputFile;
  std::vector<Stencil> Stencils;
  std::vector<Step> Steps;
};

} // namespace stencilc::ir

#endif // STENCILC_IR_MODULE_H
