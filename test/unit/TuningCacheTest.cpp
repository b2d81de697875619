// TuningCacheTest.cpp - the auto-tuner's cache file (stencil/tuning_cache.hpp):
// round trips, files the previous runtime wrote, hostile files (each ignored
// with one warning per file per process, then replaced), atomic replacement
// and writers in several processes and threads.
#include "TempDir.h"

#include <stencil/choice_cache.hpp>
#include <stencil/tuning_cache.hpp>

#include <gtest/gtest.h>

#include <chrono>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <pwd.h>
#include <random>
#include <set>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace stencil::tuning;
using stencil::test::freshDir;

namespace {

CacheEntry sampleEntry() {
  CacheEntry E;
  E.key = {"NVIDIA H100 80GB HBM3", "Diffusion3d", "608dddf86af9ad65",
           "grid,zmarch,smem",      "512x512x512", "FvfffffffPKfPfE"};
  E.best = {"zmarch", 64, 4, 16};
  E.ms = 0.5;
  E.calls = 97;
  return E;
}

std::string readText(const std::filesystem::path &P) {
  std::ifstream In(P, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
}

void writeText(const std::filesystem::path &P, const std::string &Text) {
  std::ofstream(P, std::ios::binary | std::ios::trunc) << Text;
}

/// The entries of the file at \p P as a cache file, read by nlohmann-json
/// itself rather than readCache; -1 when it is not one.
int cacheEntriesIn(const std::filesystem::path &P) {
  nlohmann::json J = nlohmann::json::parse(readText(P), nullptr, /*allow_exceptions=*/false);
  if (!J.is_object() || J.value("format", "") != cacheFormat() || !J.contains("entries") ||
      !J["entries"].is_array())
    return -1;
  return static_cast<int>(J["entries"].size());
}

/// Files in \p Dir that a writer left behind (temporary files).
std::vector<std::string> leftovers(const std::filesystem::path &Dir) {
  std::vector<std::string> Out;
  for (const auto &F : std::filesystem::directory_iterator(Dir))
    if (F.path().filename().string().find(".tmp.") != std::string::npos)
      Out.push_back(F.path().string());
  return Out;
}

bool printable(const std::string &S) {
  for (unsigned char Ch : S)
    if (Ch < 0x20 || Ch >= 0x7f)
      return false;
  return true;
}

/// Two entries exactly as the runtime before nlohmann-json wrote them
/// (its formatCache: spaces after ':' and ',', "%.6g" times, \u escapes).
const char *const OldFormatFile = R"({
  "format": "stencilc-tuning-1",
  "entries": [
    {"gpu": "NVIDIA H100 80GB HBM3", "stencil": "Diffusion3d", "irHash": "608dddf86af9ad65", "variants": "grid,zmarch,zmarch2,smem", "extents": "512x512x512", "signature": "FvfffffffPKfPfE", "variant": "zmarch", "block": [64, 4, 16], "ms": 0.512346, "calls": 97},
    {"gpu": "NVIDIA H100 80GB HBM3", "stencil": "ns::Blur<\"q\\\\\">\u0009", "irHash": "608dddf86af9ad65", "variants": "grid,zmarch,zmarch2,smem", "extents": "8x512x512", "signature": "FvfffffffPKfPfE", "variant": "smem", "block": [8, 32, 1024], "ms": 1.25e-05, "calls": 0}
  ]
}
)";

/// An old-format file with a good entry, then one whose \p Field has the
/// JSON text \p Value (the field added when the entry lacks it).
std::string oldFormatWith(const std::string &Field, const std::string &Value) {
  std::string Bad = R"({"gpu": "NVIDIA H100 80GB HBM3", "stencil": "Diffusion3d", )"
                    R"("irHash": "608dddf86af9ad65", "variants": "grid,zmarch,smem", )"
                    R"("extents": "7x7x7", "signature": "FvfffffffPKfPfE", "variant": "zmarch", )"
                    R"("block": [64, 4, 16], "ms": 0.5, "calls": 97})";
  const std::string Key = "\"" + Field + "\": ";
  std::size_t At = Bad.find(Key);
  EXPECT_NE(At, std::string::npos) << Field;
  At += Key.size();
  std::size_t End = Field == "block" ? Bad.find(']', At) + 1 : Bad.find_first_of(",}", At);
  Bad.replace(At, End - At, Value);
  std::string Good = OldFormatFile;
  std::size_t Close = Good.rfind("\n  ]");
  return Good.substr(0, Close) + ",\n    " + Bad + Good.substr(Close);
}

} // namespace

TEST(TuningCache, RoundTrip) {
  auto Dir = freshDir("roundtrip");
  std::string Path = (Dir / "sub" / "tuning.json").string();
  std::vector<std::string> W;
  EXPECT_TRUE(readCache(Path, &W).empty()) << "a missing file is an empty cache";
  EXPECT_TRUE(W.empty());
  CacheEntry E = sampleEntry();
  ASSERT_TRUE(storeCacheEntry(Path, E, &W));
  CacheEntry Other = E;
  Other.key.extents = "8x512x512";
  Other.key.stencil = "ns::Blur<\"q\\\\\">\t\x01\xc3\xa9"; // quotes, escapes, control, UTF-8
  Other.best = {"smem", 8, 16, 64};
  Other.ms = 0.0123456789;
  ASSERT_TRUE(storeCacheEntry(Path, Other, &W));
  E.best.bz = 32; // replaces the first entry
  ASSERT_TRUE(storeCacheEntry(Path, E, &W));
  EXPECT_EQ(cacheEntriesIn(Path), 2);
  auto Entries = readCache(Path, &W);
  EXPECT_TRUE(W.empty());
  ASSERT_EQ(Entries.size(), 2u);
  auto Hit = lookupCache(Entries, E.key, &W);
  ASSERT_TRUE(Hit);
  EXPECT_EQ(toString(Hit->best), "zmarch:64,4,32");
  EXPECT_EQ(Hit->calls, 97);
  EXPECT_EQ(Hit->ms, 0.5);
  auto Hit2 = lookupCache(Entries, Other.key, &W);
  ASSERT_TRUE(Hit2) << "names with quotes, backslashes and control characters round-trip";
  EXPECT_EQ(toString(Hit2->best), "smem:8,16,64");
  EXPECT_EQ(Hit2->ms, 0.0123457) << "six significant digits, as always";
  CacheKey Missing = E.key;
  Missing.gpu = "NVIDIA H200";
  EXPECT_FALSE(lookupCache(Entries, Missing, &W));
  EXPECT_TRUE(W.empty());
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, TheFileKeepsItsLayout) {
  // One entry per line, keys in the order the previous runtime wrote them.
  std::string Text = formatCache({sampleEntry()});
  EXPECT_EQ(Text, "{\n  \"format\": \"stencilc-tuning-1\",\n  \"entries\": [\n    "
                  "{\"gpu\":\"NVIDIA H100 80GB HBM3\",\"stencil\":\"Diffusion3d\","
                  "\"irHash\":\"608dddf86af9ad65\",\"variants\":\"grid,zmarch,smem\","
                  "\"extents\":\"512x512x512\",\"signature\":\"FvfffffffPKfPfE\","
                  "\"variant\":\"zmarch\",\"block\":[64,4,16],\"ms\":0.5,\"calls\":97}\n  ]\n}\n");
  EXPECT_EQ(formatCache({}), "{\n  \"format\": \"stencilc-tuning-1\",\n  \"entries\": [\n  ]\n}\n");
  // A name that is not UTF-8 is written (replaced), never thrown about.
  CacheEntry E = sampleEntry();
  E.key.gpu = "GPU \xff\xfe";
  EXPECT_NO_THROW(formatCache({E}));
}

TEST(TuningCache, ReadsTheFilesTheOldRuntimeWrote) {
  auto Dir = freshDir("old-format");
  const auto Path = Dir / "tuning.json";
  writeText(Path, OldFormatFile);
  std::vector<std::string> W;
  std::vector<CacheEntry> Entries = readCache(Path.string(), &W);
  EXPECT_TRUE(W.empty()) << W[0];
  ASSERT_EQ(Entries.size(), 2u);
  EXPECT_EQ(Entries[0].key.gpu, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(Entries[0].key.stencil, "Diffusion3d");
  EXPECT_EQ(Entries[0].key.irHash, "608dddf86af9ad65");
  EXPECT_EQ(Entries[0].key.variants, "grid,zmarch,zmarch2,smem");
  EXPECT_EQ(Entries[0].key.extents, "512x512x512");
  EXPECT_EQ(Entries[0].key.signature, "FvfffffffPKfPfE");
  EXPECT_EQ(toString(Entries[0].best), "zmarch:64,4,16");
  EXPECT_EQ(Entries[0].ms, 0.512346);
  EXPECT_EQ(Entries[0].calls, 97);
  EXPECT_EQ(Entries[1].key.stencil, "ns::Blur<\"q\\\\\">\t");
  EXPECT_EQ(toString(Entries[1].best), "smem:8,32,1024");
  EXPECT_EQ(Entries[1].ms, 1.25e-05);
  EXPECT_EQ(Entries[1].calls, 0);

  // What the old reader accepted too: integral numbers written as 64.0, no
  // "calls", fields it did not know.
  writeText(Path, oldFormatWith("block", "[64.0, 4, 1.6e1]"));
  W.clear();
  Entries = readCache(Path.string(), &W);
  EXPECT_TRUE(W.empty()) << W[0];
  ASSERT_EQ(Entries.size(), 3u);
  EXPECT_EQ(toString(Entries[2].best), "zmarch:64,4,16");
  writeText(Path, oldFormatWith("calls", "97, \"note\": {\"by\": [\"hand\"]}"));
  Entries = readCache(Path.string(), &W);
  EXPECT_TRUE(W.empty()) << W[0];
  EXPECT_EQ(Entries.size(), 3u);

  // Storing keeps the old entries.
  writeText(Path, OldFormatFile);
  CacheEntry New = sampleEntry();
  New.key.extents = "64x64x64";
  ASSERT_TRUE(storeCacheEntry(Path.string(), New, &W));
  EXPECT_TRUE(W.empty());
  EXPECT_EQ(cacheEntriesIn(Path), 3);
  Entries = readCache(Path.string(), &W);
  ASSERT_EQ(Entries.size(), 3u);
  EXPECT_EQ(Entries[1].key.stencil, "ns::Blur<\"q\\\\\">\t");
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, StaleHashIsIgnoredWithAWarning) {
  std::vector<CacheEntry> Entries = {sampleEntry()};
  CacheKey Now = Entries[0].key;
  Now.irHash = "0123456789abcdef";
  std::vector<std::string> W;
  EXPECT_FALSE(lookupCache(Entries, Now, &W));
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("stale"), std::string::npos);
}

TEST(TuningCache, HostileFilesAreIgnoredWithOneWarningThenReplaced) {
  auto Dir = freshDir("hostile-files");
  std::string Binary(4096, '\0');
  std::mt19937 Random(11);
  for (char &Ch : Binary)
    Ch = static_cast<char>(Random());
  Binary[0] = '\xff';
  std::string WithNul = OldFormatFile;
  WithNul.insert(WithNul.find("\"entries\""), 1, '\0');
  const std::string Entry = R"({"gpu": "G", "stencil": "S", "irHash": "H", "variants": "grid", )"
                            R"("extents": "8x8x8", "signature": "F", "variant": "grid", )"
                            R"("block": [8, 8, 1], "ms": 1, "calls": 1})";
  struct Case {
    const char *name;
    std::string text;
    const char *why; ///< In the warning.
  } const Cases[] = {
      {"empty", "", "it is empty"},
      {"blank", " \n\t\r\n", "it is empty"},
      {"truncated-in-entry", std::string(OldFormatFile).substr(0, 200), "not JSON"},
      {"truncated-in-array", std::string(OldFormatFile).substr(0, 60), "not JSON"},
      {"truncated-in-key", std::string(OldFormatFile).substr(0, 8), "not JSON"},
      {"not-json", "garbage", "not JSON"},
      {"single-quotes", "{'format': 'stencilc-tuning-1', 'entries': []}", "not JSON"},
      {"trailing-text", "{\"format\": \"stencilc-tuning-1\", \"entries\": []} x", "not JSON"},
      {"nan-time", oldFormatWith("ms", "nan"), "not JSON"},
      {"inf-time", oldFormatWith("ms", "inf"), "not JSON"},
      {"overflowing-time", oldFormatWith("ms", "1e999"), "not JSON (number overflow"},
      {"binary", Binary, "not JSON"},
      {"nul-inside", WithNul, "not JSON"},
      {"array", "[]", "a JSON array"},
      {"array-of-entries", "[" + Entry + "]", "a JSON array"},
      {"number", "-42", "a JSON number"},
      {"string", "\"stencilc-tuning-1\"", "a JSON string"},
      {"null", "null", "a JSON null"},
      {"boolean", "true", "a JSON boolean"},
      {"empty-object", "{}", "no \"format\" string"},
      {"format-number", "{\"format\": 1, \"entries\": []}", "no \"format\" string"},
      {"unknown-version", "{\"format\": \"stencilc-tuning-2\", \"entries\": []}",
       "of another format ('stencilc-tuning-2'; this runtime reads 'stencilc-tuning-1')"},
      {"other-program", "{\"format\": \"\\u0000\\u00ff\", \"data\": 1}", "of another format"},
      {"no-entries", "{\"format\": \"stencilc-tuning-1\"}", "\"entries\" is not an array"},
      {"entries-object", "{\"format\": \"stencilc-tuning-1\", \"entries\": {\"0\": " + Entry + "}}",
       "\"entries\" is not an array"},
      {"deep", std::string(100000, '['), "nested deeper"},
      {"deep-entry", "{\"format\": \"stencilc-tuning-1\", \"entries\": [[[[[[[[[[[[1]]]]]]]]]]]]}",
       "nested deeper"},
      {"huge", std::string(OldFormatFile) + std::string((16 << 20) + 1, ' '), "larger than 16 MiB"},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.name);
    const auto Path = Dir / (std::string(C.name) + ".json");
    writeText(Path, C.text);
    std::vector<std::string> W;
    std::vector<CacheEntry> Entries;
    EXPECT_NO_THROW(Entries = readCache(Path.string(), &W));
    EXPECT_TRUE(Entries.empty());
    ASSERT_EQ(W.size(), 1u);
    EXPECT_EQ(W[0].rfind("tuning cache '" + Path.string() + "' ignored: ", 0), 0u) << W[0];
    EXPECT_NE(W[0].find(C.why), std::string::npos) << W[0];
    EXPECT_NE(W[0].find("the next tuning result replaces it"), std::string::npos) << W[0];
    EXPECT_TRUE(printable(W[0])) << W[0];
    EXPECT_LT(W[0].size(), 400u) << W[0];
    // Once per file per process: the next stencil reading it, and the write
    // that replaces it, say nothing more.
    EXPECT_TRUE(readCache(Path.string(), &W).empty());
    ASSERT_TRUE(storeCacheEntry(Path.string(), sampleEntry(), &W));
    EXPECT_EQ(W.size(), 1u);
    // Replaced whole, atomically: a cache file with just the new entry.
    EXPECT_EQ(cacheEntriesIn(Path), 1);
    std::vector<std::string> After;
    EXPECT_EQ(readCache(Path.string(), &After).size(), 1u);
    EXPECT_TRUE(After.empty());
    EXPECT_TRUE(leftovers(Dir).empty());
  }
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, EveryTruncationIsIgnoredWithOneWarning) {
  // A file cut anywhere before its closing brace (a full disk, a killed
  // writer of another program): never an entry, never a throw.
  auto Dir = freshDir("truncations");
  const std::string Whole = OldFormatFile;
  const std::size_t End = Whole.rfind('}');
  for (std::size_t Length = 0; Length < End; ++Length) {
    const auto Path = Dir / ("cut" + std::to_string(Length) + ".json");
    writeText(Path, Whole.substr(0, Length));
    std::vector<std::string> W;
    std::vector<CacheEntry> Entries;
    EXPECT_NO_THROW(Entries = readCache(Path.string(), &W));
    EXPECT_TRUE(Entries.empty()) << Length;
    ASSERT_EQ(W.size(), 1u) << Length;
    EXPECT_NE(W[0].find(Length == 0 ? "it is empty" : "not JSON"), std::string::npos) << W[0];
  }
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, HostileEntriesAreIgnoredWithOneWarning) {
  auto Dir = freshDir("hostile-entries");
  const std::pair<const char *, const char *> Cases[] = {
      {"calls", "1e300"},
      {"calls", "-1"},
      {"calls", "2.5"},
      {"calls", "\"7\""},
      {"calls", "true"},
      {"calls", "18446744073709551616"},
      {"calls", "-9223372036854775809"},
      {"calls", "1000000001"},
      {"ms", "-3"},
      {"ms", "\"0.5\""},
      {"ms", "null"},
      {"block", "[1e6, 1, 1]"},
      {"block", "[64, 4, 1e300]"},
      {"block", "[64, -4, 1]"},
      {"block", "[64.5, 4, 1]"},
      {"block", "[0, 4, 1]"},
      {"block", "[64, 4]"},
      {"block", "[64, 4, 16, 1]"},
      {"block", "[64, 4, \"16\"]"},
      {"block", "[2048, 1, 1]"},
      {"block", "[64, 4, 1048577]"},
      {"block", "{}"},
      {"block", "\"64,4,16\""},
      {"variant", "\"\""},
      {"variant", "3"},
      {"gpu", "null"},
      {"gpu", "[\"NVIDIA\"]"},
  };
  int N = 0;
  for (const auto &[Field, Value] : Cases) {
    SCOPED_TRACE(std::string(Field) + ": " + Value);
    const auto Path = Dir / ("entry" + std::to_string(N++) + ".json");
    const std::string Text = oldFormatWith(Field, Value);
    writeText(Path, Text);
    std::vector<std::string> W;
    const std::vector<CacheEntry> Entries = readCache(Path.string(), &W);
    ASSERT_EQ(Entries.size(), 2u) << Text;
    EXPECT_EQ(Entries[0].key.extents, "512x512x512");
    EXPECT_EQ(Entries[1].key.extents, "8x512x512");
    ASSERT_EQ(W.size(), 1u);
    EXPECT_EQ(
        W[0].rfind("tuning cache '" + Path.string() + "': ignoring 1 invalid entry (entry 3: ", 0),
        0u)
        << W[0];
    // The write drops the invalid entry, keeps the good ones, warns no more.
    CacheEntry New = sampleEntry();
    New.key.extents = "1x1x1";
    ASSERT_TRUE(storeCacheEntry(Path.string(), New, &W));
    EXPECT_EQ(W.size(), 1u);
    EXPECT_EQ(cacheEntriesIn(Path), 3);
  }
  // Many bad entries: still one warning.
  const auto Path = Dir / "many.json";
  writeText(Path, "{\"format\": \"stencilc-tuning-1\", \"entries\": [1, 2, \"x\", [], {}]}");
  std::vector<std::string> W;
  EXPECT_TRUE(readCache(Path.string(), &W).empty());
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("5 invalid entries"), std::string::npos) << W[0];
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, RepeatedKeysKeepTheLastWithOneWarning) {
  // A hand-made file naming one key 200 times (the runtime writes one entry
  // a key): the last is kept, the others dropped with one warning.
  auto Dir = freshDir("repeated");
  const auto Path = Dir / "tuning.json";
  std::vector<CacheEntry> Written;
  for (int I = 1; I <= 200; ++I) {
    Written.push_back(sampleEntry());
    Written.back().best.bx = I;
    Written.back().key.irHash = I % 2 ? "608dddf86af9ad65" : "other";
  }
  Written.push_back(sampleEntry());
  Written.back().key.extents = "8x8x8";
  writeText(Path, formatCache(Written));
  std::vector<std::string> W;
  const std::vector<CacheEntry> Entries = readCache(Path.string(), &W);
  ASSERT_EQ(Entries.size(), 2u);
  EXPECT_EQ(Entries[0].best.bx, 200);
  EXPECT_EQ(Entries[0].key.irHash, "other");
  EXPECT_EQ(Entries[1].key.extents, "8x8x8");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0], "tuning cache '" + Path.string() +
                      "': ignoring 199 entries repeating the key of a later "
                      "one (the last is "
                      "kept); the next tuning result drops them");
  // The lookup sees the kept entry only: its hash is "other", so the
  // sample's key is stale once, not 100 times.
  std::vector<std::string> Stale;
  EXPECT_FALSE(lookupCache(Entries, sampleEntry().key, &Stale));
  EXPECT_EQ(Stale.size(), 1u);
  // The next write keeps one entry a key.
  ASSERT_TRUE(storeCacheEntry(Path.string(), sampleEntry(), &W));
  EXPECT_EQ(W.size(), 1u);
  EXPECT_EQ(cacheEntriesIn(Path), 2);
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, ChoicesNotWrittenWarnOnce) {
  // A step's or a time loop's choices, one per round: a cache that cannot
  // be written is said once, as the tuner's own entries are.
  auto Dir = freshDir("choices");
  writeText(Dir / "file", "");
  const std::string Path = (Dir / "file" / "tuning.json").string();
  testing::internal::CaptureStderr();
  for (int Round = 0; Round < 3; ++Round) {
    CacheKey Key = sampleEntry().key;
    Key.stencil = "step round " + std::to_string(Round);
    stencil::detail::storeChoice(Path, Key, "planned", 0.5, 4);
  }
  const std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(Err.begin(), Err.end(), '\n'), 1) << Err;
  EXPECT_EQ(Err.rfind("stencil: warning: tuning cache '" + Path +
                          "' not written: cannot create the directory '" +
                          (Dir / "file").string() + "': ",
                      0),
            0u)
      << Err;
  std::filesystem::remove_all(Dir);
}

/// Sets (or, with null, unsets) environment variable \p Name for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Saved = Old;
    Value ? ::setenv(Name, Value, 1) : ::unsetenv(Name);
  }
  ~ScopedEnv() { Saved ? ::setenv(Name, Saved->c_str(), 1) : ::unsetenv(Name); }

private:
  const char *Name;
  std::optional<std::string> Saved;
};

TEST(TuningCache, DefaultPathFollowsTheEnvironment) {
  ScopedEnv Cache("STENCIL_TUNING_CACHE", nullptr);
  {
    ScopedEnv Xdg("XDG_CACHE_HOME", "/xdg"), Home("HOME", "/home/me");
    EXPECT_EQ(defaultCachePath(), "/xdg/stencilc/tuning.json");
  }
  {
    // A relative XDG_CACHE_HOME would follow the working directory: the
    // XDG specification says to ignore it.
    ScopedEnv Xdg("XDG_CACHE_HOME", "relative/cache"), Home("HOME", "/home/me");
    EXPECT_EQ(defaultCachePath(), "/home/me/.cache/stencilc/tuning.json");
  }
  {
    // Without HOME (a batch job's bare environment): the user database's.
    ScopedEnv Xdg("XDG_CACHE_HOME", ""), Home("HOME", nullptr);
    const passwd *User = ::getpwuid(::getuid());
    ASSERT_NE(User, nullptr);
    EXPECT_EQ(defaultCachePath(),
              std::string(User->pw_dir) + "/.cache/stencilc/tuning.json");
  }
  ScopedEnv Set("STENCIL_TUNING_CACHE", "here.json");
  EXPECT_EQ(defaultCachePath(), "here.json");
}

TEST(TuningCache, OneWarningPerFileHoweverItIsNamed) {
  auto Dir = freshDir("once");
  writeText(Dir / "a.json", "garbage");
  writeText(Dir / "b.json", "garbage");
  std::filesystem::create_symlink(Dir / "a.json", Dir / "link.json");
  std::vector<std::string> W;
  readCache((Dir / "a.json").string(), &W);
  readCache((Dir / "." / "a.json").string(), &W);
  readCache((Dir / "link.json").string(), &W);
  ASSERT_EQ(W.size(), 1u);
  readCache((Dir / "b.json").string(), &W);
  EXPECT_EQ(W.size(), 2u) << "another file has its own warning";
  // Through the link: the file behind it is replaced, the link stays a link.
  ASSERT_TRUE(storeCacheEntry((Dir / "link.json").string(), sampleEntry(), &W));
  EXPECT_EQ(W.size(), 2u);
  EXPECT_TRUE(std::filesystem::is_symlink(Dir / "link.json"));
  EXPECT_EQ(cacheEntriesIn(Dir / "a.json"), 1);
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, ADirectoryOrAPipeIsNeitherReadNorReplaced) {
  auto Dir = freshDir("not-a-file");
  const auto Blocked = Dir / "dir.json";
  std::filesystem::create_directories(Blocked / "inside");
  const auto Pipe = Dir / "pipe.json";
  ASSERT_EQ(::mkfifo(Pipe.c_str(), 0644), 0);
  for (const auto &[Path, What] :
       {std::pair{Blocked, "it is a directory"}, std::pair{Pipe, "it is not a regular file"}}) {
    SCOPED_TRACE(Path.string());
    std::vector<std::string> W;
    // A pipe would block a reader forever: it must not be opened.
    EXPECT_TRUE(readCache(Path.string(), &W).empty());
    ASSERT_EQ(W.size(), 1u);
    EXPECT_EQ(W[0], "tuning cache '" + Path.string() + "' ignored: " + What +
                        "; it is neither read nor written (point STENCIL_TUNING_CACHE at a file)");
    std::string Why;
    EXPECT_FALSE(storeCacheEntry(Path.string(), sampleEntry(), &W, &Why));
    EXPECT_EQ(Why, What);
    EXPECT_EQ(W.size(), 1u) << "the same file: no second warning";
    EXPECT_TRUE(leftovers(Dir).empty());
  }
  EXPECT_TRUE(std::filesystem::is_directory(Blocked / "inside"));
  EXPECT_TRUE(std::filesystem::is_fifo(Pipe));
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, UnwritableDirectoryWarnsOnceAndKeepsTheFile) {
  // In a child process, as a user without root's power over permissions.
  auto Dir = freshDir("unwritable");
  const auto Full = Dir / "full";
  const auto Empty = Dir / "empty";
  std::filesystem::create_directories(Full);
  std::filesystem::create_directories(Empty);
  const auto Open = Dir / "open";
  std::filesystem::create_directories(Open);
  writeText(Full / "tuning.json", OldFormatFile);
  writeText(Open / "tuning.json", OldFormatFile);
  ::chmod((Open / "tuning.json").c_str(), 0444);
  ::chmod(Open.c_str(), 0777);
  ::chmod(Full.c_str(), 0555);
  ::chmod(Empty.c_str(), 0555);
  pid_t Pid = ::fork();
  ASSERT_GE(Pid, 0);
  if (Pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
      ::_exit(10);
    int Failures = 0;
    auto Expect = [&Failures](bool Ok, int Code) {
      if (!Ok && !Failures)
        Failures = Code;
    };
    // A missing file in it: nothing to read, nothing written, one warning.
    const std::string Missing = (Empty / "tuning.json").string();
    std::vector<std::string> W;
    Expect(readCache(Missing, &W).empty() && W.empty(), 11);
    std::string Why;
    Expect(!storeCacheEntry(Missing, sampleEntry(), &W, &Why), 12);
    Expect(W.size() == 1 &&
               W[0].rfind("tuning cache '" + Missing + "' not written: cannot create '", 0) == 0,
           13);
    Expect(Why.find("Permission denied") != std::string::npos, 14);
    Expect(!storeCacheEntry(Missing, sampleEntry(), &W) && W.size() == 1, 15);
    // A good file in it: read, not replaced, one warning.
    const std::string Good = (Full / "tuning.json").string();
    std::vector<std::string> W2;
    Expect(readCache(Good, &W2).size() == 2 && W2.empty(), 16);
    Expect(!storeCacheEntry(Good, sampleEntry(), &W2) && W2.size() == 1, 17);
    Expect(!storeCacheEntry(Good, sampleEntry(), &W2) && W2.size() == 1, 18);
    // A read-only file in a directory one may write: kept as it is (a
    // rename would not have asked), one warning saying so.
    const std::string ReadOnly = (Open / "tuning.json").string();
    std::vector<std::string> W3;
    Expect(!storeCacheEntry(ReadOnly, sampleEntry(), &W3, &Why) &&
               W3.size() == 1,
           19);
    Expect(Why.find("it is kept as it is") != std::string::npos, 20);
    ::_exit(Failures);
  }
  int Status = 0;
  ASSERT_EQ(::waitpid(Pid, &Status, 0), Pid);
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 0) << "the first failed expectation's code (see the test)";
  EXPECT_EQ(readText(Full / "tuning.json"), OldFormatFile);
  EXPECT_EQ(readText(Open / "tuning.json"), OldFormatFile);
  EXPECT_TRUE(leftovers(Open).empty());
  EXPECT_TRUE(std::filesystem::is_empty(Empty));
  EXPECT_TRUE(leftovers(Full).empty());
  ::chmod(Full.c_str(), 0755);
  ::chmod(Empty.c_str(), 0755);
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, ReadingTakesTimeLinearInTheFile) {
  // 200000 empty entries (600 KB, far below the size limit): the parser's
  // per-value callback took about 20 s for them, 2 minutes for 400000.
  auto Dir = freshDir("linear");
  std::string Text = "{\"format\": \"stencilc-tuning-1\", \"entries\": [{}";
  for (int I = 1; I < 200000; ++I)
    Text += ",{}";
  writeText(Dir / "tuning.json", Text + "]}");
  std::vector<std::string> W;
  const auto Start = std::chrono::steady_clock::now();
  EXPECT_TRUE(readCache((Dir / "tuning.json").string(), &W).empty());
  const double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  EXPECT_LT(Seconds, 5.0);
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("ignoring 200000 invalid entries"), std::string::npos)
      << W[0];
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, WritesStayWithinTheLimitReadsHold) {
  // A file near the limit and one entry more: the runtime wrote past 16 MiB,
  // and its next read refused the file, which the next write replaced with
  // its one entry. Now the oldest entries are left out, with a warning.
  const stencil::test::ScratchDir Dir("limit");
  const std::string Path = (Dir.path() / "tuning.json").string();
  std::vector<CacheEntry> Many;
  CacheEntry E = sampleEntry();
  E.key.stencil = std::string(3000, 's');
  // Entries of one size (extents of six digits): as many as the limit holds.
  auto Extents = [](const char *Prefix, int I) {
    char Text[32];
    std::snprintf(Text, sizeof(Text), "%s%06dx1x1", Prefix, I);
    return std::string(Text);
  };
  E.key.extents = Extents("o", 0);
  const std::size_t One = formatCache({E}).size(),
                    Each = formatCache({E, E}).size() - One;
  const int Fit = static_cast<int>((MaxCacheFileBytes - One) / Each) + 1;
  for (int I = 0; I < Fit; ++I) {
    E.key.extents = Extents("o", I);
    Many.push_back(E);
  }
  std::string Error;
  ASSERT_TRUE(writeFileAtomically(Path, formatCache(Many), &Error));
  std::vector<std::string> W;
  for (int New = 0; New < 3; ++New) {
    E.key.extents = Extents("n", New);
    ASSERT_TRUE(storeCacheEntry(Path, E, &W));
  }
  EXPECT_LE(std::filesystem::file_size(Path), MaxCacheFileBytes);
  const std::vector<CacheEntry> After = readCache(Path, &W);
  // Each write left out the oldest entry: the newest three last.
  ASSERT_EQ(After.size(), Many.size());
  EXPECT_EQ(After.back().key.extents, Extents("n", 2));
  EXPECT_EQ(After.front().key.extents, Many[3].key.extents);
  // Said once for the file, not at each of the three writes.
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(
      W[0].find("oldest entries left out, to keep the file within 16 MiB"),
      std::string::npos)
      << W[0];
}

TEST(TuningCache, ALinkToAFileNotYetMadeStaysALink) {
  // A link to a shared cache, made before the cache: the file behind it is
  // written (its directories made), the link stays.
  auto Dir = freshDir("dangling");
  std::filesystem::create_symlink("shared/deeper/tuning.json",
                                  Dir / "link.json");
  std::filesystem::create_symlink(Dir / "link.json", Dir / "second.json");
  std::vector<std::string> W;
  ASSERT_TRUE(
      storeCacheEntry((Dir / "second.json").string(), sampleEntry(), &W));
  EXPECT_TRUE(W.empty());
  EXPECT_TRUE(std::filesystem::is_symlink(Dir / "link.json"));
  EXPECT_TRUE(std::filesystem::is_symlink(Dir / "second.json"));
  EXPECT_EQ(cacheEntriesIn(Dir / "shared" / "deeper" / "tuning.json"), 1);
  // Links that lead to one another: nothing written, the links kept.
  std::filesystem::create_symlink(Dir / "loop-b.json", Dir / "loop-a.json");
  std::filesystem::create_symlink(Dir / "loop-a.json", Dir / "loop-b.json");
  std::string Why;
  EXPECT_TRUE(readCache((Dir / "loop-a.json").string(), &W).empty());
  EXPECT_FALSE(
      storeCacheEntry((Dir / "loop-a.json").string(), sampleEntry(), &W, &Why));
  EXPECT_EQ(Why, "its symbolic links lead to one another");
  EXPECT_TRUE(std::filesystem::is_symlink(Dir / "loop-a.json"));
  EXPECT_TRUE(std::filesystem::is_symlink(Dir / "loop-b.json"));
  // One warning for read and write, which does not promise a replacement.
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("its symbolic links lead to one another; it is neither "
                      "read nor written"),
            std::string::npos)
      << W[0];
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, ALinksDotDotFollowsALinkedDirectory) {
  // home/cache.json -> "../shared/tuning.json", where home is itself a link
  // to deep/home: the kernel reads deep/shared/tuning.json; joining the
  // text ("home/../shared" -> "shared") wrote a file no read would find.
  auto Dir = freshDir("dotdot");
  std::filesystem::create_directories(Dir / "deep" / "home");
  std::filesystem::create_directories(Dir / "deep" / "shared");
  std::filesystem::create_directory_symlink(Dir / "deep" / "home",
                                            Dir / "home");
  std::filesystem::create_symlink("../shared/tuning.json",
                                  Dir / "deep" / "home" / "cache.json");
  const std::string Path = (Dir / "home" / "cache.json").string();
  std::vector<std::string> W;
  ASSERT_TRUE(storeCacheEntry(Path, sampleEntry(), &W));
  EXPECT_TRUE(W.empty());
  EXPECT_EQ(cacheEntriesIn(Dir / "deep" / "shared" / "tuning.json"), 1);
  EXPECT_FALSE(std::filesystem::exists(Dir / "shared"));
  EXPECT_EQ(readCache(Path, &W).size(), 1u);
  EXPECT_TRUE(
      std::filesystem::is_symlink(Dir / "deep" / "home" / "cache.json"));
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, AWriteKeepsTheFilesPermissions) {
  auto Dir = freshDir("permissions");
  const auto Path = Dir / "tuning.json";
  // Made read-only: kept, also where the writer (root) could write it.
  writeText(Path, OldFormatFile);
  ::chmod(Path.c_str(), 0444);
  std::vector<std::string> W;
  std::string Why;
  EXPECT_FALSE(storeCacheEntry(Path.string(), sampleEntry(), &W, &Why));
  EXPECT_EQ(Why, "it may not be written (read-only); it is kept as it is");
  EXPECT_EQ(readText(Path), OldFormatFile);
  std::filesystem::remove(Path);
  for (const mode_t Mode : {0600, 0640, 0664}) {
    writeText(Path, OldFormatFile);
    ::chmod(Path.c_str(), Mode);
    std::vector<std::string> W;
    ASSERT_TRUE(storeCacheEntry(Path.string(), sampleEntry(), &W));
    struct stat After;
    ASSERT_EQ(::stat(Path.c_str(), &After), 0);
    EXPECT_EQ(After.st_mode & 07777, Mode);
  }
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, AtomicWriteLeavesNoPartialFile) {
  auto Dir = freshDir("atomic");
  std::string Path = (Dir / "tuning.json").string();
  std::string Error;
  ASSERT_TRUE(writeFileAtomically(Path, "first\n", &Error));
  ASSERT_TRUE(writeFileAtomically(Path, "second\n", &Error));
  int Files = 0;
  for (const auto &F : std::filesystem::directory_iterator(Dir)) {
    ++Files;
    EXPECT_EQ(F.path().filename(), "tuning.json");
  }
  EXPECT_EQ(Files, 1);
  EXPECT_EQ(readText(Path), "second\n");
  // A target that cannot be replaced (a directory): the old content stays,
  // no temporary file is left.
  std::filesystem::create_directories(Dir / "blocked.json" / "x");
  EXPECT_FALSE(writeFileAtomically((Dir / "blocked.json").string(), "new\n", &Error));
  EXPECT_FALSE(Error.empty());
  EXPECT_TRUE(leftovers(Dir).empty());
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, ReadersNeverSeeAPartialFile) {
  // A writer replaces a large cache again and again while this process reads
  // it: every read is a whole cache file, the old one or the new one.
  auto Dir = freshDir("readers");
  const std::string Path = (Dir / "tuning.json").string();
  std::vector<CacheEntry> Many;
  for (int I = 0; I < 1000; ++I) {
    CacheEntry E = sampleEntry();
    E.key.extents = std::to_string(I) + "x1x1";
    Many.push_back(E);
  }
  std::string Error;
  ASSERT_TRUE(writeFileAtomically(Path, formatCache(Many), &Error));
  pid_t Pid = ::fork();
  ASSERT_GE(Pid, 0);
  if (Pid == 0) {
    int Failed = 0;
    for (int I = 0; I < 40; ++I) {
      CacheEntry E = sampleEntry();
      E.key.extents = "new" + std::to_string(I);
      std::vector<std::string> W;
      Failed += !storeCacheEntry(Path, E, &W) || !W.empty();
    }
    ::_exit(Failed ? 1 : 0);
  }
  int Reads = 0, Partial = 0, Status = 0;
  while (::waitpid(Pid, &Status, WNOHANG) == 0) {
    ++Reads;
    const int N = cacheEntriesIn(Path);
    Partial += N < 1000 || N > 1040;
  }
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 0) << "a writer failed or warned";
  EXPECT_GT(Reads, 10);
  EXPECT_EQ(Partial, 0) << "of " << Reads << " reads";
  EXPECT_EQ(cacheEntriesIn(Path), 1040);
  EXPECT_TRUE(leftovers(Dir).empty());
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, TwoWritersInSequenceLeaveOneValidFile) {
  auto Dir = freshDir("sequence");
  const std::string Path = (Dir / "tuning.json").string();
  for (int Writer = 0; Writer < 2; ++Writer) {
    pid_t Pid = ::fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      CacheEntry E = sampleEntry();
      E.key.extents = "writer" + std::to_string(Writer);
      std::vector<std::string> W;
      ::_exit(storeCacheEntry(Path, E, &W) && W.empty() ? 0 : 1);
    }
    int Status = 0;
    ASSERT_EQ(::waitpid(Pid, &Status, 0), Pid);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  EXPECT_EQ(cacheEntriesIn(Path), 2);
  std::vector<std::string> W;
  std::vector<CacheEntry> Entries = readCache(Path, &W);
  EXPECT_TRUE(W.empty());
  ASSERT_EQ(Entries.size(), 2u);
  EXPECT_EQ(Entries[0].key.extents, "writer0");
  EXPECT_EQ(Entries[1].key.extents, "writer1");
  EXPECT_TRUE(leftovers(Dir).empty());
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, ConcurrentWritersKeepEveryEntry) {
  // Several processes tuning at once (ranks, or runs side by side) each
  // store their entries: the lock and the merge under it keep them all.
  auto Dir = freshDir("concurrent");
  const std::string Path = (Dir / "tuning.json").string();
  const int Writers = 8, PerWriter = 50;
  std::vector<pid_t> Children;
  for (int W = 0; W < Writers; ++W) {
    pid_t Pid = ::fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      int Failed = 0;
      for (int I = 0; I < PerWriter; ++I) {
        CacheEntry E = sampleEntry();
        E.key.extents = std::to_string(W) + "x" + std::to_string(I) + "x1";
        std::vector<std::string> Warnings;
        Failed += !storeCacheEntry(Path, E, &Warnings) || !Warnings.empty();
      }
      ::_exit(Failed ? 1 : 0);
    }
    Children.push_back(Pid);
  }
  for (pid_t Pid : Children) {
    int Status = 0;
    ASSERT_EQ(::waitpid(Pid, &Status, 0), Pid);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0) << "a writer failed or warned";
  }
  std::vector<std::string> W;
  const std::vector<CacheEntry> Entries = readCache(Path, &W);
  EXPECT_TRUE(W.empty());
  EXPECT_EQ(Entries.size(), static_cast<std::size_t>(Writers * PerWriter));
  std::set<std::string> Keys;
  for (const CacheEntry &E : Entries)
    Keys.insert(E.key.extents);
  EXPECT_EQ(Keys.size(), static_cast<std::size_t>(Writers * PerWriter));
  EXPECT_TRUE(leftovers(Dir).empty());
  std::filesystem::remove_all(Dir);
}

TEST(TuningCache, ConcurrentThreadsKeepEveryEntry) {
  auto Dir = freshDir("threads");
  const std::string Path = (Dir / "tuning.json").string();
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      for (int I = 0; I < 25; ++I) {
        CacheEntry E = sampleEntry();
        E.key.extents = std::to_string(T) + "x" + std::to_string(I);
        std::vector<std::string> Warnings;
        storeCacheEntry(Path, E, &Warnings);
      }
    });
  for (std::thread &T : Threads)
    T.join();
  std::vector<std::string> W;
  EXPECT_EQ(readCache(Path, &W).size(), 100u);
  std::filesystem::remove_all(Dir);
}
