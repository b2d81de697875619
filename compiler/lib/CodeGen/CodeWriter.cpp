//===- CodeWriter.cpp - Indented text output for generated code -----------===//
#include "stencilc/CodeGen/CodeWriter.h"
#include <cassert>

using namespace stencilc::codegen;

void CodeWriter::writeLine(std::string_view Line) {
  if (!Line.empty())
    Out.append(2 * Depth, ' ');
  Out += Line;
  Out += '\n';
}

void CodeWriter::text(std::string_view Text) {
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    writeLine(Text.substr(0, End));
    if (End == std::string_view::npos)
      break;
    Text.remove_prefix(End + 1);
  }
}

void CodeWriter::open(std::string_view Opening) {
  writeLine(Opening);
  ++Depth;
}

void CodeWriter::close(std::string_view Closing) {
  dedent();
  writeLine(Closing);
}

void CodeWriter::dedent() {
  assert(Depth > 0 && "unbalanced CodeWriter::dedent");
  --Depth;
}
