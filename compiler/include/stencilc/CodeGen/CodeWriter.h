//===- CodeWriter.h - Indented text output for generated code -*- C++ -*-===//
///
/// \file
/// Collects generated source line by line with two-space indentation, so the
/// backends never count spaces themselves. Lines are formatted with fmt; an
/// empty line carries no trailing whitespace.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_CODEGEN_CODEWRITER_H
#define STENCILC_CODEGEN_CODEWRITER_H

#include "stencilc/Basic/SourceLocation.h"
#include <fmt/format.h>
#include <string>
#include <string_view>

namespace stencilc::codegen {

class CodeWriter {
public:
  /// Writes one line at the current indentation, formatted with fmt.
  template <typename... Args>
  void line(fmt::format_string<Args...> Format, Args &&...A) {
    writeLine(fmt::format(Format, std::forward<Args>(A)...));
  }
  /// Writes \p Text (which may hold several lines) at the current indentation.
  void text(std::string_view Text);
  /// An empty line.
  void blank() { writeLine(""); }

  /// Turns on #line directives: mapLine and endMappedLines print them, and
  /// the lines after a mapped region are attributed to \p GeneratedFile.
  void enableLineDirectives(std::string GeneratedFile);
  /// Attributes the next line to \p Loc (a `#line` directive, unless the
  /// next line is attributed there already). Does nothing when directives
  /// are off or \p Loc is unknown.
  void mapLine(const PresumedLoc &Loc);
  /// Attributes the lines that follow to the generated file itself again.
  void endMappedLines();

  /// Writes \p Opening (e.g. "if (x) {") and indents what follows.
  void open(std::string_view Opening);
  /// Dedents and writes \p Closing (e.g. "}" or "} else {").
  void close(std::string_view Closing = "}");
  void indent() { ++Depth; }
  void dedent();
  unsigned depth() const { return Depth; }

  const std::string &str() const { return Out; }

private:
  void writeLine(std::string_view Line);

  void writeDirective(unsigned Line, std::string_view File);

  std::string Out;
  unsigned Depth = 0;
  unsigned Lines = 0; ///< Lines written so far.
  bool Directives = false;
  std::string GeneratedFile;
  /// While mapped: the file and line the next line is attributed to.
  bool Mapped = false;
  std::string MappedFile;
  unsigned MappedLine = 0;
};

} // namespace stencilc::codegen

#endif // STENCILC_CODEGEN_CODEWRITER_H
