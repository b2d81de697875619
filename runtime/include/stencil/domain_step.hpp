// stencil/domain_step.hpp - a step (STENCIL_STEP) over a rank's own points,
// with exactly the halo exchanges stencilc's dependency graph of the step
// asks for.
//
//   stencil::DomainStep step(loop);             // loop: a DomainLoop
//   step.run(advance, dt, rho0, u, fx, un);     // u, fx, un: Field<float>
//
// The step runs as stencilc planned it (--emit=plan), round by round: each
// group of its plan, a stencil alone or a fused group (a consumer that
// recomputes its producers), after the exchanges of exactly the arrays the
// round reads off the centre and something wrote since their last exchange
// (or before the step), so an array nothing reads off the centre is never
// exchanged; each exchange fills only the widths, sides and corners that
// round and the later ones read before the array is written again. A fused
// group recomputes its producers in the halo too, so it reads their inputs
// further out than any of its stencils: allocate the fields with
// DomainStep::haloOf(backend, step). When a field's halo is thinner, an array
// is passed twice, or STENCIL_STEP_PLAN=multi-kernel, the step runs call by
// call instead, with the exchanges of the step's graph
// (--emit=ir "exchanges"); with one Field for two parameters, whose graph
// does not hold, every Field is exchanged before every call. With overlap (the
// default) a round's interior, which reads no halo, runs while the exchange
// travels, and its boundary slabs after it (seed 001's one-divided overlap);
// after a round that needs no exchange, that round's points the exchange sends
// run first, and the rest of it while the exchange travels too (two-divided).
// Every point is computed by the same code on every rank, so the results are
// bit for bit those of one rank. Arrays the step reads off the centre are
// Fields; arrays of lower rank (profiles) are pointers to the rank's piece.
#ifndef STENCIL_DOMAIN_STEP_HPP
#define STENCIL_DOMAIN_STEP_HPP

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stencil/divided_overlap.hpp>
#include <stencil/step.hpp>
#include <stencil/step_choice_cache.hpp>
#include <string>
#include <tuple>
#include <vector>

namespace stencil {

namespace detail {
/// A Field argument as the generated code takes it (its data), anything
/// else as given.
template <typename A> decltype(auto) stepValue(A &Arg) {
  if constexpr (IsField<std::remove_const_t<A>>::value)
    return Arg.data();
  else
    return static_cast<const A &>(Arg);
}
} // namespace detail

class DomainStep {
public:
  explicit DomainStep(DomainLoop &Loop)
      : loop_(&Loop), trials_(settingTrials(Loop)),
        cachePath_(trials_ ? tuning::defaultCachePath() : std::string()) {}

  /// Runs step function \p Function (annotated STENCIL_STEP, compiled by
  /// stencilc for the domain's backend) with \p A: Fields for its arrays of
  /// every dimension, pointers for arrays of lower rank, scalars. Collective.
  template <typename F, typename... Args>
  void run(F &&Function, Args &&...A) {
    runSteps(true, std::forward<F>(Function), std::forward<Args>(A)...);
  }
  /// The same without overlap: each exchange completes before its call.
  template <typename F, typename... Args>
  void runWithoutOverlap(F &&Function, Args &&...A) {
    runSteps(false, std::forward<F>(Function), std::forward<Args>(A)...);
  }

private:
  template <typename F, typename... Args>
  void runSteps(bool Overlap, F &&Function, Args &&...A) {
    DomainLoop &L = *loop_;
    const Domain &D = L.domain();
    using Pointer = std::decay_t<F>;
    static_assert(std::is_pointer_v<Pointer>,
                  "DomainStep::run takes a step function");
    const Pointer Address = Function;
    const GeneratedStep *E = findGeneratedStep(
        D.backend(), reinterpret_cast<const void *>(Address));
    D.agree("the step a DomainStep runs",
            E ? std::string("step '") + E->name + "'"
              : std::string("a step without generated code"));
    if (!E)
      throw DomainError(noGeneratedStep(
          D.backend(), reinterpret_cast<const void *>(Address)));
    const std::string Name = std::string("step '") + E->name + "'";
    const detail::FieldShape Shape =
        detail::fieldShapeOf(D, E->dims, Name, A...);
    int Arg = 0;
    (detail::checkArrayRank(E->arrayAxes, E->dims, Name, "Step", Arg++, A),
     ...);

    // The arguments as the step launcher takes them, and the Fields among
    // them by position (what an exchange appends).
    using Params = typename detail::StencilTraits<Pointer>::Params;
    auto Values = convert(Params(), A...);
    // A null array (a lower-rank array's pointer) is refused before anything
    // runs, as on one process: the fused kernels would read through it.
    detail::checkArrays(
        *E, Values,
        std::make_index_sequence<std::tuple_size_v<decltype(Values)>>());
    Arguments Noted;
    (note(Noted, A), ...);
    // Whichever way the step runs, what its graph exchanges is a Field.
    for (int I = 0; I < E->exchangeCount; ++I)
      requireField(Name, E->exchanges[I].param,
                   "call " + std::to_string(E->exchanges[I].before), Noted);
    // (What it reads off the centre it exchanges itself.)
    for (std::size_t P = 0; P < Noted.States.size(); ++P)
      if (Noted.States[P] && writes(*E, P))
        detail::requireLanded(*Noted.States[P], Noted.Names[P],
                              Name + " (DomainStep::run) writes");
    const Region Own = detail::ownRegion(D, *Shape.halo);
    const Grid G = *Shape.grid;
    const bool Shared =
        std::apply([](const auto &...V) { return detail::sharesArrays(V...); },
                   Values);
    const bool Disabled = detail::stepPlanDisabled();
    planned_ = !Shared && !Disabled && fitsPlan(*E, Noted, *Shape.halo);
    // Its calls launch the step's own code, by its plan or call by call:
    // never one stencil's entry, so no row counts them.
    profile::detail::noteUntimed(detail::DomainStepRunsUntimed);
    // Measuring adds collectives (the cache's answer, the slowest rank's
    // times): every rank measures, or none.
    D.agree("how a DomainStep runs " + Name,
            std::string(planned_ ? "its plan" : "call by call") +
                (planned_ && trials_ ? ", its fused groups measured" : ""));
    if (!planned_) {
      const Halo Reads = callsHalo(*E);
      (detail::checkHaloCovers(Name, Reads, A), ...);
    }
    const Region Valid = filledRegion(G, Own);
    std::apply(
        [&](auto &...V) {
          void *Each[] = {const_cast<void *>(static_cast<const void *>(&V))..., nullptr};
          twoDivided_ = 0;
          used_.clear();
          if (planned_)
            for (int R = 0; R < E->roundCount; ++R) {
              if (Overlap && dividesWithNext(*E, R)) {
                // Seed 001's two-divided overlap: round R's points that the
                // exchange sends, the exchange started, the rest of round R
                // and round R + 1's interior while it travels.
                Prepared Pre = prepareRound(*E, Name, R, G, Own, Valid, Each,
                                            Noted, *settledWay(*E, R));
                ++R;
                Prepared Post = prepareRound(*E, Name, R, G, Own, Valid, Each,
                                             Noted, *settledWay(*E, R));
                runDivided(*loop_, *Post.exchange, &Pre.bound, Post.bound);
                // An exchange with no neighbour (one process, not periodic)
                // has nothing travelling to overlap.
                twoDivided_ += Post.exchange->messages() > 0;
                continue;
              }
              timed(E->rounds[R].label, [&] {
                measured(*E, R, [&] {
                  runRound(*E, Name, R, G, Own, Valid, Each, Noted, Overlap);
                });
              });
            }
          else
            for (int C = 0; C < E->callCount; ++C)
              timed(E->callNames[C], [&] {
                runCall(*E, Name, C, G, Own, Each, Noted, Overlap, Shared);
              });
        },
        Values);
    for (std::size_t P = 0; P < Noted.States.size(); ++P)
      if (Noted.States[P] && writes(*E, P))
        Noted.States[P]->written(Name + " (DomainStep::run)");
  }

  /// Why no step entry was found for the function at \p Address on \p B.
  static std::string noGeneratedStep(Backend B, const void *Address) {
    const std::string Name = backendName(B);
    return "no generated " + Name + " code for the step function " +
           detail::functionAt(Address) +
           ": stencilc generates it for a "
           "function annotated STENCIL_STEP in a file it compiles "
           "(stencilc_add_sources(<target> FILES <file> BACKENDS " +
           Name +
           ")); a program built without stencilc runs steps on the "
           "host reference only";
  }

  /// Whether a call of step \p E writes parameter \p P (after the Step).
  static bool writes(const GeneratedStep &E, std::size_t P) {
    return E.writes && E.writes[P];
  }

public:
  /// The time of one round of a step (a call alone, or a fused group), over
  /// the runs since timing began.
  struct RoundTime {
    std::string label; ///< "Update", or "recompute(Flux, Update)".
    double seconds = 0;
    long calls = 0;
  };
  /// With \p On, each round of each run waits for the rounds before it and
  /// is timed until it completes (the loop synchronised around it: the time
  /// of the round alone, exchanges included); off by default, and costing
  /// nothing then. Turning it on clears the times.
  void timeRounds(bool On) {
    timing_ = On;
    times_.clear();
  }
  /// The rounds' times, in the order they first ran.
  const std::vector<RoundTime> &roundTimes() const { return times_; }

  /// A fused group's measured choice (chooseByTiming), among its ways: as
  /// planned, by its alternative strategy (where stencilc compiled one: the
  /// CUDA backend, fused by recalculation and staged on chip), and its
  /// calls alone (where what it recomputes are Fields, to be exchanged).
  enum Way { Planned = 0, Alternative = 1, Apart = 2 };
  struct GroupChoice {
    bool decided = false;
    Way way = Planned;          ///< The way it runs once decided.
    bool eligible[3] = {true, false, false};
    int runs[3] = {};
    double seconds[3] = {};     ///< The slowest rank's sums, once decided.
    Way running = Planned;      ///< The way of the run being measured.
    bool cached = false;        ///< The way came from the tuning cache.
    bool looked = false;        ///< The cache was asked.
    bool apart() const { return way == Apart; }
  };
  /// With \p Trials > 0, the plan's fused groups are measured in the next
  /// runs: each runs each of its ways in turn (the loop synchronised around
  /// it) until each has run \p Trials times, and then runs the way that
  /// took least time on the slowest rank, on every rank alike. Every way
  /// computes the same values as the step's sequence; on the GPU they may
  /// differ in the last bits (contracted multiply-adds), so a choice can
  /// change the bits of later results. 0 (the default, or
  /// STENCIL_STEP_PLAN=timed for 3) runs the plan as compiled. Clears the
  /// choices made. Each choice is kept in the tuning cache at \p CachePath
  /// (default: the auto-tuner's, STENCIL_TUNING_CACHE; empty: none), keyed
  /// by the step, its round, the domain and its decomposition, and a later
  /// run takes it from there without measuring (GroupChoice::cached).
  void chooseByTiming(int Trials,
                      std::string CachePath = tuning::defaultCachePath()) {
    trials_ = Trials > 0 ? Trials : 0;
    cachePath_ = std::move(CachePath);
    choices_.clear();
  }
  /// The choices of step \p Function's fused groups (by round; empty until
  /// it ran with chooseByTiming).
  template <typename F>
  const std::vector<GroupChoice> &choices(F Function) const {
    static const std::vector<GroupChoice> None;
    const GeneratedStep *E = findGeneratedStep(
        loop_->domain().backend(),
        reinterpret_cast<const void *>(static_cast<std::decay_t<F>>(Function)));
    auto It = choices_.find(E);
    return It == choices_.end() ? None : It->second;
  }

  /// Whether the last run followed stencilc's plan of the step (its fused
  /// groups, with their own exchanges) rather than running it call by call:
  /// it does unless STENCIL_STEP_PLAN=multi-kernel, one array is passed
  /// twice, or a Field's halo is thinner than what a round of the plan
  /// or one of its calls reads (a fused group reads its producers' inputs
  /// further out than any of its stencils: allocate with
  /// DomainStep::haloOf).
  bool ranPlan() const { return planned_; }

  /// How many exchanges of the last run were overlapped two-divided (seed
  /// 001): with the end of the group before (which needs no exchange of its
  /// own and runs as one kernel) as well as the interior of the group after.
  /// Not while rounds are timed or a fused group's ways are being measured,
  /// which need each group alone, nor an exchange with nothing to send on
  /// this rank (one process, not periodic), though its rounds run divided.
  int twoDivided() const { return twoDivided_; }

  /// The bytes this rank sent in the last run's exchanges (all arrays, all
  /// neighbours).
  std::size_t bytesSent() const {
    std::size_t Bytes = 0;
    for (const HaloExchange *X : used_)
      Bytes += X->bytesSent();
    return Bytes;
  }

  /// The halo the fields of step \p Function need on backend \p B for the
  /// plan's rounds (and every call alone) to run: the widest of both.
  template <typename F> static Halo haloOf(Backend B, F Function) {
    const void *Address =
        reinterpret_cast<const void *>(static_cast<std::decay_t<F>>(Function));
    const GeneratedStep *E = findGeneratedStep(B, Address);
    if (!E)
      throw DomainError(noGeneratedStep(B, Address));
    Halo H = callsHalo(*E);
    for (int R = 0; R < E->roundCount; ++R)
      for (int I = 0; I < E->rounds[R].haloCount; ++I)
        H.merge(roundHalo(E->rounds[R].halos[I]));
    return H;
  }

private:
  /// The step's arguments as the exchanges see them: per parameter after
  /// the Step, how to append it to an exchange, its identity and its halo
  /// (none for what is not a Field).
  struct Arguments {
    std::vector<std::function<void(HaloExchange &, const Halo &)>> Appenders;
    std::vector<const void *> Identity;
    std::vector<Halo> Halos;
    std::vector<detail::HaloState *> States; ///< Fields' (Field::haloState)
    std::vector<std::string> Names;
  };

  /// What the step's calls read, with corners if one reads them.
  static Halo callsHalo(const GeneratedStep &E) {
    bool Corners = false;
    for (int I = 0; I < E.exchangeCount; ++I)
      Corners = Corners || E.exchanges[I].diagonal;
    return Halo::of(E.halo, Corners);
  }

  /// STENCIL_STEP_PLAN's trials (3 where it is timed), the setting agreed by
  /// every rank first: set on one rank only, or to a value no rank takes, it
  /// is an error on every rank.
  static int settingTrials(const DomainLoop &Loop) {
    const char *V = std::getenv("STENCIL_STEP_PLAN");
    // Empty is unset (dsl-reference.md): alike on every rank.
    Loop.domain().agree("STENCIL_STEP_PLAN",
                        V && *V ? "'" + std::string(V) + "'" : "unset");
    return detail::stepPlanTimed() ? 3 : 0;
  }

  static Halo roundHalo(const GeneratedStepHalo &N) {
    return Halo::of(N.halo, N.diagonal);
  }

  /// True if every array a round of \p E reads off the centre is a Field
  /// with the halo it reads, or an array of lower rank (never exchanged: a
  /// piece as wide as the fields, of halo \p Fields) read within it, and
  /// the fields' halo \p Fields holds what each call reads: a consumer reads
  /// what it recomputes from memory where the offset leaves the points its
  /// producers' values are defined on (the rank's and the filled halo).
  static bool fitsPlan(const GeneratedStep &E, const Arguments &Args,
                       const Halo &Fields) {
    if (E.roundCount == 0 || !Fields.covers(callsHalo(E)))
      return false;
    for (int R = 0; R < E.roundCount; ++R)
      for (int I = 0; I < E.rounds[R].haloCount; ++I) {
        const GeneratedStepHalo &N = E.rounds[R].halos[I];
        // (An array of every dimension is exchanged before the first round
        // that reads it off the centre: passed as a pointer, it fails there.)
        if (!Args.Identity[N.param] && !N.exchange) {
          if (!Fields.covers(roundHalo(N)))
            return false;
          continue;
        }
        if (!Args.Identity[N.param] ||
            !Args.Halos[N.param].covers(roundHalo(N)))
          return false;
      }
    return true;
  }

  /// Where the values of a rank's arrays are its own or its neighbours':
  /// the own points, and the halo on each side a neighbour (or, periodic,
  /// the rank itself) fills. A fused group recomputes its producers there;
  /// beyond it the consumer reads the margin, as call by call.
  Region filledRegion(const Grid &G, const Region &Own) const {
    const Domain &D = loop_->domain();
    Region V = Own;
    for (int X = 0; X < D.dims(); ++X) {
      Direction Lo, Hi;
      Lo.d[X] = -1;
      Hi.d[X] = 1;
      if (D.neighbour(Lo) >= 0)
        V.lo[X] = 0;
      if (D.neighbour(Hi) >= 0)
        V.hi[X] = G.extent[X];
    }
    return V;
  }

  template <typename... P, typename... Args>
  static std::tuple<P...> convert(detail::ParamList<P...>, Args &...A) {
    static_assert(sizeof...(P) == sizeof...(Args),
                  "wrong number of arguments for this step (the "
                  "stencil::Step is not passed)");
    return std::tuple<P...>(detail::stepValue(A)...);
  }

  template <typename A> static void note(Arguments &Args, A &Arg) {
    if constexpr (detail::IsField<std::remove_const_t<A>>::value) {
      auto *Field = const_cast<std::remove_const_t<A> *>(&Arg);
      Args.Appenders.push_back([Field](HaloExchange &X, const Halo &Widths) {
        X.append(*Field, Widths);
      });
      Args.Identity.push_back(Field);
      Args.Halos.push_back(Field->halo());
    } else {
      Args.Appenders.push_back(nullptr);
      Args.Identity.push_back(nullptr);
      Args.Halos.push_back(Halo());
    }
    Args.States.push_back(detail::fieldState(Arg));
    Args.Names.push_back(detail::fieldName(Arg));
  }

  /// The seconds \p Body takes alone: the loop synchronised around it.
  template <typename Fn> double alone(Fn &&Body) {
    loop_->synchronize();
    const auto Start = std::chrono::steady_clock::now();
    Body();
    loop_->synchronize();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         Start)
        .count();
  }

  /// Runs \p Body, timed as \p Label when timing is on.
  template <typename Fn> void timed(const char *Label, Fn &&Body) {
    if (!timing_) {
      Body();
      return;
    }
    const double Seconds = alone(Body);
    auto It = std::find_if(times_.begin(), times_.end(),
                           [&](const RoundTime &T) { return T.label == Label; });
    if (It == times_.end())
      It = times_.insert(times_.end(), RoundTime{Label, 0, 0});
    It->seconds += Seconds;
    ++It->calls;
  }

  /// Call \p C of step \p E alone: the exchanges it needs, then its points.
  void runCall(const GeneratedStep &E, const std::string &Name, int C,
               const Grid &G, const Region &Own, void *const *Args,
               const Arguments &A, bool Overlap, bool Shared) {
    std::vector<Sent> Params;
    if (Shared) {
      // The graph's exchanges follow parameters: one Field for two of them
      // is written through one and read through the other unseen. Every
      // Field, once, before every call, as wide as any call reads.
      std::vector<const void *> Seen;
      for (int P = 0; P < static_cast<int>(A.Identity.size()); ++P)
        if (A.Identity[P] &&
            std::find(Seen.begin(), Seen.end(), A.Identity[P]) == Seen.end()) {
          Seen.push_back(A.Identity[P]);
          Params.push_back({P, callsHalo(E)});
        }
    } else {
      for (int I = 0; I < E.exchangeCount; ++I)
        if (E.exchanges[I].before == C)
          Params.push_back(
              {E.exchanges[I].param,
               Halo::of(E.exchanges[I].halo, E.exchanges[I].diagonal)});
    }
    HaloExchange *X = exchange(E, Name, "call " + std::to_string(C), Params, A);
    BoundStencil B = callBound(E, Name, C, G, Own, Args);
    launch(B, X, Overlap);
  }

  /// Call \p C of step \p E over parts of \p Own.
  static BoundStencil callBound(const GeneratedStep &E, const std::string &Name,
                                int C, const Grid &G, const Region &Own,
                                void *const *Args) {
    BoundStencil B;
    B.name = E.name;
    B.own = Own;
    for (int D = 0; D < 4; ++D) {
      B.reads.lo[D] = E.callHalos[C][D][0];
      B.reads.hi[D] = E.callHalos[C][D][1];
    }
    const GeneratedStep *Entry = &E;
    B.launch = [Entry, C, G, Args, Name](const Region &R,
                                         const LaunchConfig &Config) {
      if (const char *Error = Entry->launchCall(C, G, R, Config, Args))
        throw std::runtime_error("stencil: " + Name + " (" +
                                 backendName(Entry->backend) + "), call " +
                                 std::to_string(C) + ": " + Error);
    };
    return B;
  }

  /// A round ready to run: the exchange before it (null: none) and, unless
  /// it runs apart, its kernel over parts of the rank's points.
  struct Prepared {
    HaloExchange *exchange = nullptr;
    BoundStencil bound;
  };

  /// Round \p R of step \p E's plan run the way \p Chosen: its exchange,
  /// and its call or fused group (recomputing its producers within
  /// \p Valid).
  Prepared prepareRound(const GeneratedStep &E, const std::string &Name, int R,
                        const Grid &G, const Region &Own, const Region &Valid,
                        void *const *Args, const Arguments &A, Way Chosen) {
    const GeneratedStepRound &Round = E.rounds[R];
    std::vector<Sent> Params;
    for (int I = 0; I < Round.haloCount; ++I)
      if (Round.halos[I].exchange)
        Params.push_back(
            {Round.halos[I].param,
             Halo::of(Round.halos[I].sends, Round.halos[I].sendsDiagonal)});
    Prepared P;
    P.exchange = exchange(E, Name, "round " + std::to_string(R), Params, A);
    if (Chosen == Apart)
      return P;
    BoundStencil &B = P.bound;
    B.name = E.name;
    B.own = Own;
    for (int D = 0; D < 4; ++D) {
      B.reads.lo[D] = Round.reads[D][0];
      B.reads.hi[D] = Round.reads[D][1];
    }
    const GeneratedStep *Entry = &E;
    const int Call = Round.call,
              Group = Chosen == Alternative ? Round.alternative : Round.group;
    B.launch = [Entry, Call, Group, G, Valid, Args,
                Name](const Region &Part, const LaunchConfig &Config) {
      const char *Error =
          Group >= 0 ? Entry->launchGroup(Group, G, Part, Valid, Config, Args)
                     : Entry->launchCall(Call, G, Part, Config, Args);
      if (Error)
        throw std::runtime_error(
            "stencil: " + Name + " (" + backendName(Entry->backend) + "), " +
            (Group >= 0 ? "fused group " + std::to_string(Group)
                        : "call " + std::to_string(Call)) +
            ": " + Error);
    };
    return P;
  }

  /// Round \p R of step \p E's plan: the exchanges it needs, then its call
  /// or fused group (recomputing its producers within \p Valid).
  void runRound(const GeneratedStep &E, const std::string &Name, int R,
                const Grid &G, const Region &Own, const Region &Valid,
                void *const *Args, const Arguments &A, bool Overlap) {
    const GeneratedStepRound &Round = E.rounds[R];
    const Way Chosen = Round.group < 0   ? Planned
                       : wraps(E, Round) ? Apart
                                         : way(E, R, A);
    Prepared P = prepareRound(E, Name, R, G, Own, Valid, Args, A, Chosen);
    if (Chosen == Apart)
      runApart(E, Name, R, G, Own, Args, A, P.exchange, Overlap);
    else
      launch(P.bound, P.exchange, Overlap);
  }

  /// The way round \p R of \p E runs, where nothing is left to measure: a
  /// call alone, a group without measured choices, or one decided.
  std::optional<Way> settledWay(const GeneratedStep &E, int R) const {
    const GeneratedStepRound &Round = E.rounds[R];
    if (Round.group < 0)
      return Planned;
    if (wraps(E, Round))
      return Apart;
    if (!trials_)
      return Planned;
    auto It = choices_.find(&E);
    if (It == choices_.end() || !It->second[R].decided)
      return std::nullopt;
    return It->second[R].way;
  }

  static bool exchangesBefore(const GeneratedStepRound &Round) {
    for (int I = 0; I < Round.haloCount; ++I)
      if (Round.halos[I].exchange)
        return true;
    return false;
  }

  /// True if round \p R of \p E and the next run two-divided: R needs no
  /// exchange, the next one does, and each runs as one kernel (not apart)
  /// without being timed alone.
  bool dividesWithNext(const GeneratedStep &E, int R) const {
    if (timing_ || R + 1 >= E.roundCount || exchangesBefore(E.rounds[R]) ||
        !exchangesBefore(E.rounds[R + 1]))
      return false;
    const std::optional<Way> Pre = settledWay(E, R),
                             Post = settledWay(E, R + 1);
    return Pre && Post && *Pre != Apart && *Post != Apart;
  }

  /// True if fused round \p Round of \p E runs as its calls alone because
  /// of a periodic wrap: a producer uses the coordinate of a periodic
  /// dimension (recomputed in the halo across the wrap it would see it
  /// unwrapped), or, where periodic and walled dimensions meet, a consumer
  /// reads a recomputed array at its halo's edges or corners: there a wall's
  /// margin lies across the wrap, and the consumer must read the margin the
  /// exchange brings from the other side, which no recomputation gives.
  bool wraps(const GeneratedStep &E, const GeneratedStepRound &Round) const {
    const Domain &D = loop_->domain();
    bool Periodic = false, Walled = false;
    for (int X = 0; X < D.dims(); ++X) {
      if ((Round.coordinates >> X & 1u) && D.periodic(X))
        return true;
      (D.periodic(X) ? Periodic : Walled) = true;
    }
    if (!Periodic || !Walled)
      return false;
    for (const Sent &M : apartExchange(E, Round)) {
      bool AcrossWrap = false, IntoWall = false;
      for (int X = 0; X < D.dims(); ++X)
        if (M.widths.lo[X] > 0 || M.widths.hi[X] > 0)
          (D.periodic(X) ? AcrossWrap : IntoWall) = true;
      if (M.widths.corners && AcrossWrap && IntoWall)
        return true;
    }
    return false;
  }

  /// The way fused round \p R of \p E runs this time: as planned without a
  /// measured choice; while it is being measured, the way run least so far;
  /// then the way measured fastest.
  Way way(const GeneratedStep &E, int R, const Arguments &A) {
    if (!trials_)
      return Planned;
    std::vector<GroupChoice> &Choices = choices_[&E];
    Choices.resize(E.roundCount);
    GroupChoice &C = Choices[R];
    if (C.decided)
      return C.way;
    const GeneratedStepRound &Round = E.rounds[R];
    C.eligible[Alternative] = Round.alternative >= 0;
    // Apart, the consumer reads the recomputed arrays from their halos: they
    // must be Fields to be exchanged.
    C.eligible[Apart] = true;
    for (const Sent &M : apartExchange(E, Round))
      C.eligible[Apart] = C.eligible[Apart] && A.Appenders[M.param];
    if (!C.looked) {
      // Rank 0's cache decides for every rank.
      C.looked = true;
      const Domain &D = loop_->domain();
      int Kept = D.rank() == 0 ? detail::lookupStepChoice(cachePath_, E, R, D) : -1;
      MPI_Bcast(&Kept, 1, MPI_INT, 0, D.comm());
      if (Kept >= 0 && C.eligible[Kept]) {
        C.way = static_cast<Way>(Kept);
        C.decided = C.cached = true;
        return C.way;
      }
    }
    C.running = Planned;
    for (Way W : {Alternative, Apart})
      if (C.eligible[W] && C.runs[W] < C.runs[C.running])
        C.running = W;
    return C.running;
  }

  /// Fused round \p R as its calls alone, in order: the producers after the
  /// round's exchange \p X, then the consumers (and stencils run together)
  /// after an exchange of what the producers wrote. The same values as
  /// fused (the plan made the producers' move to the consumers' place
  /// legal, and the parts of a Together group depend on none of the others).
  void runApart(const GeneratedStep &E, const std::string &Name, int R,
                const Grid &G, const Region &Own, void *const *Args,
                const Arguments &A, HaloExchange *X, bool Overlap) {
    const GeneratedStepRound &Round = E.rounds[R];
    for (int I = 0; I < Round.producers; ++I) {
      BoundStencil B = callBound(E, Name, Round.calls[I], G, Own, Args);
      launch(B, I == 0 ? X : nullptr, Overlap);
    }
    HaloExchange *Y = exchange(E, Name, "round " + std::to_string(R) + " apart",
                               apartExchange(E, Round), A);
    for (int I = Round.producers; I < Round.callCount; ++I) {
      BoundStencil B = callBound(E, Name, Round.calls[I], G, Own, Args);
      // With no producers the round's own exchange comes first.
      HaloExchange *Before = I > Round.producers   ? nullptr
                             : Round.producers > 0 ? Y
                                                   : X;
      launch(B, Before, Overlap);
    }
  }

  /// Times fused round \p R (run by \p Body, the way way() said) while its
  /// choice is being measured; decides once each way has run trials_
  /// times, by the slowest rank's times, so every rank decides alike.
  template <typename Fn> void measured(const GeneratedStep &E, int R, Fn &&Body) {
    // Measured from the round's second run: its first asks the cache.
    auto It = choices_.find(&E);
    if (!trials_ || E.rounds[R].group < 0 || It == choices_.end() ||
        !It->second[R].looked || It->second[R].decided) {
      Body();
      return;
    }
    GroupChoice &C = It->second[R];
    const double Seconds = alone(Body);
    C.seconds[C.running] += Seconds;
    ++C.runs[C.running];
    for (Way W : {Planned, Alternative, Apart})
      if (C.eligible[W] && C.runs[W] < trials_)
        return;
    MPI_Allreduce(MPI_IN_PLACE, C.seconds, 3, MPI_DOUBLE, MPI_MAX,
                  loop_->domain().comm());
    for (Way W : {Alternative, Apart})
      if (C.eligible[W] && C.seconds[W] < C.seconds[C.way])
        C.way = W;
    C.decided = true;
    const Domain &D = loop_->domain();
    if (D.rank() == 0)
      detail::storeStepChoice(cachePath_, E, R, D, C.way,
                              C.seconds[C.way] / C.runs[C.way],
                              C.runs[0] + C.runs[1] + C.runs[2]);
  }

  /// \p B over the rank's points after exchange \p X (if any): with
  /// overlap, its interior while the exchange travels, then the boundary.
  void launch(BoundStencil &B, HaloExchange *X, bool Overlap) {
    DomainLoop &L = *loop_;
    if (!X) {
      L.launch(B, B.own);
      return;
    }
    if (!Overlap) {
      X->transfer(L.stream());
      L.launch(B, B.own);
      return;
    }
    runDivided(L, *X, nullptr, B);
  }

  static void requireField(const std::string &Name, int P,
                           const std::string &Where, const Arguments &A) {
    if (!A.Appenders[P])
      throw DomainError(Name + ": argument " + std::to_string(P + 1) +
                        " is read off the centre by " + Where +
                        " and its halo must be exchanged: pass it as a "
                        "stencil::Field");
  }

  /// The exchange of step array \p param of what \p widths say.
  struct Sent {
    int param;
    Halo widths;
  };

  /// Fused round \p Round run apart: after its producers, the exchange of
  /// the arrays they wrote that its consumers read off the centre, as wide
  /// as the step's graph says for the first such consumer (what it and the
  /// calls after it read before the array is written again).
  static std::vector<Sent> apartExchange(const GeneratedStep &E,
                                         const GeneratedStepRound &Round) {
    std::vector<Sent> Made;
    for (int I = 0; I < Round.recomputedCount; ++I)
      for (int N = 0; N < E.exchangeCount; ++N) {
        const GeneratedStepExchange &X = E.exchanges[N];
        if (X.param == Round.recomputed[I] &&
            std::find(Round.calls + Round.producers,
                      Round.calls + Round.callCount,
                      X.before) != Round.calls + Round.callCount) {
          Made.push_back({X.param, Halo::of(X.halo, X.diagonal)});
          break;
        }
      }
    return Made;
  }

  /// The exchange \p Params of step arrays (made once per step, place
  /// \p Where and Fields with their halos: a Field made where a destroyed
  /// one was may have another halo, which places the messages), or null when
  /// there are none.
  HaloExchange *exchange(const GeneratedStep &E, const std::string &Name,
                         const std::string &Where,
                         const std::vector<Sent> &Params, const Arguments &A) {
    if (Params.empty())
      return nullptr;
    std::string Key =
        std::to_string(reinterpret_cast<std::uintptr_t>(&E)) + "/" + Where;
    for (const Sent &M : Params) {
      requireField(Name, M.param, Where, A);
      const Halo &H = A.Halos[M.param];
      Key += "/" + std::to_string(
                       reinterpret_cast<std::uintptr_t>(A.Identity[M.param]));
      Key += " " + H.str(4) + (H.corners ? " corners" : "");
    }
    std::unique_ptr<HaloExchange> &X = exchanges_[Key];
    if (!X) {
      X = std::make_unique<HaloExchange>(loop_->domain());
      for (const Sent &M : Params)
        A.Appenders[M.param](*X, M.widths);
    }
    used_.push_back(X.get());
    return X.get();
  }

  DomainLoop *loop_;
  bool planned_ = false;
  int twoDivided_ = 0;
  std::vector<const HaloExchange *> used_; ///< By the last run.
  bool timing_ = false;
  std::vector<RoundTime> times_;
  int trials_ = 0;
  std::string cachePath_; ///< Where measured choices are kept.
  std::map<const GeneratedStep *, std::vector<GroupChoice>> choices_;
  /// The exchanges made so far, by step, call or round, and Fields.
  std::map<std::string, std::unique_ptr<HaloExchange>> exchanges_;
};

} // namespace stencil

#endif // STENCIL_DOMAIN_STEP_HPP
