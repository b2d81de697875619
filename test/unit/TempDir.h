// TempDir.h - a fresh scratch directory per test and process, for the unit
// tests that write files (the tuning cache).
#ifndef STENCILC_TEST_UNIT_TEMPDIR_H
#define STENCILC_TEST_UNIT_TEMPDIR_H

#include <filesystem>
#include <string>
#include <unistd.h>

namespace stencil::test {

/// An empty directory named after \p Name and this process, under the
/// system's temporary directory.
inline std::filesystem::path freshDir(const char *Name) {
  auto P = std::filesystem::temp_directory_path() /
           (std::string("stencilc-tuning-") + Name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(P);
  std::filesystem::create_directories(P);
  return P;
}

} // namespace stencil::test

#endif // STENCILC_TEST_UNIT_TEMPDIR_H
