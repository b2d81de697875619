//===- StencilHash.h - A stable fingerprint of a stencil -------*- C++ -*-===//
///
/// \file
/// A 64-bit FNV-1a hash of a stencil's parameters and printed body (or of a
/// step's), as 16 hex digits. Generated code records it, so run-time caches (the auto-tuner's)
/// can tell when a stencil changed; names and source positions do not count.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_IR_STENCILHASH_H
#define STENCILC_IR_STENCILHASH_H

#include "stencilc/IR/Stencil.h"
#include "stencilc/IR/Step.h"
#include <string>

namespace stencilc::ir {

std::string hashStencil(const Stencil &S);

/// The same of a step: its dimensions, each call's stencil (by its hash)
/// and arguments, and \p Plan (how they run): a measured choice of the
/// step's groups is stale when it changes.
std::string hashStep(const std::vector<Stencil> &Stencils, const Step &St,
                     const std::string &Plan);

} // namespace stencilc::ir

#endif // STENCILC_IR_STENCILHASH_H
