// stencil/tuning_progress.hpp - what the auto-tuner says on stderr while a
// search takes long: after a second, the stencil, the extents and how many
// candidates have been timed (one line updated in place on a terminal, a
// line a second otherwise); when done, the choice and where the cache entry
// went. Silent when the search took under a second, and with
// STENCIL_TUNING_QUIET=1 (or ProgressOptions::quiet).
#ifndef STENCIL_TUNING_PROGRESS_HPP
#define STENCIL_TUNING_PROGRESS_HPP

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace stencil::tuning {

struct ProgressOptions {
  bool quiet = false;       ///< Print nothing (as STENCIL_TUNING_QUIET=1).
  std::FILE *out = nullptr; ///< Where to print; null: stderr.
  double after = 1.0;       ///< Seconds of tuning before the first line.
  double every = 1.0;       ///< Seconds between lines.
  std::function<double()>
      clock; ///< Seconds; empty: a steady clock (tests inject one).
};

/// The progress of one search (one stencil over one region).
class TuningProgress {
public:
  TuningProgress() = default;

  /// Starts the clock of a search of \p Stencil over \p Extents among
  /// \p Legal candidates, at most \p MaxCalls calls.
  void begin(const ProgressOptions &O, const std::string &Stencil,
             const std::string &Extents, std::size_t Legal, int MaxCalls) {
    opt_ = O;
    const char *Quiet = std::getenv("STENCIL_TUNING_QUIET");
    quiet_ = O.quiet || (Quiet && *Quiet && std::strcmp(Quiet, "0") != 0);
    out_ = O.out ? O.out : stderr;
#if defined(__unix__) || defined(__APPLE__)
    inPlace_ = ::isatty(::fileno(out_));
#endif
    what_ = Stencil + " over " + Extents;
    legal_ = Legal;
    maxCalls_ = MaxCalls;
    start_ = now();
    next_ = start_ + opt_.after;
    printed_ = false;
  }

  /// After each timed call: \p Calls made, \p Timed candidates with a time.
  void update(int Calls, std::size_t Timed) {
    if (quiet_)
      return;
    const double T = now();
    if (T < next_)
      return;
    // A line every opt_.every seconds of tuning, whatever one call takes.
    next_ += opt_.every;
    if (next_ <= T)
      next_ = T + opt_.every;
    char Buf[160];
    std::snprintf(Buf, sizeof(Buf),
                  ": %zu of %zu candidates timed, call %d of at most %d (%d s)",
                  Timed, legal_, Calls, maxCalls_,
                  static_cast<int>(T - start_ + 1e-9));
    print("stencil: auto-tuning " + what_ + Buf, /*Final=*/false);
  }

  /// When settled on \p Best (a toString(Candidate)) at \p Ms per call
  /// after \p Calls calls; \p Cache says where the entry went ("written to
  /// <path>", "not written: ...", "off"). Printed when the search took a
  /// second or more.
  void done(const std::string &Best, double Ms, int Calls,
            const std::string &Cache) {
    if (quiet_)
      return;
    const double T = now() - start_;
    if (T < opt_.after && !printed_)
      return;
    char Buf[160];
    std::snprintf(Buf, sizeof(Buf),
                  " done in %.1f s after %d calls: %s (%.4g ms); ", T, Calls,
                  Best.c_str(), Ms);
    print("stencil: auto-tuning " + what_ + Buf + "cache entry " + Cache,
          /*Final=*/true);
  }

private:
  double now() const {
    if (opt_.clock)
      return opt_.clock();
    return std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void print(const std::string &Line, bool Final) {
    // On a terminal one line is rewritten; in a log every line stays.
    if (inPlace_)
      std::fprintf(out_, "\r%s\033[K%s", Line.c_str(), Final ? "\n" : "");
    else
      std::fprintf(out_, "%s\n", Line.c_str());
    std::fflush(out_);
    printed_ = true;
  }

  ProgressOptions opt_;
  bool quiet_ = true;
  bool inPlace_ = false;
  bool printed_ = false;
  std::FILE *out_ = nullptr;
  std::string what_;
  std::size_t legal_ = 0;
  int maxCalls_ = 0;
  double start_ = 0, next_ = 0;
};

} // namespace stencil::tuning

#endif // STENCIL_TUNING_PROGRESS_HPP
