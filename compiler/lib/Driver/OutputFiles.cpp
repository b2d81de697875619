//===- OutputFiles.cpp - A run's outputs, written all or nothing ----------===//
#include "stencilc/Driver/OutputFiles.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

using namespace stencilc;
namespace fs = llvm::sys::fs;

void OutputFiles::add(std::string Path, std::string Text, Update When) {
  Files.push_back({std::move(Path), std::move(Text), When});
}

static std::string cannot(const char *What, llvm::StringRef Path,
                          std::error_code EC) {
  return (llvm::Twine("cannot ") + What + " '" + Path + "': " + EC.message())
      .str();
}

/// True when \p Path is a file holding exactly \p Text.
static bool holds(llvm::StringRef Path, llvm::StringRef Text) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return Buffer && (*Buffer)->getBuffer() == Text;
}

/// Creates \p Dir and its missing parents; appends each directory created to
/// \p Created, outermost first.
static std::error_code createDirectories(llvm::StringRef Dir,
                                         std::vector<std::string> &Created) {
  if (Dir.empty() || fs::is_directory(Dir))
    return {};
  if (fs::exists(Dir))
    return std::make_error_code(std::errc::not_a_directory);
  if (std::error_code EC =
          createDirectories(llvm::sys::path::parent_path(Dir), Created))
    return EC;
  if (std::error_code EC = fs::create_directory(Dir, /*IgnoreExisting=*/false)) {
    // Made meanwhile by another run: not this run's to remove. Else a link
    // to nowhere, say, which is the user's (mkdir -p refuses it alike).
    if (EC == std::errc::file_exists && fs::is_directory(Dir))
      return {};
    return EC;
  }
  Created.push_back(Dir.str());
  return {};
}

static std::error_code writeText(llvm::raw_fd_ostream &OS,
                                 llvm::StringRef Text) {
  OS << Text;
  OS.close();
  std::error_code EC = OS.error();
  OS.clear_error(); // reported by the caller, not as a fatal error
  return EC;
}

/// Creates a new file beside \p Path, its name in \p Temp, removed if a
/// signal ends the run. The name is registered for removal before the file
/// exists: a signal between the two would otherwise leave the file behind
/// (it may land on any thread, so blocking it here would not help).
static std::error_code createTemporary(llvm::StringRef Path, int &FD,
                                       std::string &Temp) {
  std::error_code EC;
  for (int Try = 0; Try < 128; ++Try) {
    llvm::SmallString<256> Name;
    fs::createUniquePath(Path + ".tmp%%%%%%", Name, /*MakeAbsolute=*/false);
    Temp = std::string(Name);
    llvm::sys::RemoveFileOnSignal(Temp);
    EC = fs::openFileForWrite(Temp, FD, fs::CD_CreateNew);
    if (!EC)
      return {};
    llvm::sys::DontRemoveFileOnSignal(Temp);
    Temp.clear();
    if (EC != std::errc::file_exists)
      return EC;
  }
  return EC;
}

bool OutputFiles::commit(std::string &Error) {
  struct Step {
    const File *F;
    std::string Temp;
    bool InPlace = false;
  };
  // Decide everything before touching the file system.
  std::vector<Step> Steps;
  for (const File &F : Files) {
    fs::file_status Status;
    if (!fs::status(F.Path, Status)) {
      if (fs::is_directory(Status)) {
        Error = cannot("write", F.Path,
                       std::make_error_code(std::errc::is_a_directory));
        return false;
      }
      // /dev/null or a pipe: written directly, as compilers do.
      if (!fs::is_regular_file(Status)) {
        Steps.push_back({&F, "", /*InPlace=*/true});
        continue;
      }
      if (F.When == Update::IfChanged && holds(F.Path, F.Text))
        continue;
    }
    Steps.push_back({&F, ""});
  }

  std::vector<std::string> CreatedDirs;
  auto Fail = [&](std::string Message) {
    for (Step &S : Steps)
      if (!S.Temp.empty()) {
        fs::remove(S.Temp);
        llvm::sys::DontRemoveFileOnSignal(S.Temp);
      }
    for (auto It = CreatedDirs.rbegin(); It != CreatedDirs.rend(); ++It)
      fs::remove(*It);
    Error = std::move(Message);
    return false;
  };

  // Every file in full beside its destination (same file system, so the
  // rename below is atomic), then the special files.
  for (Step &S : Steps) {
    if (S.InPlace)
      continue;
    llvm::StringRef Dir = llvm::sys::path::parent_path(S.F->Path);
    if (std::error_code EC = createDirectories(Dir, CreatedDirs))
      return Fail(cannot("create", Dir, EC));
    int FD;
    if (std::error_code EC = createTemporary(S.F->Path, FD, S.Temp))
      return Fail(cannot("write", S.F->Path, EC));
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    if (std::error_code EC = writeText(OS, S.F->Text))
      return Fail(cannot("write", S.F->Path, EC));
  }
  for (Step &S : Steps) {
    if (!S.InPlace)
      continue;
    std::error_code EC;
    llvm::raw_fd_ostream OS(S.F->Path, EC, fs::OF_None);
    if (EC || (EC = writeText(OS, S.F->Text)))
      return Fail(cannot("write", S.F->Path, EC));
  }
  // Renames within one directory fail only if the directory changes under
  // us; what was renamed before such a failure stays.
  for (Step &S : Steps) {
    if (S.InPlace)
      continue;
    if (std::error_code EC = fs::rename(S.Temp, S.F->Path))
      return Fail(cannot("write", S.F->Path, EC));
    llvm::sys::DontRemoveFileOnSignal(S.Temp);
    S.Temp.clear();
  }
  return true;
}
