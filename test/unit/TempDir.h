// TempDir.h - a fresh scratch directory per test and process, for the unit
// tests that write files (the tuning cache).
#ifndef STENCILC_TEST_UNIT_TEMPDIR_H
#define STENCILC_TEST_UNIT_TEMPDIR_H

#include <filesystem>
#include <string>
#include <system_error>
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

/// A freshDir removed again when the test ends, also where an assertion
/// returns early (a cache file may be 16 MiB).
class ScratchDir {
public:
  explicit ScratchDir(const char *Name) : P(freshDir(Name)) {}
  ~ScratchDir() {
    std::error_code Ignored;
    std::filesystem::remove_all(P, Ignored);
  }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  const std::filesystem::path &path() const { return P; }

private:
  std::filesystem::path P;
};

} // namespace stencil::test

#endif // STENCILC_TEST_UNIT_TEMPDIR_H
