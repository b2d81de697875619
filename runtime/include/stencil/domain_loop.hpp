// stencil/domain_loop.hpp - runs stencilc's generated code over a rank's own
// points (or any part of them), with Field arguments.
//
//   stencil::DomainLoop loop(domain);
//   loop.run(Diffusion3d(), ce, cw, cn, cs, ct, cb, cc, u, un);  // u, un:
//   Field<float>
//
// CUDA launches use stencilc's grid variant with setBlock's block unless
// setVariant names another ("zmarch", "zmarch2", "smem", "zsum", "zsum4":
// setBlock's third number is then the marching chunk), e.g. what the single-GPU
// auto-tuner chose for the rank's extents. One variant serves every region, so
// the interior and the boundary slabs compute each point with the same code.
//
// Fields become the array pointers of the generated launcher; the grid
// (extents with halo, global origin, so idx.i() is global) comes from them.
// Device domains launch on the loop's own stream, asynchronously.
#ifndef STENCIL_DOMAIN_LOOP_HPP
#define STENCIL_DOMAIN_LOOP_HPP

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stencil/deep_halo.hpp>
#include <stencil/domain.hpp>
#include <stencil/field.hpp>
#include <stencil/generated_engine.hpp>
#include <stencil/halo.hpp>
#include <stencil/halo_exchange.hpp>
#include <stencil/mpi_device.hpp>
#include <stencil/region_split.hpp>
#include <stencil/temporal_tuning.hpp>
#include <stencil/time_loop.hpp>
#include <stencil/time_loop_choice_cache.hpp>
#include <stencil/tuning_cache.hpp>
#include <string>
#include <tuple>
#include <type_traits>

namespace stencil {

/// A stencil with its arguments, ready to launch over any region of the
/// fields it was bound to.
struct BoundStencil {
  std::function<void(const Region &, const LaunchConfig &)> launch;
  Halo reads; ///< stencilc's halo of the stencil: how far it reads
  Region own; ///< the rank's own points, in the fields' local indices
  std::string name;
  std::string variant; ///< the variant of stencilc's code it launches
  const GeneratedStencil *entry = nullptr; ///< that code's entry
  /// Per parameter after the index: the Field passed (its address) and its
  /// name, null and "" for any other argument.
  std::vector<const void *> fields;
  std::vector<std::string> fieldNames;
  /// Per parameter after the index: what the Field's halo holds
  /// (Field::haloState), null for any other argument.
  std::vector<detail::HaloState *> fieldStates;
};

namespace detail {
template <typename T> struct IsField : std::false_type {};
template <typename T> struct IsField<Field<T>> : std::true_type {};

template <typename T> struct IsFieldPointer : std::false_type {};
template <typename T> struct IsFieldPointer<Field<T> *> : std::true_type {};

/// What a bound stencil keeps of an argument: a Field by address (its
/// storage may be swapped between launches), anything else by value.
template <typename A> auto keepArgument(A &Arg) {
  if constexpr (IsField<std::remove_const_t<A>>::value)
    return const_cast<std::remove_const_t<A> *>(&Arg);
  else
    return std::decay_t<A>(Arg);
}
/// Field arguments become their data; everything else passes through.
template <typename K> decltype(auto) useArgument(K &Kept) {
  if constexpr (IsFieldPointer<K>::value)
    return Kept->data();
  else
    return static_cast<const K &>(Kept);
}
/// An argument as given (a Field, not kept by address): a Field is its data.
template <typename A> decltype(auto) argumentValue(A &Arg) {
  if constexpr (IsField<std::remove_const_t<A>>::value)
    return const_cast<std::remove_const_t<A> &>(Arg).data();
  else
    return static_cast<const A &>(Arg);
}
/// Calls \p Do on each Field among \p A (a time level's mark is none) that
/// stencil \p E writes; with \p OnlyKept, only those whose steps leave
/// there what they held (read at the centre, or stored on some paths: an
/// accumulator updated in place).
template <typename Fn, typename... Args>
void forWrittenFields(const GeneratedStencil &E, bool OnlyKept, Fn &&Do,
                      Args &...A) {
  std::size_t P = 0;
  auto One = [&](auto &Arg) {
    using ArgT = std::remove_const_t<std::remove_reference_t<decltype(Arg)>>;
    if constexpr (IsField<ArgT>::value)
      if (E.writes && E.writes[P] && (!OnlyKept || (E.keeps && E.keeps[P])))
        Do(const_cast<ArgT &>(Arg));
    ++P;
  };
  (One(A), ...);
}
/// Adds \p Arg to \p Ex if it is a Field (a time level's mark is none).
template <typename A> void appendField(HaloExchange &Ex, A &Arg) {
  if constexpr (IsField<std::remove_const_t<A>>::value)
    Ex.append(const_cast<std::remove_const_t<A> &>(Arg));
}
/// Whether argument \p Arg is field \p F itself (not a level's mark).
template <typename T, typename A>
bool sameField(const Field<T> &F, const A &Arg) {
  if constexpr (std::is_same_v<std::decay_t<A>, Field<T>>)
    return &F == &Arg;
  else
    return false;
}

/// The Field argument \p Arg is (its address), or null for any other.
template <typename A> const void *fieldIdentity(const A &Arg) {
  if constexpr (IsField<std::remove_const_t<A>>::value)
    return &Arg;
  else
    return nullptr;
}
/// The halo state of Field argument \p Arg, or null for any other.
template <typename A> HaloState *fieldState(A &Arg) {
  if constexpr (IsField<std::remove_const_t<A>>::value)
    return &const_cast<std::remove_const_t<A> &>(Arg).haloState();
  else
    return nullptr;
}
/// The name of Field argument \p Arg, or "" for any other.
template <typename A> std::string fieldName(const A &Arg) {
  if constexpr (IsField<std::remove_const_t<A>>::value)
    return Arg.name();
  else
    return "";
}
/// Throws if one Field is passed for two parameters of \p E (\p Fields: the
/// arguments' identities, null for all but Fields) and the stencil writes
/// either: the points of one launch would read what others write, a race
/// whose result changes with the ranks and threads.
inline void checkFieldsApart(const GeneratedStencil &E,
                             const std::string &Stencil,
                             const std::vector<const void *> &Fields,
                             const std::vector<std::string> &Names) {
  if (!E.writes)
    return;
  for (std::size_t I = 0; I < Fields.size(); ++I)
    for (std::size_t J = I + 1; J < Fields.size(); ++J)
      if (Fields[I] && Fields[I] == Fields[J] && (E.writes[I] || E.writes[J]))
        throw DomainError(Stencil + ": field '" + Names[I] +
                          "' is passed as arguments " + std::to_string(I + 1) +
                          " and " + std::to_string(J + 1) +
                          " after the index, and the stencil writes argument " +
                          std::to_string(E.writes[J] ? J + 1 : I + 1) +
                          ": a launch would read the field it writes");
}

/// Appends to \p Key what tells field \p Arg (if it is one) apart in an
/// exchange: its address, value size, halo and extents.
template <typename A> void addFieldKey(std::string &Key, const A &Arg) {
  if constexpr (IsField<std::remove_const_t<A>>::value) {
    const Grid &G = Arg.grid();
    Key += std::to_string(reinterpret_cast<std::uintptr_t>(&Arg)) + "/" +
           std::to_string(sizeof(*Arg.data())) + "/" + Arg.halo().str(4) +
           (Arg.halo().corners ? "c" : "") + "/" + std::to_string(G.extent[0]) +
           "x" + std::to_string(G.extent[1]) + "x" +
           std::to_string(G.extent[2]) + ";";
  }
}

struct FieldShape {
  const Grid *grid = nullptr;
  const Halo *halo = nullptr;
  const Domain *domain = nullptr;
  std::string first;
};
template <typename A>
void noteField(FieldShape &S, const std::string &Stencil, const A &Arg) {
  if constexpr (IsField<A>::value) {
    if (!S.grid) {
      S = {&Arg.grid(), &Arg.halo(), &Arg.domain(), Arg.name()};
      return;
    }
    bool Same = S.domain == &Arg.domain() && *S.halo == Arg.halo();
    if (!Same)
      throw DomainError(Stencil + ": fields '" + S.first + "' and '" +
                        Arg.name() + "' have mismatched shape (domain " +
                        (S.domain == &Arg.domain() ? "same" : "different") +
                        ", halo " + S.halo->str(S.domain->dims()) + " vs " +
                        Arg.halo().str(Arg.domain().dims()) +
                        "): the arrays of one stencil share extents and halo");
  }
}
/// The shape the Fields among \p A share, for code of \p Dims dimensions
/// named \p Name; throws unless those are the domain's, there is a Field and
/// every Field belongs to \p D.
template <typename... Args>
FieldShape fieldShapeOf(const Domain &D, int Dims, const std::string &Name,
                        const Args &...A) {
  if (Dims != D.dims())
    throw DomainError(Name + " is " + std::to_string(Dims) +
                      "-D but the domain is " + std::to_string(D.dims()) +
                      "-D");
  FieldShape Shape;
  (noteField(Shape, Name, A), ...);
  if (!Shape.grid)
    throw DomainError(Name + ": pass its arrays as stencil::Field arguments");
  if (Shape.domain != &D)
    throw DomainError(Name + ": field '" + Shape.first +
                      "' belongs to another domain");
  return Shape;
}

/// The rank's own points, in the local indices of fields of halo \p H.
inline Region ownRegion(const Domain &D, const Halo &H) {
  Region Own;
  for (int X = 0; X < D.dims(); ++X) {
    Own.lo[X] = H.lo[X];
    Own.hi[X] = H.lo[X] + D.localExtent(X);
  }
  return Own;
}

/// Throws if \p Arg, argument \p N after the \p First parameter (the
/// index, or a step's Step) of a \p Dims-D stencil or step whose arrays
/// span \p Axes (GeneratedStencil::arrayAxes; null:
/// unknown), is a Field passed for an array of lower rank (a profile, a
/// surface field: pass the rank's piece of it as a pointer), or a pointer
/// passed for an array of every dimension (its layout, the rank's points
/// and halo, is a Field's: a pointer to anything else is read and written
/// out of bounds).
template <typename A>
void checkArrayRank(const unsigned *Axes, int Dims, const std::string &Stencil,
                    const char *First, int N, const A &Arg) {
  const unsigned All = (1u << Dims) - 1;
  if (!Axes || !Axes[N])
    return;
  if constexpr (IsField<A>::value) {
    if (Axes[N] == All)
      return;
    std::string Spans;
    for (int D = 0; D < Dims; ++D)
      if ((Axes[N] >> D) & 1)
        Spans += "xyzw"[D];
    throw DomainError(Stencil + ": argument " + std::to_string(N + 1) +
                      " after the " + First + " is field '" + Arg.name() +
                      "', but the stencil reads it as an array of lower rank "
                      "spanning only " +
                      Spans +
                      ": pass a pointer to the rank's piece of that array "
                      "(its local extents, halo included)");
  } else if constexpr (std::is_pointer_v<A>) {
    if (Axes[N] == All)
      throw DomainError(Stencil + ": argument " + std::to_string(N + 1) +
                        " after the " + First +
                        " is a pointer, but it is an array of "
                        "every dimension of the domain: pass a stencil::Field "
                        "(a pointer is only for an array of lower rank)");
  }
}

/// Throws unless field \p Arg's halo covers what stencil \p Stencil reads:
/// its widths, and its corners too (a field whose exchange skips them would
/// feed the stencil stale edge and corner points).
template <typename A>
void checkHaloCovers(const std::string &Stencil, const Halo &Reads,
                     const A &Arg) {
  if constexpr (IsField<A>::value) {
    if (Arg.halo().covers(Reads))
      return;
    const int Dims = Arg.domain().dims();
    throw DomainError(
        Stencil + " reads halo " + Reads.str(Dims) +
        (Reads.corners ? " with corners" : "") + " but field '" + Arg.name() +
        "' has " + Arg.halo().str(Dims) +
        (Arg.halo().corners ? " with corners" : " without corners") +
        ": allocate the fields of a stencil with haloOf(...) of every "
        "stencil they are passed to");
  }
}
} // namespace detail

class DomainLoop {
public:
  explicit DomainLoop(const Domain &D) : domain_(&D) {
    if (D.memory() == Memory::Device) {
      stream_ = mpi_device::createStream(/*Urgent=*/false);
      side_ = mpi_device::createStream(/*Urgent=*/true);
      forked_ = mpi_device::createEvent();
      joined_ = mpi_device::createEvent();
    }
    config_.stream = stream_;
  }
  DomainLoop(const DomainLoop &) = delete;
  DomainLoop &operator=(const DomainLoop &) = delete;
  ~DomainLoop() {
    if (!stream_)
      return;
    mpi_device::destroyEvent(forked_);
    mpi_device::destroyEvent(joined_);
    mpi_device::destroyStream(side_);
    mpi_device::destroyStream(stream_);
  }

  const Domain &domain() const { return *domain_; }
  /// CUDA block size of the launches (the OpenMP backend ignores it, but
  /// refuses what no GPU could launch alike, so a program tried on the host
  /// fails there too).
  void setBlock(int X, int Y, int Z) {
    if (X < 1 || Y < 1 || Z < 1 || 1LL * X * Y > 1024)
      throw DomainError("DomainLoop::setBlock(" + std::to_string(X) + ", " +
                        std::to_string(Y) + ", " + std::to_string(Z) +
                        "): each size is at least 1, and x times y at most "
                        "1024 threads");
    config_.block[0] = X, config_.block[1] = Y, config_.block[2] = Z;
  }
  const LaunchConfig &config() const { return config_; }
  /// The variant of stencilc's code that stencils bound from now on launch
  /// ("grid", the default, or one the stencil has: bind() says which).
  void setVariant(const std::string &Name) { variant_ = Name; }
  const std::string &variant() const { return variant_; }
  /// The stream the loop launches on (device), else null.
  void *stream() const { return stream_; }
  /// Device: a second stream, at a higher priority than stream(), for small
  /// work that should run beside a large launch on stream() (the boundary
  /// slabs beside the interior) rather than after it; else null.
  void *sideStream() const { return side_; }
  /// Device: work queued on sideStream() from now on waits for all work
  /// queued on stream() so far.
  void fork() const {
    if (stream_) {
      mpi_device::recordEvent(forked_, stream_);
      mpi_device::waitEvent(side_, forked_);
    }
  }
  /// Device: work queued on stream() from now on waits for all work queued
  /// on sideStream() so far.
  void join() const {
    if (stream_) {
      mpi_device::recordEvent(joined_, side_);
      mpi_device::waitEvent(stream_, joined_);
    }
  }
  /// Waits for everything launched so far.
  void synchronize() const {
    if (stream_)
      mpi_device::synchronizeStream(stream_);
  }

  /// Binds \p S to its arguments (Fields and scalars). Collective: every
  /// rank binds the same stencil with the same variant and block, or every
  /// rank throws DomainError. Checks that the code exists, has the domain's
  /// dimensionality, that all fields share one shape and that their halo
  /// covers what the stencil reads.
  template <typename StencilT, typename... Args>
  BoundStencil bind(const StencilT &S, Args &&...A) const {
    const Domain &D = *domain_;
    // Collective: a rank alone with another stencil, variant (setVariant)
    // or block would fail, or launch other code, while the rest wait.
    // A function's address differs between processes: ranks compare the
    // registered name instead.
    const GeneratedStencil *Found = generatedFor(D.backend(), S);
    D.agree("what a DomainLoop launches",
            (Found ? std::string("stencil '") + Found->name + "'"
                   : std::string("a stencil without generated code")) +
                ", variant '" + variant_ + "', block " +
                std::to_string(config_.block[0]) + "," +
                std::to_string(config_.block[1]) + "," +
                std::to_string(config_.block[2]));
    const GeneratedStencil &E =
        entryOf(Found ? *Found : requireGenerated(D.backend(), S));
    const std::string Name = std::string("stencil '") + E.name + "'";
    // A variant that marches launches x by y threads (block[2] is its
    // chunk); the others the whole block.
    if (E.marchDim < 0 &&
        1LL * config_.block[0] * config_.block[1] * config_.block[2] > 1024)
      throw DomainError(Name + ": block " + std::to_string(config_.block[0]) +
                        "," + std::to_string(config_.block[1]) + "," +
                        std::to_string(config_.block[2]) + " of variant '" +
                        E.variant + "' has more than 1024 threads (setBlock)");
    const detail::FieldShape Shape = detail::fieldShapeOf(D, E.dims, Name, A...);
    int Arg = 0;
    (detail::checkArrayRank(E.arrayAxes, E.dims, Name, "index", Arg++, A), ...);
    detail::checkFieldsApart(E, Name, {detail::fieldIdentity(A)...},
                             {detail::fieldName(A)...});
    const Halo Reads = Halo::of(E);
    (detail::checkHaloCovers(Name, Reads, A), ...);
    BoundStencil B;
    B.reads = Reads;
    B.name = E.name;
    B.variant = E.variant;
    B.entry = &E;
    B.own = detail::ownRegion(D, *Shape.halo);
    B.fields = {detail::fieldIdentity(A)...};
    B.fieldNames = {detail::fieldName(A)...};
    B.fieldStates = {detail::fieldState(A)...};
    const Grid G = *Shape.grid;
    auto Kept = std::make_tuple(detail::keepArgument(A)...);
    B.launch = [=](const Region &R, const LaunchConfig &C) mutable {
      using Params = typename detail::StencilTraits<StencilT>::Params;
      std::apply(
          [&](auto &...K) {
            detail::runEntry(E, Params(), G, R, C, detail::useArgument(K)...);
          },
          Kept);
    };
    return B;
  }

  /// Runs \p S over all of this rank's own points. Collective (bind()).
  template <typename StencilT, typename... Args>
  void run(const StencilT &S, Args &&...A) {
    const BoundStencil B = bind(S, A...);
    // Every rank's fields went through the same calls: all throw alike.
    detail::checkHalosCurrent(*domain_, *B.entry, "DomainLoop::run",
                              B.fieldStates, B.fieldNames);
    B.launch(B.own, config_);
    detail::markWritten(*B.entry, "DomainLoop::run", B.fieldStates);
  }

  /// Runs \p S \p Steps times over this rank's own points, two fields
  /// trading places between steps: one argument is stencil::previousLevel(f)
  /// (the field a step reads), one stencil::nextLevel(fn) (the field it
  /// writes). It does what this loop does on the own points of both fields,
  /// bit for bit on every decomposition:
  ///
  ///   exchange the halos of fn and the other Field arguments
  ///   for n steps: exchange f's halo; run(S, ..., f, fn, ...); f.swap(fn);
  ///
  /// but exchanges f's halo once every K steps, K = setTemporal's steps, or
  /// else as many as the fields' halo allows (deepHaloOf(backend, K, S)
  /// makes one deep enough for K); the steps between recompute the part of
  /// the halo that later steps read (with it the halo of fn, and of another
  /// field S writes and reads, which come along with f's where S keeps
  /// their old values). Halo points of the fields S writes are left
  /// unspecified (the walls' margins excepted, which it never writes). On
  /// the host, and on a GPU without stencilc's passes for S, each exchange
  /// overlaps the points of the K steps that need no halo
  /// (setRepeatOverlap(false): not); on a GPU with them, each exchange comes
  /// with one pass of K steps (K - 1 for an even K: passes take an odd
  /// number), overlapped likewise: a pass over the interior during the
  /// exchange, then passes storing the boundary's slabs. Collective.
  template <typename StencilT, typename... Args>
  void repeat(long long Steps, const StencilT &S, Args &&...A) {
    using Levels = detail::TimeLevels<std::decay_t<Args>...>;
    using Previous =
        std::decay_t<decltype(*detail::levelVariable<Levels::Previous>(A...))>;
    using Next =
        std::decay_t<decltype(*detail::levelVariable<Levels::Next>(A...))>;
    static_assert(detail::IsField<Previous>::value,
                  "DomainLoop::repeat: the time levels are stencil::Fields "
                  "(stencil::previousLevel(field))");
    static_assert(std::is_same_v<Previous, Next>,
                  "DomainLoop::repeat: the two time levels trade places "
                  "between steps, so they are stencil::Fields of one "
                  "element type");
    // Only the checks above for bad levels: the body's errors would bury
    // them.
    if constexpr (detail::IsField<Previous>::value &&
                  std::is_same_v<Previous, Next>)
      repeatLevels(Steps, S, A...);
  }

private:
  /// repeat() on levels of one Field type.
  template <typename StencilT, typename... Args>
  void repeatLevels(long long Steps, const StencilT &S, Args &&...A) {
    using Levels = detail::TimeLevels<std::decay_t<Args>...>;
    auto &Previous = *detail::levelVariable<Levels::Previous>(A...);
    auto &Next = *detail::levelVariable<Levels::Next>(A...);
    // Every rank refuses a bad count, or none: a rank alone would leave the
    // others waiting in the loop's collective calls.
    domain_->agree("the steps of DomainLoop::repeat", std::to_string(Steps));
    const std::string StepsError = detail::stepsError(Steps);
    if (!StepsError.empty())
      throw DomainError(StepsError);
    // The levels first: bind() refuses a field passed twice and written in
    // words that do not name the levels.
    if (const GeneratedStencil *Code = generatedFor(domain_->backend(), S)) {
      const std::string Name = std::string("stencil '") + Code->name + "'";
      if (detail::sameLevel(Previous, Next))
        throw DomainError(Name +
                          ": the two time levels of repeat() are one field, '" +
                          Previous.name() + "'");
      // The steps would read, through another argument, the field they
      // write.
      if ((detail::sameField(Next, A) || ...))
        throw DomainError(Name + ": field '" + Next.name() +
                          "', the next level of repeat(), is passed again as "
                          "another argument: the steps would read the field "
                          "they write");
    }
    const BoundStencil B = bind(S, detail::levelValue(A)...);
    for (const auto *L : {&Previous, &Next})
      detail::requireLanded(L->haloState(), L->name(),
                            "stencil '" + B.name +
                                "' (DomainLoop::repeat) writes");
    // (Code of other parameter types is stale: its launch says so.)
    const std::string Marks =
        *B.entry->signature !=
                detail::signatureOf(
                    typename detail::StencilTraits<StencilT>::Params())
            ? std::string()
            : detail::levelMarksError(*B.entry, Levels::Previous, Levels::Next);
    if (!Marks.empty())
      throw DomainError("repeat(): " + Marks);
    const GeneratedTemporal *Passes = passesFor<Levels>(B);
    int PerExchange =
        checkedStepsPerExchange(B, Previous.halo(), Passes, Previous.name());
    // Every rank times, or none: one alone would wait in the trials'
    // collective calls for ever.
    // The block too: it decides which trials (each between collectives)
    // the timing makes.
    domain_->agree("how repeat() chooses its steps between exchanges",
                   (timed_ && temporal_.steps == 0
                        ? std::string("by timing (chooseStepsByTiming)")
                        : "setTemporal's " + std::to_string(temporal_.steps)) +
                       ", block " + std::to_string(temporal_.block[0]) + "," +
                       std::to_string(temporal_.block[1]) + "," +
                       std::to_string(temporal_.block[2]));
    for (int &X : passBlock_)
      X = 0;
    if (timed_ && temporal_.steps == 0 && Steps > 0) {
      const detail::TimeLoopChoice Choice =
          timedStepsPerExchange(B, Passes, S, A...);
      PerExchange = Choice.steps;
      std::copy(Choice.block, Choice.block + 3, passBlock_);
    }
    runTimeLoop(Steps, PerExchange, S, A...);
    // Both levels' halos are left unspecified, and those of the other
    // fields it writes.
    if (Steps > 0) {
      for (detail::HaloState *L : {&Previous.haloState(), &Next.haloState()})
        L->written("stencil '" + B.name + "' (DomainLoop::repeat)");
      detail::markWritten(*B.entry, "DomainLoop::repeat", B.fieldStates);
    }
  }

public:
  /// How many steps repeat() takes between two exchanges (and per pass on
  /// a GPU): 0, the default, as many as the fields' halos allow.
  void setTemporal(const TemporalConfig &C) { temporal_ = C; }
  const TemporalConfig &temporal() const { return temporal_; }
  /// Whether repeat() computes what needs no halo during each exchange.
  void setRepeatOverlap(bool On) { repeatOverlap_ = On; }
  /// With setTemporal's steps at 0: whether repeat() times every number of
  /// steps between exchanges that the halo allows (1 to 8), once per
  /// stencil and field shape, on copies of the fields, and keeps the
  /// fastest on every rank (the slowest rank's time); else it takes the
  /// most. Where a number runs stencilc's passes and setTemporal's block is
  /// 0, each of the plan's tiles is timed at the plan's chunk and twice it. The
  /// choice is kept in the auto-tuner's cache file at \p CachePath ("" for
  /// none; the default: STENCIL_TUNING_CACHE, else the tuner's), which later
  /// runs take without measuring. Collective; on a GPU the choice may change
  /// the last bits (the passes and the single steps may contract multiply-adds
  /// differently).
  void chooseStepsByTiming(bool On,
                           std::string CachePath = tuning::defaultCachePath()) {
    timed_ = On;
    cachePath_ = std::move(CachePath);
  }
  /// The steps between exchanges of the last repeat(), 0 before any.
  int lastStepsPerExchange() const { return lastPerExchange_; }
  /// The last repeat()'s steps between exchanges and the (bx, by, chunk)
  /// that chooseStepsByTiming chose for its passes (0: setTemporal's, or
  /// else the plan's).
  TemporalConfig lastTemporal() const {
    TemporalConfig C;
    C.steps = lastPerExchange_;
    std::copy(passBlock_, passBlock_ + 3, C.block);
    return C;
  }

  /// The times chooseStepsByTiming measured, per steps between exchanges,
  /// in ms per step, for the last choice it made.
  const std::map<int, double> &lastTimings() const { return timings_; }



  /// Runs a bound stencil over \p R (local indices), skipped when empty, on
  /// stream() or, with \p Side, on sideStream(). \p R must leave the
  /// stencil's halo inside the fields (any part of B.own does): otherwise
  /// it throws, naming the side, the halo and the margin.
  void launch(const BoundStencil &B, const Region &R, bool Side = false) const {
    if (emptyRegion(R, domain_->dims()))
      return;
    LaunchConfig C = config_;
    if (Side)
      C.stream = side_;
    B.launch(R, C);
  }

  /// Which dimensions get boundary slabs: those whose halo another rank (or
  /// a periodic wrap) fills.
  void exchangedDims(bool *Split) const {
    for (int X = 0; X < 3; ++X)
      Split[X] = domain_->exchanges(X);
  }

private:
  /// stencilc's passes for \p B with the time levels of \p Levels, on a
  /// GPU; else null.
  template <typename Levels>
  const GeneratedTemporal *passesFor(const BoundStencil &B) const {
    if (domain_->memory() != Memory::Device)
      return nullptr;
    return findGeneratedTemporal(*B.entry, static_cast<int>(Levels::Previous),
                                 static_cast<int>(Levels::Next));
  }

  /// repeat() with \p PerExchange steps between exchanges (checked).
  template <typename StencilT, typename... Args>
  void runTimeLoop(long long Steps, int PerExchange, const StencilT &S,
                   Args &&...A) {
    using Levels = detail::TimeLevels<std::decay_t<Args>...>;
    auto &Previous = *detail::levelVariable<Levels::Previous>(A...);
    auto &Next = *detail::levelVariable<Levels::Next>(A...);
    const Domain &D = *domain_;
    const BoundStencil B = bind(S, detail::levelValue(A)...);
    const GeneratedTemporal *Passes = passesFor<Levels>(B);
    D.agree("a time loop (DomainLoop::repeat)",
            "stencil '" + B.name + "', " + std::to_string(Steps) +
                " steps, " + std::to_string(PerExchange) +
                " per exchange, overlap " + (repeatOverlap_ ? "on" : "off"));
    lastPerExchange_ = PerExchange;
    if (Steps == 0)
      return;
    // The next level's too: its walls' margins at the halo's corners come
    // from the neighbours, as the steps between exchanges read them.
    std::string OthersKey = "once:",
                LevelKey = "level " + std::to_string(PerExchange) + ":";
    (detail::addFieldKey(OthersKey, A), ...); // the levels' marks are none
    detail::addFieldKey(OthersKey, Next);
    detail::addFieldKey(LevelKey, Previous);
    exchangeFor(OthersKey, [&](HaloExchange &E) {
      (detail::appendField(E, A), ...);
      E.append(Next);
    }).transfer(stream_);
    // Only what PerExchange steps read of the level's halo, which may be
    // deeper (a time loop timed for its steps, or run in parts).
    auto Within = [](Halo Widths, const Halo &Have) {
      for (int X = 0; X < 4; ++X) {
        Widths.lo[X] = std::min(Widths.lo[X], Have.lo[X]);
        Widths.hi[X] = std::min(Widths.hi[X], Have.hi[X]);
      }
      Widths.corners = Widths.corners && Have.corners;
      return Widths;
    };
    const Halo Widths =
        Within(detail::deepen(B.reads, PerExchange), Previous.halo());
    // A next level whose old values a step keeps (read at the centre, or
    // not stored everywhere): the first step after an exchange reads level
    // t - 2 as far out as it computes, K - 1 reaches, where the block before
    // computed it one reach out only. Its halo comes along from K = 3.
    const bool NextKept = PerExchange >= 3 && B.entry && B.entry->keeps &&
                          B.entry->keeps[Levels::Next];
    const Halo NextWidths =
        Within(detail::deepen(B.reads, PerExchange - 1), Next.halo());
    if (NextKept)
      detail::addFieldKey(LevelKey, Next);
    // Another field a step keeps (an accumulator updated in place, read at
    // the centre): the steps between exchanges compute it in the halo from
    // what it held there, which the block before left older the further
    // out: it comes along as deep as they compute, from K = 2.
    const bool OthersKept = PerExchange >= 2;
    auto ForOthersKept = [&](auto &&Do) {
      if (OthersKept)
        detail::forWrittenFields(*B.entry, /*OnlyKept=*/true, Do, A...);
    };
    ForOthersKept([&](auto &F) { detail::addFieldKey(LevelKey, F); });
    HaloExchange &Level = exchangeFor(LevelKey, [&](HaloExchange &E) {
      E.append(Previous, Widths);
      if (NextKept)
        E.append(Next, NextWidths);
      ForOthersKept([&](auto &F) {
        E.append(F, Within(detail::deepen(B.reads, PerExchange - 1), F.halo()));
      });
    });
    const detail::DeepRegions Regions(D, B.own, B.reads);
    // Passes read their level 0 beyond their region from the array that
    // holds it one step at a time, and the exchange fills the field that
    // holds it: passes of an odd number of steps keep the two one.
    const int PerPass = PerExchange - (PerExchange % 2 == 0);
    if (Passes && PerPass > 1 && Steps >= 2) {
      // Passes of the first Steps - 1 steps (each flips which field holds
      // the newest level, as that many steps do), then the last step
      // alone: both fields exact.
      for (int InPass : detail::oddPassSchedule(Steps, PerPass)) {
        runPassBlock(typename detail::StencilTraits<StencilT>::Params(), B,
                     *Passes, Regions, InPass, Level, Previous, Next, A...);
        Previous.swap(Next);
      }
      Steps = 1;
    }
    for (long long Done = 0; Done < Steps;) {
      const int Block =
          static_cast<int>(std::min<long long>(PerExchange, Steps - Done));
      runBlock(B, Regions, Block, Level, Previous, Next);
      Done += Block;
    }
  }
  /// chooseStepsByTiming's choice for \p B and these fields: kept, or
  /// measured now on copies of the two levels. Collective.
  template <typename StencilT, typename... Args>
  detail::TimeLoopChoice timedStepsPerExchange(const BoundStencil &B,
                                               const GeneratedTemporal *Passes,
                                               const StencilT &S, Args &...A) {
    using Levels = detail::TimeLevels<std::decay_t<Args>...>;
    auto &Previous = *detail::levelVariable<Levels::Previous>(A...);
    auto &Next = *detail::levelVariable<Levels::Next>(A...);
    const Domain &D = *domain_;
    std::string Key = B.name + "/" + B.variant + "/";
    detail::addFieldKey(Key, Previous);
    if (const auto Kept = chosen_.find(Key); Kept != chosen_.end())
      return Kept->second;
    int Deepest = detail::deepestSteps(D, Previous.halo(), B.reads);
    if (detail::wrappedCoordinate(D, B.reads, B.entry->coordinates) >= 0)
      Deepest = 1;
    // Nothing exchanged: the steps between exchanges matter to passes only.
    const int Most = Deepest > 0 ? Deepest : Passes ? 3 : 1;
    const int Candidates =
        std::min({Most, 8, Passes ? Passes->maxSteps : 8});
    detail::TimeLoopChoice Best;
    Best.steps = 1;
    if (Candidates == 1)
      return chosen_[Key] = Best;
    const tuning::CacheKey CacheKey =
        detail::timeLoopChoiceKey(*B.entry, D, Previous.halo(), Candidates);
    detail::TimeLoopChoice Kept;
    if (D.rank() == 0)
      Kept = detail::lookupTimeLoopChoice(cachePath_, CacheKey);
    int KeptInts[4] = {Kept.steps, Kept.block[0], Kept.block[1], Kept.block[2]};
    MPI_Bcast(KeptInts, 4, MPI_INT, 0, D.comm());
    Kept.steps = KeptInts[0];
    std::copy(KeptInts + 1, KeptInts + 4, Kept.block);
    // Only a choice among this run's trials: a tile this GPU cannot launch
    // (an edited file) is measured again, not launched.
    const std::vector<detail::TimeLoopChoice> Trials =
        timeLoopTrials(Passes, Candidates, B.own);
    for (const detail::TimeLoopChoice &Trial : Trials)
      if (Trial.steps == Kept.steps &&
          std::equal(Trial.block, Trial.block + 3, Kept.block)) {
        timings_.clear();
        return chosen_[Key] = Kept;
      }
    using FieldT = std::decay_t<decltype(Previous)>;
    FieldT TrialPrevious(D, Previous.halo(), Previous.name() + " (trial)");
    FieldT TrialNext(D, Next.halo(), Next.name() + " (trial)");
    copyField(TrialPrevious, Previous);
    copyField(TrialNext, Next);
    // The trials write the other fields the stencil writes too (an
    // accumulator): their values are put back however the trials end.
    struct Restores {
      std::vector<std::function<void()>> Each;
      bool Done = false;
      void restore() {
        Done = true;
        for (auto &R : Each)
          R();
      }
      ~Restores() {
        if (!Done) // a trial threw: its error is the one to report
          try {
            restore();
          } catch (...) {
          }
      }
    } Saved;
    detail::forWrittenFields(
        *B.entry, /*OnlyKept=*/false,
        [&](auto &F) {
          using Written = std::remove_reference_t<decltype(F)>;
          auto Copy =
              std::make_shared<Written>(D, F.halo(), F.name() + " (kept)");
          copyField(*Copy, F);
          Saved.Each.push_back([this, Copy, &F] { copyField(F, *Copy); });
        },
        A...);
    // ms per step of a trial's loop (the slowest rank's), after a warm-up
    // loop where Warm.
    auto Time = [&](const detail::TimeLoopChoice &Trial, bool Warm) {
      const int K = Trial.steps;
      // At least 2 * Candidates + 1 steps, in whole blocks of K steps
      // between exchanges (passes: of their odd steps, each after an
      // exchange), so that no K is timed with a short block at its end.
      const int PerPass = K - (K % 2 == 0);
      const long long TrialSteps = detail::trialStepsEvery(
          Passes && PerPass > 1 ? PerPass : K, 2LL * Candidates + 1);
      std::copy(Trial.block, Trial.block + 3, passBlock_);
      double Ms = 0;
      for (int Run = Warm ? 0 : 1; Run < 2; ++Run) {
        synchronize();
        MPI_Barrier(D.comm());
        const auto T0 = std::chrono::steady_clock::now();
        runTimeLoop(TrialSteps, K, S,
                    detail::onTrialLevels(A, TrialPrevious, TrialNext)...);
        synchronize();
        Ms = std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now() - T0)
                 .count() /
             TrialSteps;
      }
      MPI_Allreduce(MPI_IN_PLACE, &Ms, 1, MPI_DOUBLE, MPI_MAX, D.comm());
      return Ms;
    };
    std::vector<std::vector<double>> Timings;
    for (const detail::TimeLoopChoice &Trial : Trials)
      Timings.push_back({Time(Trial, /*Warm=*/true)});
    // The fastest few again (the times are alike on every rank, so are
    // the finalists): the lowest median wins.
    const tuning::OnlineTuner::Options Search;
    const std::size_t Fastest = tuning::fastestOfFinalists(
        Timings, Search.finalists, Search.finalRepeats,
        [&](std::size_t I) { return Time(Trials[I], /*Warm=*/false); });
    Best = Trials[Fastest];
    const double BestMs = tuning::median(Timings[Fastest]);
    timings_.clear();
    int Runs = 0;
    for (std::size_t I = 0; I < Trials.size(); ++I) {
      // The fastest tile and chunk for each K.
      const int K = Trials[I].steps;
      const double Ms = tuning::median(Timings[I]);
      if (!timings_.count(K) || Ms < timings_[K])
        timings_[K] = Ms;
      Runs += static_cast<int>(Timings[I].size()) + 1;
    }
    Saved.restore();
    exchanges_.clear(); // the trial fields' exchanges, alike on every rank
    if (D.rank() == 0)
      detail::storeTimeLoopChoice(cachePath_, CacheKey, Best, BestMs, Runs);
    chosen_[Key] = Best;
    return Best;
  }

  /// chooseStepsByTiming's trials: 1 to \p Candidates steps between
  /// exchanges; for those that run stencilc's passes (odd steps above 1,
  /// setTemporal's tile and chunk left to the plan), each of the plan's
  /// tiles (tuning::temporalTiles) at the plan's chunk and twice it, where
  /// the steps leave the tile points, the kernel can launch it and the
  /// rings fit a block's shared memory, on every rank. Collective.
  std::vector<detail::TimeLoopChoice>
  timeLoopTrials(const GeneratedTemporal *Passes, int Candidates,
                 const Region &Own) const {
    std::vector<detail::TimeLoopChoice> Trials;
    const bool PlanBlock =
        !temporal_.block[0] && !temporal_.block[1] && !temporal_.block[2];
    const int Shared =
        Passes && PlanBlock ? mpi_device::maxSharedPerBlock() : 0;
    for (int K = 1; K <= Candidates; ++K) {
      detail::TimeLoopChoice T;
      T.steps = K;
      const int PerPass = K - (K % 2 == 0);
      if (!Passes || PerPass <= 1 || !PlanBlock) {
        Trials.push_back(T);
        continue;
      }
      const int M = domain_->dims() - 1;
      const int Chunk = Passes->defaultBlock[2];
      for (const auto &[X, Y] : tuning::temporalTiles(*Passes))
        for (const int C : {Chunk, 2 * Chunk}) {
          T.block[0] = X;
          T.block[1] = Y;
          T.block[2] = C;
          KernelAttributes Attributes;
          // {fits, the same trial as the chunk before}: the second is this
          // rank's alone (one chunk a column either way), so it is reduced
          // too, and the trial kept where any rank's columns are longer.
          int Verdict[2] = {
              X > PerPass * (Passes->reach[0][0] + Passes->reach[0][1]) &&
                  (M == 1 ||
                   Y > PerPass * (Passes->reach[1][0] + Passes->reach[1][1])) &&
                  !Passes->query(X, Y, PerPass, &Attributes) &&
                  X * Y <= Attributes.maxThreadsPerBlock &&
                  Attributes.sharedBytes <= Shared,
              C > Chunk && Chunk >= Own.hi[M] - Own.lo[M]};
          // Every rank tries the same: each launch is between collectives.
          MPI_Allreduce(MPI_IN_PLACE, Verdict, 2, MPI_INT, MPI_MIN,
                        domain_->comm());
          if (Verdict[0] && !Verdict[1])
            Trials.push_back(T);
        }
      if (Trials.empty() || Trials.back().steps != K) {
        T.block[0] = T.block[1] = T.block[2] = 0; // the plan's, as before
        Trials.push_back(T);
      }
    }
    return Trials;
  }

  /// \p To's storage, halo included, becomes a copy of \p From's.
  template <typename T> void copyField(Field<T> &To, const Field<T> &From) {
    if (To.onDevice()) {
      mpi_device::copyAsync(To.data(), From.data(), From.bytes(), stream_);
      synchronize();
    } else {
      std::copy(From.data(), From.data() + From.count(), To.data());
    }
  }

  /// repeat()'s steps between exchanges for fields of halo \p H: refuses
  /// more than the halo or stencilc's passes allow.
  int checkedStepsPerExchange(const BoundStencil &B, const Halo &H,
                       const GeneratedTemporal *Passes,
                       const std::string &Field) const {
    const Domain &D = *domain_;
    int Deepest = detail::deepestSteps(D, H, B.reads);
    const int Wrapped =
        detail::wrappedCoordinate(D, B.reads, B.entry->coordinates);
    if (Wrapped >= 0)
      Deepest = 1;
    const int Most = Passes ? Passes->maxSteps : 0;
    for (int X = 0; X < 3; ++X)
      if (temporal_.block[X] < 0)
        throw DomainError("stencil '" + B.name + "': setTemporal's block " +
                          std::to_string(temporal_.block[0]) + "," +
                          std::to_string(temporal_.block[1]) + "," +
                          std::to_string(temporal_.block[2]) +
                          ": (bx, by, chunk) are 0 (the plan's) or more");
    int K = temporal_.steps;
    if (K < 0)
      throw DomainError("stencil '" + B.name + "': " + std::to_string(K) +
                        " steps between halo exchanges (setTemporal): 0 "
                        "takes as many as the halo allows, else 1 or more");
    if (K <= 0)
      K = Deepest > 0 ? (Most > 0 ? std::min(Deepest, Most) : Deepest)
                      : (Passes ? Passes->defaultSteps : 1);
    if (K > 1 && Wrapped >= 0)
      throw DomainError(
          "stencil '" + B.name + "': " + std::to_string(K) +
          " steps between halo exchanges would compute points across the "
          "periodic wrap in " +
          Domain::axis(Wrapped) + ", where the stencil's coordinate idx." +
          "ijkw"[Wrapped] + "() is not wrapped: one step per exchange");
    if (Deepest > 0 && K > Deepest)
      throw DomainError("stencil '" + B.name + "': " + std::to_string(K) +
                        " steps between halo exchanges need a halo of " +
                        B.reads.str(D.dims(), K) +
                        " with edges and corners, but field '" + Field +
                        "' has " + H.str(D.dims()) +
                        (H.corners ? " with" : " without") +
                        " corners: allocate it with deepHaloOf(backend, " +
                        std::to_string(K) + ", stencil)");
    if (Most > 0 && K > Most)
      throw DomainError("stencil '" + B.name + "': " + std::to_string(K) +
                        " steps per pass; stencilc's passes take at most " +
                        std::to_string(Most));
    return std::max(K, 1);
  }

  /// Whether any rank exchanges any halo (more than one rank, or a periodic
  /// dimension): else repeat() skips its exchanges, whose set-up and waits
  /// would cost each step some microseconds for nothing.
  bool exchangesAny() const {
    for (int X = 0; X < domain_->dims(); ++X)
      if (domain_->exchanges(X))
        return true;
    return false;
  }

  /// repeat()'s exchange kept under \p Key (its fields), or a new one that
  /// \p Append gives its fields, on every rank unless every rank has it.
  /// Collective. Setting one up (buffers, peer mappings) can take longer
  /// than many steps: a time loop run in parts sets its exchanges up once.
  HaloExchange &exchangeFor(const std::string &Key,
                            const std::function<void(HaloExchange &)> &Append) {
    int Everywhere = exchanges_.count(Key) ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &Everywhere, 1, MPI_INT, MPI_MIN,
                  domain_->comm());
    if (!Everywhere && exchanges_.size() >= 16)
      exchanges_.clear(); // as large on every rank: made alike
    std::unique_ptr<HaloExchange> &E = exchanges_[Key];
    if (!Everywhere) {
      E = std::make_unique<HaloExchange>(*domain_);
      Append(*E);
    }
    return *E;
  }

  /// \p Steps steps after one exchange of \p Level, one by one over
  /// widening regions; overlapped, every step's interior first while the
  /// exchange is in flight, then the rest of each step in order.
  template <typename T>
  void runBlock(const BoundStencil &B, const detail::DeepRegions &Regions,
                int Steps, HaloExchange &Level, Field<T> &Previous,
                Field<T> &Next) {
    if (!repeatOverlap_ || !Regions.widens()) {
      if (exchangesAny())
        Level.transfer(stream_);
      for (int S = 1; S <= Steps; ++S) {
        launch(B, Regions.step(S, Steps));
        Previous.swap(Next);
      }
      return;
    }
    // The second step's interior overwrites the first field's own points
    // that the exchange sends: the stream waits for them to be packed.
    Level.start(stream_, /*HoldStream=*/true);
    for (int S = 1; S <= Steps; ++S) {
      launch(B, Regions.interior(S));
      Previous.swap(Next, detail::SwapInFlight());
    }
    if (Steps % 2) // the exchange fills the field it packed
      Previous.swap(Next, detail::SwapInFlight());
    Level.wait(stream_);
    for (int S = 1; S <= Steps; ++S) {
      for (const Region &R : Regions.boundary(S, Steps))
        launch(B, R);
      Previous.swap(Next);
    }
  }

  /// One exchange of \p Level and a pass of \p Steps steps (odd) from
  /// \p Previous into \p Next, exact on the own points. Overlapped, a pass
  /// over the interior, whose last level needs no halo, runs while the
  /// exchange is in flight, and passes storing the boundary's slabs after
  /// it (DeepRegions::passParts).
  template <typename Params, typename T, typename... Args>
  void runPassBlock(Params, const BoundStencil &B,
                    const GeneratedTemporal &Passes,
                    const detail::DeepRegions &Regions, int Steps,
                    HaloExchange &Level, Field<T> &Previous, Field<T> &Next,
                    Args &...A) {
    const void *const Margins[2] = {Previous.data(), Next.data()};
    const Region Widened = Regions.step(1, Steps);
    if (!exchangesAny() || !repeatOverlap_ || !Regions.widens()) {
      if (exchangesAny())
        Level.transfer(stream_);
      runPass(Params(), B, Passes, Widened, Widened, Steps, Margins, Previous,
              stream_, A...);
      return;
    }
    // The pass packed after it: launched first, it would take every SM and
    // hold the pack, and the whole exchange, behind it.
    Level.start(stream_, /*HoldStream=*/true);
    // The slabs' passes go on the side stream, after the exchange: they run
    // beside the interior's pass (in its last wave) rather than after it.
    // They write other points of Next, and read it only beyond the widened
    // region, which the interior's pass does not write. That pass reads the
    // slabs' points of Next as its margin while they are written: no value
    // it stores depends on them (DeepRegions::passParts).
    fork();
    const std::vector<detail::DeepRegions::PassPart> Parts =
        Regions.passParts(Steps);
    for (const auto &P : Parts)
      if (P.interior)
        runPass(Params(), B, Passes, P.region, P.store, Steps, Margins,
                Previous, stream_, A...);
    Level.wait(side_);
    for (const auto &P : Parts)
      if (!P.interior)
        runPass(Params(), B, Passes, P.region, P.store, Steps, Margins,
                Previous, side_, A...);
    join();
  }

  /// One pass of \p Steps steps over \p R, stored inside \p Store, with the
  /// arguments \p A as the stencil's parameters \p P: level l of the pass
  /// reads its margin from \p Margins[l % 2], the array that holds it one
  /// step at a time.
  template <typename... P, typename T, typename... Args>
  void runPass(detail::ParamList<P...>, const BoundStencil &B,
               const GeneratedTemporal &Passes, const Region &R,
               const Region &Store, int Steps, const void *const (&Margins)[2],
               const Field<T> &Previous, void *Stream, Args &...A) const {
    std::tuple<P...> Values(detail::argumentValue(detail::levelValue(A))...);
    LaunchConfig C = config_;
    C.stream = Stream;
    for (int X = 0; X < 3; ++X)
      C.block[X] = temporal_.block[X] > 0 ? temporal_.block[X]
                   : passBlock_[X] > 0    ? passBlock_[X]
                                          : Passes.defaultBlock[X];
    detail::launchTemporalPass(*B.entry, Passes, Values,
                               std::index_sequence_for<Args...>(),
                               Previous.grid(), R, Store, C, Steps, Margins);
  }

  /// The entry of setVariant's variant among \p First's.
  const GeneratedStencil &entryOf(const GeneratedStencil &First) const {
    std::string Have;
    for (const GeneratedStencil *E : generatedVariants(First)) {
      if (variant_ == E->variant)
        return *E;
      Have += (Have.empty() ? "" : ", ") + std::string(E->variant);
    }
    throw DomainError(std::string("stencil '") + First.name + "' has no " +
                      backendName(First.backend) + " variant '" + variant_ +
                      "' (it has: " + Have + ")");
  }

  const Domain *domain_;
  LaunchConfig config_;
  std::string variant_ = "grid";
  TemporalConfig temporal_;
  bool repeatOverlap_ = true;
  bool timed_ = false;
  std::string cachePath_; ///< chooseStepsByTiming's cache file
  int lastPerExchange_ = 0;
  /// chooseStepsByTiming's choices.
  std::map<std::string, detail::TimeLoopChoice> chosen_;
  /// The passes' (bx, by, chunk) that chooseStepsByTiming chose or is
  /// timing, where setTemporal leaves them to the plan (0: the plan's).
  int passBlock_[3] = {0, 0, 0};
  std::map<int, double> timings_;
  std::map<std::string, std::unique_ptr<HaloExchange>> exchanges_;
  void *stream_ = nullptr, *side_ = nullptr;
  void *forked_ = nullptr, *joined_ = nullptr;
};

} // namespace stencil

#endif // STENCIL_DOMAIN_LOOP_HPP
