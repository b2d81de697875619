// stencil/tuning.hpp - the auto-tuner's logic, without CUDA: candidate
// enumeration and pruning, the online search, the persistent cache and the
// forcing syntax. The engine (stencil/autotuning_engine.hpp) injects the
// kernels' attributes, the timings and the launches, so all of this runs and
// is tested on machines without a GPU. docs/tuning.md explains the choices.
#ifndef STENCIL_TUNING_HPP
#define STENCIL_TUNING_HPP

#include <stencil/generated.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>
#if defined(__unix__) || defined(__APPLE__)
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>
#endif

namespace stencil::tuning {

/// One launch configuration of one variant. For marching variants bz is the
/// chunk each thread marches; for "grid" it is blockDim.z (always 1 here).
struct Candidate {
  std::string variant;
  int bx = 0, by = 0, bz = 0;
  bool operator==(const Candidate &O) const {
    return variant == O.variant && bx == O.bx && by == O.by && bz == O.bz;
  }
  bool operator<(const Candidate &O) const {
    return std::tie(variant, bx, by, bz) < std::tie(O.variant, O.bx, O.by, O.bz);
  }
  LaunchConfig config() const {
    LaunchConfig C;
    C.block[0] = bx;
    C.block[1] = by;
    C.block[2] = bz;
    return C;
  }
};

/// "zmarch:64,4,8", the syntax of STENCIL_TUNING_FORCE and of reports.
inline std::string toString(const Candidate &C) {
  return C.variant + ":" + std::to_string(C.bx) + "," + std::to_string(C.by) + "," +
         std::to_string(C.bz);
}

/// Parses "variant:bx,by,bz"; false on anything else.
inline bool parseCandidate(const std::string &Text, Candidate *Out) {
  auto Colon = Text.find(':');
  if (Colon == std::string::npos || Colon == 0)
    return false;
  Candidate C;
  C.variant = Text.substr(0, Colon);
  int Values[3];
  std::size_t Pos = Colon + 1;
  for (int I = 0; I < 3; ++I) {
    std::size_t End = Text.find(I < 2 ? ',' : '\0', Pos);
    if (I == 2)
      End = Text.size();
    if (End == std::string::npos || End == Pos)
      return false;
    std::string Part = Text.substr(Pos, End - Pos);
    if (!std::all_of(Part.begin(), Part.end(),
                     [](char Ch) { return std::isdigit(static_cast<unsigned char>(Ch)); }) ||
        Part.size() > 6)
      return false;
    Values[I] = std::atoi(Part.c_str());
    if (Values[I] <= 0)
      return false;
    Pos = End + 1;
  }
  C.bx = Values[0];
  C.by = Values[1];
  C.bz = Values[2];
  *Out = C;
  return true;
}

/// What one device allows a block.
struct DeviceLimits {
  int maxThreadsPerBlock = 1024;
  int registersPerBlock = 65536;
  long long sharedPerBlock = 48 * 1024; ///< Without opting in to more.
};

/// One variant of the stencil as the tuner sees it: its name, whether it
/// marches, and its kernel's resources for a block shape (null: unknown).
struct VariantInfo {
  std::string name;
  bool marching = false;
  std::function<const char *(int Bx, int By, KernelAttributes *Out)> query;
};

/// The values each launch parameter takes (seed 000's Table 1 and more).
inline const std::vector<int> &bxValues() {
  static const std::vector<int> V = {4, 8, 16, 32, 64, 128, 256};
  return V;
}
/// by = 32 gives narrow blocks (bx <= 32) of thin slabs more rows.
inline const std::vector<int> &byValues() {
  static const std::vector<int> V = {1, 2, 4, 8, 16, 32};
  return V;
}
/// 1..64, then doubling while the marching extent needs it.
inline std::vector<int> chunkValues(long long MarchExtent) {
  std::vector<int> V = {1, 2, 4, 8, 16, 32, 64};
  while (V.back() < MarchExtent && V.back() < (1 << 20))
    V.push_back(V.back() * 2);
  return V;
}

/// Registers a block of \p Threads uses: allocated per warp in units of 256.
inline long long blockRegisters(int RegistersPerThread, int Threads) {
  long long PerWarp = (static_cast<long long>(RegistersPerThread) * 32 + 255) / 256 * 256;
  return PerWarp * ((Threads + 31) / 32);
}

/// Null if \p C may run over a region of \p Extent points per dimension
/// with attributes \p A; otherwise why not.
inline const char *illegalBecause(const Candidate &C, bool Marching, int Dims,
                                  const long long *Extent, const KernelAttributes &A,
                                  const DeviceLimits &L) {
  const int M = Dims - 1;
  // A block (or chunk) twice the region's size or more would only idle.
  if (C.bx >= 2 * Extent[0] && C.bx > 4)
    return "block wider than the region";
  bool YInBlock = Dims == 3 || !Marching;
  if (YInBlock ? (C.by >= 2 * Extent[1] && C.by > 1) : C.by != 1)
    return "block taller than the region";
  if (Marching ? (C.bz >= 2 * Extent[M] && C.bz > 1) : C.bz != 1)
    return "chunk longer than the region";
  const int Threads = C.bx * C.by;
  if (Threads > L.maxThreadsPerBlock ||
      (A.maxThreadsPerBlock > 0 && Threads > A.maxThreadsPerBlock))
    return "more threads than the kernel can launch";
  if (blockRegisters(A.registers, Threads) > L.registersPerBlock)
    return "more registers than a multiprocessor has";
  if (A.sharedBytes > L.sharedPerBlock)
    return "more shared memory than a block may have";
  // The launchers' grid limits (y and z at most 65535 blocks).
  long long Gy =
      Marching && Dims == 2 ? (Extent[1] + C.bz - 1) / C.bz : (Extent[1] + C.by - 1) / C.by;
  long long Gz = Dims == 3 ? (Extent[2] + C.bz - 1) / C.bz : 1;
  if (Gy > 65535 || Gz > 65535)
    return "too many blocks for one launch";
  return nullptr;
}

/// Every legal candidate of \p Variants over a region of \p Extent, in a
/// fixed order; \p Pruned (if given) counts the rest by reason.
inline std::vector<Candidate> enumerateCandidates(int Dims, const long long *Extent,
                                                  const std::vector<VariantInfo> &Variants,
                                                  const DeviceLimits &L,
                                                  std::map<std::string, int> *Pruned = nullptr) {
  std::vector<Candidate> Out;
  for (const VariantInfo &V : Variants) {
    std::vector<int> Zs = V.marching ? chunkValues(Extent[Dims - 1]) : std::vector<int>{1};
    for (int Bx : bxValues())
      for (int By : byValues())
        for (int Bz : Zs) {
          Candidate C{V.name, Bx, By, Bz};
          KernelAttributes A;
          const char *Why = nullptr;
          if (V.query) {
            if (const char *Error = V.query(Bx, By, &A))
              Why = Error;
          }
          if (!Why)
            Why = illegalBecause(C, V.marching, Dims, Extent, A, L);
          if (Why) {
            if (Pruned)
              ++(*Pruned)[Why];
            continue;
          }
          Out.push_back(C);
        }
  }
  return Out;
}

inline double median(std::vector<double> V) {
  if (V.empty())
    return INFINITY;
  std::sort(V.begin(), V.end());
  std::size_t N = V.size();
  return N % 2 ? V[N / 2] : 0.5 * (V[N / 2 - 1] + V[N / 2]);
}

/// The online search: next() names the candidate for the next call,
/// record() takes its time. A coarse pass over a few spread shapes per
/// variant, then per-variant hill climbing over neighbouring shapes, then the
/// best few are timed again and the lowest median wins. Never more than
/// MaxCalls calls.
class OnlineTuner {
public:
  struct Options {
    int maxCalls = 200;
    int finalists = 3;
    int finalRepeats = 3;
  };

  OnlineTuner(std::vector<Candidate> All, Options O) : All_(std::move(All)), Opt_(O) {
    for (const Candidate &C : All_)
      Legal_.insert(C);
    if (All_.empty()) {
      Phase_ = Phase::Done;
      return;
    }
    enqueueCoarse();
  }
  explicit OnlineTuner(std::vector<Candidate> All) : OnlineTuner(std::move(All), Options()) {}

  /// A tuner that is already settled on \p C (from the cache or forced).
  static OnlineTuner settledOn(const Candidate &C) {
    OnlineTuner T(std::vector<Candidate>{}, Options());
    T.Best_ = C;
    T.HasBest_ = true;
    return T;
  }

  bool settled() const { return Phase_ == Phase::Done; }
  bool hasBest() const { return HasBest_; }
  const Candidate &best() const { return Best_; }
  int calls() const { return Calls_; }
  const std::map<Candidate, std::vector<double>> &timings() const { return Times_; }
  const std::vector<Candidate> &candidates() const { return All_; }

  /// The candidate to run next (the best once settled).
  const Candidate &next() const { return settled() ? Best_ : Queue_.front(); }

  /// The time in ms of the call just made with next().
  void record(double Ms) {
    if (settled())
      return;
    Candidate C = Queue_.front();
    Queue_.erase(Queue_.begin());
    ++Calls_;
    // A variant's first launch also loads its kernel: time it again.
    if (!Warmed_.count(C.variant)) {
      Warmed_.insert(C.variant);
      Queue_.insert(Queue_.begin(), C);
    } else {
      Times_[C].push_back(Ms);
    }
    if (Queue_.empty())
      advance();
  }

private:
  enum class Phase { Coarse, Refine, Final, Done };

  static double distance(const Candidate &A, int Bx, int By, int Bz) {
    return std::fabs(std::log2(double(A.bx) / Bx)) + std::fabs(std::log2(double(A.by) / By)) +
           std::fabs(std::log2(double(A.bz) / Bz));
  }

  std::vector<std::string> variants() const {
    std::vector<std::string> Names;
    for (const Candidate &C : All_)
      if (std::find(Names.begin(), Names.end(), C.variant) == Names.end())
        Names.push_back(C.variant);
    return Names;
  }

  void push(const Candidate &C) {
    if (Times_.count(C) || std::find(Queue_.begin(), Queue_.end(), C) != Queue_.end())
      return;
    Queue_.push_back(C);
  }

  /// Per variant, the legal shapes nearest to a few spread targets.
  void enqueueCoarse() {
    static const int Targets[][3] = {{32, 4, 4},  {32, 4, 32}, {128, 1, 4}, {128, 1, 32},
                                     {128, 4, 8}, {32, 1, 16}, {64, 2, 64}, {256, 2, 16}};
    for (const std::string &V : variants())
      for (const auto &T : Targets) {
        const Candidate *Nearest = nullptr;
        double D = INFINITY;
        for (const Candidate &C : All_)
          if (C.variant == V && distance(C, T[0], T[1], T[2]) < D) {
            D = distance(C, T[0], T[1], T[2]);
            Nearest = &C;
          }
        if (Nearest)
          push(*Nearest);
      }
  }

  double score(const Candidate &C) const {
    auto It = Times_.find(C);
    return It == Times_.end() ? INFINITY : median(It->second);
  }

  /// The best timed candidate of \p Variant (or of all, if empty).
  const Candidate *bestOf(const std::string &Variant) const {
    const Candidate *Best = nullptr;
    for (const auto &[C, T] : Times_)
      if ((Variant.empty() || C.variant == Variant) && (!Best || score(C) < score(*Best)))
        Best = &C;
    return Best;
  }

  void enqueueNeighbours(const Candidate &C) {
    auto Step = [](const Candidate &From, int Dx, int Dy, int Dz) {
      Candidate N = From;
      N.bx = Dx > 0 ? N.bx * 2 : Dx < 0 ? N.bx / 2 : N.bx;
      N.by = Dy > 0 ? N.by * 2 : Dy < 0 ? N.by / 2 : N.by;
      N.bz = Dz > 0 ? N.bz * 2 : Dz < 0 ? N.bz / 2 : N.bz;
      return N;
    };
    static const int Moves[][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},  {0, -1, 0},
                                   {0, 0, 1}, {0, 0, -1}, {1, -1, 0}, {-1, 1, 0}};
    for (const auto &M : Moves) {
      Candidate N = Step(C, M[0], M[1], M[2]);
      if (Legal_.count(N))
        push(N);
    }
  }

  void advance() {
    if (Phase_ == Phase::Coarse || Phase_ == Phase::Refine) {
      Phase_ = Phase::Refine;
      for (const std::string &V : variants()) {
        const Candidate *B = bestOf(V);
        if (!B || (Expanded_.count(V) && Expanded_[V] == *B))
          continue;
        Expanded_[V] = *B;
        enqueueNeighbours(*B);
      }
      // Keep room for the final timings.
      const int Room = Opt_.maxCalls - Opt_.finalists * Opt_.finalRepeats - Calls_;
      if (static_cast<int>(Queue_.size()) > Room)
        Queue_.resize(std::max(0, Room));
      if (!Queue_.empty())
        return;
      Phase_ = Phase::Final;
      std::vector<Candidate> Ranked;
      for (const auto &[C, T] : Times_)
        Ranked.push_back(C);
      std::stable_sort(
          Ranked.begin(), Ranked.end(),
          [this](const Candidate &A, const Candidate &B) { return score(A) < score(B); });
      Ranked.resize(std::min<std::size_t>(Ranked.size(), Opt_.finalists));
      for (int R = 0; R < Opt_.finalRepeats; ++R)
        for (const Candidate &C : Ranked)
          Queue_.push_back(C);
      if (!Queue_.empty())
        return;
    }
    Phase_ = Phase::Done;
    if (const Candidate *B = bestOf("")) {
      Best_ = *B;
      HasBest_ = true;
    }
  }

  std::vector<Candidate> All_;
  std::set<Candidate> Legal_;
  Options Opt_;
  Phase Phase_ = Phase::Coarse;
  std::vector<Candidate> Queue_;
  std::map<Candidate, std::vector<double>> Times_;
  std::set<std::string> Warmed_;
  std::map<std::string, Candidate> Expanded_;
  Candidate Best_;
  bool HasBest_ = false;
  int Calls_ = 0;
};

//===----------------------------------------------------------------------===//
// The cache file
//===----------------------------------------------------------------------===//

/// What a tuning result is valid for.
struct CacheKey {
  std::string gpu;       ///< cudaDeviceProp::name.
  std::string stencil;   ///< The stencil's qualified name.
  std::string irHash;    ///< Its IR fingerprint: a different one makes an entry stale.
  std::string variants;  ///< The variant space searched ("grid,zmarch,zmarch2,smem").
  std::string extents;   ///< The region's extents ("512x512x512").
  std::string signature; ///< The parameter types (element type included).
};

struct CacheEntry {
  CacheKey key;
  Candidate best;
  double ms = 0;
  int calls = 0;
};

namespace json {

inline std::string quote(const std::string &S) {
  std::string Out = "\"";
  for (char Ch : S) {
    if (Ch == '"' || Ch == '\\') {
      Out += '\\';
      Out += Ch;
    } else if (static_cast<unsigned char>(Ch) < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", Ch);
      Out += Buf;
    } else {
      Out += Ch;
    }
  }
  return Out + "\"";
}

/// A JSON value: just enough for the cache file.
struct Value {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;
  const Value *get(const std::string &Key) const {
    for (const auto &[K, V] : object)
      if (K == Key)
        return &V;
    return nullptr;
  }
};

class Parser {
public:
  explicit Parser(const std::string &Text) : T(Text) {}
  /// False on any syntax error or trailing text.
  bool parse(Value *Out) {
    if (!value(Out, 0))
      return false;
    ws();
    return P == T.size();
  }

private:
  void ws() {
    while (P < T.size() && std::isspace(static_cast<unsigned char>(T[P])))
      ++P;
  }
  bool lit(const char *Word) {
    std::size_t N = std::strlen(Word);
    if (T.compare(P, N, Word) != 0)
      return false;
    P += N;
    return true;
  }
  bool str(std::string *Out) {
    if (P >= T.size() || T[P] != '"')
      return false;
    ++P;
    while (P < T.size() && T[P] != '"') {
      char Ch = T[P++];
      if (Ch == '\\') {
        if (P >= T.size())
          return false;
        char E = T[P++];
        if (E == 'u') {
          if (P + 4 > T.size())
            return false;
          Ch = static_cast<char>(std::strtol(T.substr(P, 4).c_str(), nullptr, 16));
          P += 4;
        } else {
          Ch = E == 'n' ? '\n' : E == 't' ? '\t' : E;
        }
      }
      *Out += Ch;
    }
    if (P >= T.size())
      return false;
    ++P;
    return true;
  }
  bool value(Value *Out, int Depth) {
    if (Depth > 32)
      return false;
    ws();
    if (P >= T.size())
      return false;
    char Ch = T[P];
    if (Ch == '{') {
      ++P;
      Out->kind = Value::Object;
      ws();
      if (P < T.size() && T[P] == '}')
        return ++P, true;
      while (true) {
        ws();
        std::string Key;
        if (!str(&Key))
          return false;
        ws();
        if (P >= T.size() || T[P++] != ':')
          return false;
        Value V;
        if (!value(&V, Depth + 1))
          return false;
        Out->object.emplace_back(Key, std::move(V));
        ws();
        if (P < T.size() && T[P] == ',') {
          ++P;
          continue;
        }
        if (P < T.size() && T[P] == '}')
          return ++P, true;
        return false;
      }
    }
    if (Ch == '[') {
      ++P;
      Out->kind = Value::Array;
      ws();
      if (P < T.size() && T[P] == ']')
        return ++P, true;
      while (true) {
        Value V;
        if (!value(&V, Depth + 1))
          return false;
        Out->array.push_back(std::move(V));
        ws();
        if (P < T.size() && T[P] == ',') {
          ++P;
          continue;
        }
        if (P < T.size() && T[P] == ']')
          return ++P, true;
        return false;
      }
    }
    if (Ch == '"') {
      Out->kind = Value::String;
      return str(&Out->string);
    }
    if (lit("true") || lit("false")) {
      Out->kind = Value::Bool;
      Out->number = T[P - 1] == 'e' && T[P - 2] == 'u';
      return true;
    }
    if (lit("null"))
      return true;
    const char *Begin = T.c_str() + P;
    char *End = nullptr;
    Out->number = std::strtod(Begin, &End);
    if (End == Begin)
      return false;
    Out->kind = Value::Number;
    P += static_cast<std::size_t>(End - Begin);
    return true;
  }

  const std::string &T;
  std::size_t P = 0;
};

} // namespace json

inline const char *cacheFormat() { return "stencilc-tuning-1"; }

/// The cache file: $STENCIL_TUNING_CACHE, else $XDG_CACHE_HOME/stencilc/tuning.json,
/// else ~/.cache/stencilc/tuning.json; empty if none of them is set.
inline std::string defaultCachePath() {
  if (const char *P = std::getenv("STENCIL_TUNING_CACHE"); P && *P)
    return P;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    return std::string(X) + "/stencilc/tuning.json";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/stencilc/tuning.json";
  return "";
}

namespace detail {

/// \p V as an integer in [Lo, Hi]: false for anything else (a fraction, NaN,
/// infinity, 1e300), which a cast to int would make undefined behaviour.
inline bool integerIn(const json::Value *V, double Lo, double Hi, int *Out) {
  if (!V || V->kind != json::Value::Number || !std::isfinite(V->number) ||
      V->number != std::floor(V->number) || V->number < Lo || V->number > Hi)
    return false;
  *Out = static_cast<int>(V->number);
  return true;
}

/// Reads one cache entry into \p C; null, or what is wrong with it. Every
/// field is checked: the file may have been edited, truncated or written by
/// anything.
inline const char *readEntry(const json::Value &E, CacheEntry *C) {
  if (E.kind != json::Value::Object)
    return "not an object";
  struct {
    const char *key;
    std::string *to;
  } const Strings[] = {{"gpu", &C->key.gpu},           {"stencil", &C->key.stencil},
                       {"irHash", &C->key.irHash},     {"variants", &C->key.variants},
                       {"extents", &C->key.extents},   {"signature", &C->key.signature},
                       {"variant", &C->best.variant}};
  for (const auto &S : Strings) {
    const json::Value *V = E.get(S.key);
    if (!V || V->kind != json::Value::String || V->string.size() > 4096)
      return "a key field is missing, not a string or too long";
    *S.to = V->string;
  }
  if (C->best.variant.empty())
    return "'variant' is empty";
  const json::Value *Block = E.get("block");
  if (!Block || Block->kind != json::Value::Array || Block->array.size() != 3)
    return "'block' is not three numbers";
  // Threads per block dimension at most 1024 on every CUDA GPU; the marching
  // chunk at most chunkValues()' largest.
  if (!integerIn(&Block->array[0], 1, 1024, &C->best.bx) ||
      !integerIn(&Block->array[1], 1, 1024, &C->best.by) ||
      !integerIn(&Block->array[2], 1, 1 << 20, &C->best.bz))
    return "'block' is not three integers in [1, 1024], [1, 1024], [1, 2^20]";
  const json::Value *Ms = E.get("ms");
  if (!Ms || Ms->kind != json::Value::Number || !std::isfinite(Ms->number) || Ms->number < 0 ||
      Ms->number > 1e9)
    return "'ms' is not a time in [0, 1e9] ms";
  C->ms = Ms->number;
  const json::Value *Calls = E.get("calls");
  C->calls = 0;
  if (Calls && !integerIn(Calls, 0, 1e9, &C->calls))
    return "'calls' is not an integer in [0, 1e9]";
  return nullptr;
}

} // namespace detail

/// The entries of the file at \p Path: none if it does not exist; none and
/// a warning in \p Warnings if it cannot be read as a cache file. Invalid
/// entries (detail::readEntry) are skipped, with one warning for the file.
inline std::vector<CacheEntry> readCache(const std::string &Path,
                                         std::vector<std::string> *Warnings) {
  std::vector<CacheEntry> Out;
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Out;
  std::stringstream Buf;
  Buf << In.rdbuf();
  std::string Text = Buf.str();
  json::Value Root;
  const json::Value *Format = nullptr, *Entries = nullptr;
  if (!json::Parser(Text).parse(&Root) || Root.kind != json::Value::Object ||
      !(Format = Root.get("format")) || Format->kind != json::Value::String ||
      Format->string != cacheFormat() ||
      !(Entries = Root.get("entries")) || Entries->kind != json::Value::Array) {
    Warnings->push_back("tuning cache '" + Path + "' is corrupt or of another format; ignoring it");
    return Out;
  }
  int Invalid = 0;
  std::string First;
  for (std::size_t I = 0; I < Entries->array.size(); ++I) {
    CacheEntry C;
    if (const char *Why = detail::readEntry(Entries->array[I], &C)) {
      if (!Invalid++)
        First = "entry " + std::to_string(I + 1) + ": " + Why;
      continue;
    }
    Out.push_back(C);
  }
  // One warning per file, however many entries are bad.
  if (Invalid)
    Warnings->push_back("tuning cache '" + Path + "': ignoring " + std::to_string(Invalid) +
                        (Invalid == 1 ? " invalid entry (" : " invalid entries (first: ") +
                        First + ")");
  return Out;
}

inline bool sameExceptHash(const CacheKey &A, const CacheKey &B) {
  return A.gpu == B.gpu && A.stencil == B.stencil && A.variants == B.variants &&
         A.extents == B.extents && A.signature == B.signature;
}

/// The entry for \p Key, if one is there with the same IR hash; an entry
/// with another hash is stale (the stencil changed): a warning, not a hit.
inline std::optional<CacheEntry> lookupCache(const std::vector<CacheEntry> &Entries,
                                             const CacheKey &Key,
                                             std::vector<std::string> *Warnings) {
  for (const CacheEntry &E : Entries) {
    if (!sameExceptHash(E.key, Key))
      continue;
    if (E.key.irHash == Key.irHash)
      return E;
    Warnings->push_back("tuning cache entry for " + Key.stencil + " over " + Key.extents +
                        " is stale (the stencil changed: IR " + E.key.irHash + ", now " +
                        Key.irHash + "); tuning again");
  }
  return std::nullopt;
}

inline std::string formatCache(const std::vector<CacheEntry> &Entries) {
  std::ostringstream O;
  O << "{\n  \"format\": " << json::quote(cacheFormat()) << ",\n  \"entries\": [";
  for (std::size_t I = 0; I < Entries.size(); ++I) {
    const CacheEntry &E = Entries[I];
    char Ms[64];
    std::snprintf(Ms, sizeof(Ms), "%.6g", E.ms);
    O << (I ? ",\n" : "\n") << "    {\"gpu\": " << json::quote(E.key.gpu)
      << ", \"stencil\": " << json::quote(E.key.stencil)
      << ", \"irHash\": " << json::quote(E.key.irHash)
      << ", \"variants\": " << json::quote(E.key.variants)
      << ", \"extents\": " << json::quote(E.key.extents)
      << ", \"signature\": " << json::quote(E.key.signature)
      << ", \"variant\": " << json::quote(E.best.variant) << ", \"block\": [" << E.best.bx << ", "
      << E.best.by << ", " << E.best.bz << "], \"ms\": " << Ms << ", \"calls\": " << E.calls << "}";
  }
  O << "\n  ]\n}\n";
  return O.str();
}

namespace detail {
/// Threads of one process share fcntl locks: they take this mutex as well.
inline std::mutex &cacheMutex() {
  static std::mutex M;
  return M;
}
} // namespace detail

/// Writes \p Text to \p Path atomically: a temporary file beside it, then a
/// rename, so a reader sees the old file or the new one, never a part.
inline bool writeFileAtomically(const std::string &Path, const std::string &Text,
                                std::string *Error) {
  std::error_code EC;
  std::filesystem::path P(Path);
  if (P.has_parent_path())
    std::filesystem::create_directories(P.parent_path(), EC);
#if defined(__unix__) || defined(__APPLE__)
  const long Pid = static_cast<long>(getpid());
#else
  const long Pid = 0;
#endif
  // Unique per process and call: writers never share a temporary file.
  static std::atomic<unsigned> Serial{0};
  std::string Tmp = Path + ".tmp." + std::to_string(Pid) + "." + std::to_string(Serial++);
  {
    std::ofstream Out(Tmp, std::ios::binary | std::ios::trunc);
    Out << Text;
    Out.flush();
    if (!Out) {
      *Error = "cannot write '" + Tmp + "'";
      std::filesystem::remove(Tmp, EC);
      return false;
    }
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

/// Adds or replaces \p Entry in the cache at \p Path. Under the cache's lock
/// it reads the file again, merges (other entries kept, invalid or corrupt
/// content dropped with a warning) and replaces it atomically, so writers
/// in several processes at once lose nothing.
inline bool storeCacheEntry(const std::string &Path, const CacheEntry &Entry,
                            std::vector<std::string> *Warnings) {
  std::error_code EC;
  std::filesystem::path P(Path);
  if (P.has_parent_path())
    std::filesystem::create_directories(P.parent_path(), EC);
  CacheLock Lock(Path);
  if (!Lock.error().empty())
    Warnings->push_back("tuning cache written without its lock (another process writing at "
                        "the same time may lose entries): " +
                        Lock.error());
  std::vector<CacheEntry> Entries = readCache(Path, Warnings);
  Entries.erase(
      std::remove_if(Entries.begin(), Entries.end(),
                     [&](const CacheEntry &E) { return sameExceptHash(E.key, Entry.key); }),
      Entries.end());
  Entries.push_back(Entry);
  std::string Error;
  if (!writeFileAtomically(Path, formatCache(Entries), &Error)) {
    Warnings->push_back("tuning cache not written: " + Error);
    return false;
  }
  return true;
}

} // namespace stencil::tuning

#endif // STENCIL_TUNING_HPP
