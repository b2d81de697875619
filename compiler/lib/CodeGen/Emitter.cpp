//===- Emitter.cpp - The Emission stage: backends behind one interface ----===//
///
/// \file
/// The backends live in CudaEmitter.cpp and OpenMPEmitter.cpp; what they
/// share is in BodyPrinter (the stencil's body) and RegistrationGlue (the
/// runtime ABI).
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/Emitter.h"

using namespace stencilc::codegen;

Emitter::~Emitter() = default;
