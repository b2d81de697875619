//===- StencilHash.cpp - A stable fingerprint of a stencil ----------------===//
#include "stencilc/IR/StencilHash.h"
#include "stencilc/IR/IRPrinter.h"
#include <cstdint>
#include <cstdio>

using namespace stencilc::ir;

/// \p Text's 64-bit FNV-1a hash as 16 hex digits.
static std::string hashText(const std::string &Text) {
  std::uint64_t Hash = 14695981039346656037ull; // FNV-1a offset basis
  for (unsigned char C : Text) {
    Hash ^= C;
    Hash *= 1099511628211ull; // FNV prime
  }
  char Buf[17];
  std::snprintf(Buf, sizeof(Buf), "%016llx",
                static_cast<unsigned long long>(Hash));
  return Buf;
}

std::string stencilc::ir::hashStencil(const Stencil &S) {
  std::string Text = std::to_string(S.Dims) + "\n";
  for (const Param &P : S.Params)
    Text += declaredType(P, S.Dims) + "\n";
  if (S.Body)
    Text += printStmt(S, *S.Body);
  return hashText(Text);
}

std::string stencilc::ir::hashStep(const std::vector<Stencil> &Stencils,
                                   const Step &St, const std::string &Plan) {
  std::string Text = std::to_string(St.Dims) + "\n";
  for (const Param &P : St.Params)
    Text += declaredType(P, St.Dims) + (P.Scratch ? " scratch\n" : "\n");
  for (const StepCall &C : St.Calls) {
    Text += hashStencil(Stencils[C.Stencil]) + "(";
    for (const StepArg &A : C.Args)
      Text += A.From == StepArg::Kind::Param ? std::to_string(A.Param) + ","
                                             : std::string("literal,");
    Text += ")\n";
  }
  return hashText(Text + Plan);
}
