// stencil/domain.hpp - the global grid split over MPI ranks: a Cartesian
// decomposition in 1, 2 or 3 dimensions, periodic or not per dimension, and
// one GPU per rank.
#ifndef STENCIL_DOMAIN_HPP
#define STENCIL_DOMAIN_HPP

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <memory>
#include <mpi.h>
#include <stdexcept>
#include <stencil/generated.hpp>
#include <stencil/mpi_device.hpp>
#include <stencil/mpi_wait.hpp>
#include <stencil/profile.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace stencil {

class HaloExchange;

namespace detail {
template <typename T, typename = void> struct IsComplete : std::false_type {};
template <typename T>
struct IsComplete<T, std::void_t<decltype(sizeof(T))>> : std::true_type {};
} // namespace detail

/// A user error in the distributed set-up (bad extents, decomposition or
/// fields). Every rank detects it from the same data and throws the same
/// text, so no rank waits on another that has left; runMpiMain prints it
/// and exits non-zero.
class DomainError : public std::runtime_error {
public:
  explicit DomainError(const std::string &What)
      : std::runtime_error("stencil: " + What) {}
};

namespace detail {

/// Collective over \p Comm: returns when every rank passed the same \p Mine;
/// otherwise every rank throws the same DomainError naming \p What, rank 0's
/// text and the first text that differs. One small MPI_Allreduce when they
/// agree, so a rank's own checks may follow it and fail alike everywhere;
/// one that waits long says so (STENCIL_MPI_HANG_WARN).
inline void agreeAcrossRanks(MPI_Comm Comm, const std::string &What,
                             const std::string &Mine) {
  unsigned long long H = 1469598103934665603ull;
  for (unsigned char Ch : Mine)
    H = (H ^ Ch) * 1099511628211ull;
  unsigned long long Max[2] = {H, ~H}; // max of H and of ~H: ~min of H
  // A rank that makes a call the others do not (a first transfer() on some
  // ranks only) waits here for them: it says so, as an exchange does.
  std::vector<MPI_Request> Request(1);
  MPI_Iallreduce(MPI_IN_PLACE, Max, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, Comm,
                 Request.data());
  waitAllSaying(Request, [&] {
    int Rank = 0;
    MPI_Comm_rank(Comm, &Rank);
    return waitedFor(Rank) + "every rank to check " + What +
           ": every rank must make the same calls in the same order (an "
           "exchange's first transfer() or a run() on some ranks only "
           "waits forever); still waiting";
  });
  if (Max[0] == ~Max[1])
    return;
  int Size = 1;
  MPI_Comm_size(Comm, &Size);
  constexpr int Len = 200;
  char Buf[Len] = {};
  std::strncpy(Buf, Mine.c_str(), Len - 1);
  std::vector<char> All(static_cast<std::size_t>(Len) * Size);
  MPI_Allgather(Buf, Len, MPI_CHAR, All.data(), Len, MPI_CHAR, Comm);
  const std::string First(All.data());
  int Other = 1;
  while (Other < Size - 1 && std::string(All.data() + Other * Len) == First)
    ++Other;
  throw std::runtime_error("ranks disagree on " + What + ": rank 0 has " +
                           First + "; rank " + std::to_string(Other) + " has " +
                           std::string(All.data() + Other * Len));
}

/// Prints an uncaught exception with the rank and aborts every rank
/// (std::terminate's default would leave the others waiting in a
/// collective, until mpirun notices).
inline void terminateAllRanks() {
  int Rank = -1, Init = 0, Done = 0;
  MPI_Initialized(&Init);
  MPI_Finalized(&Done);
  if (Init && !Done)
    MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const char *What = "unknown exception";
  std::string Text;
  if (std::exception_ptr E = std::current_exception()) {
    try {
      std::rethrow_exception(E);
    } catch (const std::exception &X) {
      Text = X.what();
      What = Text.c_str();
    } catch (...) {
    }
  } else {
    What = "std::terminate called without an exception";
  }
  std::fprintf(stderr, "rank %d: error: %s (uncaught: aborting every rank)\n",
               Rank, What);
  std::fflush(stderr);
  if (Init && !Done)
    MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

inline void installTerminateHandler() {
  static const bool Installed = (std::set_terminate(terminateAllRanks), true);
  (void)Installed;
}

} // namespace detail

/// Where the fields live, and so which generated code runs on them.
enum class Memory { Host, Device };

inline Backend backendFor(Memory M) {
  return M == Memory::Device ? Backend::Cuda : Backend::OpenMP;
}

struct DomainOptions {
  /// Ranks per dimension, x first; 0 lets MPI_Dims_create choose (it puts
  /// the most ranks on z, then y, whose faces are contiguous or nearly).
  int procs[3] = {0, 0, 0};
  bool periodic[3] = {false, false, false};
  Memory memory = Memory::Host;
  /// Points each rank's block needs at least along a dimension split over
  /// several ranks: the widest halo its fields exchange (e.g. the largest
  /// side of DomainStep::haloOf). A decomposition left to the runtime
  /// (procs 0) keeps to it where some split of the ranks can; 0 or 1: one.
  long long minBlock[3] = {0, 0, 0};
};

/// The direction to a neighbour: -1, 0 or +1 per dimension.
struct Direction {
  int d[3] = {0, 0, 0};
  /// 0..26, the same numbering on every rank (for message tags).
  int index() const { return (d[0] + 1) + 3 * (d[1] + 1) + 9 * (d[2] + 1); }
  Direction opposite() const { return {{-d[0], -d[1], -d[2]}}; }
};

class Domain {
public:
  Domain(MPI_Comm Comm, std::initializer_list<long long> Extents,
         const DomainOptions &O = {})
      : Domain(Comm, std::vector<long long>(Extents), O) {}

  Domain(MPI_Comm Comm, const std::vector<long long> &Extents,
         const DomainOptions &O = {})
      : memory_(O.memory) {
    detail::installTerminateHandler();
    MPI_Comm_rank(Comm, &worldRank_);
    MPI_Comm_size(Comm, &size_);
    // Each rank prints its own profile summary: say whose.
    int World = 0, Ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &World);
    MPI_Comm_size(MPI_COMM_WORLD, &Ranks);
    if (Ranks > 1)
      profile::setLabel("rank " + std::to_string(World) + " of " +
                        std::to_string(Ranks));
    // First of all, one collective: ranks that disagree would otherwise
    // fail apart (a truncated message) or wait for each other for ever.
    // After it, every check below fails alike on every rank.
    try {
      detail::agreeAcrossRanks(Comm, "the domain", configText(Extents, O));
    } catch (const std::runtime_error &E) {
      throw DomainError(std::string(E.what()) +
                        ": make it with the same values on every rank");
    }
    dims_ = static_cast<int>(Extents.size());
    if (dims_ < 1 || dims_ > 3)
      throw DomainError("a domain has 1, 2 or 3 dimensions, not " +
                        std::to_string(dims_));
    for (int D = 0; D < 3; ++D) {
      global_[D] = D < dims_ ? Extents[D] : 1;
      if (global_[D] < 1)
        throw DomainError("global extent " + std::to_string(global_[D]) +
                          " in " + axis(D) + " is not positive");
      // Far beyond any memory, and local extents plus halos never overflow.
      if (global_[D] > (1LL << 50))
        throw DomainError("global extent " + std::to_string(global_[D]) +
                          " in " + axis(D) + " is more than 2^50 points");
      procs_[D] = O.procs[D];
      periodic_[D] = D < dims_ && O.periodic[D];
      minBlock_[D] = D < dims_ ? std::max(1LL, O.minBlock[D]) : 1;
      if (procs_[D] < 0 || (D >= dims_ && procs_[D] > 1))
        throw DomainError("cannot split " + axis(D) + " of a " +
                          std::to_string(dims_) + "-D domain over " +
                          std::to_string(procs_[D]) + " ranks");
      if (D >= dims_)
        procs_[D] = 1;
    }
    chooseProcs();
    for (int D = 0; D < 3; ++D)
      if (procs_[D] > global_[D])
        throw DomainError("decomposition " + procsText() + " puts " +
                          std::to_string(procs_[D]) + " ranks on the " +
                          std::to_string(global_[D]) + " points of " + axis(D) +
                          ": every rank needs at least one point");

    // x first here, so MPI's row-major rank order makes neighbours in x
    // differ by the largest stride; reorder=0 keeps ranks (and GPUs) as
    // started.
    int Periods[3] = {periodic_[0], periodic_[1], periodic_[2]};
    MPI_Cart_create(Comm, 3, procs_, Periods, 0, &cart_);
    MPI_Comm_dup(cart_, &check_);
    MPI_Comm_rank(cart_, &rank_);
    MPI_Cart_coords(cart_, rank_, 3, coords_);
    for (int D = 0; D < 3; ++D) {
      local_[D] = blockSize(D, coords_[D]);
      offset_[D] = blockOffset(D, coords_[D]);
    }

    MPI_Comm Node;
    MPI_Comm_split_type(Comm, MPI_COMM_TYPE_SHARED, worldRank_, MPI_INFO_NULL,
                        &Node);
    MPI_Comm_rank(Node, &localRank_);
    MPI_Comm_size(Node, &localSize_);
    MPI_Comm_free(&Node);
    if (memory_ == Memory::Device)
      device_ = mpi_device::selectDevice(localRank_);
  }

  Domain(const Domain &) = delete;
  Domain &operator=(const Domain &) = delete;
  ~Domain() {
    exchanges_.clear(); // their device resources before the communicators
    if (check_ != MPI_COMM_NULL)
      MPI_Comm_free(&check_);
    if (cart_ != MPI_COMM_NULL)
      MPI_Comm_free(&cart_);
  }

  /// Collective: returns when every rank passed the same \p Mine, else
  /// throws the same DomainError on every rank ("ranks disagree on
  /// <What>: ..."). The runtime's collective calls check their arguments
  /// with it, on a communicator of their own, before any rank can fail
  /// alone.
  void agree(const std::string &What, const std::string &Mine) const {
    try {
      detail::agreeAcrossRanks(check_, What, Mine);
    } catch (const std::runtime_error &E) {
      throw DomainError(std::string(E.what()) +
                        ": call it alike on every rank");
    }
  }

  /// The first of \p Count message tags for one exchange, none of them
  /// another exchange's (until the tags wrap past MPI's bound): two
  /// exchanges made in another order on some ranks would otherwise match
  /// each other's messages and fill one's halos with the other's values.
  /// Tag 0 is Field::gather's. Called alike on every rank (at an
  /// exchange's first transfer, after the ranks agreed on it).
  int reserveTags(int Count) const {
    int *Bound = nullptr, Found = 0;
    MPI_Comm_get_attr(cart_, MPI_TAG_UB, &Bound, &Found);
    const long long Most = Found && Bound ? *Bound : 32767; // MPI's least
    if (Count < 1 || Count > Most)
      throw DomainError("an exchange of " + std::to_string(Count) +
                        " message tags is more than MPI's tag bound (" +
                        std::to_string(Most) + ") holds");
    if (nextTag_ + Count - 1 > Most)
      nextTag_ = 1;
    const long long Base = nextTag_;
    nextTag_ += Count;
    return static_cast<int>(Base);
  }

  /// Seed 001's form, `BoundaryExchange *ex = domain.exchange();`: a new,
  /// empty exchange over this domain (append fields, then transfer), owned
  /// by the domain and released with it; do not delete it. A template only
  /// so that this header needs no <stencil/halo_exchange.hpp>: call it where
  /// that is included (<stencil/mpi.hpp> includes it).
  template <typename Exchange = HaloExchange> Exchange *exchange() const {
    static_assert(detail::IsComplete<Exchange>::value,
                  "Domain::exchange() needs <stencil/halo_exchange.hpp> "
                  "(or <stencil/mpi.hpp>) included");
    exchanges_.push_back(std::make_shared<Exchange>(*this));
    // Made in the time loop, they would pile up (buffers, GPU memory) until
    // the domain ends: say so once.
    if (exchanges_.size() == ManyExchanges && rank_ == 0)
      std::fprintf(stderr,
                   "stencil: warning: Domain::exchange() has made %zu "
                   "exchanges on this domain, each kept (with its buffers) "
                   "until the domain is destroyed: make the exchange once, "
                   "before the time loop, and transfer() it every step\n",
                   exchanges_.size());
    return static_cast<Exchange *>(exchanges_.back().get());
  }

  int dims() const { return dims_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm comm() const { return cart_; }
  Memory memory() const { return memory_; }
  Backend backend() const { return backendFor(memory_); }
  /// Rank within the node and ranks on the node (MPI_COMM_TYPE_SHARED).
  int localRank() const { return localRank_; }
  int localSize() const { return localSize_; }
  /// The GPU this rank uses (Memory::Device), else -1.
  int device() const { return device_; }

  long long globalExtent(int D) const { return global_[D]; }
  int procs(int D) const { return procs_[D]; }
  bool periodic(int D) const { return periodic_[D]; }
  int coord(int D) const { return coords_[D]; }
  /// This rank's points in dimension D: [offset, offset + extent) globally.
  long long localExtent(int D) const { return local_[D]; }
  long long localOffset(int D) const { return offset_[D]; }

  /// Points of the block at coordinate C in dimension D: remainders go to
  /// the first blocks, so blocks differ by at most one point.
  long long blockSize(int D, int C) const {
    return global_[D] / procs_[D] + (C < global_[D] % procs_[D] ? 1 : 0);
  }
  long long blockOffset(int D, int C) const {
    const long long R = global_[D] % procs_[D];
    return C * (global_[D] / procs_[D]) + std::min<long long>(C, R);
  }
  long long smallestBlock(int D) const { return global_[D] / procs_[D]; }

  /// Whether halos in D come from a rank (another or, periodic, this one).
  bool exchanges(int D) const {
    return D < dims_ && (procs_[D] > 1 || periodic_[D]);
  }

  /// The neighbour in direction \p Dir, or -1 at a non-periodic global edge
  /// (or along a dimension this domain does not have).
  int neighbour(const Direction &Dir) const {
    int C[3];
    for (int D = 0; D < 3; ++D) {
      C[D] = coords_[D] + Dir.d[D];
      if (Dir.d[D] == 0)
        continue;
      if (!exchanges(D))
        return -1;
      if (C[D] < 0 || C[D] >= procs_[D]) {
        if (!periodic_[D])
          return -1;
        C[D] = (C[D] + procs_[D]) % procs_[D];
      }
    }
    int R = -1;
    MPI_Cart_rank(cart_, C, &R);
    return R;
  }

  /// "4x2x1".
  std::string procsText() const {
    std::string S;
    for (int D = 0; D < dims_; ++D)
      S += (D ? "x" : "") + std::to_string(procs_[D]);
    return S;
  }
  static std::string axis(int D) { return std::string(1, "xyzw"[D]); }

private:
  static std::string configText(const std::vector<long long> &Extents,
                                const DomainOptions &O) {
    std::string S = "extents ";
    for (std::size_t D = 0; D < Extents.size(); ++D)
      S += (D ? "x" : "") + std::to_string(Extents[D]);
    S += ", procs ";
    for (int D = 0; D < 3; ++D)
      S += (D ? "x" : "") + std::to_string(O.procs[D]);
    S += ", periodic ";
    for (int D = 0; D < 3; ++D)
      S += (D ? "," : "") + std::string(O.periodic[D] ? "yes" : "no");
    // As used: the domain's dimensions, at least one point.
    S += ", blocks of at least ";
    for (std::size_t D = 0; D < Extents.size() && D < 3; ++D)
      S += (D ? "x" : "") + std::to_string(std::max(1LL, O.minBlock[D]));
    return S +
           (O.memory == Memory::Device ? ", device memory" : ", host memory");
  }

  void chooseProcs() {
    int Given = 1, Free = 0;
    for (int D = 0; D < dims_; ++D) {
      if (procs_[D] > 0)
        Given *= procs_[D];
      else
        ++Free;
    }
    if (size_ % Given != 0 || (Free == 0 && Given != size_))
      throw DomainError("decomposition " + procsText() +
                        " (0 = any) does not fit " + std::to_string(size_) +
                        " ranks: the product must be the number of ranks");
    // MPI_Dims_create fills non-increasing counts; give the largest to the
    // slowest dimension (z), whose faces are contiguous.
    int Mpi[3] = {0, 0, 0};
    for (int D = 0; D < dims_; ++D)
      Mpi[dims_ - 1 - D] = procs_[D];
    if (Free > 0)
      MPI_Dims_create(size_, dims_, Mpi);
    int Chosen[3] = {1, 1, 1};
    for (int D = 0; D < dims_; ++D)
      Chosen[D] = Mpi[dims_ - 1 - D];
    // MPI_Dims_create knows no extents: where it puts more ranks on a
    // dimension than it has points (4 ranks on 100 x 1), or blocks thinner
    // than minBlock, take the split of the free dimensions that fits with
    // the least halo to exchange; failing minBlock, one with a point a rank.
    if (Free > 0 && !fits(Chosen, true))
      fittingSplit(size_ / Given, Chosen, true);
    if (Free > 0 && !fits(Chosen, false))
      fittingSplit(size_ / Given, Chosen, false);
    if (Free > 0 && !fits(Chosen, false)) {
      std::string Extents;
      for (int D = 0; D < dims_; ++D)
        Extents += (D ? "x" : "") + std::to_string(global_[D]);
      throw DomainError("no decomposition " + procsText() + " (0 = any) of " +
                        std::to_string(size_) + " ranks fits the extents " +
                        Extents +
                        ": every rank needs at least one point in each "
                        "dimension; use fewer ranks");
    }
    for (int D = 0; D < dims_; ++D)
      procs_[D] = Chosen[D];
  }

  /// Whether split \p P gives every rank a point in each dimension, and
  /// with \p Blocks minBlock_ points where a dimension is split.
  bool fits(const int (&P)[3], bool Blocks) const {
    for (int D = 0; D < dims_; ++D)
      if (P[D] > global_[D] ||
          (Blocks && P[D] > 1 && global_[D] / P[D] < minBlock_[D]))
        return false;
    return true;
  }

  /// Among the splits of \p Ranks over the dimensions procs_ leaves free
  /// (0), one that fits the extents with the fewest halo points per rank
  /// (faces of the blocks, where a dimension is split); ties go to more
  /// ranks on the slower dimensions. \p P unchanged where none fits.
  void fittingSplit(int Ranks, int (&P)[3], bool Blocks) const {
    int Try[3] = {1, 1, 1}, Best[3] = {0, 0, 0};
    double BestCost = -1;
    auto Search = [&](auto &Self, int D, int Left) -> void {
      if (D == dims_) {
        if (Left != 1 || !fits(Try, Blocks))
          return;
        double Cost = 0;
        for (int X = 0; X < dims_; ++X) {
          if (Try[X] == 1)
            continue;
          double Face = 1;
          for (int Y = 0; Y < dims_; ++Y)
            if (Y != X)
              Face *= double(global_[Y]) / Try[Y];
          Cost += Face;
        }
        // Earlier candidates have fewer ranks on the faster dimensions:
        // equal cost keeps the earlier.
        if (BestCost < 0 || Cost < BestCost) {
          BestCost = Cost;
          std::copy(Try, Try + 3, Best);
        }
        return;
      }
      if (procs_[D] > 0) {
        Try[D] = procs_[D];
        Self(Self, D + 1, Left);
        return;
      }
      for (int N = 1; N <= Left; ++N)
        if (Left % N == 0) {
          Try[D] = N;
          Self(Self, D + 1, Left / N);
        }
    };
    Search(Search, 0, Ranks);
    if (BestCost >= 0)
      std::copy(Best, Best + 3, P);
  }

  int dims_ = 3, rank_ = 0, worldRank_ = 0, size_ = 1, localRank_ = 0,
      localSize_ = 1;
  int device_ = -1;
  Memory memory_;
  long long global_[3] = {1, 1, 1}, local_[3] = {1, 1, 1},
            offset_[3] = {0, 0, 0}, minBlock_[3] = {1, 1, 1};
  int procs_[3] = {1, 1, 1}, coords_[3] = {0, 0, 0};
  bool periodic_[3] = {false, false, false};
  MPI_Comm cart_ = MPI_COMM_NULL;
  MPI_Comm check_ = MPI_COMM_NULL; ///< agree()'s own: no user message matches
  mutable long long nextTag_ = 1;  ///< reserveTags'; 0 is gather's
  /// exchange()'s; shared_ptr: deleted with HaloExchange's own deleter,
  /// which this header cannot see.
  mutable std::vector<std::shared_ptr<HaloExchange>> exchanges_;
  static constexpr std::size_t ManyExchanges = 1024;
};

} // namespace stencil

#endif // STENCIL_DOMAIN_HPP
