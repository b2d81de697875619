//===- Stmt.cpp - Statements of the stencil IR ----------------------------===//
#include "stencilc/IR/Stmt.h"

using namespace stencilc::ir;

Stmt::~Stmt() = default;
