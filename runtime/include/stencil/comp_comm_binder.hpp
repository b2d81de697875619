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

#include <functional>
#include <memory>
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
  /// The Fields it reads off the centre get their halos from an exchange
  /// of the binder's own, before it (the exchange comes after).
  template <typename StencilT, typename... Args>
  void set_pre_func(const StencilT &S, Args &&...A) {
    pre_ = loop_->bind(S, A...);
    preAppenders_ = {appender(A)...};
    preExchange_.reset();
  }
  void clear_pre_func() {
    pre_.reset();
    preExchange_.reset();
  }

  /// One step: pre (if set), exchange, post; overlapped unless \p Overlap is
  /// false.
  void run(bool Overlap = true) {
    if (!post_)
      throw DomainError("CompCommBinder: set_post_func first");
    DomainLoop &L = *loop_;
    if (pre_)
      exchangeForPre(L);
    checkExchanged(*post_);
    // Nothing they write may be in flight; the pre stencil's values count
    // as written before the exchange that sends them.
    for (const std::optional<BoundStencil> *S : {&pre_, &post_})
      if (*S && (*S)->entry->writes)
        for (std::size_t P = 0; P < (*S)->fieldStates.size(); ++P)
          if ((*S)->fieldStates[P] && (*S)->entry->writes[P])
            detail::requireLanded(*(*S)->fieldStates[P], (*S)->fieldNames[P],
                                  "stencil '" + (*S)->name + "' (" + How +
                                      ") writes");
    if (pre_)
      detail::markWritten(*pre_->entry, How, pre_->fieldStates);
    if (!Overlap) {
      if (pre_)
        L.launch(*pre_, pre_->own);
      exchange_->transfer(L.stream());
      L.launch(*post_, post_->own);
    } else {
      runDivided(L, *exchange_, pre_ ? &*pre_ : nullptr, *post_);
    }
    detail::markWritten(*post_->entry, How, post_->fieldStates);
  }

private:
  static constexpr const char *How = "CompCommBinder::run";

  /// The widths the exchange must fill of argument \p P of \p B.
  Halo needed(const BoundStencil &B, std::size_t P) const {
    return detail::exchangedReads(loop_->domain(), *B.entry, P);
  }

  /// Throws unless the post stencil \p B reads current halos: the exchange
  /// fills what it reads of each Field that the binder's stencils write, and
  /// any other Field it reads off the centre is filled by the exchange or
  /// holds its current values already (a time level swapped in from the
  /// post stencil's output does not). Alike on every rank.
  void checkExchanged(const BoundStencil &B) const {
    const Domain &D = loop_->domain();
    for (std::size_t P = 0; P < B.fields.size(); ++P) {
      if (!B.fields[P])
        continue;
      const Halo Need = needed(B, P);
      if (Halo().covers(Need) || exchange_->fills(B.fields[P], Need))
        continue;
      const std::string Why =
          writes(B.fields[P])
              ? "the binder's stencils write it: append it to the exchange "
                "(as wide as the stencil reads)"
              : detail::staleHalo(*B.fieldStates[P], Need, D.dims());
      if (Why.empty())
        continue;
      const std::optional<Halo> Have = exchange_->widthsOf(B.fields[P]);
      throw DomainError(
          "CompCommBinder: stencil '" + B.name + "' reads field '" +
          B.fieldNames[P] + "' " + Need.str(D.dims()) +
          (Need.corners ? " with corners" : "") + " around a point, but " +
          (Have ? "the exchange fills " + Have->str(D.dims()) +
                      (Have->corners ? " with corners" : " without corners") +
                      " of it"
                : "the exchange does not hold it") +
          ", and " + Why);
    }
  }

  using Appender = std::function<void(HaloExchange &, const Halo &)>;
  template <typename A> static Appender appender(A &Arg) {
    if constexpr (detail::IsField<std::remove_const_t<A>>::value) {
      auto *F = const_cast<std::remove_const_t<A> *>(&Arg);
      return [F](HaloExchange &X, const Halo &W) { X.append(*F, W); };
    } else {
      return nullptr;
    }
  }

  /// Exchanges what the pre stencil reads of each Field off the centre
  /// (made once: the first run() fixes what it holds).
  void exchangeForPre(DomainLoop &L) {
    if (!preExchange_) {
      preExchange_ = std::make_unique<HaloExchange>(L.domain());
      preHolds_ = false;
      if (pre_->entry->arrayReads)
        for (std::size_t P = 0; P < pre_->fields.size(); ++P) {
          const Halo Need = needed(*pre_, P);
          if (pre_->fields[P] && !Halo().covers(Need)) {
            preAppenders_[P](*preExchange_, Need);
            preHolds_ = true;
          }
        }
    }
    if (preHolds_)
      preExchange_->transfer(L.stream());
  }

  /// True if the pre or post stencil writes the Field at \p F.
  bool writes(const void *F) const {
    for (const std::optional<BoundStencil> *S : {&pre_, &post_})
      if (*S && (*S)->entry->writes)
        for (std::size_t P = 0; P < (*S)->fields.size(); ++P)
          if ((*S)->fields[P] == F && (*S)->entry->writes[P])
            return true;
    return false;
  }

  DomainLoop *loop_;
  HaloExchange *exchange_;
  std::optional<BoundStencil> pre_, post_;
  std::vector<Appender> preAppenders_;
  std::unique_ptr<HaloExchange> preExchange_;
  bool preHolds_ = false;
};

} // namespace stencil

#endif // STENCIL_COMP_COMM_BINDER_HPP
