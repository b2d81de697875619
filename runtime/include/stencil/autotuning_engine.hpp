// stencil/autotuning_engine.hpp - seed 000's DeviceAutoTuningLoopEngine3D:
// runs stencilc's CUDA variants and picks the fastest launch configuration
// for the stencil, the region and the GPU, online or at once.
//
//   stencil::DeviceAutoTuningInfo info;
//   stencil::Loop3D<stencil::DeviceAutoTuningLoopEngine3D> loop(...);
//   loop.run(Diffusion3d(), &info, ce, cw, cn, cs, ct, cb, cc, f, fn);
//
// Each call before the tuner settles runs the next candidate (timed with
// CUDA events; the result is the stencil's, whatever the candidate); later
// calls run the best. stencil::tuneNow(loop, S, &info, args...) settles at
// once by calling repeatedly (the stencil must tolerate running again on
// its arrays: outputs apart from inputs). The result is kept in a cache file
// (stencil/tuning_cache.hpp), so the next run starts tuned. Environment
// (docs/tuning.md): STENCIL_TUNING_CACHE, the cache file (default
// ~/.cache/stencilc/tuning.json); STENCIL_TUNING_FORCE, "variant:bx,by,bz"
// to use without tuning; STENCIL_TUNING_REPORT, set to print the report when
// tuning settles; STENCIL_TUNING_QUIET, 1 for no progress lines (printed on
// stderr while a search takes more than a second).
#ifndef STENCIL_AUTOTUNING_ENGINE_HPP
#define STENCIL_AUTOTUNING_ENGINE_HPP

#include <stencil/device.hpp>
#include <stencil/generated_engine.hpp>
#include <stencil/loop.hpp>
#include <stencil/temporal_passes.hpp>
#include <stencil/temporal_tuning.hpp>
#include <stencil/tuning.hpp>
#include <stencil/tuning_progress.hpp>

#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace stencil {

/// The tuner's state for the stencils an engine runs (seed 000's
/// DeviceAutoTuningInfo): options before the first call, results after.
class DeviceAutoTuningInfo {
public:
  /// Where a configuration came from.
  enum class Source { None, Tuning, Tuned, Cache, Forced };

  struct Session {
    std::string stencil;
    tuning::CacheKey key;
    std::vector<const GeneratedStencil *> entries;
    tuning::OnlineTuner tuner{std::vector<tuning::Candidate>{}};
    Source source = Source::None;
    std::map<std::string, int> pruned;
    std::size_t legal = 0;
    std::vector<tuning::Candidate> legalCandidates;
    void *start = nullptr, *stop = nullptr;
    tuning::TuningProgress progressLine;
    /// A time loop's way (repeat()), chosen once the steps have settled.
    bool passesChosen = false;
    TemporalConfig passes;
    std::string passesSource; ///< "timed" or "cache"
    std::map<std::string, int> passesPruned;
    /// Each candidate timed: ms per step (the median of its timings;
    /// infinite: it could not run) and how many timings.
    struct PassTiming {
      TemporalConfig config;
      double ms;
      int timings;
    };
    std::vector<PassTiming> passTimings;
  };

  DeviceAutoTuningInfo() = default;
  DeviceAutoTuningInfo(const DeviceAutoTuningInfo &) = delete;
  DeviceAutoTuningInfo &operator=(const DeviceAutoTuningInfo &) = delete;
  ~DeviceAutoTuningInfo() {
    if (const DeviceOps *Ops = detail::deviceOpsSlot())
      for (auto &[K, S] : sessions_)
        for (void *E : {S.start, S.stop})
          if (E)
            Ops->eventDestroy(E);
  }

  // Options (set before the first call).
  std::vector<std::string> variants; ///< Variants to search; empty: all.
  bool useCache = true;              ///< Read and write the cache file.
  std::string cachePath;             ///< Empty: tuning::defaultCachePath().
  std::string
      force; ///< "variant:bx,by,bz" as STENCIL_TUNING_FORCE, which wins.
  tuning::OnlineTuner::Options search;
  /// The progress lines of searches longer than a second (quiet, where).
  tuning::ProgressOptions progress;

  /// True once every stencil run through this info has settled.
  bool settled() const {
    for (const auto &[K, S] : sessions_)
      if (!S.tuner.settled())
        return false;
    return !sessions_.empty();
  }
  /// The configuration chosen for the last stencil run, or null.
  const tuning::Candidate *chosen() const {
    const Session *S = last_;
    return S && S->tuner.settled() && S->tuner.hasBest() ? &S->tuner.best()
                                                         : nullptr;
  }
  /// How the last stencil's time loop (repeat()) runs its steps, once
  /// chosen: steps 1 is one at a time; else stencilc's passes. Null before.
  const TemporalConfig *chosenPasses() const {
    return last_ && last_->passesChosen ? &last_->passes : nullptr;
  }
  /// Calls spent tuning the last stencil run (0 from the cache or forced).
  int tuningCalls() const { return last_ ? last_->tuner.calls() : 0; }
  Source source() const { return last_ ? last_->source : Source::None; }
  const std::vector<std::string> &warnings() const { return warnings_; }
  /// Every legal candidate of the last stencil run (what the tuner may pick).
  const std::vector<tuning::Candidate> &legalCandidates() const {
    static const std::vector<tuning::Candidate> None;
    return last_ ? last_->legalCandidates : None;
  }

  /// What was chosen and why: the search space, what was pruned, the
  /// timings of the best candidates.
  std::string reportText() const {
    std::string Out;
    char Buf[256];
    for (const auto &[K, S] : sessions_) {
      Out += "auto-tuning " + S.stencil + " over " + S.key.extents + " on " +
             S.key.gpu + "\n";
      static const char *const Sources[] = {"none", "tuning (not settled)",
                                            "tuned", "cache",
                                            "forced (STENCIL_TUNING_FORCE)"};
      Out += std::string("  source: ") + Sources[static_cast<int>(S.source)] +
             "; variants: " + S.key.variants + "\n";
      if (S.tuner.hasBest() && S.tuner.settled())
        Out += "  chosen: " + tuning::toString(S.tuner.best()) + "\n";
      if (S.source == Source::Tuned || S.source == Source::Tuning) {
        std::snprintf(Buf, sizeof(Buf),
                      "  candidates: %zu legal, %d calls timed\n", S.legal,
                      S.tuner.calls());
        Out += Buf;
        for (const auto &[Why, N] : S.pruned)
          Out += "  pruned " + std::to_string(N) + ": " + Why + "\n";
        std::vector<std::pair<double, tuning::Candidate>> Ranked;
        for (const auto &[C, T] : S.tuner.timings())
          Ranked.push_back({tuning::median(T), C});
        std::sort(
            Ranked.begin(), Ranked.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
        std::map<std::string, bool> BestShown;
        for (std::size_t I = 0; I < Ranked.size(); ++I) {
          bool VariantBest = !BestShown[Ranked[I].second.variant];
          BestShown[Ranked[I].second.variant] = true;
          if (I >= 10 && !VariantBest)
            continue;
          std::snprintf(
              Buf, sizeof(Buf), "  %-24s %10.4f ms (median of %zu)%s\n",
              tuning::toString(Ranked[I].second).c_str(), Ranked[I].first,
              S.tuner.timings().at(Ranked[I].second).size(),
              VariantBest ? "  best of its variant" : "");
          Out += Buf;
        }
      }
    }
    for (const auto &[K, S] : sessions_)
      if (S.passesChosen)
        Out += passesReport(S);
    for (const std::string &W : warnings_)
      Out += "  warning: " + W + "\n";
    return Out;
  }
  /// Prints reportText() to \p Out.
  void report(std::FILE *Out = stdout) const {
    std::fputs(reportText().c_str(), Out);
  }

  /// The session of \p Key (internal: used by the engines).
  Session *find(const std::string &Key) {
    auto It = sessions_.find(Key);
    return It == sessions_.end() ? nullptr : (last_ = &It->second);
  }
  Session &create(const std::string &Key) { return *(last_ = &sessions_[Key]); }
  void warn(const std::string &W) {
    warnings_.push_back(W);
    std::fprintf(stderr, "stencil: warning: %s\n", W.c_str());
  }

private:
  /// A time loop's choice: what, from where, what was pruned, the timings.
  static std::string passesReport(const Session &S) {
    std::string Out = "time loop of " + S.stencil + ": " +
                      tuning::temporalText(S.passes) + " (" + S.passesSource +
                      ")\n";
    for (const auto &[Why, N] : S.passesPruned)
      Out += "  pruned " + std::to_string(N) + ": " + Why + "\n";
    char Buf[256];
    for (const Session::PassTiming &T : S.passTimings) {
      std::snprintf(Buf, sizeof(Buf), "  %-48s %10.4f ms a step",
                    tuning::temporalText(T.config).c_str(), T.ms);
      Out += Buf;
      if (T.timings > 1)
        Out += " (median of " + std::to_string(T.timings) + ")";
      Out += "\n";
    }
    return Out;
  }

  std::map<std::string, Session> sessions_;
  Session *last_ = nullptr;
  std::vector<std::string> warnings_;
};

namespace detail {

inline void checkTuning(const char *Error, const char *What) {
  if (Error)
    throw std::runtime_error(std::string("stencil: auto-tuning: ") + What +
                             ": " + Error);
}

/// Finds or sets up the session of entry \p First over \p Box: the legal
/// candidates, then STENCIL_TUNING_FORCE, then the cache.
inline DeviceAutoTuningInfo::Session &
tuningSession(DeviceAutoTuningInfo &Info, const GeneratedStencil &First,
              const Region &Box) {
  std::string Extents;
  long long Extent[4] = {1, 1, 1, 1};
  for (int D = 0; D < First.dims; ++D) {
    Extent[D] = Box.hi[D] - Box.lo[D];
    Extents += (D ? "x" : "") + std::to_string(Extent[D]);
  }
  std::string Key = std::string(First.irHash) + "|" + Extents + "|" +
                    std::to_string(Box.lo[0]) + "," +
                    std::to_string(Box.lo[1]) + "," + std::to_string(Box.lo[2]);
  if (DeviceAutoTuningInfo::Session *S = Info.find(Key))
    return *S;
  DeviceAutoTuningInfo::Session &S = Info.create(Key);
  const DeviceOps &Ops = requireDeviceOps();
  S.stencil = First.name;
  std::vector<tuning::VariantInfo> Variants;
  for (const GeneratedStencil *E : generatedVariants(First)) {
    if (!E->query)
      continue;
    if (!Info.variants.empty() &&
        std::find(Info.variants.begin(), Info.variants.end(), E->variant) ==
            Info.variants.end())
      continue;
    S.entries.push_back(E);
    Variants.push_back({E->variant, E->marchDim >= 0, E->query});
    S.key.variants +=
        (S.key.variants.empty() ? "" : ",") + std::string(E->variant);
  }
  if (S.entries.empty())
    throw std::runtime_error(
        std::string("stencil: auto-tuning: no CUDA variant of ") + First.name +
        " to tune (regenerate it with this stencilc)");
  tuning::DeviceLimits L;
  checkTuning(Ops.blockLimits(&L.maxThreadsPerBlock, &L.registersPerBlock,
                              &L.sharedPerBlock),
              "device limits");
  S.key.gpu = deviceName();
  S.key.stencil = First.name;
  S.key.irHash = First.irHash;
  S.key.extents = Extents;
  S.key.signature = First.signature->name();
  std::vector<tuning::Candidate> All =
      tuning::enumerateCandidates(First.dims, Extent, Variants, L, &S.pruned);
  S.legal = All.size();
  S.legalCandidates = All;
  checkTuning(Ops.eventCreate(&S.start), "event");
  checkTuning(Ops.eventCreate(&S.stop), "event");

  auto IsLegal = [&All](const tuning::Candidate &C) {
    return std::find(All.begin(), All.end(), C) != All.end();
  };
  // A forced configuration may be larger than the region needs (as seed
  // 000's fixed (128, 1, 1) on an 8-wide slab), but must be launchable.
  auto IsForcible = [&](const tuning::Candidate &C) {
    const long long Big[4] = {4096, 4096, 4096, 1};
    for (std::size_t V = 0; V < Variants.size(); ++V) {
      KernelAttributes A;
      if (Variants[V].name == C.variant && !Variants[V].query(C.bx, C.by, &A))
        return !tuning::illegalBecause(C, Variants[V].marching, First.dims, Big,
                                       A, L);
    }
    return false;
  };
  const char *Force = std::getenv("STENCIL_TUNING_FORCE");
  if (!Force || !*Force)
    Force = Info.force.c_str();
  if (*Force) {
    tuning::Candidate C;
    if (!tuning::parseCandidate(Force, &C))
      Info.warn(std::string("STENCIL_TUNING_FORCE='") + Force +
                "' is not variant:bx,by,bz (e.g. zmarch:64,4,8); ignoring it");
    else if (!IsForcible(C))
      Info.warn(std::string("STENCIL_TUNING_FORCE='") + Force +
                "' cannot launch " + First.name + " over " + Extents +
                " (variants: " + S.key.variants + "); ignoring it");
    else {
      S.tuner = tuning::OnlineTuner::settledOn(C);
      S.source = DeviceAutoTuningInfo::Source::Forced;
      return S;
    }
  }
  std::string Path =
      Info.cachePath.empty() ? tuning::defaultCachePath() : Info.cachePath;
  if (Info.useCache && !Path.empty()) {
    std::vector<std::string> Warnings;
    auto Hit = tuning::lookupCache(tuning::readCache(Path, &Warnings), S.key,
                                   &Warnings);
    for (const std::string &W : Warnings)
      Info.warn(W);
    if (Hit && IsLegal(Hit->best)) {
      S.tuner = tuning::OnlineTuner::settledOn(Hit->best);
      S.source = DeviceAutoTuningInfo::Source::Cache;
      return S;
    }
    if (Hit)
      Info.warn("tuning cache entry " + tuning::toString(Hit->best) + " for " +
                First.name + " is not legal here; tuning again");
  }
  S.tuner = tuning::OnlineTuner(All, Info.search);
  S.source = DeviceAutoTuningInfo::Source::Tuning;
  S.progressLine.begin(Info.progress, First.name, Extents, S.legal,
                       Info.search.maxCalls);
  return S;
}

inline const GeneratedStencil &entryOf(const DeviceAutoTuningInfo::Session &S,
                                       const tuning::Candidate &C) {
  for (const GeneratedStencil *E : S.entries)
    if (C.variant == E->variant)
      return *E;
  throw std::runtime_error("stencil: auto-tuning: no variant '" + C.variant +
                           "'");
}

/// One call: the next candidate, timed, while tuning; the best after.
template <typename Tuple>
void runTunedOnce(DeviceAutoTuningInfo &Info, DeviceAutoTuningInfo::Session &S,
                  const Grid &G, const Region &Box, Tuple &Values) {
  constexpr auto Seq = std::make_index_sequence<std::tuple_size_v<Tuple>>();
  const tuning::Candidate C = S.tuner.next();
  const GeneratedStencil &E = entryOf(S, C);
  if (S.tuner.settled()) {
    launchGenerated(E, G, Box, C.config(), Values, Seq);
    return;
  }
  const DeviceOps &Ops = requireDeviceOps();
  checkTuning(Ops.eventRecord(S.start, nullptr), "event");
  launchGenerated(E, G, Box, C.config(), Values, Seq);
  checkTuning(Ops.eventRecord(S.stop, nullptr), "event");
  float Ms = 0;
  checkTuning(Ops.eventElapsedMs(&Ms, S.start, S.stop), "timing");
  S.tuner.record(Ms);
  if (!S.tuner.settled()) {
    S.progressLine.update(S.tuner.calls(), S.tuner.timings().size());
    return;
  }
  S.source = DeviceAutoTuningInfo::Source::Tuned;
  std::string Path =
      Info.cachePath.empty() ? tuning::defaultCachePath() : Info.cachePath;
  std::string CacheNote =
      !Info.useCache ? "not written (useCache is off)"
      : Path.empty() ? "not written (no cache path: set STENCIL_TUNING_CACHE)"
                     : "not written (no configuration could run)";
  if (Info.useCache && !Path.empty() && S.tuner.hasBest()) {
    tuning::CacheEntry Entry{
        S.key, S.tuner.best(),
        tuning::median(S.tuner.timings().at(S.tuner.best())), S.tuner.calls()};
    std::vector<std::string> Warnings;
    std::string Why;
    CacheNote = tuning::storeCacheEntry(Path, Entry, &Warnings, &Why)
                    ? "written to " + Path
                    : "not written to " + Path + " (" + Why + ")";
    for (const std::string &W : Warnings)
      Info.warn(W);
  }
  if (S.tuner.hasBest())
    S.progressLine.done(tuning::toString(S.tuner.best()),
                        tuning::median(S.tuner.timings().at(S.tuner.best())),
                        S.tuner.calls(), CacheNote);
  if (std::getenv("STENCIL_TUNING_REPORT"))
    Info.report(stderr);
}

} // namespace detail

/// Seed 000's DeviceAutoTuningLoopEngine: the stencil's first argument after
/// itself is a DeviceAutoTuningInfo *.
template <int Dims> class DeviceAutoTuningLoopEngine {
public:
  explicit DeviceAutoTuningLoopEngine(LoopRanges<Dims> Ranges) {
    loopGeometry(Dims, Ranges, &Geometry, &Box);
  }

  template <typename StencilT, typename... Args>
  void operator()(const StencilT &S, DeviceAutoTuningInfo *Info, Args &&...A) {
    run(S, *Info, /*UntilSettled=*/false, std::forward<Args>(A)...);
  }

  /// Loop::repeat: the steps run one at a time while the tuner times the
  /// stencil's configurations, call by call as run() does. Once it has
  /// settled, where stencilc generated passes for this stencil and these two
  /// time levels, the tuner times steps one at a time against passes of 2
  /// to 8 steps at a few tiles and chunks (temporal_tuning.hpp), on copies
  /// of the two levels, keeps the fastest per step (in the cache file too)
  /// and runs the remaining steps so. Both levels end as after the steps one
  /// by one (passes may contract multiply-adds otherwise: the last bits).
  template <typename StencilT, typename... Args>
  void repeat(long long Steps, const StencilT &S, DeviceAutoTuningInfo *Info,
              Args &...A) {
    detail::checkRepeat(Steps, A...);
    auto OneStep = [&](auto &&...V) {
      (*this)(S, Info, std::forward<decltype(V)>(V)...);
    };
    const GeneratedStencil *E = detail::lookupGenerated(Backend::Cuda, S);
    if (!E)
      throw std::runtime_error(detail::noGeneratedCode(Backend::Cuda, S));
    detail::checkLevelMarks<Args...>(
        E, detail::signatureOf(
               typename detail::StencilTraits<StencilT>::Params()));
    DeviceAutoTuningInfo::Session &Ses = detail::tuningSession(*Info, *E, Box);
    long long Done = 0;
    for (; Done < Steps && !Ses.tuner.settled(); ++Done)
      detail::repeatOneByOne(1, OneStep, A...);
    using Levels = detail::TimeLevels<Args...>;
    const GeneratedTemporal *T = findGeneratedTemporal(
        *E, static_cast<int>(Levels::Previous), static_cast<int>(Levels::Next));
    if (Done == Steps || !T || !Ses.tuner.hasBest()) {
      detail::repeatOneByOne(Steps - Done, OneStep, A...);
      return;
    }
    const tuning::Candidate Best = Ses.tuner.best();
    const GeneratedStencil &Tuned = detail::entryOf(Ses, Best);
    if (!Ses.passesChosen)
      choosePasses(*Info, Ses, Tuned, *T, S, OneStep, A...);
    detail::repeatTemporal(&Tuned, Geometry, Box, Best.config(), Ses.passes,
                           Steps - Done, S, OneStep, A...);
  }
  static constexpr bool repeatTag = true;

  /// Tunes now: calls the stencil until the tuner settles (at least once).
  template <typename StencilT, typename... Args>
  void tune(const StencilT &S, DeviceAutoTuningInfo *Info, Args &&...A) {
    run(S, *Info, /*UntilSettled=*/true, std::forward<Args>(A)...);
  }

private:
  template <typename StencilT, typename... Args>
  void run(const StencilT &S, DeviceAutoTuningInfo &Info, bool UntilSettled,
           Args &&...A) {
    using Params = typename detail::StencilTraits<StencilT>::Params;
    runWith(S, Info, UntilSettled, Params(), std::forward<Args>(A)...);
  }
  template <typename StencilT, typename... P, typename... Args>
  void runWith(const StencilT &S, DeviceAutoTuningInfo &Info, bool UntilSettled,
               detail::ParamList<P...>, Args &&...A) {
    static_assert(
        sizeof...(P) == sizeof...(Args),
        "wrong number of arguments for this stencil: pass one for each "
        "parameter after the index, after the DeviceAutoTuningInfo * "
        "(default arguments are not used)");
    const GeneratedStencil *E = detail::lookupGenerated(Backend::Cuda, S);
    if (!E)
      throw std::runtime_error(detail::noGeneratedCode(Backend::Cuda, S));
    detail::checkSignature(*E, typeid(void(P...)));
    std::tuple<P...> Values(std::forward<Args>(A)...);
    detail::checkArrays(*E, Values, std::index_sequence_for<P...>());
    // Every variant has the same halo (one stencil): the first one's says.
    detail::checkMargins(*E, Geometry, Box);
    DeviceAutoTuningInfo::Session &Ses = detail::tuningSession(Info, *E, Box);
    do
      detail::runTunedOnce(Info, Ses, Geometry, Box, Values);
    while (UntilSettled && !Ses.tuner.settled());
  }

  /// Times each candidate of temporalCandidates (a warm-up loop, then a
  /// timed one of at least 2 * mostTunedSteps(Dims) + 1 steps, in passes of the
  /// candidate's steps: detail::trialSteps) on copies of the two levels,
  /// each candidate from the levels' state; times the fastest few again
  /// (Info.search: finalists, finalRepeats) and keeps the lowest median per
  /// step in \p Ses, or takes the cache's.
  template <typename StencilT, typename OneStepF, typename... Args>
  void choosePasses(DeviceAutoTuningInfo &Info,
                    DeviceAutoTuningInfo::Session &Ses,
                    const GeneratedStencil &Tuned, const GeneratedTemporal &T,
                    const StencilT &S, OneStepF &OneStep, Args &...A) {
    const DeviceOps &Ops = detail::requireDeviceOps();
    tuning::DeviceLimits L;
    detail::checkTuning(Ops.blockLimits(&L.maxThreadsPerBlock,
                                        &L.registersPerBlock,
                                        &L.sharedPerBlock),
                        "device limits");
    const tuning::TemporalQuery Query = [&T](int Bx, int By, int Steps,
                                             KernelAttributes *Out) {
      return T.query ? T.query(Bx, By, Steps, Out) : "no query";
    };
    const std::vector<TemporalConfig> Candidates =
        tuning::temporalCandidates(T, Dims, Box, Query, L, &Ses.passesPruned);
    const tuning::CacheKey Key =
        tuning::passesChoiceKey(Tuned, Ses.key, Candidates.size());
    const std::string Path =
        Info.cachePath.empty() ? tuning::defaultCachePath() : Info.cachePath;
    if (Info.useCache)
      if (const std::optional<TemporalConfig> Hit =
              tuning::lookupPassesChoice(Path, Key)) {
        Ses.passes = *Hit;
        Ses.passesSource = "cache";
        Ses.passesChosen = true;
        return;
      }
    using Levels = detail::TimeLevels<Args...>;
    auto *const Previous = detail::levelVariable<Levels::Previous>(A...);
    auto *const Next = detail::levelVariable<Levels::Next>(A...);
    using Value = std::remove_pointer_t<std::decay_t<decltype(*Previous)>>;
    std::size_t Count = 1;
    for (int D = 0; D < Dims; ++D)
      Count *= static_cast<std::size_t>(Geometry.extent[D]);
    const std::size_t Bytes = Count * sizeof(Value);
    // The trials write copies of both levels (margins included): the user's
    // arrays keep the state the remaining steps start from. Each candidate
    // starts from that state: a field that decays (to denormals, where an
    // IEEE division takes its slow path) would otherwise slow the later
    // candidates down.
    std::vector<unsigned char> Staging[2] = {std::vector<unsigned char>(Bytes),
                                             std::vector<unsigned char>(Bytes)};
    // Released however the trials end (a step's launch error escapes).
    struct Scratch {
      const DeviceOps &Ops;
      void *Copies[2] = {nullptr, nullptr};
      ~Scratch() {
        for (void *Copy : Copies)
          if (Copy)
            Ops.release(Copy);
      }
    } Scratches{Ops};
    void *(&Copies)[2] = Scratches.Copies;
    Value *const *Levels2[2] = {Previous, Next};
    for (int C = 0; C < 2; ++C) {
      detail::checkDevice(Ops.allocate(&Copies[C], Bytes), "auto-tuning");
      detail::checkDevice(Ops.copyToHost(Staging[C].data(), *Levels2[C], Bytes),
                          "auto-tuning");
    }
    auto Restore = [&] {
      for (int C = 0; C < 2; ++C)
        detail::checkDevice(
            Ops.copyToDevice(Copies[C], Staging[C].data(), Bytes),
            "auto-tuning");
    };
    Value *TrialPrevious = static_cast<Value *>(Copies[0]),
          *TrialNext = static_cast<Value *>(Copies[1]);
    // ms per step of a loop of C's steps (at least 2 * mostTunedSteps(Dims)
    // + 1, in passes of exactly C's steps: 17 steps at 6 a pass would run
    // passes of 4 (passSchedule), timing another candidate under C's name),
    // from the levels' state, after a warm-up loop where Warm.
    auto Trial = [&](const TemporalConfig &C, bool Warm) {
      const long long TrialSteps =
          detail::trialSteps(C.steps, 2 * tuning::mostTunedSteps(Dims) + 1);
      double Ms = std::numeric_limits<double>::infinity();
      Restore();
      for (int Run = Warm ? 0 : 1; Run < 2; ++Run) {
        detail::checkDevice(Ops.synchronize(), "auto-tuning");
        const auto T0 = std::chrono::steady_clock::now();
        auto Loop = [&](auto &&...Marked) {
          detail::repeatTemporal(&Tuned, Geometry, Box,
                                 Ses.tuner.best().config(), C, TrialSteps, S,
                                 OneStep, Marked...);
        };
        Loop(detail::onTrialLevels(A, TrialPrevious, TrialNext)...);
        detail::checkDevice(Ops.synchronize(), "auto-tuning");
        Ms = std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now() - T0)
                 .count() /
             TrialSteps;
      }
      return Ms;
    };
    std::vector<std::vector<double>> Timings;
    for (const TemporalConfig &C : Candidates) {
      double Ms = std::numeric_limits<double>::infinity();
      try {
        Ms = Trial(C, /*Warm=*/true);
      } catch (const std::runtime_error &Error) {
        // A pass the launch refuses (its rings beyond the block's shared
        // memory) is pruned; the steps one at a time always run.
        if (C.steps <= 1)
          throw;
        ++Ses.passesPruned[std::string("refused at launch: ") + Error.what()];
      }
      Timings.push_back({Ms});
    }
    // The fastest few again, as the steps' search ends (Info.search): the
    // lowest median of each one's timings wins.
    const std::size_t Fastest = tuning::fastestOfFinalists(
        Timings, Info.search.finalists, Info.search.finalRepeats,
        [&](std::size_t I) { return Trial(Candidates[I], /*Warm=*/false); });
    Ses.passTimings.clear();
    int Runs = 0;
    for (std::size_t I = 0; I < Candidates.size(); ++I) {
      Ses.passTimings.push_back({Candidates[I], tuning::median(Timings[I]),
                                 static_cast<int>(Timings[I].size())});
      Runs += static_cast<int>(Timings[I].size());
    }
    Ses.passes = Candidates[Fastest];
    Ses.passesSource = "timed";
    Ses.passesChosen = true;
    if (Info.useCache)
      tuning::storePassesChoice(Path, Key, Ses.passes,
                                tuning::median(Timings[Fastest]),
                                Runs + static_cast<int>(Candidates.size()));
    if (std::getenv("STENCIL_TUNING_REPORT"))
      Info.report(stderr);
  }

  Grid Geometry;
  Region Box;
};

using DeviceAutoTuningLoopEngine2D = DeviceAutoTuningLoopEngine<2>;
using DeviceAutoTuningLoopEngine3D = DeviceAutoTuningLoopEngine<3>;

/// Tunes \p S over \p L's range now (the explicit tune-now call).
template <int Dims, typename StencilT, typename... Args>
void tuneNow(const Loop<Dims, DeviceAutoTuningLoopEngine<Dims>> &L,
             const StencilT &S, DeviceAutoTuningInfo *Info, Args &&...A) {
  DeviceAutoTuningLoopEngine<Dims>(L.ranges())
      .tune(S, Info, std::forward<Args>(A)...);
}

} // namespace stencil

#endif // STENCIL_AUTOTUNING_ENGINE_HPP
