//===- StencilHash.cpp - A stable fingerprint of a stencil ----------------===//
#include "stencilc/IR/StencilHash.h"
#include "stencilc/IR/IRPrinter.h"
#include <cstdint>
#include <cstdio>

using namespace stencilc::ir;

std::string stencilc::ir::hashStencil(const Stencil &S) {
  std::string Text = std::to_string(S.Dims) + "\n";
  for (const Param &P : S.Params)
    Text += declaredType(P, S.Dims) + "\n";
  if (S.Body)
    Text += printStmt(S, *S.Body);
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
