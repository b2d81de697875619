// stencil/field.hpp - one rank's part of a distributed array: its own points
// plus a halo, in host or device memory, knowing its global origin.
#ifndef STENCIL_FIELD_HPP
#define STENCIL_FIELD_HPP

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mpi.h>
#include <stencil/domain.hpp>
#include <stencil/halo.hpp>
#include <stencil/halo_state.hpp>
#include <stencil/mpi_device.hpp>
#include <stencil/time_loop.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace stencil {

template <typename T> class Field {
  /// What the field's values are kept as: T, but unsigned char for bool
  /// (std::vector<bool> has no array to hand a stencil).
  using Stored = std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>;
  static_assert(sizeof(Stored) == sizeof(T), "a bool is one byte here");

public:
  /// A field of \p D with halo \p H (haloOf(...) of the stencils that read
  /// it). Throws DomainError on every rank when some rank's block is thinner
  /// than the halo it must send.
  Field(const Domain &D, const Halo &H, std::string Name = "field")
      : domain_(&D), halo_(H), name_(std::move(Name)) {
    for (int A = 0; A < 4; ++A) {
      if (A >= D.dims() && (H.lo[A] || H.hi[A]))
        throw DomainError("field '" + name_ + "' has a halo in " +
                          Domain::axis(A) + " but the domain is " +
                          std::to_string(D.dims()) +
                          "-D (a stencil of another dimensionality?)");
      if (A >= D.dims())
        continue;
      const long long Need = std::max(H.lo[A], H.hi[A]);
      if (D.exchanges(A) && D.smallestBlock(A) < Need) {
        // (One rank on a periodic dimension sends its block to itself.)
        const bool One = D.procs(A) == 1;
        const std::string Points = std::to_string(D.smallestBlock(A));
        throw DomainError(
            "field '" + name_ + "': extent " +
            std::to_string(D.globalExtent(A)) + " in " + Domain::axis(A) +
            (One ? " on one rank (periodic) is a block of " + Points +
                       " point" + (D.smallestBlock(A) == 1 ? "" : "s")
                 : " over " + std::to_string(D.procs(A)) +
                       " ranks gives blocks as thin as " + Points + " point" +
                       (D.smallestBlock(A) == 1 ? "" : "s")) +
            ", fewer than the halo width " + std::to_string(Need) +
            " the exchange copies from it: " +
            (One ? "a larger grid, a narrower halo, or no periodic wrap in " +
                       Domain::axis(A)
                 : "fewer ranks in " + Domain::axis(A) +
                       " (the decomposition is " + D.procsText() +
                       ": DomainOptions::procs, or DomainOptions::minBlock "
                       "for one the runtime chooses) or a larger grid"));
      }
    }
    grid_.dims = D.dims();
    count_ = 1;
    for (int A = 0; A < D.dims(); ++A) {
      if (H.lo[A] < 0 || H.hi[A] < 0)
        throw DomainError("field '" + name_ + "' has a negative halo in " +
                          Domain::axis(A) + ": " + H.str(D.dims()));
      grid_.extent[A] = D.localExtent(A) + H.lo[A] + H.hi[A];
      grid_.origin[A] = D.localOffset(A) - H.lo[A];
      // The field owns its array: its size is computed without overflow.
      const std::size_t Extent = static_cast<std::size_t>(grid_.extent[A]);
      if (count_ > SIZE_MAX / sizeof(T) / Extent)
        throw DomainError("field '" + name_ +
                          "': a rank's array (halo included) has more "
                          "bytes than a size_t holds");
      count_ *= Extent;
    }
    if (D.memory() == Memory::Device) {
      device_ = static_cast<T *>(mpi_device::allocateDevice(bytes()));
      mpi_device::fillDevice(device_, 0, bytes());
    } else {
      host_.assign(count_, Stored());
    }
    state_.filledAll(halo_);
  }
  Field(const Field &) = delete;
  Field &operator=(const Field &) = delete;
  ~Field() {
    if (device_)
      mpi_device::releaseDevice(device_);
  }

  T *data() { return device_ ? device_ : reinterpret_cast<T *>(host_.data()); }
  const T *data() const {
    return device_ ? device_ : reinterpret_cast<const T *>(host_.data());
  }
  const Grid &grid() const { return grid_; }
  const Halo &halo() const { return halo_; }
  const Domain &domain() const { return *domain_; }
  const std::string &name() const { return name_; }
  std::size_t count() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  bool onDevice() const { return device_ != nullptr; }

  /// Same domain, halo and element type: the arrays of one launch.
  template <typename U> bool sameShape(const Field<U> &O) const {
    return sizeof(T) == sizeof(U) && domain_ == &O.domain() &&
           halo_ == O.halo();
  }
  /// Exchanges storage with \p O (ping-pong between time steps).
  void swap(Field &O) {
    if (!sameShape(O))
      throw DomainError("cannot swap fields '" + name_ + "' and '" + O.name_ +
                        "' of different shape");
    detail::requireLanded(state_, name_, "swap of");
    detail::requireLanded(O.state_, O.name_, "swap of");
    swap(O, detail::SwapInFlight());
  }
  /// The same without the check: the runtime's time loop swaps its levels
  /// while an exchange it made is in flight (an even number of times).
  void swap(Field &O, detail::SwapInFlight) {
    std::swap(host_, O.host_);
    std::swap(device_, O.device_);
    std::swap(state_, O.state_);
  }
  /// Says that code of the program's own (through data()) filled the halo
  /// with the values of the own points around it, as an exchange would:
  /// the runtime sees only its own writes and exchanges, and refuses to
  /// run a stencil that reads a halo older than the own points.
  void markHaloFilled() {
    detail::requireLanded(state_, name_, "markHaloFilled of");
    state_.filledAll(halo_);
  }
  /// What the halo holds of the own points' values (the runtime's).
  detail::HaloState &haloState() { return state_; }
  const detail::HaloState &haloState() const { return state_; }

  /// Every local point, halo included, as F(i, j, k) of its global
  /// coordinates (halo points outside the global grid get coordinates
  /// outside [0, N)); F(i, j) or F(i) where the domain has 2 or 1
  /// dimensions (F(i, j, k) there gets k = 0). Sets boundary values and
  /// initial conditions.
  template <typename Fn> void fill(Fn F) {
    using C = long long;
    constexpr int Takes = std::is_invocable_v<Fn &, C, C, C> ? 3
                          : std::is_invocable_v<Fn &, C, C>  ? 2
                          : std::is_invocable_v<Fn &, C>     ? 1
                                                             : 0;
    static_assert(Takes > 0, "Field::fill takes a function of the global "
                             "coordinates: F(i, j, k), F(i, j) or F(i)");
    if (Takes < grid_.dims)
      throw DomainError("fill of field '" + name_ + "': its domain has " +
                        std::to_string(grid_.dims) +
                        " dimensions, the function takes " +
                        std::to_string(Takes) + " coordinates");
    std::vector<T> V(count_);
    const long long *E = grid_.extent, *O = grid_.origin;
    std::size_t N = 0;
    for (long long K = 0; K < E[2]; ++K)
      for (long long J = 0; J < E[1]; ++J)
        for (long long I = 0; I < E[0]; ++I) {
          if constexpr (Takes == 3)
            V[N++] = F(O[0] + I, O[1] + J, O[2] + K);
          else if constexpr (Takes == 2)
            V[N++] = F(O[0] + I, O[1] + J);
          else
            V[N++] = F(O[0] + I);
        }
    upload(V);
  }
  /// All local values, halo included, x fastest.
  std::vector<T> values() const { return asValues(stored()); }
  /// Sets all local values, halo included, x fastest (the halo is taken
  /// to hold what the program wants there).
  void upload(const std::vector<T> &V) {
    if (V.size() != count_)
      throw DomainError("field '" + name_ + "': " + std::to_string(V.size()) +
                        " values for " + std::to_string(count_) + " points");
    detail::requireLanded(state_, name_, "fill or upload of");
    state_.filledAll(halo_);
    if constexpr (std::is_same_v<Stored, T>) {
      if (device_)
        mpi_device::copyToDevice(device_, V.data(), bytes());
      else
        host_ = V;
    } else {
      std::vector<Stored> S(V.begin(), V.end());
      if (device_)
        mpi_device::copyToDevice(device_, S.data(), bytes());
      else
        host_ = std::move(S);
    }
  }

  /// The global grid's values (own points of every rank, no halo) on rank
  /// \p Root, x fastest; empty on the other ranks. Collective.
  std::vector<T> gather(int Root = 0) const {
    const Domain &D = *domain_;
    if (Root < 0 || Root >= D.size())
      throw DomainError(
          "field '" + name_ + "': gather to rank " + std::to_string(Root) +
          ", but the domain has ranks 0 to " + std::to_string(D.size() - 1));
    const std::vector<Stored> All = stored();
    std::vector<Stored> Own;
    Own.reserve(D.localExtent(0) * D.localExtent(1) * D.localExtent(2));
    forOwnRows([&](long long Local, long long) {
      Own.insert(Own.end(), All.begin() + Local,
                 All.begin() + Local + D.localExtent(0));
    });
    // Rank by rank, in messages of at most 1 GiB: a collective's int counts
    // overflow past 2 GiB in all (a 512x512x2048 float field does).
    if (D.rank() != Root) {
      transferBytes(Own.data(), Own.size() * sizeof(T), Root, true);
      return {};
    }
    std::vector<Stored> Global(D.globalExtent(0) * D.globalExtent(1) *
                               D.globalExtent(2));
    std::vector<Stored> Theirs;
    for (int R = 0; R < D.size(); ++R) {
      int C[3];
      MPI_Cart_coords(D.comm(), R, 3, C);
      long long N[3], Off[3];
      for (int A = 0; A < 3; ++A) {
        N[A] = D.blockSize(A, C[A]);
        Off[A] = D.blockOffset(A, C[A]);
      }
      if (R != Root) {
        Theirs.resize(N[0] * N[1] * N[2]);
        transferBytes(Theirs.data(), Theirs.size() * sizeof(T), R, false);
      }
      const Stored *Src = R == Root ? Own.data() : Theirs.data();
      for (long long K = 0; K < N[2]; ++K)
        for (long long J = 0; J < N[1]; ++J, Src += N[0])
          std::memcpy(&Global[((Off[2] + K) * D.globalExtent(1) + Off[1] + J) *
                                  D.globalExtent(0) +
                              Off[0]],
                      Src, N[0] * sizeof(T));
    }
    return asValues(std::move(Global));
  }

private:
  /// All local values as kept, halo included.
  std::vector<Stored> stored() const {
    if (!device_)
      return host_;
    std::vector<Stored> V(count_);
    mpi_device::copyToHost(V.data(), device_, bytes());
    return V;
  }
  static std::vector<T> asValues(std::vector<Stored> V) {
    if constexpr (std::is_same_v<Stored, T>)
      return V;
    else
      return std::vector<T>(V.begin(), V.end());
  }

  /// Sends (or receives) \p Bytes at \p Data to (from) rank \p Peer in
  /// pieces MPI's int counts can hold, under a tag no exchange uses.
  void transferBytes(Stored *Data, std::size_t Bytes, int Peer,
                     bool Send) const {
    constexpr std::size_t Piece = std::size_t(1) << 30;
    constexpr int GatherTag = 0; // Domain::reserveTags hands out from 1
    char *P = reinterpret_cast<char *>(Data);
    for (std::size_t Done = 0; Done < Bytes; Done += Piece) {
      const int Count = static_cast<int>(std::min(Piece, Bytes - Done));
      if (Send)
        MPI_Send(P + Done, Count, MPI_BYTE, Peer, GatherTag, domain_->comm());
      else
        MPI_Recv(P + Done, Count, MPI_BYTE, Peer, GatherTag, domain_->comm(),
                 MPI_STATUS_IGNORE);
    }
  }

  /// Calls F(local index of the row's first own point, row number) for every
  /// x-row of own points.
  template <typename Fn> void forOwnRows(Fn F) const {
    const Domain &D = *domain_;
    const long long *E = grid_.extent;
    long long Row = 0;
    for (long long K = 0; K < D.localExtent(2); ++K)
      for (long long J = 0; J < D.localExtent(1); ++J)
        F(((K + halo_.lo[2]) * E[1] + J + halo_.lo[1]) * E[0] + halo_.lo[0],
          Row++);
  }

  const Domain *domain_;
  Halo halo_;
  std::string name_;
  Grid grid_;
  std::size_t count_ = 0;
  std::vector<Stored> host_;
  T *device_ = nullptr;
  detail::HaloState state_; ///< follows the storage through swaps
};

/// Marks field \p F as the previous time level of a DomainLoop::repeat
/// call; after the call it holds the last level computed (its storage and
/// the next level's trade places).
template <typename T> PreviousLevel<Field<T>> previousLevel(Field<T> &F) {
  return {&F};
}
/// Marks field \p F as the next time level of a DomainLoop::repeat call;
/// after the call it holds the level before the last.
template <typename T> NextLevel<Field<T>> nextLevel(Field<T> &F) {
  return {&F};
}

} // namespace stencil

#endif // STENCIL_FIELD_HPP
