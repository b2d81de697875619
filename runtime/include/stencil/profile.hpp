// stencil/profile.hpp - where run time goes: an opt-in summary per stencil,
// variant and backend (calls, time, GB/s, GFlop/s, share of the total, like
// Devito's performance summary) and NVTX ranges for Nsight Systems.
//
//   STENCIL_PROFILE=1 ./app          # the summary on stderr at exit
//   stencil::profile::enable();      // the same from the program
//   stencil::profile::report(std::cout);
//
// Every launch of generated code (stencil/generated_engine.hpp) passes
// through profiledLaunch() when state() is not zero: with profiling off and
// no NVTX hooks (OpenMP-only and g++-alone builds) a launch costs one load
// and one branch more. Times: OpenMP launches are timed by the wall clock
// (they return when done); CUDA launches by two CUDA events recorded on the
// launch's stream around it, read when the summary is made, or when more
// than maxPendingLaunches() launches wait to be read (then the oldest half
// is read, which waits for them to finish). So profiling adds no
// synchronisation per launch. GB/s and GFlop/s come from stencilc's
// bytesPerPoint and flopsPerPoint (GeneratedStencil) times the points of
// each launch: bytes with perfect reuse, so GB/s is an effective bandwidth.
//
// NVTX: generated CUDA code installs range hooks (stencil/cuda/device_ops.cuh)
// that push a range named "<stencil> [<variant>]" around each launch and
// "halo exchange start" / "halo exchange wait" around a HaloExchange's
// steps, in the NVTX domain "stencil". Without CUDA nothing is installed and
// nothing is needed. STENCIL_NVTX=0 turns the ranges off.
#ifndef STENCIL_PROFILE_HPP
#define STENCIL_PROFILE_HPP

#include <stencil/device.hpp>
#include <stencil/generated.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace stencil::profile {

/// NVTX (or any tool's) ranges: \p Push opens "<Name> [<Detail>]" (or
/// "<Name>" when \p Detail is null) on the calling thread, \p Pop closes it.
struct RangeHooks {
  void (*push)(const char *Name, const char *Detail);
  void (*pop)();
};

/// One line of the summary: a stencil's variant on one backend, or a timed
/// region of the runtime (backend "host", e.g. a halo exchange's steps).
struct Row {
  std::string stencil;
  std::string variant;
  std::string backend;
  long long calls = 0;
  double seconds = 0;
  double points = 0;     ///< Points computed over all calls.
  double bytes = 0;      ///< bytesPerPoint times points.
  double flops = 0;      ///< flopsPerPoint times points.
  long long untimed = 0; ///< CUDA launches whose events could not be read.
  bool isStencil = true;
};

namespace detail {

enum : unsigned { Summary = 1u, Ranges = 2u, Unresolved = 0x80u };

/// Bits of what is on; Unresolved until the environment has been read. Zero
/// means nothing to do: the launch path's one branch.
inline std::atomic<unsigned> StateBits{Unresolved};

inline const RangeHooks *&hooksSlot() {
  static const RangeHooks *Hooks = nullptr;
  return Hooks;
}

inline bool envIsOn(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V && std::strcmp(V, "0") != 0;
}
inline bool envIsOff(const char *Name) {
  const char *V = std::getenv(Name);
  return V && std::strcmp(V, "0") == 0;
}

void printAtExit();

/// Reads STENCIL_PROFILE and STENCIL_NVTX once; enable(), disable() and
/// registerRangeHooks() call it first so that they win over the
/// environment.
inline void resolve() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    unsigned Bits = 0;
    if (envIsOn("STENCIL_PROFILE")) {
      Bits |= Summary;
      std::atexit(printAtExit);
    }
    if (hooksSlot() && !envIsOff("STENCIL_NVTX"))
      Bits |= Ranges;
    StateBits.store(Bits);
  });
}

inline unsigned state() { return StateBits.load(std::memory_order_relaxed); }

inline void setBit(unsigned Bit, bool On) {
  resolve();
  if (On)
    StateBits.fetch_or(Bit);
  else
    StateBits.fetch_and(~Bit);
}

struct PendingLaunch {
  std::size_t row;
  void *start, *stop;
};

/// The statistics; every member is guarded by mutex.
struct Profile {
  std::mutex mutex;
  std::vector<Row> rows;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t>
      index;
  std::map<const GeneratedStencil *, std::size_t> byEntry;
  std::deque<PendingLaunch> pending; ///< CUDA launches not read yet
  std::vector<void *> freeEvents;
  bool printed = false;
  bool atExitForCuda = false;
  /// Runs of generated code the rows do not time, by kind (noteUntimed).
  std::map<std::string, long long> notTimed;
  /// Which process the summary is of (setLabel): "rank 2 of 4" under MPI.
  std::string label;

  std::size_t rowOf(const std::string &Stencil, const std::string &Variant,
                    const std::string &Backend, bool IsStencil) {
    auto Key = std::make_tuple(Stencil, Variant, Backend);
    auto It = index.find(Key);
    if (It != index.end())
      return It->second;
    Row R;
    R.stencil = Stencil;
    R.variant = Variant;
    R.backend = Backend;
    R.isStencil = IsStencil;
    rows.push_back(R);
    return index[Key] = rows.size() - 1;
  }
  /// The row of \p E; entries of one stencil registered by two files share it.
  std::size_t rowOf(const GeneratedStencil &E) {
    auto It = byEntry.find(&E);
    if (It != byEntry.end())
      return It->second;
    std::size_t R = rowOf(E.name, E.variant, backendName(E.backend), true);
    byEntry[&E] = R;
    return R;
  }
  void count(std::size_t R, const GeneratedStencil *E, double Points) {
    Row &Out = rows[R];
    ++Out.calls;
    if (E) {
      Out.points += Points;
      Out.bytes += E->bytesPerPoint * Points;
      Out.flops += E->flopsPerPoint * Points;
    }
  }
  /// Reads the \p N oldest pending CUDA launches (waiting for each).
  void drain(std::size_t N) {
    const DeviceOps *Ops = stencil::detail::deviceOpsSlot();
    for (; N && !pending.empty(); --N) {
      PendingLaunch P = pending.front();
      pending.pop_front();
      float Ms = 0;
      if (Ops && !Ops->eventElapsedMs(&Ms, P.start, P.stop))
        rows[P.row].seconds += Ms * 1e-3;
      else
        ++rows[P.row].untimed;
      freeEvents.push_back(P.start);
      freeEvents.push_back(P.stop);
    }
  }
  void *event(const DeviceOps &Ops) {
    if (!freeEvents.empty()) {
      void *E = freeEvents.back();
      freeEvents.pop_back();
      return E;
    }
    void *E = nullptr;
    return Ops.eventCreate(&E) ? nullptr : E;
  }
};

inline Profile &profile() {
  // Never destroyed: launches and the report may come from other static
  // objects' destructors and from atexit.
  static Profile *P = new Profile;
  return *P;
}

inline double points(const GeneratedStencil &E, const Region &R) {
  double N = 1;
  for (int D = 0; D < E.dims && D < 4; ++D)
    N *= R.hi[D] > R.lo[D] ? double(R.hi[D] - R.lo[D]) : 0.0;
  return N;
}

/// Opens a range (when hooks are installed and on) until destroyed.
class RangeScope {
public:
  RangeScope(unsigned Bits, const char *Name, const char *Detail) {
    if (!(Bits & Ranges))
      return;
    if (const RangeHooks *H = hooksSlot()) {
      H->push(Name, Detail);
      hooks_ = H;
    }
  }
  RangeScope(const RangeScope &) = delete;
  RangeScope &operator=(const RangeScope &) = delete;
  ~RangeScope() {
    if (hooks_)
      hooks_->pop();
  }

private:
  const RangeHooks *hooks_ = nullptr;
};

} // namespace detail

/// How many CUDA launches may wait to be read before the oldest half is.
inline std::size_t maxPendingLaunches() { return 4096; }

/// Installs range hooks (generated CUDA code installs NVTX ones).
inline bool registerRangeHooks(const RangeHooks &Hooks) {
  static RangeHooks Kept;
  Kept = Hooks;
  detail::hooksSlot() = &Kept;
  detail::resolve();
  detail::setBit(detail::Ranges, !detail::envIsOff("STENCIL_NVTX"));
  return true;
}

/// Starts collecting the summary and prints it to stderr at exit (as
/// STENCIL_PROFILE=1 does).
inline void enable() {
  detail::resolve();
  if (!(detail::state() & detail::Summary)) {
    static std::once_flag AtExit;
    std::call_once(AtExit, [] { std::atexit(detail::printAtExit); });
  }
  detail::setBit(detail::Summary, true);
}

/// Stops collecting; the summary is not printed at exit.
inline void disable() { detail::setBit(detail::Summary, false); }

/// True while the summary is collected.
inline bool enabled() {
  detail::resolve();
  return detail::state() & detail::Summary;
}

/// The summary so far (CUDA times read now), most time first.
inline std::vector<Row> rows() {
  detail::Profile &P = detail::profile();
  std::lock_guard<std::mutex> Lock(P.mutex);
  P.drain(P.pending.size());
  std::vector<Row> Out = P.rows;
  std::stable_sort(Out.begin(), Out.end(), [](const Row &A, const Row &B) {
    return A.isStencil != B.isStencil ? A.isStencil : A.seconds > B.seconds;
  });
  return Out;
}

/// Names the process in the summary's first line (`stencil profile (rank 2
/// of 4): ...`): a stencil::Domain sets it where there are several ranks,
/// each of which prints its own summary.
inline void setLabel(const std::string &Label) {
  detail::Profile &P = detail::profile();
  std::lock_guard<std::mutex> Lock(P.mutex);
  P.label = Label;
}

/// Forgets what was collected (e.g. after a warm-up).
inline void reset() {
  detail::Profile &P = detail::profile();
  std::lock_guard<std::mutex> Lock(P.mutex);
  P.drain(P.pending.size());
  P.rows.clear();
  P.index.clear();
  P.byEntry.clear();
  P.notTimed.clear();
}

/// Prints the summary: one line per stencil, variant and backend, then the
/// runtime's timed regions (halo exchanges).
inline void report(std::ostream &Out) {
  const std::vector<Row> Rows = rows();
  double Total = 0;
  long long Calls = 0, Untimed = 0;
  std::size_t NameWidth = 7, VariantWidth = 7, Stencils = 0;
  for (const Row &R : Rows) {
    NameWidth = std::max(NameWidth, R.stencil.size());
    VariantWidth = std::max(VariantWidth, R.variant.size());
    if (!R.isStencil)
      continue;
    Total += R.seconds;
    Calls += R.calls;
    Untimed += R.untimed;
    ++Stencils;
  }
  std::string Label;
  {
    detail::Profile &P = detail::profile();
    std::lock_guard<std::mutex> Lock(P.mutex);
    Label = P.label;
  }
  char Buf[512];
  std::snprintf(Buf, sizeof(Buf),
                ": %lld launches of %zu stencil variants, %.6f s in stencils\n",
                Calls, Stencils, Total);
  Out << "stencil profile" << (Label.empty() ? "" : " (" + Label + ")") << Buf;
  // What ran and has no row: said, so that a short summary is not read as
  // all the time there was.
  auto NotInRows = [&Out] {
    std::map<std::string, long long> NotTimed;
    {
      detail::Profile &P = detail::profile();
      std::lock_guard<std::mutex> Lock(P.mutex);
      NotTimed = P.notTimed;
    }
    for (const auto &[What, Count] : NotTimed)
      Out << "  not in the rows: " << Count << " " << What << "\n";
  };
  if (Rows.empty()) {
    NotInRows();
    return;
  }
  // The names through the stream: a qualified name may be longer than any
  // buffer (a row cut short lost its newline and ran into the next).
  auto Names = [&](const std::string &Name, const std::string &Variant) {
    Out << "  " << Name << std::string(NameWidth - Name.size(), ' ') << "  "
        << Variant << std::string(VariantWidth - Variant.size(), ' ') << "  ";
  };
  Names("stencil", "variant");
  std::snprintf(Buf, sizeof(Buf), "%-7s %9s %12s %7s %10s %10s %10s\n",
                "backend", "calls", "time [s]", "share", "GB/s", "GFlop/s",
                "GPoints/s");
  Out << Buf;
  auto Rate = [](double Amount, double Seconds, char *To, std::size_t Size) {
    if (Seconds > 0)
      std::snprintf(To, Size, "%.2f", Amount / Seconds * 1e-9);
    else
      std::snprintf(To, Size, "-");
  };
  for (const Row &R : Rows) {
    char Share[16] = "-", GBs[32] = "-", GFlops[32] = "-", GPts[32] = "-";
    if (R.isStencil) {
      if (Total > 0)
        std::snprintf(Share, sizeof(Share), "%.1f%%",
                      100.0 * R.seconds / Total);
      Rate(R.bytes, R.seconds, GBs, sizeof(GBs));
      Rate(R.flops, R.seconds, GFlops, sizeof(GFlops));
      Rate(R.points, R.seconds, GPts, sizeof(GPts));
    }
    Names(R.stencil, R.variant);
    std::snprintf(Buf, sizeof(Buf), "%-7s %9lld %12.6f %7s %10s %10s %10s\n",
                  R.backend.c_str(), R.calls, R.seconds, Share, GBs, GFlops,
                  GPts);
    Out << Buf;
  }
  Out << "  (cuda: GPU time between events on each launch's stream; openmp and "
         "host: wall "
         "time; GB/s from stencilc's bytes per point with perfect reuse)\n";
  if (Untimed)
    Out << "  " << Untimed
        << " cuda launches could not be timed (their events failed)\n";
  NotInRows();
}

namespace detail {

inline void printAtExit() {
  if (!(state() & Summary))
    return;
  Profile &P = profile();
  {
    std::lock_guard<std::mutex> Lock(P.mutex);
    if (P.printed)
      return;
    P.printed = true;
  }
  // One write: the summaries of several ranks on one terminal do not
  // interleave line by line.
  std::ostringstream Text;
  report(Text);
  std::cerr << Text.str() << std::flush;
}

/// Runs \p Launch (a generated launcher's call, returning null or an error
/// text) for entry \p E over \p R: inside an NVTX range, and timed when the
/// summary is on. Called only when state() is not zero.
template <typename LaunchFn>
const char *profiledLaunch(const GeneratedStencil &E, const Region &R,
                           const LaunchConfig &C, LaunchFn &&Launch) {
  resolve();
  const unsigned Bits = state();
  if (!(Bits & Summary)) {
    RangeScope Range(Bits, E.name, E.variant);
    return Launch();
  }
  Profile &P = profile();
  const DeviceOps *Ops = stencil::detail::deviceOpsSlot();
  if (E.backend == Backend::Cuda && Ops) {
    void *Start = nullptr, *Stop = nullptr;
    std::size_t RowIndex;
    bool AtExit = false;
    {
      std::lock_guard<std::mutex> Lock(P.mutex);
      RowIndex = P.rowOf(E);
      Start = P.event(*Ops);
      Stop = Start ? P.event(*Ops) : nullptr;
      // Registered after CUDA's own exit handlers (our events exist, so the
      // runtime is up): runs before them, while events can still be read.
      AtExit = !P.atExitForCuda && Stop;
      P.atExitForCuda |= AtExit;
    }
    if (AtExit)
      std::atexit(printAtExit);
    const char *Error;
    {
      RangeScope Range(Bits, E.name, E.variant);
      if (Start)
        Ops->eventRecord(Start, C.stream);
      Error = Launch();
      if (Stop)
        Ops->eventRecord(Stop, C.stream);
    }
    std::lock_guard<std::mutex> Lock(P.mutex);
    if (Error || !Stop) {
      for (void *Ev : {Start, Stop})
        if (Ev)
          P.freeEvents.push_back(Ev);
      if (!Error) {
        P.count(RowIndex, &E, points(E, R));
        ++P.rows[RowIndex].untimed;
      }
      return Error;
    }
    P.count(RowIndex, &E, points(E, R));
    P.pending.push_back({RowIndex, Start, Stop});
    if (P.pending.size() > maxPendingLaunches())
      P.drain(P.pending.size() / 2);
    return nullptr;
  }
  const auto T0 = std::chrono::steady_clock::now();
  const char *Error;
  {
    RangeScope Range(Bits, E.name, E.variant);
    Error = Launch();
  }
  const double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
          .count();
  if (Error)
    return Error;
  std::lock_guard<std::mutex> Lock(P.mutex);
  const std::size_t RowIndex = P.rowOf(E);
  P.count(RowIndex, &E, points(E, R));
  P.rows[RowIndex].seconds += Seconds;
  return nullptr;
}

} // namespace detail

namespace detail {
/// Counts a run of generated code that no row times (a step run by its
/// plan, a time loop's pass of several steps), by \p What ("step runs by
/// their plan (fused groups)"): the summary says how many there were.
inline void noteUntimed(const char *What) {
  if (!state())
    return;
  resolve();
  if (!(state() & Summary))
    return;
  Profile &P = profile();
  std::lock_guard<std::mutex> Lock(P.mutex);
  ++P.notTimed[What];
}
} // namespace detail

/// A named region of the runtime (a halo exchange's start or wait): an
/// NVTX range "<Name> [<Detail>]", and with the summary on a "host" row of
/// wall time. \p Name and \p Detail must outlive the scope.
class Scope {
public:
  Scope(const char *Name, const char *Detail) {
    if (!detail::state())
      return;
    detail::resolve();
    const unsigned Bits = detail::state();
    range_.emplace(Bits, Name, Detail);
    if (Bits & detail::Summary) {
      name_ = Name;
      detail_ = Detail;
      start_ = std::chrono::steady_clock::now();
    }
  }
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;
  ~Scope() {
    range_.reset();
    if (!name_)
      return;
    const double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    detail::Profile &P = detail::profile();
    std::lock_guard<std::mutex> Lock(P.mutex);
    const std::size_t R = P.rowOf(name_, detail_ ? detail_ : "", "host", false);
    P.count(R, nullptr, 0);
    P.rows[R].seconds += Seconds;
  }

private:
  std::optional<detail::RangeScope> range_;
  const char *name_ = nullptr;
  const char *detail_ = nullptr;
  std::chrono::steady_clock::time_point start_;
};

} // namespace stencil::profile

#endif // STENCIL_PROFILE_HPP
