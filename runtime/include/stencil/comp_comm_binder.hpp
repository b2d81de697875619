// stencil/comp_comm_binder.hpp - hides a halo exchange behind computation by
// splitting stencil launches into interior and boundary regions (seed 001's
// CompCommBinder).
//
//   stencil::CompCommBinder binder(loop, exchange);
//   binder.set_post_func(Diffusion3d(), ce, cw, cn, cs, ct, cb, cc, u, un);
//   binder.run();   // exchange u's halo while un's interior is computed
//
// One-divided-kernel overlap (post only) and two-divided-kernel overlap
// (set_pre_func too), as <stencil/divided_overlap.hpp> runs them. Regions
// come from the stencils' halo widths (stencilc's analysis) and the
// exchanged fields' widths; each is launched with stencilc's region-box
// launcher, so the points and the arithmetic are those of the
// non-overlapped run, bit for bit.
#ifndef STENCIL_COMP_COMM_BINDER_HPP
#define STENCIL_COMP_COMM_BINDER_HPP

#include <optional>
#include <stencil/divided_overlap.hpp>

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
    runDivided(L, *exchange_, pre_ ? &*pre_ : nullptr, *post_);
  }

private:
  DomainLoop *loop_;
  HaloExchange *exchange_;
  std::optional<BoundStencil> pre_, post_;
};

} // namespace stencil

#endif // STENCIL_COMP_COMM_BINDER_HPP
