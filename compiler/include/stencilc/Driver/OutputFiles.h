//===- OutputFiles.h - A run's outputs, written all or nothing -*- C++ -*-===//
///
/// \file
/// The files one run writes (generated code, depfile, stamp) are staged in
/// memory and committed together: each is written to a temporary file beside
/// its destination, and only when every one was written completely are they
/// renamed into place. A failed commit leaves no new or half-written file and
/// removes the directories it created.
///
/// A file staged with Update::IfChanged whose destination already holds the
/// same text is left alone, so its modification time stays and a build system
/// does not recompile what depends on it.
///
//===----------------------------------------------------------------------===//
#ifndef STENCILC_DRIVER_OUTPUTFILES_H
#define STENCILC_DRIVER_OUTPUTFILES_H

#include <string>
#include <vector>

namespace stencilc {

class OutputFiles {
public:
  enum class Update { IfChanged, Always };

  /// Stages \p Text for \p Path. Paths must be distinct.
  void add(std::string Path, std::string Text, Update When = Update::IfChanged);

  /// Writes every staged file. On failure returns false with a message
  /// ("cannot write 'P': reason") in \p Error, and nothing was changed.
  bool commit(std::string &Error);

private:
  struct File {
    std::string Path;
    std::string Text;
    Update When;
  };
  std::vector<File> Files;
};

} // namespace stencilc

#endif // STENCILC_DRIVER_OUTPUTFILES_H
