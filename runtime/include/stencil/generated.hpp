// stencil/generated.hpp - the interface between generated code and the runtime.
//
// Every file stencilc emits includes this header and registers one entry per
// stencil and backend at static-initialisation time. Engines find the entry
// by the stencil's identity (the functor's type or the function's address),
// check the argument types, and call its launcher over a region. Entries of
// one key with different IR (irHash) are an error, never a silent pick.
#ifndef STENCIL_GENERATED_HPP
#define STENCIL_GENERATED_HPP

#include <cstring>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

namespace stencil {

/// Where the arrays of one launch live: every array of a stencil has the same
/// extents (halo included), x contiguous.
struct Grid {
  int dims = 3;
  long long extent[4] = {1, 1, 1, 1};
  /// Global coordinate of element 0 per dimension (idx.i() adds it).
  long long origin[4] = {0, 0, 0, 0};
};

/// A half-open box of points to compute: [lo, hi) per dimension. Overlap
/// launches the interior and the boundary as separate regions.
struct Region {
  long long lo[4] = {0, 0, 0, 0};
  long long hi[4] = {1, 1, 1, 1};
};

/// How to launch on a GPU; ignored by the OpenMP backend. The marching
/// variants ("zmarch", "zmarch2", "smem"; GeneratedStencil::marchDim >= 0) read block[2]
/// as the chunk of the marching dimension each thread walks: their thread
/// block is (block[0], block[1], 1) in 3-D and (block[0], 1, 1) in 2-D.
struct LaunchConfig {
  int block[3] = {64, 4, 1};
  void *stream = nullptr; ///< cudaStream_t; null is the default stream.
};

enum class Backend { OpenMP, Cuda };

inline const char *backendName(Backend B) { return B == Backend::Cuda ? "cuda" : "openmp"; }

/// Runs a stencil over \p R; \p Args points at each argument after the index,
/// converted to the stencil's parameter types. Returns null or an error text.
using GeneratedLaunchFn = const char *(*)(const Grid &G, const Region &R,
                                          const LaunchConfig &C, void *const *Args);

/// A CUDA kernel's resources for one block shape, as the tuner prunes by.
struct KernelAttributes {
  int registers = 0;          ///< Per thread (cudaFuncGetAttributes).
  int maxThreadsPerBlock = 0; ///< The most this kernel can launch with.
  long long sharedBytes = 0;  ///< Static plus dynamic shared memory per block.
};

/// Fills \p Out for a (Bx, By) block; returns null or an error text.
using GeneratedQueryFn = const char *(*)(int Bx, int By, KernelAttributes *Out);

struct GeneratedStencil {
  const char *name;         ///< Qualified name, for messages.
  const char *typeKey;      ///< Functor: typeid(F).name(); else null.
  const void *functionKey;  ///< Free function: its address; else null.
  Backend backend;
  int dims;
  const std::type_info *signature; ///< typeid(void(P...)) of the parameters after the index.
  GeneratedLaunchFn launch;
  const char *variant;      ///< "grid" (one thread per point), ...
  const char *source;       ///< "file:line" of the stencil.
  /// Points needed around each point, per dimension: {negative side, positive
  /// side}, x first (stencilc's analysis). Fields need at least this halo.
  int halo[4][2];
  const char *irHash;       ///< Fingerprint of the stencil's IR (16 hex digits).
  // Appended for the auto-tuner; older fields keep their places.
  double flopsPerPoint;     ///< Floating-point operations per point (analysis).
  double bytesPerPoint;     ///< Bytes moved per point with perfect reuse (analysis).
  GeneratedQueryFn query;   ///< CUDA: the kernel's resources; OpenMP: null.
  /// -1: the block is (block[0], block[1], block[2]). Otherwise the variant
  /// marches this dimension (dims - 1) and block[2] is the chunk.
  int marchDim;
  // Appended for messages: the generated file that registered the entry
  // (its __FILE__), which tells two translation units apart where a stencil
  // in a header has one source. Null from older generated code.
  const char *unit;
  /// The block (chunk in [2] when marching) stencilc's plan predicts best:
  /// set on the one variant the fixed engine launches without tuning, all
  /// zero on the others (and in code generated before it existed).
  int defaultBlock[3];
};

namespace detail {
inline std::vector<GeneratedStencil> &registry() {
  static std::vector<GeneratedStencil> Entries;
  return Entries;
}
/// Some typeid names start with '*' on GCC (a marker that the name is not
/// merged across files); for messages only. Keys are compared exactly: two
/// functors of one name in anonymous namespaces of two files have the same
/// typeid name, so stencilc rejects functors without external linkage.
inline const char *stripTypeName(const char *Name) { return Name[0] == '*' ? Name + 1 : Name; }

/// True if \p E and \p Like are entries of one stencil on one backend.
inline bool sameStencil(const GeneratedStencil &E, const GeneratedStencil &Like) {
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

/// \p Found, the first entry with its key, unless another entry has that key
/// but other IR: two stencils of one name (e.g. in two translation units)
/// that the key cannot tell apart. Picking either would run the wrong code.
inline const GeneratedStencil *checkUnambiguous(const GeneratedStencil *Found) {
  if (!Found)
    return nullptr;
  for (const GeneratedStencil &E : registry())
    if (sameStencil(E, *Found) && std::strcmp(E.irHash, Found->irHash) != 0)
      throw std::runtime_error(std::string("stencil: two different stencils are registered as ") +
                               Found->name + " (" + backendName(Found->backend) + "), from " +
                               place(*Found) + " and " + place(E) +
                               "; give them different names or namespaces, or make the "
                               "definitions identical (a header compiled with other macros "
                               "in each file)");
  return Found;
}
} // namespace detail

/// Called by generated code during static initialisation. A stencil in a
/// header that two generated files include is registered by both: an entry
/// with the key, backend, variant and IR of one already registered is the
/// same code and is dropped, so the first file's entry is the one engines
/// use. Entries of one key with other IR are kept, and looking the key up
/// reports both places (checkUnambiguous).
inline bool registerGenerated(const GeneratedStencil &Entry) {
  for (const GeneratedStencil &E : detail::registry())
    if (detail::sameStencil(E, Entry) && std::strcmp(E.variant, Entry.variant) == 0 &&
        std::strcmp(E.irHash, Entry.irHash) == 0)
      return true;
  detail::registry().push_back(Entry);
  return true;
}

/// The entry for a functor type, or null. Throws if two different stencils
/// have this key.
inline const GeneratedStencil *findGenerated(Backend B, const std::type_info &Functor) {
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
inline std::vector<const GeneratedStencil *> generatedVariants(const GeneratedStencil &Like) {
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

/// All registered entries, e.g. for a listing.
inline const std::vector<GeneratedStencil> &generatedStencils() { return detail::registry(); }

} // namespace stencil

#endif // STENCIL_GENERATED_HPP
