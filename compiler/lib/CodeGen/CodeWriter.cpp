//===- CodeWriter.cpp - Indented text output for generated code -----------===//
#include "stencilc/CodeGen/CodeWriter.h"
#include "stencilc/CodeGen/RegistrationGlue.h"
#include <cassert>

using namespace stencilc::codegen;

void CodeWriter::writeLine(std::string_view Line) {
  if (!Line.empty())
    Out.append(2 * Depth, ' ');
  Out += Line;
  Out += '\n';
  ++Lines;
  if (Mapped)
    ++MappedLine;
}

void CodeWriter::enableLineDirectives(std::string File) {
  Directives = true;
  GeneratedFile = std::move(File);
}

/// `#line N "file"`, unindented; the name is a string literal, escaped (a
/// Windows path, a name with quotes or a newline), which both compilers
/// read back as the name.
void CodeWriter::writeDirective(unsigned Line, std::string_view File) {
  Out += fmt::format("#line {} {}\n", Line, cStringLiteral(File));
  ++Lines;
}

void CodeWriter::mapLine(const PresumedLoc &Loc) {
  if (!Directives || Loc.Line == 0 || Loc.File.empty())
    return;
  if (Mapped && MappedFile == Loc.File && MappedLine == Loc.Line)
    return;
  writeDirective(Loc.Line, Loc.File);
  Mapped = true;
  MappedFile = Loc.File;
  MappedLine = Loc.Line;
}

void CodeWriter::endMappedLines() {
  if (!Mapped)
    return;
  // The directive is line Lines + 1 of the file; the line after it is its
  // own next line.
  writeDirective(Lines + 2, GeneratedFile);
  Mapped = false;
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
