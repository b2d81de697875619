// stencil/tuning_candidate.hpp - one launch configuration the auto-tuner may
// pick (a variant and its block), and its text form "zmarch:64,4,8", which
// STENCIL_TUNING_FORCE, reports and progress lines use.
#ifndef STENCIL_TUNING_CANDIDATE_HPP
#define STENCIL_TUNING_CANDIDATE_HPP

#include <stencil/generated.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <tuple>

namespace stencil::tuning {

/// One launch configuration of one variant. For marching variants bz is the
/// chunk each thread marches; for "grid" it is blockDim.z (always 1 here).
struct Candidate {
  std::string variant;
  int bx = 0, by = 0, bz = 0;
  bool operator==(const Candidate &O) const {
    return variant == O.variant && bx == O.bx && by == O.by && bz == O.bz;
  }
  bool operator<(const Candidate &O) const {
    return std::tie(variant, bx, by, bz) <
           std::tie(O.variant, O.bx, O.by, O.bz);
  }
  LaunchConfig config() const {
    LaunchConfig C;
    C.block[0] = bx;
    C.block[1] = by;
    C.block[2] = bz;
    return C;
  }
};

/// "zmarch:64,4,8", the syntax of STENCIL_TUNING_FORCE and of reports.
inline std::string toString(const Candidate &C) {
  return C.variant + ":" + std::to_string(C.bx) + "," + std::to_string(C.by) +
         "," + std::to_string(C.bz);
}

/// Parses "variant:bx,by,bz"; false on anything else.
inline bool parseCandidate(const std::string &Text, Candidate *Out) {
  auto Colon = Text.find(':');
  if (Colon == std::string::npos || Colon == 0)
    return false;
  Candidate C;
  C.variant = Text.substr(0, Colon);
  int Values[3];
  std::size_t Pos = Colon + 1;
  for (int I = 0; I < 3; ++I) {
    std::size_t End = Text.find(I < 2 ? ',' : '\0', Pos);
    if (I == 2)
      End = Text.size();
    if (End == std::string::npos || End == Pos)
      return false;
    std::string Part = Text.substr(Pos, End - Pos);
    if (!std::all_of(Part.begin(), Part.end(),
                     [](char Ch) {
                       return std::isdigit(static_cast<unsigned char>(Ch));
                     }) ||
        Part.size() > 6)
      return false;
    Values[I] = std::atoi(Part.c_str());
    if (Values[I] <= 0)
      return false;
    Pos = End + 1;
  }
  C.bx = Values[0];
  C.by = Values[1];
  C.bz = Values[2];
  *Out = C;
  return true;
}

} // namespace stencil::tuning

#endif // STENCIL_TUNING_CANDIDATE_HPP
