// stencil/tuning_online_search.hpp - the auto-tuner's online search: which
// candidate the next call runs, and when the search settles on the fastest.
// It sees only candidates and times (the engine injects both), so it runs
// and is tested without a GPU. docs/tuning.md describes the stages.
#ifndef STENCIL_TUNING_ONLINE_SEARCH_HPP
#define STENCIL_TUNING_ONLINE_SEARCH_HPP

#include <stencil/tuning_candidate.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace stencil::tuning {

/// The median of \p V; infinity when empty.
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

  OnlineTuner(std::vector<Candidate> All, Options O)
      : All_(std::move(All)), Opt_(O) {
    for (const Candidate &C : All_)
      Legal_.insert(C);
    if (All_.empty()) {
      Phase_ = Phase::Done;
      return;
    }
    enqueueCoarse();
  }
  explicit OnlineTuner(std::vector<Candidate> All)
      : OnlineTuner(std::move(All), Options()) {}

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
  const std::map<Candidate, std::vector<double>> &timings() const {
    return Times_;
  }
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
    // The search stops where the final timings' room begins, whatever its
    // phase has left (once a candidate is timed): never more than maxCalls.
    if (Phase_ != Phase::Final && !Times_.empty() && room() <= 0)
      Queue_.clear();
    if (Queue_.empty())
      advance();
  }

private:
  enum class Phase { Coarse, Refine, Final, Done };

  static double distance(const Candidate &A, int Bx, int By, int Bz) {
    return std::fabs(std::log2(double(A.bx) / Bx)) +
           std::fabs(std::log2(double(A.by) / By)) +
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
    if (Times_.count(C) ||
        std::find(Queue_.begin(), Queue_.end(), C) != Queue_.end())
      return;
    Queue_.push_back(C);
  }

  /// Per variant, the legal shapes nearest to a few spread targets.
  void enqueueCoarse() {
    static const int Targets[][3] = {{32, 4, 4},   {32, 4, 32}, {128, 1, 4},
                                     {128, 1, 32}, {128, 4, 8}, {32, 1, 16},
                                     {64, 2, 64},  {256, 2, 16}};
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

  /// Calls left before the final timings (in 64 bits: any options).
  long long room() const {
    return static_cast<long long>(Opt_.maxCalls) -
           static_cast<long long>(Opt_.finalists) * Opt_.finalRepeats - Calls_;
  }

  double score(const Candidate &C) const {
    auto It = Times_.find(C);
    return It == Times_.end() ? INFINITY : median(It->second);
  }

  /// The best timed candidate of \p Variant (or of all, if empty).
  const Candidate *bestOf(const std::string &Variant) const {
    const Candidate *Best = nullptr;
    for (const auto &[C, T] : Times_)
      if ((Variant.empty() || C.variant == Variant) &&
          (!Best || score(C) < score(*Best)))
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
    static const int Moves[][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1},  {0, 0, -1},
                                   {1, -1, 0}, {-1, 1, 0}};
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
      const long long Room = room();
      if (static_cast<long long>(Queue_.size()) > Room)
        Queue_.resize(static_cast<std::size_t>(std::max(0LL, Room)));
      if (!Queue_.empty())
        return;
      Phase_ = Phase::Final;
      std::vector<Candidate> Ranked;
      for (const auto &[C, T] : Times_)
        Ranked.push_back(C);
      std::stable_sort(Ranked.begin(), Ranked.end(),
                       [this](const Candidate &A, const Candidate &B) {
                         return score(A) < score(B);
                       });
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

} // namespace stencil::tuning

#endif // STENCIL_TUNING_ONLINE_SEARCH_HPP
