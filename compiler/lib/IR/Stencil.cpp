//===- Stencil.cpp - A stencil and a module of stencils -------------------===//
#include "stencilc/IR/Stencil.h"

using namespace stencilc::ir;

std::string Stencil::qualifiedName() const {
  std::string Out;
  for (const std::string &NS : Namespaces)
    Out += NS + "::";
  return Out + Name;
}

std::string Stencil::symbolName() const {
  std::string Out;
  for (const std::string &NS : Namespaces)
    Out += NS + "_";
  return Out + Name;
}
