// stencil/halo_state.hpp - what a Field's halo holds of its own points'
// current values: the widths filled since the runtime last wrote them, and
// exchanges begun but not completed. A stencil run that would read a halo
// older than the values around it is refused instead of computing from it.
//
// The state follows the calls every rank makes alike (writes by DomainLoop,
// DomainStep, CompCommBinder and repeat; exchanges; fill, upload, swap), so
// every rank reaches the same verdict. Writes through Field::data() are not
// seen: markHaloFilled() says that code of the user's own filled the halo.
#ifndef STENCIL_HALO_STATE_HPP
#define STENCIL_HALO_STATE_HPP

#include <functional>
#include <stencil/domain.hpp>
#include <stencil/halo.hpp>
#include <string>
#include <vector>

namespace stencil {
namespace detail {

struct HaloState {
  Halo faces;   ///< widths per side filled with the own points' values
  Halo corners; ///< widths within which the edges and corners are, too
  /// Writes of the own points so far: an exchange started before the last
  /// one sent older values.
  unsigned long long writes = 0;
  int inFlight = 0;   ///< exchanges started and not completed
  std::string writer; ///< what wrote the own points last, for messages

  /// The whole halo holds the own points' values (a new field, fill, upload).
  void filledAll(const Halo &H) {
    faces = corners = H;
    faces.corners = corners.corners = true;
  }
  /// The runtime wrote the own points: no halo holds their values.
  void written(std::string By) {
    faces = corners = Halo();
    ++writes;
    writer = std::move(By);
  }
  /// An exchange of \p Widths that began at write count \p WritesAtStart
  /// completed: those widths hold the values it sent, still current unless
  /// written since.
  void exchanged(const Halo &Widths, unsigned long long WritesAtStart) {
    if (inFlight > 0) // (not when swapped in mid-exchange)
      --inFlight;
    if (writes != WritesAtStart)
      return;
    faces.merge(Widths);
    faces.corners = true;
    // Corners within one exchange's widths only: two appends of different
    // widths leave the edges between them to neither.
    if (Widths.corners && Widths.covers(corners)) {
      corners = Widths;
      corners.corners = true;
    }
  }
};

/// What stencil entry \p E reads of parameter \p P around a point, in the
/// dimensions \p D exchanges (elsewhere the halo is the user's boundary),
/// with corners where one offset crosses two of them. All zero for an
/// argument read only at the centre, or when \p E lacks per-array reads.
inline Halo exchangedReads(const Domain &D, const GeneratedStencil &E,
                           std::size_t P) {
  Halo Need;
  Need.corners = false;
  if (!E.arrayReads)
    return Need;
  const GeneratedArrayReads &R = E.arrayReads[P];
  Need = Halo::of(R.halo, false);
  for (int X = 0; X < 4; ++X)
    if (X >= D.dims() || !D.exchanges(X))
      Need.lo[X] = Need.hi[X] = 0;
  for (int X = 0; X < D.dims(); ++X)
    for (int Y = X + 1; Y < D.dims(); ++Y)
      if (((R.diagonalPairs >> (4 * X + Y)) & 1u) && D.exchanges(X) &&
          D.exchanges(Y))
        Need.corners = true;
  return Need;
}

/// Why reading \p Need around a point of a field of state \p S would read
/// halo values older than its own points', or "" when it would not.
inline std::string staleHalo(const HaloState &S, const Halo &Need, int Dims) {
  if (Halo().covers(Need))
    return "";
  if (S.inFlight)
    return "an exchange of it was started and not completed (wait() first)";
  Halo Faces = Need;
  Faces.corners = false;
  if (S.faces.covers(Faces) && (!Need.corners || S.corners.covers(Faces)))
    return "";
  std::string Holds = S.faces.str(Dims);
  if (Need.corners)
    Holds += S.corners.covers(Faces) ? " with corners" : " without corners";
  return "its halo holds " + Holds + " of the values " +
         (S.writer.empty() ? std::string("its own points hold")
                           : S.writer + " wrote") +
         ": exchange it first (HaloExchange: append it, as wide as read, "
         "then transfer()), or let CompCommBinder, DomainStep or repeat() "
         "exchange it";
}

/// Throws unless stencil entry \p E, run over a rank's own points with
/// \p States (per parameter after the index: a Field's halo state, else
/// null; \p Names their names), reads only halos that hold the current
/// values, and writes no Field an exchange is still sending. \p Exchanged
/// (optional) says which Fields an exchange fills as wide as read before
/// the reads. \p How: the call, for messages.
inline void checkHalosCurrent(
    const Domain &D, const GeneratedStencil &E, const char *How,
    const std::vector<HaloState *> &States,
    const std::vector<std::string> &Names,
    const std::function<bool(std::size_t, const Halo &)> &Exchanged = {}) {
  const std::string Stencil =
      std::string("stencil '") + E.name + "' (" + How + ")";
  for (std::size_t P = 0; P < States.size(); ++P) {
    if (!States[P])
      continue;
    if (E.writes && E.writes[P] && States[P]->inFlight)
      throw DomainError(Stencil + " writes field '" + Names[P] +
                        "', whose exchange was started and not completed: "
                        "wait() first (on a GPU the exchange would send "
                        "some of the new values)");
    const Halo Need = exchangedReads(D, E, P);
    if (Exchanged && Exchanged(P, Need))
      continue;
    const std::string Why = staleHalo(*States[P], Need, D.dims());
    if (!Why.empty())
      throw DomainError(Stencil + " reads field '" + Names[P] + "' " +
                        Need.str(D.dims()) +
                        (Need.corners ? " with corners" : "") +
                        " around a point, but " + Why);
  }
}

/// Notes that stencil entry \p E wrote the own points of the Fields of
/// \p States it writes (per parameter after the index, null for others).
inline void markWritten(const GeneratedStencil &E, const char *How,
                        const std::vector<HaloState *> &States) {
  if (!E.writes)
    return;
  for (std::size_t P = 0; P < States.size(); ++P)
    if (States[P] && E.writes[P])
      States[P]->written(std::string("stencil '") + E.name + "' (" + How + ")");
}

} // namespace detail
} // namespace stencil

#endif // STENCIL_HALO_STATE_HPP
