// stencil/tuning_cache.hpp - the auto-tuner's persistent cache: what a
// tuning result is valid for (the key), the JSON file that keeps the results
// ("format": "stencilc-tuning-1"), read and written with nlohmann-json, and
// the lookup. Anything in the file is validated: a corrupt, truncated or
// foreign file is ignored with one warning and replaced by the next write
// (stencil/tuning_cache_file.hpp does that atomically). docs/tuning.md
// describes the file.
#ifndef STENCIL_TUNING_CACHE_HPP
#define STENCIL_TUNING_CACHE_HPP

#include <stencil/tuning_cache_file.hpp>
#include <stencil/tuning_candidate.hpp>

#include <nlohmann/json.hpp>

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

namespace stencil::tuning {

/// What a tuning result is valid for.
struct CacheKey {
  std::string gpu;     ///< cudaDeviceProp::name.
  std::string stencil; ///< The stencil's qualified name.
  std::string
      irHash; ///< Its IR fingerprint: a different one makes an entry stale.
  std::string
      variants; ///< The variant space searched ("grid,zmarch,zmarch2,smem").
  std::string extents;   ///< The region's extents ("512x512x512").
  std::string signature; ///< The parameter types (element type included).
};

/// One tuning result: the best candidate for a key, its time per call and
/// the calls the search took.
struct CacheEntry {
  CacheKey key;
  Candidate best;
  double ms = 0;
  int calls = 0;
};

/// The "format" of the file this runtime reads and writes.
inline const char *cacheFormat() { return "stencilc-tuning-1"; }

/// The cache file: $STENCIL_TUNING_CACHE, else
/// $XDG_CACHE_HOME/stencilc/tuning.json, else ~/.cache/stencilc/tuning.json
/// (the home directory from $HOME, else from the user database); empty if
/// there is none. A relative XDG_CACHE_HOME is ignored, as the XDG base
/// directory specification asks (it would move with the working directory).
inline std::string defaultCachePath() {
  if (const char *P = std::getenv("STENCIL_TUNING_CACHE"); P && *P)
    return P;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X == '/')
    return std::string(X) + "/stencilc/tuning.json";
  const char *Home = std::getenv("HOME");
  if (!Home || !*Home) {
    const passwd *User = ::getpwuid(::getuid());
    Home = User ? User->pw_dir : nullptr;
  }
  if (Home && *Home)
    return std::string(Home) + "/.cache/stencilc/tuning.json";
  return "";
}

namespace detail {

using CacheJson = nlohmann::ordered_json;

/// The deepest nesting the file has ({ "entries": [ { "block": [ ): deeper
/// input is not a cache file, and is refused before it is built in memory.
inline constexpr int MaxCacheJsonDepth = 8;

/// \p Text fit for a one-line warning: bytes outside printable ASCII as
/// \xNN, at most \p Max bytes (a binary file's parse error quotes it).
inline std::string printable(const std::string &Text, std::size_t Max = 120) {
  std::string Out;
  for (unsigned char Ch : Text) {
    if (Out.size() >= Max)
      return Out + "...";
    if (Ch >= 0x20 && Ch < 0x7f) {
      Out += static_cast<char>(Ch);
    } else {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\x%02x", Ch);
      Out += Buf;
    }
  }
  return Out;
}

/// \p V as an integer in [Lo, Hi]: false for anything else (a fraction,
/// 1e300, -1, a string), which a cast to int would make undefined behaviour.
/// Integral floating-point values (64.0) are accepted, as before.
inline bool integerIn(const CacheJson *V, double Lo, double Hi, int *Out) {
  if (!V || !V->is_number())
    return false;
  double D;
  if (V->is_number_unsigned())
    D = static_cast<double>(V->get<std::uint64_t>());
  else if (V->is_number_integer())
    D = static_cast<double>(V->get<std::int64_t>());
  else
    D = V->get<double>();
  if (!std::isfinite(D) || D != std::floor(D) || D < Lo || D > Hi)
    return false;
  *Out = static_cast<int>(D);
  return true;
}

/// The member \p Key of the object \p O, or null.
inline const CacheJson *member(const CacheJson &O, const char *Key) {
  auto It = O.find(Key);
  return It == O.end() ? nullptr : &*It;
}

/// Reads one cache entry into \p C; null, or what is wrong with it. Every
/// field is checked: the file may have been edited, truncated or written by
/// anything.
inline const char *readEntry(const CacheJson &E, CacheEntry *C) {
  if (!E.is_object())
    return "not an object";
  struct {
    const char *key;
    std::string *to;
  } const Strings[] = {
      {"gpu", &C->key.gpu},         {"stencil", &C->key.stencil},
      {"irHash", &C->key.irHash},   {"variants", &C->key.variants},
      {"extents", &C->key.extents}, {"signature", &C->key.signature},
      {"variant", &C->best.variant}};
  for (const auto &S : Strings) {
    const CacheJson *V = member(E, S.key);
    if (!V || !V->is_string() ||
        V->get_ref<const std::string &>().size() > 4096)
      return "a key field is missing, not a string or too long";
    *S.to = V->get<std::string>();
  }
  if (C->best.variant.empty())
    return "'variant' is empty";
  const CacheJson *Block = member(E, "block");
  if (!Block || !Block->is_array() || Block->size() != 3)
    return "'block' is not three numbers";
  // Threads per block dimension at most 1024 on every CUDA GPU; the marching
  // chunk at most chunkValues()' largest.
  if (!integerIn(&(*Block)[0], 1, 1024, &C->best.bx) ||
      !integerIn(&(*Block)[1], 1, 1024, &C->best.by) ||
      !integerIn(&(*Block)[2], 1, 1 << 20, &C->best.bz))
    return "'block' is not three integers in [1, 1024], [1, 1024], [1, 2^20]";
  const CacheJson *Ms = member(E, "ms");
  if (!Ms || !Ms->is_number() || !std::isfinite(Ms->get<double>()) ||
      Ms->get<double>() < 0 || Ms->get<double>() > 1e9)
    return "'ms' is not a time in [0, 1e9] ms";
  C->ms = Ms->get<double>();
  const CacheJson *Calls = member(E, "calls");
  C->calls = 0;
  if (Calls && !integerIn(Calls, 0, 1e9, &C->calls))
    return "'calls' is not an integer in [0, 1e9]";
  return nullptr;
}

/// True when \p Text opens more than \p Most arrays or objects inside one
/// another (brackets inside strings are not counted). A linear scan: the
/// parser's own per-value callback made reading quadratic in the entries
/// (a file of 100000 empty entries took 6 s, well under the size limit).
inline bool nestedDeeperThan(const std::string &Text, int Most) {
  int Depth = 0;
  bool InString = false;
  for (std::size_t I = 0; I < Text.size(); ++I) {
    const char Ch = Text[I];
    if (InString) {
      if (Ch == '\\')
        ++I; // the escaped character, whatever it is
      else if (Ch == '"')
        InString = false;
    } else if (Ch == '"') {
      InString = true;
    } else if (Ch == '[' || Ch == '{') {
      if (++Depth > Most)
        return true;
    } else if (Ch == ']' || Ch == '}') {
      --Depth; // unbalanced text is the parser's to refuse
    }
  }
  return false;
}

/// Parses \p Text as JSON no deeper than MaxCacheJsonDepth; false and
/// \p Error set (why, in one printable line) otherwise.
inline bool parseCacheJson(const std::string &Text, CacheJson *Root,
                           std::string *Error) {
  // Refused before anything is built in memory.
  if (nestedDeeperThan(Text, MaxCacheJsonDepth)) {
    *Error = "nested deeper than a cache file";
    return false;
  }
  try {
    *Root = CacheJson::parse(Text);
    return true;
  } catch (const nlohmann::json::exception &E) {
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
    std::string What = E.what();
    if (std::size_t Close = What.find("] ");
        What.rfind("[json.exception.", 0) == 0 && Close != std::string::npos)
      What.erase(0, Close + 2);
    *Error = "not JSON (" + printable(What) + ")";
  }
  return false;
}

/// Keeps the last of the entries in \p Entries that share a key but for the
/// IR hash (the runtime writes one such entry; a hand-made file may repeat
/// one), in their order; \p Repeated counts those dropped.
inline void dropRepeatedKeys(std::vector<CacheEntry> *Entries, int *Repeated) {
  std::set<std::tuple<std::string, std::string, std::string, std::string,
                      std::string>>
      Seen;
  std::vector<CacheEntry> Kept;
  for (auto It = Entries->rbegin(); It != Entries->rend(); ++It)
    if (Seen.emplace(It->key.gpu, It->key.stencil, It->key.variants,
                     It->key.extents, It->key.signature)
            .second)
      Kept.push_back(std::move(*It));
  *Repeated = static_cast<int>(Entries->size() - Kept.size());
  Entries->assign(std::make_move_iterator(Kept.rbegin()),
                  std::make_move_iterator(Kept.rend()));
}

/// The entries of a cache file's \p Text. False with \p Why set when the
/// file as a whole is not a cache file; invalid entries are skipped,
/// counted in \p Invalid, the first one's problem in \p FirstInvalid;
/// entries repeating a key are dropped but the last, counted in \p Repeated.
inline bool parseCache(const std::string &Text, std::vector<CacheEntry> *Out,
                       std::string *Why, int *Invalid,
                       std::string *FirstInvalid, int *Repeated) {
  *Invalid = 0;
  if (Text.find_first_not_of(" \t\r\n") == std::string::npos) {
    *Why = "it is empty";
    return false;
  }
  CacheJson Root;
  if (!parseCacheJson(Text, &Root, Why))
    return false;
  if (!Root.is_object()) {
    *Why = std::string("not a cache file (a JSON ") + Root.type_name() +
           ", not an object)";
    return false;
  }
  const CacheJson *Format = member(Root, "format");
  if (!Format || !Format->is_string()) {
    *Why = "not a cache file (no \"format\" string)";
    return false;
  }
  if (Format->get_ref<const std::string &>() != cacheFormat()) {
    *Why = "of another format ('" + printable(Format->get<std::string>()) +
           "'; this runtime reads '" + cacheFormat() + "')";
    return false;
  }
  const CacheJson *Entries = member(Root, "entries");
  if (!Entries || !Entries->is_array()) {
    *Why = "corrupt (\"entries\" is not an array)";
    return false;
  }
  for (std::size_t I = 0; I < Entries->size(); ++I) {
    CacheEntry C;
    if (const char *Bad = readEntry((*Entries)[I], &C)) {
      if (!(*Invalid)++)
        *FirstInvalid = "entry " + std::to_string(I + 1) + ": " + Bad;
      continue;
    }
    Out->push_back(C);
  }
  dropRepeatedKeys(Out, Repeated);
  return true;
}

} // namespace detail

/// The entries of the file at \p Path: none if it does not exist. When it
/// cannot be read as a cache file (not a regular file, unreadable, empty,
/// not JSON, another shape or format), none, and a warning in \p Warnings
/// saying which file and why. Invalid entries (detail::readEntry) are
/// skipped, the others kept. At most one warning per file per process
/// (warnOncePerFile). Never throws.
inline std::vector<CacheEntry> readCache(const std::string &Path,
                                         std::vector<std::string> *Warnings) {
  std::vector<CacheEntry> Out;
  const std::string Quoted = "tuning cache '" + Path + "'";
  try {
    if (const char *What = notACacheFile(Path)) {
      warnOncePerFile(Path,
                      Quoted + " ignored: " + What +
                          "; it is neither read nor written (point "
                          "STENCIL_TUNING_CACHE at a file)",
                      Warnings);
      return Out;
    }
    std::string Text, Why, FirstInvalid;
    bool Missing = false;
    int Invalid = 0, Repeated = 0;
    if (!readCacheFile(Path, &Text, &Missing, &Why) ||
        (!Missing && !detail::parseCache(Text, &Out, &Why, &Invalid,
                                         &FirstInvalid, &Repeated))) {
      Out.clear();
      warnOncePerFile(Path,
                      Quoted + " ignored: " + Why +
                          "; the next tuning result replaces it",
                      Warnings);
      return Out;
    }
    // One warning per file, however many entries are bad.
    if (Invalid)
      warnOncePerFile(Path,
                      Quoted + ": ignoring " + std::to_string(Invalid) +
                          (Invalid == 1 ? " invalid entry ("
                                        : " invalid entries (first: ") +
                          FirstInvalid + "); the next tuning result drops " +
                          (Invalid == 1 ? "it" : "them"),
                      Warnings);
    else if (Repeated)
      warnOncePerFile(Path,
                      Quoted + ": ignoring " + std::to_string(Repeated) +
                          (Repeated == 1 ? " entry" : " entries") +
                          " repeating the key of a later one (the last is "
                          "kept); the next tuning result drops " +
                          (Repeated == 1 ? "it" : "them"),
                      Warnings);
  } catch (const std::exception &E) {
    // Only memory can run out here; a cache is never worth a failed run.
    Out.clear();
    warnOncePerFile(Path, Quoted + " ignored: " + E.what(), Warnings);
  }
  return Out;
}

inline bool sameExceptHash(const CacheKey &A, const CacheKey &B) {
  return A.gpu == B.gpu && A.stencil == B.stencil && A.variants == B.variants &&
         A.extents == B.extents && A.signature == B.signature;
}

/// The entry for \p Key, if one is there with the same IR hash; an entry
/// with another hash is stale (the stencil changed): a warning, not a hit.
inline std::optional<CacheEntry>
lookupCache(const std::vector<CacheEntry> &Entries, const CacheKey &Key,
            std::vector<std::string> *Warnings) {
  for (const CacheEntry &E : Entries) {
    if (!sameExceptHash(E.key, Key))
      continue;
    if (E.key.irHash == Key.irHash)
      return E;
    Warnings->push_back("tuning cache entry for " + Key.stencil + " over " +
                        Key.extents + " is stale (the stencil changed: IR " +
                        E.key.irHash + ", now " + Key.irHash +
                        "); tuning again");
  }
  return std::nullopt;
}

namespace detail {

/// One entry as the file writes it, on a line of its own.
inline std::string formatEntry(const CacheEntry &E) {
  // Invalid UTF-8 in a name becomes U+FFFD rather than an exception.
  // Six significant digits, as the file always had: an event timer's
  // float carries no more.
  char Ms[64];
  std::snprintf(Ms, sizeof(Ms), "%.6g", E.ms);
  const CacheJson J = {{"gpu", E.key.gpu},
                       {"stencil", E.key.stencil},
                       {"irHash", E.key.irHash},
                       {"variants", E.key.variants},
                       {"extents", E.key.extents},
                       {"signature", E.key.signature},
                       {"variant", E.best.variant},
                       {"block", {E.best.bx, E.best.by, E.best.bz}},
                       {"ms", std::strtod(Ms, nullptr)},
                       {"calls", E.calls}};
  return J.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// The file's text for the entries' lines: the format, then a line each.
inline std::string formatLines(const std::vector<std::string> &Lines,
                               std::size_t First = 0) {
  std::string Out = std::string("{\n  \"format\": \"") + cacheFormat() +
                    "\",\n  \"entries\": [";
  for (std::size_t I = First; I < Lines.size(); ++I)
    Out += (I > First ? ",\n    " : "\n    ") + Lines[I];
  return Out + "\n  ]\n}\n";
}

} // namespace detail

/// The file's text for \p Entries: the format, then one entry per line.
inline std::string formatCache(const std::vector<CacheEntry> &Entries) {
  std::vector<std::string> Lines;
  for (const CacheEntry &E : Entries)
    Lines.push_back(detail::formatEntry(E));
  return detail::formatLines(Lines);
}

/// The text of the file for \p Entries (the newest last) within
/// MaxCacheFileBytes, which readCache refuses past: the oldest entries are
/// left out until it fits, \p Dropped counts them.
inline std::string formatCacheWithin(const std::vector<CacheEntry> &Entries,
                                     std::size_t *Dropped) {
  std::vector<std::string> Lines;
  std::size_t Size = detail::formatLines({}).size();
  for (const CacheEntry &E : Entries) {
    Lines.push_back(detail::formatEntry(E));
    Size += Lines.back().size() + 6; // ",\n    "
  }
  std::size_t First = 0;
  while (Size > MaxCacheFileBytes && First + 1 < Lines.size())
    Size -= Lines[First++].size() + 6;
  *Dropped = First;
  return detail::formatLines(Lines, First);
}

/// Adds or replaces \p Entry in the cache at \p Path. Under the cache's lock
/// it reads the file again, merges (other entries kept, invalid entries and
/// a corrupt or foreign file dropped, with readCache's one warning) and
/// replaces it atomically, so writers in several processes at once lose
/// nothing and a reader never sees a part. False when nothing was written:
/// \p Error (if given) says why, and \p Warnings has it unless this file
/// was warned about already. Never throws.
inline bool storeCacheEntry(const std::string &Path, const CacheEntry &Entry,
                            std::vector<std::string> *Warnings,
                            std::string *Error = nullptr) {
  std::string Why, Target = Path;
  // What reading it said already (it is not a file) is not said again.
  const char *Topic = "write";
  try {
    std::error_code EC;
    // Through a symbolic link to its file: the link stays a link.
    Target = linkTarget(Path);
    if (std::filesystem::is_symlink(Target, EC)) {
      // Reading said so (notACacheFile).
      Why = detail::LinkLoop;
      Topic = "read";
    } else if (const char *What = notACacheFile(Target)) {
      Why = What;
      Topic = "read";
    } else {
      std::filesystem::path P(Target);
      if (P.has_parent_path())
        std::filesystem::create_directories(P.parent_path(), EC);
      CacheLock Lock(Target);
      std::vector<CacheEntry> Entries = readCache(Target, Warnings);
      Entries.erase(std::remove_if(Entries.begin(), Entries.end(),
                                   [&](const CacheEntry &E) {
                                     return sameExceptHash(E.key, Entry.key);
                                   }),
                    Entries.end());
      Entries.push_back(Entry);
      std::size_t Dropped = 0;
      const std::string Text = formatCacheWithin(Entries, &Dropped);
      // Said once: every later write drops the oldest again.
      if (Dropped)
        warnOncePerFile(Target,
                        "tuning cache '" + Target + "': the " +
                            std::to_string(Dropped) +
                            " oldest entries left out, to keep the file "
                            "within " +
                            std::to_string(MaxCacheFileBytes >> 20) +
                            " MiB (and as many as needed at later writes)",
                        Warnings, "size");
      if (writeFileAtomically(Target, Text, &Why)) {
        if (!Lock.error().empty())
          warnOncePerFile(
              Target,
              "tuning cache '" + Target +
                  "' written without its lock (another process writing at the "
                  "same time may lose entries): " +
                  Lock.error(),
              Warnings, "lock");
        return true;
      }
    }
  } catch (const std::exception &E) {
    Why = E.what();
  }
  // Said even where reading the file was warned about ("the next tuning
  // result replaces it" is then not so).
  warnOncePerFile(Target, "tuning cache '" + Target + "' not written: " + Why,
                  Warnings, Topic);
  if (Error)
    *Error = Why;
  return false;
}

} // namespace stencil::tuning

#endif // STENCIL_TUNING_CACHE_HPP
