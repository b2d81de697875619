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
      : loop_(&Loop), exchange_(&Exchange) {
    if (&Loop.domain() != &Exchange.domain())
      throw DomainError("CompCommBinder: the loop and the exchange belong to "
                        "different domains");
  }

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
    checkExchanged(*post_);
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
  /// Throws unless the exchange fills what \p B reads of each Field around
  /// a point, in the dimensions the domain exchanges (elsewhere the halo is
  /// the user's boundary), corners too where it reads them across two of
  /// them: else the post stencil would read old halo values. Alike on every
  /// rank.
  void checkExchanged(const BoundStencil &B) const {
    const GeneratedStencil &E = *B.entry;
    if (!E.arrayReads)
      return;
    const Domain &D = loop_->domain();
    int Exchanged = 0;
    for (int X = 0; X < D.dims(); ++X)
      Exchanged += D.exchanges(X);
    for (std::size_t P = 0; P < B.fields.size(); ++P) {
      if (!B.fields[P])
        continue;
      Halo Need = Halo::of(E.arrayReads[P].halo, false);
      bool Any = false;
      for (int X = 0; X < 4; ++X) {
        if (X >= D.dims() || !D.exchanges(X))
          Need.lo[X] = Need.hi[X] = 0;
        Any = Any || Need.lo[X] || Need.hi[X];
      }
      Need.corners = E.arrayReads[P].diagonal && Exchanged >= 2;
      if (!Any)
        continue;
      const std::optional<Halo> Have = exchange_->widthsOf(B.fields[P]);
      if (Have && Have->covers(Need))
        continue;
      throw DomainError(
          "CompCommBinder: stencil '" + B.name + "' reads field '" +
          B.fieldNames[P] + "' " + Need.str(D.dims()) +
          (Need.corners ? " with corners" : "") + " around a point, but " +
          (Have ? "the exchange fills " + Have->str(D.dims()) +
                      (Have->corners ? " with corners" : " without corners") +
                      " of it"
                : "the exchange does not hold it") +
          ": append it to the exchange (as wide as the stencil reads)");
    }
  }

  DomainLoop *loop_;
  HaloExchange *exchange_;
  std::optional<BoundStencil> pre_, post_;
};

} // namespace stencil

#endif // STENCIL_COMP_COMM_BINDER_HPP
