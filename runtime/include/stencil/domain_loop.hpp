// stencil/domain_loop.hpp - runs stencilc's generated code over a rank's own
// points (or any part of them), with Field arguments.
//
//   stencil::DomainLoop loop(domain);
//   loop.run(Diffusion3d(), ce, cw, cn, cs, ct, cb, cc, u, un);  // u, un:
//   Field<float>
//
// CUDA launches use stencilc's grid variant with setBlock's block unless
// setVariant names another ("zmarch", "zmarch2", "smem": setBlock's third
// number is then the marching chunk), e.g. what the single-GPU auto-tuner
// chose for the rank's extents. One variant serves every region, so the
// interior and the boundary slabs compute each point with the same code.
//
// Fields become the array pointers of the generated launcher; the grid
// (extents with halo, global origin, so idx.i() is global) comes from them.
// Device domains launch on the loop's own stream, asynchronously.
#ifndef STENCIL_DOMAIN_LOOP_HPP
#define STENCIL_DOMAIN_LOOP_HPP

#include <functional>
#include <stencil/domain.hpp>
#include <stencil/field.hpp>
#include <stencil/generated_engine.hpp>
#include <stencil/halo.hpp>
#include <stencil/mpi_device.hpp>
#include <stencil/region_split.hpp>
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

/// Throws if \p Arg, argument \p N after the index, is a Field passed for
/// an array of lower rank (a profile, a surface field): a Field has every
/// dimension of the domain, such an array only some (pass the rank's piece
/// of it as a pointer).
template <typename A>
void checkFieldRank(const GeneratedStencil &E, const std::string &Stencil,
                    int N, const A &Arg) {
  if constexpr (IsField<A>::value) {
    const unsigned All = (1u << E.dims) - 1;
    if (!E.arrayAxes || E.arrayAxes[N] == All)
      return;
    std::string Axes;
    for (int D = 0; D < E.dims; ++D)
      if ((E.arrayAxes[N] >> D) & 1)
        Axes += "xyzw"[D];
    throw DomainError(Stencil + ": argument " + std::to_string(N + 1) +
                      " after the index is field '" + Arg.name() +
                      "', but the stencil reads it as an array of lower rank "
                      "spanning only " +
                      Axes +
                      ": pass a pointer to the rank's piece of that array "
                      "(its local extents, halo included)");
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
  /// CUDA block size of the launches (the OpenMP backend ignores it).
  void setBlock(int X, int Y, int Z) {
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
    const detail::FieldShape Shape = detail::fieldShapeOf(D, E.dims, Name, A...);
    int Arg = 0;
    (detail::checkFieldRank(E, Name, Arg++, A), ...);
    const Halo Reads = Halo::of(E);
    (detail::checkHaloCovers(Name, Reads, A), ...);
    BoundStencil B;
    B.reads = Reads;
    B.name = E.name;
    B.variant = E.variant;
    B.own = detail::ownRegion(D, *Shape.halo);
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
    B.launch(B.own, config_);
  }

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
  void *stream_ = nullptr, *side_ = nullptr;
  void *forked_ = nullptr, *joined_ = nullptr;
};

} // namespace stencil

#endif // STENCIL_DOMAIN_LOOP_HPP
