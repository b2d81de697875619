// stencil/comp_comm_binder.hpp - hides a halo exchange behind computation by
// splitting stencil launches into interior and boundary regions (seed 001's
// CompCommBinder).
//
//   stencil::CompCommBinder binder(loop, exchange);
//   binder.set_post_func(Diffusion3d(), ce, cw, cn, cs, ct, cb, cc, u, un);
//   binder.run();   // exchange u's halo while un's interior is computed
//
// One-divided-kernel overlap (post only): start the exchange of what earlier
// work wrote; compute the post stencil's interior, which reads no halo; wait;
// compute its boundary slabs. Two-divided-kernel overlap (set_pre_func too):
// compute the pre stencil's boundary slabs (the points neighbours need);
// start the exchange; compute the pre interior, then the post interior;
// wait; compute the post boundary. Regions come from the stencils' halo
// widths (stencilc's analysis) and the exchanged fields' widths; each is
// launched with stencilc's region-box launcher, so the points and the
// arithmetic are those of the non-overlapped run, bit for bit.
//
// On a device the post boundary slabs go to the loop's urgent side stream,
// which waits for the exchange and for what was queued before the post
// interior, but not for the interior itself: they run beside its last
// blocks instead of after them.
#ifndef STENCIL_COMP_COMM_BINDER_HPP
#define STENCIL_COMP_COMM_BINDER_HPP

#include <optional>
#include <stencil/domain_loop.hpp>
#include <stencil/halo_exchange.hpp>
#include <stencil/region_split.hpp>

namespace stencil {

class CompCommBinder {
public:
  CompCommBinder(DomainLoop &Loop, HaloExchange &Exchange)
      : loop_(&Loop), exchange_(&Exchange) {}

  /// The stencil computed after the exchange, reading the exchanged halos.
  template <typename StencilT, typename... Args>
  void set_post_func(const StencilT &S, Args &&...A) {
    post_ = loop_->bind(S, std::forward<Args>(A)...);
  }
  /// The stencil computed before the exchange, writing what is exchanged.
  template <typename StencilT, typename... Args>
  void set_pre_func(const StencilT &S, Args &&...A) {
    pre_ = loop_->bind(S, std::forward<Args>(A)...);
  }
  void clear_pre_func() { pre_.reset(); }

  /// One step: pre (if set), exchange, post; overlapped unless \p Overlap is
  /// false.
  void run(bool Overlap = true) {
    if (!post_)
      throw DomainError("CompCommBinder: set_post_func first");
    DomainLoop &L = *loop_;
    if (!Overlap) {
      if (pre_)
        L.launch(*pre_, pre_->own);
      exchange_->transfer(L.stream());
      L.launch(*post_, post_->own);
      return;
    }
    bool Split[3];
    L.exchangedDims(Split);
    const int Dims = L.domain().dims();
    const RegionSplit Post = splitRegion(post_->own, Dims, post_->reads, Split);
    if (pre_) {
      const RegionSplit Pre =
          splitRegion(pre_->own, Dims, exchange_->sentWidths(), Split);
      for (const Region &R : Pre.boundary)
        L.launch(*pre_, R);
      exchange_->start(L.stream());
      L.launch(*pre_, Pre.interior);
    } else {
      exchange_->start(L.stream());
    }
    L.fork();
    L.launch(*post_, Post.interior);
    exchange_->wait(L.sideStream());
    for (const Region &R : Post.boundary)
      L.launch(*post_, R, /*Side=*/true);
    L.join();
  }

private:
  DomainLoop *loop_;
  HaloExchange *exchange_;
  std::optional<BoundStencil> pre_, post_;
};

} // namespace stencil

#endif // STENCIL_COMP_COMM_BINDER_HPP
