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

#include <algorithm>
#include <functional>
#include <stencil/domain.hpp>
#include <stencil/halo.hpp>
#include <string>
#include <vector>

namespace stencil {
namespace detail {

struct HaloState {
  Halo faces; ///< widths per side filled with the own points' values
  /// Boxes of widths within which the edges and corners are filled too, one
  /// per exchange append with corners (two appends of different widths leave
  /// the edges between them to neither).
  std::vector<Halo> corners;
  /// Writes of the own points so far: an exchange started before the last
  /// one sent older values.
  unsigned long long writes = 0;
  int inFlight = 0; ///< exchange appends started and not completed
  /// Of those, how many fill each side (x first, {low, high}), and the
  /// edges and corners.
  int flying[4][2] = {};
  int flyingCorners = 0;
  std::string writer; ///< what wrote the own points last, for messages

  /// The whole halo holds the own points' values (a new field, fill, upload).
  void filledAll(const Halo &H) {
    faces = H;
    faces.corners = true;
    corners.assign(1, faces);
  }
  /// The runtime wrote the own points: no halo holds their values.
  void written(std::string By) {
    faces = Halo();
    corners.clear();
    ++writes;
    writer = std::move(By);
  }
  /// An exchange of \p Widths began (\p Sign 1) or ended (-1).
  void fly(const Halo &Widths, int Sign) {
    inFlight += Sign;
    for (int D = 0; D < 4; ++D) {
      flying[D][0] += Sign * (Widths.lo[D] > 0);
      flying[D][1] += Sign * (Widths.hi[D] > 0);
    }
    flyingCorners += Sign * Widths.corners;
  }
  /// An exchange of \p Widths that began at write count \p WritesAtStart
  /// completed: those widths hold the values it sent, still current unless
  /// written since (the storage cannot change meanwhile: swap, fill and
  /// upload refuse a field in flight).
  void exchanged(const Halo &Widths, unsigned long long WritesAtStart) {
    fly(Widths, -1);
    if (writes != WritesAtStart)
      return;
    faces.merge(Widths);
    faces.corners = true;
    if (!Widths.corners || cornersCover(Widths))
      return;
    corners.erase(
        std::remove_if(corners.begin(), corners.end(),
                       [&](const Halo &B) { return Widths.covers(B); }),
        corners.end());
    corners.push_back(Widths);
    corners.back().corners = true;
  }
  /// True if the edges and corners within \p Need's widths hold the values.
  bool cornersCover(const Halo &Need) const {
    Halo Faces = Need;
    Faces.corners = false;
    return std::any_of(corners.begin(), corners.end(),
                       [&](const Halo &B) { return B.covers(Faces); });
  }
  /// True if an exchange in flight fills part of what \p Need reads.
  bool flyingUnder(const Halo &Need) const {
    for (int D = 0; D < 4; ++D)
      if ((Need.lo[D] > 0 && flying[D][0]) || (Need.hi[D] > 0 && flying[D][1]))
        return true;
    return Need.corners && flyingCorners;
  }
};

/// Tags the Field::swap of the runtime's own time loop, made while an
/// exchange it started is in flight.
struct SwapInFlight {};

/// What stencil entry \p E reads of parameter \p P around a point that an
/// exchange fills: in the dimensions \p D exchanges, and beyond a wall where
/// an offset crosses it and an exchanged dimension (the margin there is the
/// wrapped or the neighbour's, which the exchange's message along the wall
/// carries: HaloExchange::box); elsewhere the halo is the user's boundary.
/// Corners where one offset crosses two exchanged dimensions. All zero for
/// an argument read only at the centre, or when \p E lacks per-array reads.
inline Halo exchangedReads(const Domain &D, const GeneratedStencil &E,
                           std::size_t P) {
  Halo Need;
  Need.corners = false;
  if (!E.arrayReads)
    return Need;
  const GeneratedArrayReads &R = E.arrayReads[P];
  Need = Halo::of(R.halo, false);
  auto Diagonal = [&](int X, int Y) {
    return ((R.diagonalPairs >> (4 * std::min(X, Y) + std::max(X, Y))) & 1u) !=
           0;
  };
  for (int X = 0; X < 4; ++X) {
    bool Filled = X < D.dims() && D.exchanges(X);
    for (int Y = 0; Y < D.dims() && X < D.dims() && !Filled; ++Y)
      Filled = Y != X && D.exchanges(Y) && Diagonal(X, Y);
    if (!Filled)
      Need.lo[X] = Need.hi[X] = 0;
  }
  for (int X = 0; X < D.dims(); ++X)
    for (int Y = X + 1; Y < D.dims(); ++Y)
      if (Diagonal(X, Y) && D.exchanges(X) && D.exchanges(Y))
        Need.corners = true;
  return Need;
}

/// Why reading \p Need around a point of a field of state \p S would read
/// halo values older than its own points', or "" when it would not.
inline std::string staleHalo(const HaloState &S, const Halo &Need, int Dims) {
  if (Halo().covers(Need))
    return "";
  if (S.flyingUnder(Need))
    return "an exchange filling that halo was started and not completed "
           "(wait() first)";
  Halo Faces = Need;
  Faces.corners = false;
  if (S.faces.covers(Faces) && (!Need.corners || S.cornersCover(Need)))
    return "";
  std::string Holds = S.faces.str(Dims);
  if (Need.corners)
    Holds +=
        S.cornersCover(Need) ? " with those corners" : " without those corners";
  return "its halo holds " + Holds + " of the values " +
         (S.writer.empty() ? std::string("its own points hold")
                           : S.writer + " wrote") +
         ": exchange it first (HaloExchange: append it, as wide as read, "
         "then transfer()), or let CompCommBinder, DomainStep or repeat() "
         "exchange it";
}

/// Throws if field \p Name of state \p S has an exchange in flight: \p What
/// would change the storage the exchange reads and fills.
inline void requireLanded(const HaloState &S, const std::string &Name,
                          const std::string &What) {
  if (S.inFlight)
    throw DomainError(What + " field '" + Name +
                      "', whose exchange was started and not completed: "
                      "wait() first (on a GPU the exchange would send some "
                      "of the new values, or fill the halo afterwards)");
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
    if (E.writes && E.writes[P])
      requireLanded(*States[P], Names[P], Stencil + " writes");
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
