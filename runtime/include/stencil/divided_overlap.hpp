// stencil/divided_overlap.hpp - seed 001's overlap of a halo exchange with the
// computation around it, by dividing the kernels on either side of it into
// the points the exchange concerns and the rest.
//
// One-divided (no pre): start the exchange of what earlier work wrote;
// compute the post stencil's interior, which reads no halo; wait; compute its
// boundary slabs. Two-divided (a pre stencil writing what is exchanged):
// compute the pre stencil's boundary slabs (the points the neighbours
// receive) first, start the exchange, compute the pre interior and then the
// post interior while it travels, wait, compute the post boundary. Every
// point is computed once by the same code as without overlap, so the results
// are bit for bit the same.
//
// On a device the post boundary slabs go to the loop's urgent side stream,
// which waits for the exchange and for what was queued before the post
// interior, but not for the interior itself: they run beside its last blocks
// instead of after them.
#ifndef STENCIL_DIVIDED_OVERLAP_HPP
#define STENCIL_DIVIDED_OVERLAP_HPP

#include <stencil/domain_loop.hpp>
#include <stencil/halo_exchange.hpp>
#include <stencil/region_split.hpp>

namespace stencil {

/// \p Post over its own points after exchange \p X, overlapped as above;
/// two-divided with \p Pre (run before the exchange) when given.
inline void runDivided(DomainLoop &L, HaloExchange &X, const BoundStencil *Pre,
                       const BoundStencil &Post) {
  // A launch refused while the exchange travels (one array for two of a
  // stencil's parameters) completes it first: left in flight, it would
  // refuse every later run on its fields, with no wait() to call.
  struct CompleteOnThrow {
    HaloExchange &X;
    DomainLoop &L;
    ~CompleteOnThrow() {
      if (X.inFlight())
        try {
          X.wait(L.sideStream());
        } catch (...) { // an exception is on its way already
        }
    }
  } Guard{X, L};
  bool Split[3];
  L.exchangedDims(Split);
  const int Dims = L.domain().dims();
  if (Pre) {
    const RegionSplit Parts =
        splitRegion(Pre->own, Dims, X.sentWidths(), Split);
    for (const Region &R : Parts.boundary)
      L.launch(*Pre, R);
    X.start(L.stream());
    L.launch(*Pre, Parts.interior);
  } else {
    X.start(L.stream());
  }
  const RegionSplit Parts = splitRegion(Post.own, Dims, Post.reads, Split);
  L.fork();
  L.launch(Post, Parts.interior);
  X.wait(L.sideStream());
  for (const Region &R : Parts.boundary)
    L.launch(Post, R, /*Side=*/true);
  L.join();
}

} // namespace stencil

#endif // STENCIL_DIVIDED_OVERLAP_HPP
