// stencil/domain.hpp - the global grid split over MPI ranks: a Cartesian
// decomposition in 1, 2 or 3 dimensions, periodic or not per dimension, and
// one GPU per rank.
#ifndef STENCIL_DOMAIN_HPP
#define STENCIL_DOMAIN_HPP

#include <initializer_list>
#include <mpi.h>
#include <stdexcept>
#include <stencil/generated.hpp>
#include <stencil/mpi_device.hpp>
#include <string>
#include <vector>

namespace stencil {

/// A user error in the distributed set-up (bad extents, decomposition or
/// fields). Every rank detects it from the same data and throws the same
/// text, so no rank waits on another that has left; runMpiMain prints it
/// and exits non-zero.
class DomainError : public std::runtime_error {
public:
  explicit DomainError(const std::string &What)
      : std::runtime_error("stencil: " + What) {}
};

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
    MPI_Comm_rank(Comm, &worldRank_);
    MPI_Comm_size(Comm, &size_);
    dims_ = static_cast<int>(Extents.size());
    if (dims_ < 1 || dims_ > 3)
      throw DomainError("a domain has 1, 2 or 3 dimensions, not " +
                        std::to_string(dims_));
    for (int D = 0; D < 3; ++D) {
      global_[D] = D < dims_ ? Extents[D] : 1;
      if (global_[D] < 1)
        throw DomainError("global extent " + std::to_string(global_[D]) +
                          " in " + axis(D) + " is not positive");
      procs_[D] = O.procs[D];
      periodic_[D] = D < dims_ && O.periodic[D];
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
    if (cart_ != MPI_COMM_NULL)
      MPI_Comm_free(&cart_);
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
    for (int D = 0; D < dims_; ++D)
      procs_[D] = Mpi[dims_ - 1 - D];
  }

  int dims_ = 3, rank_ = 0, worldRank_ = 0, size_ = 1, localRank_ = 0,
      localSize_ = 1;
  int device_ = -1;
  Memory memory_;
  long long global_[3] = {1, 1, 1}, local_[3] = {1, 1, 1},
            offset_[3] = {0, 0, 0};
  int procs_[3] = {1, 1, 1}, coords_[3] = {0, 0, 0};
  bool periodic_[3] = {false, false, false};
  MPI_Comm cart_ = MPI_COMM_NULL;
};

} // namespace stencil

#endif // STENCIL_DOMAIN_HPP
