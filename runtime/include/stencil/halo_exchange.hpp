// stencil/halo_exchange.hpp - halo exchange between neighbouring ranks
// (seed 001's BoundaryExchange, still a name of HaloExchange, and
// <stencil/boundary_exchange.hpp> still includes this file).
//
//   stencil::HaloExchange ex(domain);
//   ex.append(u);  ex.append(v);   // once: buffers are sized and allocated
//   here ex.transfer();                 // every step; or ex.start(); ...;
//   ex.wait();
//
// Each field sends the points its neighbours keep as halo: faces, and edges
// and corners when its Halo asks for them (diagonal neighbours), only as wide
// as that field's halo. Periodic dimensions wrap, also onto the rank itself;
// at non-periodic global edges the halo is left to the user's boundary
// condition. MPI moves host buffers with Isend/Irecv. Device fields are packed
// and unpacked by kernels on the exchange's own stream and travel
//   - peer:   to ranks on the same node, by CUDA IPC and a peer copy, MPI only
//             signalling (STENCIL_MPI_TRANSPORT=peer, the default where every
//             GPU of the node can reach the others);
//   - device: as device pointers through a CUDA-aware MPI;
//   - staged: through pinned host buffers (any MPI).
// STENCIL_MPI_TRANSPORT=staged|device|peer|auto chooses; auto is the default.
// Work queued on the compute stream after start() (the interior) waits for
// the pack kernels, so the exchange is under way while it runs;
// STENCIL_MPI_PACK_FIRST=0 turns that off, for comparison (docs/performance.md,
// "Many GPUs").
#ifndef STENCIL_HALO_EXCHANGE_HPP
#define STENCIL_HALO_EXCHANGE_HPP

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mpi.h>
#include <optional>
#include <stencil/domain.hpp>
#include <stencil/field.hpp>
#include <stencil/mpi_device.hpp>
#include <stencil/mpi_wait.hpp>
#include <stencil/profile.hpp>
#include <string>
#include <vector>

namespace stencil {

enum class Transport { Host, Staged, CudaAware, Peer };

inline const char *transportName(Transport T) {
  switch (T) {
  case Transport::Host:
    return "host";
  case Transport::Staged:
    return "staged";
  case Transport::CudaAware:
    return "device";
  case Transport::Peer:
    return "peer";
  }
  return "?";
}

namespace detail {
/// The send buffers of exchanges destroyed in flight, kept until the
/// process ends: MPI reads them until the sends complete, and a send
/// cannot be cancelled.
inline std::vector<std::vector<char>> &abandonedSends() {
  static std::vector<std::vector<char>> Kept;
  return Kept;
}
} // namespace detail

class HaloExchange {
public:
  explicit HaloExchange(const Domain &D) : domain_(&D) {}
  HaloExchange(const HaloExchange &) = delete;
  HaloExchange &operator=(const HaloExchange &) = delete;
  ~HaloExchange() {
    // Left in flight: the halos it was filling hold nothing known.
    if (started_) {
      abandon();
      for (Entry &E : fields_) {
        E.state->fly(E.widths, -1);
        E.state->written(E.state->writer);
      }
    }
    release();
  }

  /// Adds a field to every later exchange. Call it on every rank, in the
  /// same order; the field must outlive the exchange (swapping storage with
  /// Field::swap is fine: the current storage is used each time).
  template <typename T> void append(Field<T> &F) { append(F, F.halo()); }
  /// Adds a field whose exchanges fill only \p Widths of its halo (each
  /// side at most the field's; corners as \p Widths says): a time loop
  /// that takes fewer steps between exchanges than its halo holds sends
  /// only what they read.
  template <typename T> void append(Field<T> &F, const Halo &Widths) {
    if (&F.domain() != domain_)
      throw DomainError("field '" + F.name() +
                        "' belongs to another domain than this exchange");
    if (setUp_)
      throw DomainError("append field '" + F.name() +
                        "' before the first transfer");
    Halo Have = F.halo();
    Have.corners = Have.corners || Widths.corners;
    if (!Have.covers(Widths))
      throw DomainError("field '" + F.name() + "' has halo " +
                        F.halo().str(domain_->dims()) +
                        ", less than the widths " +
                        Widths.str(domain_->dims()) + " to exchange");
    // A Halo written by hand exchanges corners unless told not to.
    if (Widths.corners && !F.halo().corners)
      throw DomainError(
          "field '" + F.name() + "' has halo " + F.halo().str(domain_->dims()) +
          " without corners, and the widths " + Widths.str(domain_->dims()) +
          " to exchange ask for corners (Halo::corners is true unless set "
          "false)");
    fields_.push_back(
        {[&F]() -> char * { return reinterpret_cast<char *>(F.data()); },
         F.grid(), F.halo(), Widths, static_cast<int>(sizeof(T)), F.name(), &F,
         &F.haloState()});
  }

  /// Exchanges all halos and returns when they are in place (device: when
  /// work queued on \p Stream afterwards will see them).
  void transfer(void *Stream = nullptr) {
    start(Stream);
    wait(Stream);
  }

  /// Begins an exchange of the values written by work already queued on
  /// \p Stream (device) or already done (host); returns without waiting.
  /// With \p HoldStream, work queued on \p Stream afterwards waits for the
  /// values to be packed (it may overwrite them; the host packs at once).
  void start(void *Stream = nullptr, bool HoldStream = false) {
    const profile::Scope Range("halo exchange", "start");
    // A second start would post requests over the first's, a wait without
    // one unpack old buffers into the halo.
    if (started_)
      throw DomainError("HaloExchange: start() again before wait()");
    setUp();
    started_ = true;
    for (Entry &E : fields_) {
      E.writesAtStart = E.state->writes;
      E.state->fly(E.widths, 1);
    }
    if (transport_ == Transport::Host) {
      packHost();
      postReceives(recv_.data());
      postSends(send_.data());
      return;
    }
    if (transport_ != Transport::Peer)
      // MPI may write the receive buffer as soon as it is posted below: the
      // previous exchange's copy out of it must be over (it is short).
      mpi_device::synchronizeStream(comm_);
    mpi_device::recordEvent(ready_, Stream);
    mpi_device::waitEvent(comm_, ready_);
    pack(false);
    if (packFirst_ || HoldStream) {
      // Work queued on Stream after start() (the interior) waits for the
      // pack: launched first, a large interior takes every SM and the pack,
      // and the whole exchange behind it, would wait for it to finish.
      mpi_device::recordEvent(packed_, comm_);
      mpi_device::waitEvent(Stream, packed_);
    }
    if (transport_ == Transport::Staged) {
      if (sendBytes_)
        mpi_device::copyAsync(pinnedSend_, deviceSend_, sendBytes_, comm_);
      postReceives(pinnedRecv_);
    } else if (transport_ == Transport::CudaAware) {
      postReceives(deviceRecv_);
    } else {
      // Peer: straight into the receivers' buffers while the interior computes.
      for (Message &M : sends_)
        if (M.peer != domain_->rank())
          mpi_device::copyAsync(remote_[M.peer] + M.remoteOffset +
                                    parity_ * M.remoteTotal,
                                deviceSend_ + M.offset, M.bytes, comm_);
      postReceives(nullptr);
      postReached(false);
    }
  }

  /// Completes the exchange begun by start(); afterwards work queued on
  /// \p Stream sees the halos.
  void wait(void *Stream = nullptr) {
    const profile::Scope Range("halo exchange", "wait");
    if (!started_)
      throw DomainError("HaloExchange: wait() without start()");
    started_ = false;
    if (transport_ == Transport::Host) {
      copySelf(send_.data(), recv_.data());
      completeRequests();
      unpackHost();
      markFilled();
      return;
    }
    mpi_device::synchronizeStream(comm_); // packed (and staged or copied)
    char *RecvBase = deviceRecv_;
    if (transport_ == Transport::Peer) {
      RecvBase = deviceRecv_ + parity_ * recvBytes_;
      postReached(true);  // the previous unpack is over (synchronised above)
      postSends(nullptr); // the copies are done: tell the receivers
    } else {
      postSends(transport_ == Transport::Staged ? pinnedSend_ : deviceSend_);
    }
    completeRequests();
    if (transport_ == Transport::Staged && recvBytes_)
      mpi_device::copyAsync(deviceRecv_, pinnedRecv_, recvBytes_, comm_);
    copySelfDevice(RecvBase);
    pack(true, RecvBase);
    mpi_device::recordEvent(done_, comm_);
    mpi_device::waitEvent(Stream, done_);
    parity_ ^= 1;
    markFilled();
  }

  /// How thick the slabs of own points that neighbours receive are: on the
  /// low side the widest high-side halo of the fields, and vice versa.
  Halo sentWidths() const {
    Halo W;
    for (const Entry &E : fields_)
      for (int A = 0; A < 4; ++A) {
        W.lo[A] = std::max(W.lo[A], E.widths.hi[A]);
        W.hi[A] = std::max(W.hi[A], E.widths.lo[A]);
      }
    return W;
  }

  const Domain &domain() const { return *domain_; }
  /// True if the exchanges fill \p Need of Field \p F (its address): its
  /// appends' widths together, and where \p Need has corners one append
  /// with corners covering all of it (the edges between two appends'
  /// widths are filled by neither).
  bool fills(const void *F, const Halo &Need) const {
    Halo Faces, Asked = Need;
    Faces.corners = Asked.corners = false;
    bool Corners = !Need.corners;
    for (const Entry &E : fields_)
      if (E.identity == F) {
        Faces.merge(E.widths);
        Corners = Corners || E.widths.covers(Need);
      }
    Faces.corners = false;
    return Faces.covers(Asked) && Corners;
  }
  /// What the exchanges fill of Field \p F (its address; the union where it
  /// was appended twice), or nothing if it is not appended.
  std::optional<Halo> widthsOf(const void *F) const {
    std::optional<Halo> W;
    for (const Entry &E : fields_)
      if (E.identity == F)
        W = W ? W->merge(E.widths) : E.widths;
    return W;
  }

  /// Between start() and wait().
  bool inFlight() const { return started_; }
  Transport transport() const { return transport_; }
  /// Bytes this rank sends per exchange (all fields, all neighbours).
  std::size_t bytesSent() const { return sendBytes_; }
  std::size_t messages() const { return sends_.size(); }

private:
  struct Entry {
    std::function<char *()> data;
    Grid grid;
    Halo halo;   ///< the field's: where its own points start
    Halo widths; ///< what the exchange fills of it
    int elementSize;
    std::string name;
    const void *identity; ///< the Field's address
    detail::HaloState *state; ///< the Field's (it follows swaps)
    unsigned long long writesAtStart = 0;
  };
  /// The fields' halos hold what this exchange sent.
  void markFilled() {
    for (Entry &E : fields_)
      E.state->exchanged(E.widths, E.writesAtStart);
  }

  struct Message {
    int field;
    int peer; ///< rank in the domain's communicator
    int tag;
    long long box[3][2]; ///< [lo, hi) in the field's local indices
    std::size_t offset = 0, bytes = 0;
    std::size_t remoteOffset = 0,
                remoteTotal = 0; ///< peer transport: in the receiver's buffer
  };

  static std::size_t volume(const long long (&B)[3][2]) {
    std::size_t V = 1;
    for (int A = 0; A < 3; ++A)
      V *= static_cast<std::size_t>(std::max(0LL, B[A][1] - B[A][0]));
    return V;
  }

  /// The box of field E sent in direction Dir (Receive: received from it).
  /// Along a dimension the message does not cross, it spans the own points
  /// and the margins beyond this rank's walls there: a wall's margin is
  /// periodic along the other dimensions (the one at x = -1 beyond a wall
  /// in y is the one at x = N - 1, or the neighbour's), as points computed
  /// in the halo (a time loop's steps between exchanges, a fused step's
  /// producers) read it. Sender and receiver share their walls there.
  Message box(int Field, const Entry &E, const Direction &Dir,
              bool Receive) const {
    Message M{};
    M.field = Field;
    for (int A = 0; A < 3; ++A) {
      // L: where the own points start; W: the widths exchanged.
      const long long L = E.halo.lo[A], N = domain_->localExtent(A);
      const Halo &W = E.widths;
      const int S = Dir.d[A];
      long long Lo = L, Hi = L + N; // own points
      if (S == 0) {
        Direction Low, High;
        Low.d[A] = -1;
        High.d[A] = 1;
        if (domain_->neighbour(Low) < 0)
          Lo -= W.lo[A];
        if (domain_->neighbour(High) < 0)
          Hi += W.hi[A];
      } else if (S > 0)
        Lo = Receive ? L + N : L + N - W.lo[A],
        Hi = Receive ? L + N + W.hi[A] : L + N;
      else if (S < 0)
        Lo = Receive ? L - W.lo[A] : L, Hi = Receive ? L : L + W.hi[A];
      M.box[A][0] = Lo;
      M.box[A][1] = Hi;
    }
    M.bytes = volume(M.box) * E.elementSize;
    return M;
  }

  void setUp() {
    if (setUp_)
      return;
    setUp_ = true;
    const Domain &D = *domain_;
    // Every rank must exchange the same fields alike, or messages would not
    // match (truncated, or waited for in vain).
    std::string Fields;
    for (const Entry &E : fields_)
      Fields += (Fields.empty() ? "" : "; ") + E.name + " (" +
                std::to_string(E.elementSize) + "-byte values, halo " +
                E.widths.str(D.dims()) + (E.widths.corners ? ", corners" : "") +
                ")";
    D.agree("the fields a HaloExchange exchanges",
            Fields.empty() ? "no field" : Fields);
    // Data and (peer transport) "reached" messages: 27 directions a field.
    tagBase_ = D.reserveTags(
        2 * 27 * std::max<int>(1, static_cast<int>(fields_.size())));
    for (int F = 0; F < static_cast<int>(fields_.size()); ++F) {
      const Entry &E = fields_[F];
      for (int Z = -1; Z <= 1; ++Z)
        for (int Y = -1; Y <= 1; ++Y)
          for (int X = -1; X <= 1; ++X) {
            const Direction Dir{{X, Y, Z}};
            const int Nonzero = (X != 0) + (Y != 0) + (Z != 0);
            if (Nonzero == 0 || (Nonzero > 1 && !E.widths.corners))
              continue;
            // Send towards Dir; receive what the opposite neighbour sends
            // towards Dir. Either may be missing at a non-periodic edge.
            Message S = box(F, E, Dir, false);
            Message R = box(F, E, Dir.opposite(), true);
            S.peer = D.neighbour(Dir);
            R.peer = D.neighbour(Dir.opposite());
            // The sender's direction, among this exchange's own tags.
            S.tag = R.tag = tagBase_ + F * 27 + Dir.index();
            if (S.bytes && S.peer >= 0) {
              S.offset = sendBytes_;
              sendBytes_ += S.bytes;
              sends_.push_back(S);
            }
            if (R.bytes && R.peer >= 0) {
              R.offset = recvBytes_;
              recvBytes_ += R.bytes;
              recvs_.push_back(R);
            }
          }
    }
    requests_.reserve(2 * (sends_.size() + recvs_.size()));
    if (D.memory() == Memory::Host) {
      transport_ = Transport::Host;
      send_.resize(sendBytes_);
      recv_.resize(recvBytes_);
      return;
    }
    chooseTransport();
    // Urgent, so that pack and unpack are not queued behind a large interior
    // launch on the loop's (ordinary) stream.
    comm_ = mpi_device::createStream(/*Urgent=*/true);
    ready_ = mpi_device::createEvent();
    packed_ = mpi_device::createEvent();
    const char *PackFirst = std::getenv("STENCIL_MPI_PACK_FIRST");
    packFirst_ = !PackFirst || std::string(PackFirst) != "0";
    done_ = mpi_device::createEvent();
    const int Copies = transport_ == Transport::Peer ? 2 : 1;
    deviceSend_ = static_cast<char *>(
        mpi_device::allocateDevice(std::max<std::size_t>(sendBytes_, 1)));
    deviceRecv_ = static_cast<char *>(mpi_device::allocateDevice(
        std::max<std::size_t>(Copies * recvBytes_, 1)));
    if (transport_ == Transport::Staged) {
      pinnedSend_ = static_cast<char *>(
          mpi_device::allocatePinned(std::max<std::size_t>(sendBytes_, 1)));
      pinnedRecv_ = static_cast<char *>(
          mpi_device::allocatePinned(std::max<std::size_t>(recvBytes_, 1)));
    }
    if (transport_ == Transport::Peer) {
      // The "reached" messages' tags follow the data's among the tags
      // reserved above.
      reachedTagBase_ = 27 * static_cast<int>(fields_.size());
      connectPeers();
    }
  }

  /// The same choice on every rank (an Allreduce), so both ends of a message
  /// agree.
  void chooseTransport() {
    const Domain &D = *domain_;
    const char *Env = std::getenv("STENCIL_MPI_TRANSPORT");
    const std::string Want = Env ? Env : "auto";
    if (Want != "auto" && Want != "staged" && Want != "device" &&
        Want != "peer")
      throw DomainError("STENCIL_MPI_TRANSPORT='" + Want +
                        "': expected auto, staged, device or peer");
    // Peer needs every rank's neighbours on its node and reachable.
    int Node = 0;
    {
      MPI_Comm NodeComm;
      MPI_Comm_split_type(D.comm(), MPI_COMM_TYPE_SHARED, D.rank(),
                          MPI_INFO_NULL, &NodeComm);
      int NodeRank = 0;
      MPI_Comm_rank(NodeComm, &NodeRank);
      int Leader = NodeRank == 0 ? D.rank() : 0;
      MPI_Allreduce(MPI_IN_PLACE, &Leader, 1, MPI_INT, MPI_MAX, NodeComm);
      Node = Leader;
      MPI_Comm_free(&NodeComm);
    }
    std::vector<int> Info(2 * D.size());
    int Mine[2] = {Node, D.device()};
    MPI_Allgather(Mine, 2, MPI_INT, Info.data(), 2, MPI_INT, D.comm());
    int PeerOk = 1;
    for (const Message &M : sends_)
      if (M.peer != D.rank() &&
          (Info[2 * M.peer] != Node ||
           (Info[2 * M.peer + 1] != D.device() &&
            !mpi_device::canAccessPeer(Info[2 * M.peer + 1]))))
        PeerOk = 0;
    for (const Message &M : recvs_)
      if (M.peer != D.rank() && Info[2 * M.peer] != Node)
        PeerOk = 0;
    MPI_Allreduce(MPI_IN_PLACE, &PeerOk, 1, MPI_INT, MPI_MIN, D.comm());
    const bool Aware = mpi_device::mpiCudaAware();
    if (Want == "peer" && !PeerOk)
      throw DomainError("STENCIL_MPI_TRANSPORT=peer, but some neighbours are "
                        "on another node or "
                        "their GPUs cannot access each other");
    if (Want == "device" && !Aware)
      throw DomainError(
          "STENCIL_MPI_TRANSPORT=device, but this MPI is not CUDA-aware");
    if (Want == "peer" || (Want == "auto" && PeerOk))
      transport_ = Transport::Peer;
    else if (Want == "device" || (Want == "auto" && Aware))
      transport_ = Transport::CudaAware;
    else
      transport_ = Transport::Staged;
  }

  /// Peer transport: every receiver tells its senders where their boxes go in
  /// its (double) receive buffer, and shares that buffer by a CUDA IPC handle.
  void connectPeers() {
    const Domain &D = *domain_;
    std::vector<unsigned char> Handles(mpi_device::IpcHandleBytes * D.size());
    std::vector<unsigned char> Mine(mpi_device::IpcHandleBytes);
    mpi_device::ipcHandle(deviceRecv_, Mine.data());
    MPI_Allgather(Mine.data(), mpi_device::IpcHandleBytes, MPI_BYTE,
                  Handles.data(), mpi_device::IpcHandleBytes, MPI_BYTE,
                  D.comm());
    std::vector<unsigned long long> Out(2 * recvs_.size()),
        In(2 * sends_.size());
    std::vector<MPI_Request> R;
    for (std::size_t I = 0; I < sends_.size(); ++I) {
      R.emplace_back();
      MPI_Irecv(&In[2 * I], 2, MPI_UNSIGNED_LONG_LONG, sends_[I].peer,
                sends_[I].tag, D.comm(), &R.back());
    }
    for (std::size_t I = 0; I < recvs_.size(); ++I) {
      Out[2 * I] = recvs_[I].offset;
      Out[2 * I + 1] = recvBytes_;
      R.emplace_back();
      MPI_Isend(&Out[2 * I], 2, MPI_UNSIGNED_LONG_LONG, recvs_[I].peer,
                recvs_[I].tag, D.comm(), &R.back());
    }
    MPI_Waitall(static_cast<int>(R.size()), R.data(), MPI_STATUSES_IGNORE);
    for (std::size_t I = 0; I < sends_.size(); ++I) {
      Message &M = sends_[I];
      M.remoteOffset = In[2 * I];
      M.remoteTotal = In[2 * I + 1];
      if (M.peer != D.rank() && !remote_.count(M.peer))
        remote_[M.peer] = static_cast<char *>(
            mpi_device::ipcOpen(&Handles[mpi_device::IpcHandleBytes * M.peer]));
    }
  }

  /// Posts a non-blocking receive (or send) per message to another rank,
  /// from Base + its offset; a null Base posts zero-byte messages (peer
  /// transport: they only say that the data is in place).
  void post(bool Send, char *Base) {
    for (const Message &M : Send ? sends_ : recvs_) {
      if (M.peer == domain_->rank())
        continue;
      char *Data = Base ? Base + M.offset : nullptr;
      const int Count = Base ? static_cast<int>(M.bytes) : 0;
      requests_.emplace_back();
      receives_.push_back(!Send);
      if (Send)
        MPI_Isend(Data, Count, MPI_BYTE, M.peer, M.tag, domain_->comm(),
                  &requests_.back());
      else
        MPI_Irecv(Data, Count, MPI_BYTE, M.peer, M.tag, domain_->comm(),
                  &requests_.back());
    }
  }
  /// Peer transport: each receiver tells its senders that it has reached
  /// this exchange's wait(), past the unpack of the previous one, and each
  /// sender waits for that before its next exchange: its copies then go to
  /// the half of the receiver's buffer that unpack read. Without it a sender
  /// that receives nothing back (a halo on one side only) or a slow
  /// receiver lets the sender run ahead and overwrite what is unpacked.
  void postReached(bool Receiver) {
    for (const Message &M : Receiver ? recvs_ : sends_) {
      if (M.peer == domain_->rank())
        continue;
      requests_.emplace_back();
      receives_.push_back(!Receiver);
      const int Tag = reachedTagBase_ + M.tag;
      if (Receiver)
        MPI_Isend(nullptr, 0, MPI_BYTE, M.peer, Tag, domain_->comm(),
                  &requests_.back());
      else
        MPI_Irecv(nullptr, 0, MPI_BYTE, M.peer, Tag, domain_->comm(),
                  &requests_.back());
    }
  }
  void postReceives(char *Base) { post(false, Base); }
  void postSends(char *Base) { post(true, Base); }
  /// Destroyed in flight (an exception between start() and wait()): its
  /// receives, which would write into buffers about to be freed, are
  /// cancelled (or completed, where their message came); its sends go on
  /// without it, from buffers kept until the process ends.
  void abandon() {
    int Finalized = 0;
    MPI_Finalized(&Finalized);
    if (Finalized)
      return;
    bool Sends = false;
    for (std::size_t I = 0; I < requests_.size(); ++I)
      if (receives_[I]) {
        MPI_Cancel(&requests_[I]);
        MPI_Wait(&requests_[I], MPI_STATUS_IGNORE);
      } else {
        MPI_Request_free(&requests_[I]);
        Sends = true;
      }
    requests_.clear();
    receives_.clear();
    // Only host buffers: the device transports post their sends in wait().
    if (Sends)
      detail::abandonedSends().push_back(std::move(send_));
  }

  void completeRequests() {
    receives_.clear();
    detail::waitAllSaying(requests_, [this] {
      std::string Fields, Peers;
      for (const Entry &E : fields_)
        Fields += (Fields.empty() ? "'" : ", '") + E.name + "'";
      std::vector<int> Seen;
      for (const Message &M : recvs_)
        if (M.peer != domain_->rank() &&
            std::find(Seen.begin(), Seen.end(), M.peer) == Seen.end()) {
          Seen.push_back(M.peer);
          Peers += (Peers.empty() ? "" : ", ") + std::to_string(M.peer);
        }
      return detail::waitedFor(domain_->rank()) + "a halo exchange of " +
             Fields + " with rank(s) " + Peers +
             ": every rank must make the same exchanges in the same order "
             "(a transfer() or start()/wait() on some ranks only waits "
             "forever); still waiting";
    });
  }

  /// Messages to this rank itself (a periodic dimension with one rank):
  /// the matching send's bytes, copied without MPI.
  template <typename CopyFn> void forSelf(CopyFn Copy) {
    for (const Message &R : recvs_)
      if (R.peer == domain_->rank())
        for (const Message &S : sends_)
          if (S.peer == R.peer && S.tag == R.tag)
            Copy(R.offset, S.offset, R.bytes);
  }
  void copySelf(const char *Send, char *Recv) {
    forSelf([&](std::size_t To, std::size_t From, std::size_t N) {
      std::memcpy(Recv + To, Send + From, N);
    });
  }
  void copySelfDevice(char *RecvBase) {
    forSelf([&](std::size_t To, std::size_t From, std::size_t N) {
      mpi_device::copyAsync(RecvBase + To, deviceSend_ + From, N, comm_);
    });
  }

  /// Calls Row(field row pointer, buffer pointer, bytes) for each x-row of M.
  template <typename RowFn>
  void forRows(const Message &M, char *Buffer, RowFn Row) {
    const Entry &E = fields_[M.field];
    char *Base = E.data();
    const long long Sx = E.grid.extent[0], Sy = Sx * E.grid.extent[1];
    const std::size_t RowBytes = (M.box[0][1] - M.box[0][0]) * E.elementSize;
    for (long long K = M.box[2][0]; K < M.box[2][1]; ++K)
      for (long long J = M.box[1][0]; J < M.box[1][1]; ++J, Buffer += RowBytes)
        Row(Base + (M.box[0][0] + J * Sx + K * Sy) * E.elementSize, Buffer,
            RowBytes);
  }
  void packHost() {
    for (const Message &M : sends_)
      forRows(M, send_.data() + M.offset,
              [](char *F, char *B, std::size_t N) { std::memcpy(B, F, N); });
  }
  void unpackHost() {
    for (const Message &M : recvs_)
      forRows(M, recv_.data() + M.offset,
              [](char *F, char *B, std::size_t N) { std::memcpy(F, B, N); });
  }

  /// Device: one batch of kernels per element size.
  void pack(bool Unpack, char *RecvBase = nullptr) {
    std::map<int, std::vector<mpi_device::PackBox>> Batches;
    for (const Message &M : Unpack ? recvs_ : sends_) {
      const Entry &E = fields_[M.field];
      const long long Sx = E.grid.extent[0], Sy = Sx * E.grid.extent[1];
      mpi_device::PackBox B;
      B.field = E.data();
      B.buffer = (Unpack ? RecvBase : deviceSend_) + M.offset;
      B.start = M.box[0][0] + M.box[1][0] * Sx + M.box[2][0] * Sy;
      B.strideY = Sx;
      B.strideZ = Sy;
      for (int A = 0; A < 3; ++A)
        B.count[A] = static_cast<int>(M.box[A][1] - M.box[A][0]);
      Batches[E.elementSize].push_back(B);
    }
    for (auto &[Size, Boxes] : Batches)
      mpi_device::packBoxes(Boxes.data(), static_cast<int>(Boxes.size()), Size,
                            Unpack, comm_);
  }

  void release() {
    if (!setUp_ || transport_ == Transport::Host)
      return;
    for (auto &[Rank, P] : remote_)
      mpi_device::ipcClose(P);
    mpi_device::synchronizeStream(comm_);
    mpi_device::releaseDevice(deviceSend_);
    mpi_device::releaseDevice(deviceRecv_);
    if (pinnedSend_)
      mpi_device::releasePinned(pinnedSend_);
    if (pinnedRecv_)
      mpi_device::releasePinned(pinnedRecv_);
    mpi_device::destroyEvent(ready_);
    mpi_device::destroyEvent(packed_);
    mpi_device::destroyEvent(done_);
    mpi_device::destroyStream(comm_);
  }

  const Domain *domain_;
  std::vector<Entry> fields_;
  std::vector<Message> sends_, recvs_;
  std::vector<MPI_Request> requests_;
  std::size_t sendBytes_ = 0, recvBytes_ = 0;
  bool setUp_ = false;
  bool started_ = false; ///< start() made, wait() not yet
  Transport transport_ = Transport::Host;
  std::vector<char> send_, recv_;
  char *deviceSend_ = nullptr, *deviceRecv_ = nullptr;
  char *pinnedSend_ = nullptr, *pinnedRecv_ = nullptr;
  std::map<int, char *> remote_;
  void *comm_ = nullptr, *ready_ = nullptr, *done_ = nullptr,
       *packed_ = nullptr;
  bool packFirst_ = true;
  int parity_ = 0;
  int reachedTagBase_ = 0; ///< peer transport: see postReached
  int tagBase_ = 0;        ///< its messages' first tag (Domain::reserveTags)
  /// Whether each of requests_ is a receive (abandon() cancels those).
  std::vector<bool> receives_;
};

/// Seed 001's name of HaloExchange.
using BoundaryExchange = HaloExchange;

} // namespace stencil

#endif // STENCIL_HALO_EXCHANGE_HPP
