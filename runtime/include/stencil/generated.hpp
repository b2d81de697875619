// stencil/generated.hpp - the registry of generated code.
//
// Every file stencilc emits includes this header and registers one entry per
// stencil and backend at static-initialisation time (the entry's fields and
// the ABI version are in <stencil/generated_abi.hpp>). Engines find the entry
// by the stencil's identity (the functor's type or the function's address),
// check the argument types, and call its launcher over a region. Entries of
// one key with different IR (irHash) are an error, never a silent pick.
#ifndef STENCIL_GENERATED_HPP
#define STENCIL_GENERATED_HPP

#include <cstring>
#include <stdexcept>
#include <stencil/generated_abi.hpp>
#include <string>
#include <vector>

namespace stencil {

/// \p V, read through a volatile: a constant a step passes to a stencil
/// (`s.run(Square(), 2.0f, ...)`) is a value the fused code knows at run
/// time only, as the host engine's run() gets it (runTimeValue) and the
/// stencil's own code from its argument array. Seen as a constant, GCC turns
/// pow(x, 2) into x * x and evaluates tanh(0.7f) with MPFR, where the host
/// calls glibc, whose results differ in the last bit.
template <typename T> T runTimeConstant(T V) {
  const volatile T Hidden = V;
  return Hidden;
}

namespace detail {
inline std::vector<GeneratedStencil> &registry() {
  static std::vector<GeneratedStencil> Entries;
  return Entries;
}
/// Some typeid names start with '*' on GCC (a marker that the name is not
/// merged across files); for messages only. Keys are compared exactly: two
/// functors of one name in anonymous namespaces of two files have the same
/// typeid name, so stencilc rejects functors without external linkage.
inline const char *stripTypeName(const char *Name) {
  return Name[0] == '*' ? Name + 1 : Name;
}

/// True if \p E and \p Like are entries of one stencil on one backend.
inline bool sameStencil(const GeneratedStencil &E,
                        const GeneratedStencil &Like) {
  if (E.backend != Like.backend)
    return false;
  if (Like.typeKey)
    return E.typeKey && std::strcmp(E.typeKey, Like.typeKey) == 0;
  return !E.typeKey && E.functionKey == Like.functionKey;
}

/// "file:line (generated in unit)": where a stencil is and which generated
/// file registered it.
inline std::string place(const GeneratedStencil &E) {
  std::string Out = E.source;
  if (E.unit)
    Out += std::string(" (generated in ") + E.unit + ")";
  return Out;
}

/// Refuses generated code of another ABI version than this runtime's: its
/// entry's fields may mean something else here. \p What: "stencil", "step".
inline void checkAbiVersion(int AbiVersion, const char *What, const char *Name,
                            const char *Source) {
  if (AbiVersion != GeneratedAbiVersion)
    throw std::runtime_error(
        std::string("stencil: the generated code of ") + What + " " + Name +
        " (" + Source + ") was generated for runtime ABI version " +
        std::to_string(AbiVersion) + ", but this runtime has version " +
        std::to_string(GeneratedAbiVersion) +
        ": regenerate it with this stencilc (the one that comes with this "
        "runtime)");
}

/// \p Found, the first entry with its key, unless another entry has that key
/// but other IR: two stencils of one name (e.g. in two translation units)
/// that the key cannot tell apart. Picking either would run the wrong code.
inline const GeneratedStencil *checkUnambiguous(const GeneratedStencil *Found) {
  if (!Found)
    return nullptr;
  for (const GeneratedStencil &E : registry())
    if (sameStencil(E, *Found) && std::strcmp(E.irHash, Found->irHash) != 0)
      throw std::runtime_error(
          std::string("stencil: two different stencils are registered as ") +
          Found->name + " (" + backendName(Found->backend) + "), from " +
          place(*Found) + " and " + place(E) +
          "; give them different names or namespaces, or make the "
          "definitions identical (a header compiled with other macros "
          "in each file)");
  return Found;
}
} // namespace detail

/// Called by generated code during static initialisation, with the
/// GeneratedAbiVersion it was generated for. Code of another version is
/// rejected: its entry's fields may mean something else here. A stencil in a
/// header that two generated files include is registered by both: an entry
/// with the key, backend, variant and IR of one already registered is the
/// same code and is dropped, so the first file's entry is the one engines
/// use. Entries of one key with other IR are kept, and looking the key up
/// reports both places (checkUnambiguous).
inline bool registerGenerated(int AbiVersion, const GeneratedStencil &Entry) {
  detail::checkAbiVersion(AbiVersion, "stencil", Entry.name, Entry.source);
  for (const GeneratedStencil &E : detail::registry())
    if (detail::sameStencil(E, Entry) &&
        std::strcmp(E.variant, Entry.variant) == 0 &&
        std::strcmp(E.irHash, Entry.irHash) == 0)
      return true;
  detail::registry().push_back(Entry);
  return true;
}

/// The entry for a functor type, or null. Throws if two different stencils
/// have this key.
inline const GeneratedStencil *findGenerated(Backend B,
                                             const std::type_info &Functor) {
  const char *Name = Functor.name();
  for (const GeneratedStencil &E : detail::registry())
    if (E.backend == B && E.typeKey && std::strcmp(E.typeKey, Name) == 0)
      return detail::checkUnambiguous(&E);
  return nullptr;
}

/// The entry for a free function, or null. Throws if two different
/// stencils have this key.
inline const GeneratedStencil *findGenerated(Backend B, const void *Function) {
  for (const GeneratedStencil &E : detail::registry())
    if (E.backend == B && !E.typeKey && E.functionKey == Function)
      return detail::checkUnambiguous(&E);
  return nullptr;
}

/// Every entry of one stencil on backend \p B, in registration order (the
/// first is the grid variant): \p Like is any entry of that stencil. A
/// stencil in a header that two files include is registered by both: each
/// variant is listed once.
inline std::vector<const GeneratedStencil *>
generatedVariants(const GeneratedStencil &Like) {
  std::vector<const GeneratedStencil *> Out;
  for (const GeneratedStencil &E : detail::registry()) {
    if (!detail::sameStencil(E, Like))
      continue;
    bool Listed = false;
    for (const GeneratedStencil *O : Out)
      Listed |= std::strcmp(O->variant, E.variant) == 0;
    if (!Listed)
      Out.push_back(&E);
  }
  return Out;
}

namespace detail {
inline std::vector<GeneratedStep> &stepRegistry() {
  static std::vector<GeneratedStep> Entries;
  return Entries;
}
} // namespace detail

/// Called by generated code for each step and backend (see registerGenerated
/// for the version check). A step in a header that two files include is
/// registered by both: the first entry is kept.
inline bool registerGeneratedStep(int AbiVersion, const GeneratedStep &Entry) {
  detail::checkAbiVersion(AbiVersion, "step", Entry.name, Entry.source);
  for (const GeneratedStep &E : detail::stepRegistry())
    if (E.backend == Entry.backend && E.functionKey == Entry.functionKey)
      return true;
  detail::stepRegistry().push_back(Entry);
  return true;
}

/// The generated code of step function \p Function on backend \p B, or null.
inline const GeneratedStep *findGeneratedStep(Backend B, const void *Function) {
  for (const GeneratedStep &E : detail::stepRegistry())
    if (E.backend == B && E.functionKey == Function)
      return &E;
  return nullptr;
}

namespace detail {
inline std::vector<GeneratedTemporal> &temporalRegistry() {
  static std::vector<GeneratedTemporal> Entries;
  return Entries;
}
} // namespace detail

/// Called by generated code for each stencil's temporally blocked kernel
/// (see registerGenerated for the version check and for entries that two
/// files register alike).
inline bool registerGeneratedTemporal(int AbiVersion,
                                      const GeneratedTemporal &Entry) {
  detail::checkAbiVersion(AbiVersion, "stencil", Entry.name, Entry.source);
  for (const GeneratedTemporal &E : detail::temporalRegistry())
    if (E.backend == Entry.backend && E.timeInput == Entry.timeInput &&
        E.timeOutput == Entry.timeOutput &&
        std::strcmp(E.irHash, Entry.irHash) == 0 &&
        (Entry.typeKey ? E.typeKey && std::strcmp(E.typeKey, Entry.typeKey) == 0
                       : !E.typeKey && E.functionKey == Entry.functionKey))
      return true;
  detail::temporalRegistry().push_back(Entry);
  return true;
}

/// The temporally blocked code of stencil \p Like (any of its entries) whose
/// steps read parameter \p TimeInput and write \p TimeOutput (0-based after
/// the index), or null.
inline const GeneratedTemporal *
findGeneratedTemporal(const GeneratedStencil &Like, int TimeInput,
                      int TimeOutput) {
  for (const GeneratedTemporal &E : detail::temporalRegistry())
    if (E.backend == Like.backend && E.timeInput == TimeInput &&
        E.timeOutput == TimeOutput && std::strcmp(E.irHash, Like.irHash) == 0 &&
        (Like.typeKey ? E.typeKey && std::strcmp(E.typeKey, Like.typeKey) == 0
                      : !E.typeKey && E.functionKey == Like.functionKey))
      return &E;
  return nullptr;
}

/// All registered entries, e.g. for a listing.
inline const std::vector<GeneratedStencil> &generatedStencils() {
  return detail::registry();
}

} // namespace stencil

#endif // STENCIL_GENERATED_HPP
