//===- StencilHash.h - A stable fingerprint of a stencil -------*- C++ -*-===//
///
/// \file
/// A 64-bit FNV-1a hash of a stencil's parameters and printed body, as 16 hex
/// digits. Generated code records it, so run-time caches (the auto-tuner's)
/// can tell when a stencil changed; names and source positions do not count.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_IR_STENCILHASH_H
#define STENCILC_IR_STENCILHASH_H

#include "stencilc/IR/Stencil.h"
#include <string>

namespace stencilc::ir {

std::string hashStencil(const Stencil &S);

} // namespace stencilc::ir

#endif // STENCILC_IR_STENCILHASH_H
