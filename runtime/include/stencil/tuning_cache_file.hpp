// stencil/tuning_cache_file.hpp - the tuning cache as a file shared by
// processes: what may be read or replaced at its path, the writers' lock,
// the atomic replacement (a temporary file beside it, then a rename) and the
// rule of one warning per file per process. What the file holds is
// stencil/tuning_cache.hpp's business.
#ifndef STENCIL_TUNING_CACHE_FILE_HPP
#define STENCIL_TUNING_CACHE_FILE_HPP

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <system_error>
#include <vector>
#if defined(__unix__) || defined(__APPLE__)
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace stencil::tuning {

/// A cache file larger than this is not read: no sane cache is that big
/// (an entry is a few hundred bytes), and a hostile one must not exhaust
/// memory.
inline constexpr std::uintmax_t MaxCacheFileBytes = 16u << 20;

namespace detail {

/// Why a path whose symbolic links loop is not a cache file.
inline constexpr const char *LinkLoop =
    "its symbolic links lead to one another";

/// Threads of one process share fcntl locks: they take this mutex as well.
inline std::mutex &cacheMutex() {
  static std::mutex M;
  return M;
}

/// \p Path as one spelling per file (absolute, links resolved), so that
/// "cache.json", "./cache.json" and a link to it are warned about once.
inline std::string cacheFileId(const std::string &Path) {
  std::error_code EC;
  std::filesystem::path Id = std::filesystem::weakly_canonical(Path, EC);
  return EC ? Path : Id.string();
}

} // namespace detail

/// Adds \p Warning to \p Warnings unless a warning about the cache file
/// \p Path was already given in this process: a broken cache file is met by
/// every stencil that reads it and by every write, but said once. Warnings
/// of another \p Topic (a write's failure after a read's) are said apart.
inline void warnOncePerFile(const std::string &Path, std::string Warning,
                            std::vector<std::string> *Warnings,
                            const char *Topic = "read") {
  static std::mutex M;
  static std::set<std::string> Warned;
  {
    std::lock_guard<std::mutex> Guard(M);
    if (!Warned.insert(detail::cacheFileId(Path) + '\0' + Topic).second)
      return;
  }
  Warnings->push_back(std::move(Warning));
}

/// Null when \p Path may be read and replaced as a cache file (it is a
/// regular file, possibly through a symbolic link, or nothing yet);
/// otherwise what is there instead. Something else (a directory, a device
/// such as /dev/null, a pipe) is neither read nor replaced.
inline const char *notACacheFile(const std::string &Path) {
  std::error_code EC;
  const std::filesystem::file_status S = std::filesystem::status(Path, EC);
  if (EC == std::errc::too_many_symbolic_link_levels)
    return detail::LinkLoop;
  switch (S.type()) {
  case std::filesystem::file_type::not_found:
  case std::filesystem::file_type::regular:
    return nullptr;
  case std::filesystem::file_type::directory:
    return "it is a directory";
  case std::filesystem::file_type::none:
  case std::filesystem::file_type::unknown:
    // status() failed for another reason than absence (a path through a
    // file, no permission): reading or writing says why.
    return nullptr;
  default:
    return "it is not a regular file";
  }
}

/// The file a cache path names: \p Path itself, or where its symbolic links
/// lead, followed one by one (up to 40, as the kernel does), also to a file
/// that does not exist yet (a link made before its cache).
inline std::string linkTarget(const std::string &Path) {
  std::filesystem::path Target(Path);
  bool Followed = false;
  for (int Hop = 0; Hop < 40; ++Hop, Followed = true) {
    std::error_code EC;
    if (!std::filesystem::is_symlink(Target, EC))
      break;
    const std::filesystem::path To = std::filesystem::read_symlink(Target, EC);
    if (EC)
      break;
    Target = To.is_absolute() ? To : Target.parent_path() / To;
  }
  if (!Followed)
    return Path;
  // A link's directory as the kernel resolves it: ".." after a linked
  // directory leaves the directory the link leads to, which a lexical
  // "a/b/.." -> "a" would not. The file's own name stays (a loop of links
  // is told apart by it).
  std::error_code EC;
  const std::filesystem::path Dir =
      std::filesystem::weakly_canonical(Target.parent_path(), EC);
  if (EC || Dir.empty())
    return Target.string();
  return (Dir / Target.filename()).string();
}

/// Reads the cache file at \p Path into \p Text: false and \p Error set when
/// it cannot be read or is larger than MaxCacheFileBytes. A missing file
/// reads as empty with \p Missing set.
inline bool readCacheFile(const std::string &Path, std::string *Text,
                          bool *Missing, std::string *Error) {
  *Missing = false;
  std::error_code EC;
  if (!std::filesystem::exists(Path, EC) && !EC) {
    *Missing = true;
    return true;
  }
  const std::uintmax_t Size = std::filesystem::file_size(Path, EC);
  if (EC) {
    *Error = "cannot be read: " + EC.message();
    return false;
  }
  if (Size > MaxCacheFileBytes) {
    *Error = "larger than " + std::to_string(MaxCacheFileBytes >> 20) + " MiB";
    return false;
  }
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    *Error = std::string("cannot be read: ") + std::strerror(errno);
    return false;
  }
  // The size may have changed since: read no more than the limit allows.
  Text->clear();
  char Buf[1 << 16];
  while (In.read(Buf, sizeof(Buf)), In.gcount() > 0) {
    Text->append(Buf, static_cast<std::size_t>(In.gcount()));
    if (Text->size() > MaxCacheFileBytes) {
      *Error =
          "larger than " + std::to_string(MaxCacheFileBytes >> 20) + " MiB";
      return false;
    }
  }
  if (In.bad()) {
    *Error = "cannot be read";
    return false;
  }
  return true;
}

namespace detail {

/// Writes \p Text to a new file \p Tmp, flushed to the disk before it is
/// renamed into place (a crash leaves the old cache, not an empty one); with
/// the permissions \p Mode where not negative (the file it replaces).
inline bool writeNewFile(const std::string &Tmp, const std::string &Text,
                         long Mode, std::string *Error) {
#if defined(__unix__) || defined(__APPLE__)
  // O_EXCL: never through a link or over a file someone else put there.
  int Fd = ::open(Tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (Fd < 0) {
    *Error = "cannot create '" + Tmp + "': " + std::strerror(errno);
    return false;
  }
  if (Mode >= 0 && ::fchmod(Fd, static_cast<mode_t>(Mode)) != 0) {
    *Error = "cannot give '" + Tmp +
             "' the permissions of the file it "
             "replaces: " +
             std::strerror(errno);
    ::close(Fd);
    return false;
  }
  const char *P = Text.data();
  std::size_t Left = Text.size();
  while (Left) {
    ssize_t N = ::write(Fd, P, Left);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      *Error = "cannot write '" + Tmp + "': " + std::strerror(errno);
      ::close(Fd);
      return false;
    }
    P += N;
    Left -= static_cast<std::size_t>(N);
  }
  if (::fsync(Fd) != 0 && errno != EINVAL && errno != EROFS) {
    *Error = "cannot write '" + Tmp + "': " + std::strerror(errno);
    ::close(Fd);
    return false;
  }
  if (::close(Fd) != 0) {
    *Error = "cannot write '" + Tmp + "': " + std::strerror(errno);
    return false;
  }
  return true;
#else
  (void)Mode;
  std::ofstream Out(Tmp, std::ios::binary | std::ios::trunc);
  Out << Text;
  Out.flush();
  if (!Out)
    *Error = "cannot write '" + Tmp + "'";
  return static_cast<bool>(Out);
#endif
}

} // namespace detail

/// Writes \p Text to \p Path atomically: a temporary file beside it, then a
/// rename, so a reader sees the old file or the new one, never a part, and
/// no temporary file is left behind. The new file keeps the old one's
/// permissions; a file one may not write is not replaced.
inline bool writeFileAtomically(const std::string &Path,
                                const std::string &Text, std::string *Error) {
  std::error_code EC;
  std::filesystem::path P(Path);
  if (P.has_parent_path() &&
      !std::filesystem::is_directory(P.parent_path(), EC)) {
    std::filesystem::create_directories(P.parent_path(), EC);
    if (EC) {
      *Error = "cannot create the directory '" + P.parent_path().string() +
               "': " + EC.message();
      return false;
    }
  }
  long Mode = -1;
#if defined(__unix__) || defined(__APPLE__)
  const long Pid = static_cast<long>(getpid());
  struct stat Old;
  if (::stat(Path.c_str(), &Old) == 0) {
    // Made read-only, the file is kept as it is (a rename would not ask;
    // root's access() would allow it: the mode says so too).
    if ((Old.st_mode & 0222) == 0 || ::access(Path.c_str(), W_OK) != 0) {
      *Error =
          std::string("it may not be written (") +
          ((Old.st_mode & 0222) == 0 ? "read-only" : std::strerror(errno)) +
          "); it is kept as it is";
      return false;
    }
    Mode = static_cast<long>(Old.st_mode & 07777);
  }
#else
  const long Pid = 0;
#endif
  // Unique per process and call: writers never share a temporary file.
  static std::atomic<unsigned> Serial{0};
  std::string Tmp =
      Path + ".tmp." + std::to_string(Pid) + "." + std::to_string(Serial++);
  if (!detail::writeNewFile(Tmp, Text, Mode, Error)) {
    std::filesystem::remove(Tmp, EC);
    return false;
  }
  std::filesystem::rename(Tmp, P, EC);
  if (EC) {
    *Error = "cannot rename '" + Tmp + "' to '" + Path + "': " + EC.message();
    std::filesystem::remove(Tmp, EC);
    return false;
  }
  return true;
}

/// An exclusive lock on "<Path>.lock" while it lives: the writers of one
/// cache file, in any process (fcntl, which NFS honours too) and any thread,
/// take turns. A lock that cannot be taken leaves error() set.
class CacheLock {
public:
  explicit CacheLock(const std::string &Path) : guard_(detail::cacheMutex()) {
#if defined(__unix__) || defined(__APPLE__)
    const std::string LockPath = Path + ".lock";
    fd_ = ::open(LockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      error_ = "cannot open '" + LockPath + "': " + std::strerror(errno);
      return;
    }
    struct flock L = {};
    L.l_type = F_WRLCK;
    L.l_whence = SEEK_SET;
    while (::fcntl(fd_, F_SETLKW, &L) == -1) {
      if (errno == EINTR)
        continue;
      error_ = "cannot lock '" + LockPath + "': " + std::strerror(errno);
      break;
    }
#endif
  }
  CacheLock(const CacheLock &) = delete;
  CacheLock &operator=(const CacheLock &) = delete;
  /// Closing the descriptor releases the lock.
  ~CacheLock() {
#if defined(__unix__) || defined(__APPLE__)
    if (fd_ >= 0)
      ::close(fd_);
#endif
  }
  const std::string &error() const { return error_; }

private:
  std::lock_guard<std::mutex> guard_;
  int fd_ = -1;
  std::string error_;
};

} // namespace stencil::tuning

#endif // STENCIL_TUNING_CACHE_FILE_HPP
