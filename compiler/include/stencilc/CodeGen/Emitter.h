//===- Emitter.h - The Emission stage: backends behind one interface -*- C++ -*-===//
///
/// \file
/// A backend prints one file for a planned module. Backends come from
/// factories; the Driver picks them by name (--emit=cuda,cpu).
///
/// The printed file is self-contained C++ (or CUDA C++): it includes
/// <stencil/generated.hpp> and registers one stencil::GeneratedStencil per
/// stencil at static initialisation, so engines find it at run time.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_CODEGEN_EMITTER_H
#define STENCILC_CODEGEN_EMITTER_H

#include "stencilc/Planning/Plan.h"
#include <memory>
#include <string>

namespace stencilc::codegen {

class Emitter {
public:
  virtual ~Emitter();
  /// The whole generated file.
  virtual std::string emit(const planning::ModulePlan &Plan) const = 0;
  /// Suffix of the output file after the input's stem (".stencil.cu").
  virtual const char *fileSuffix() const = 0;
};

std::unique_ptr<Emitter> createCudaEmitter();
std::unique_ptr<Emitter> createOpenMPEmitter();

} // namespace stencilc::codegen

#endif // STENCILC_CODEGEN_EMITTER_H
