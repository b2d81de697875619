// stencil/generated_abi.hpp - the interface between generated code and the
// runtime (the ABI), in one place with its version.
//
// Generated code fills a GeneratedStencil per stencil, backend and variant
// and passes it, with the GeneratedAbiVersion it was generated for, to
// stencil::registerGenerated (<stencil/generated.hpp>), which rejects any
// other version. stencilc includes this header and prints the version from
// it, so the emitter and the runtime cannot disagree unnoticed: change
// anything in this file (a field, its order, a launcher or query signature,
// Grid, Region, LaunchConfig) together with the emitter
// (compiler/lib/CodeGen/RegistrationGlue.cpp), and bump the version.
#ifndef STENCIL_GENERATED_ABI_HPP
#define STENCIL_GENERATED_ABI_HPP

#include <typeinfo>

namespace stencil {

/// The version of this interface that generated code is written against.
inline constexpr int GeneratedAbiVersion = 16;

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
/// variants ("zmarch", "zmarch2", "smem", "zsum", "zsum4";
/// GeneratedStencil::marchDim >= 0) read block[2] as the chunk of the marching
/// dimension each thread walks: their thread block is (block[0], block[1], 1)
/// in 3-D and (block[0], 1, 1) in 2-D.
struct LaunchConfig {
  int block[3] = {64, 4, 1};
  void *stream = nullptr; ///< cudaStream_t; null is the default stream.
};

enum class Backend { OpenMP, Cuda };

inline const char *backendName(Backend B) {
  return B == Backend::Cuda ? "cuda" : "openmp";
}

/// Runs a stencil over \p R; \p Args points at each argument after the index,
/// converted to the stencil's parameter types. Returns null or an error text.
using GeneratedLaunchFn = const char *(*)(const Grid &G, const Region &R,
                                          const LaunchConfig &C,
                                          void *const *Args);

/// A CUDA kernel's resources for one block shape, as the tuner prunes by.
struct KernelAttributes {
  int registers = 0;          ///< Per thread (cudaFuncGetAttributes).
  int maxThreadsPerBlock = 0; ///< The most this kernel can launch with.
  long long sharedBytes = 0;  ///< Static plus dynamic shared memory per block.
  /// The threads of a block of a time loop's pass over the tile asked
  /// (GeneratedTemporalQueryFn); 0: one a point of it. (Version 16.)
  int threads = 0;
};

/// Fills \p Out for a (Bx, By) block; returns null or an error text.
using GeneratedQueryFn = const char *(*)(int Bx, int By, KernelAttributes *Out);

/// How far a stencil reads one of its parameters around a point (stencilc's
/// analysis): points per dimension {negative side, positive side}, x first,
/// and the pairs of dimensions some offset is non-zero in together (bit
/// 4a + b for dimensions a < b): those reach the halo's edges and corners
/// between them. All zero for a scalar, an array read only at the centre,
/// or one not read. (Version 14.)
struct GeneratedArrayReads {
  int halo[4][2];
  unsigned diagonalPairs;
};

/// One stencil's code for one backend and variant, as generated code
/// registers it. name and source come first in every version of the ABI:
/// registration reads them to report an entry of another version.
struct GeneratedStencil {
  const char *name;        ///< Qualified name, for messages.
  const char *source;      ///< "file:line" of the stencil.
  const char *typeKey;     ///< Functor: typeid(F).name(); else null.
  const void *functionKey; ///< Free function: its address; else null.
  Backend backend;
  int dims;
  const std::type_info
      *signature; ///< typeid(void(P...)) of the parameters after the index.
  GeneratedLaunchFn launch;
  const char *variant; ///< "grid" (one thread per point), ...
  /// Points needed around each point, per dimension: {negative side, positive
  /// side}, x first (stencilc's analysis). Fields need at least this halo.
  int halo[4][2];
  /// Some array is read at an offset with two or more non-zero components,
  /// e.g. idx.ix<1,1,0>() (stencilc's analysis): the halo's edges and
  /// corners are read, so fields exchange them (Halo::corners).
  bool readsDiagonal;
  const char *irHash;   ///< Fingerprint of the stencil's IR (16 hex digits).
  double flopsPerPoint; ///< Floating-point operations per point (analysis).
  double
      bytesPerPoint; ///< Bytes moved per point with perfect reuse (analysis).
  GeneratedQueryFn query; ///< CUDA: the kernel's resources; OpenMP: null.
  /// -1: the block is (block[0], block[1], block[2]). Otherwise the variant
  /// marches this dimension (dims - 1) and block[2] is the chunk.
  int marchDim;
  /// The generated file that registered the entry (its __FILE__), which
  /// tells two translation units apart where a stencil in a header has one
  /// source.
  const char *unit;
  /// The block (chunk in [2] when marching) stencilc's plan predicts best:
  /// set on the one variant the fixed engine launches without tuning, all
  /// zero on the others.
  int defaultBlock[3];
  /// Per parameter after the index: 0 for a scalar or an array the body
  /// never indexes (any array may be passed); for an array, the
  /// dimensions it spans (bit d: dimension d), all of them (2^dims - 1) but
  /// for an array of lower rank such as a profile along z (0b100), which is
  /// indexed idx.ix_z<...>() and has the full arrays' extent along z. Null
  /// when the stencil has no parameter after the index. (Version 2.)
  const unsigned *arrayAxes;
  /// The dimensions whose coordinate (idx.i(), ...) the stencil uses, bit d
  /// for dimension d (stencilc's analysis): a time loop never recomputes
  /// points across a periodic wrap in them, where the coordinate would be
  /// beyond the edge instead of wrapped. (Version 6.)
  unsigned coordinates;
  /// Per parameter after the index: whether the stencil may store to it
  /// (stencilc's analysis; false for a scalar). A time loop checks its level
  /// marks against it where stencilc could not see the call. Null when the
  /// stencil has no parameter after the index. (Version 11.)
  const bool *writes;
  /// Per parameter after the index: whether the stencil writes the array
  /// and what a launch leaves there depends on what it held before: it is
  /// read (at the centre) or not stored on every path (stencilc's
  /// analysis). A time loop over MPI ranks then exchanges the next level's
  /// halo as deep as the steps between exchanges compute, since step t
  /// reads level t - 2 there. Null when the stencil has no parameter after
  /// the index. (Version 13.)
  const bool *keeps;
  /// Per parameter after the index: how far it is read (a binder checks
  /// that its exchange fills that much of each Field). Null when the
  /// stencil has no parameter after the index. (Version 14.)
  const GeneratedArrayReads *arrayReads;
};

/// Runs \p Steps time steps of a stencil over \p R in one pass (temporal
/// blocking, Version 5): \p Args as GeneratedLaunchFn's, where the array at
/// GeneratedTemporal::timeInput holds time level s inside \p R and the one at
/// timeOutput receives level s + Steps inside \p Store, a box inside \p R
/// (the two arrays never alias; nothing else is written). The levels between
/// stay on chip, computed on the points of \p R that \p Store's values
/// need. Points outside \p R are never computed (the margin): level s + l
/// reads them from \p Margins[l % 2], the array that holds level s + l when
/// the steps run one at a time. A Store smaller than R lets a pass write
/// only some of the points it computes exactly: the interior or a boundary
/// slab of a rank (Version 10). C.block is (bx, by, chunk) in 3-D (a tile
/// of bx * by threads marching chunk planes of z) and (bx, 1, chunk) in 2-D
/// (chunk rows of y). Returns null or an error text.
using GeneratedTemporalFn = const char *(*)(const Grid &G, const Region &R,
                                            const Region &Store,
                                            const LaunchConfig &C, int Steps,
                                            const void *const *Margins,
                                            void *const *Args);

/// A temporal kernel's resources for a tile of (Bx, By) points taking \p Steps
/// steps per pass (the pass summed by planes where it takes a tile of more
/// points than a block has threads); returns null or an error text.
using GeneratedTemporalQueryFn = const char *(*)(int Bx, int By, int Steps,
                                                 KernelAttributes *Out);

/// Whether arrays \p A and \p B of a time pair hold the same bits at every
/// point of the grid outside \p R that one step over R reads (R grown by
/// the reach: the margin), into \p *Same, on \p Stream (waiting for it);
/// returns null or an error text. (Version 12.)
using GeneratedSameMarginsFn = const char *(*)(const Grid &G, const Region &R,
                                               const void *A, const void *B,
                                               void *Stream, bool *Same);

/// One stencil's temporally blocked code (Version 5): several time steps per
/// pass over the grid, where each step reads array timeInput (its previous
/// level) and writes array timeOutput, and the two trade places between
/// steps. Registered beside the stencil's GeneratedStencil entries, with
/// the same key.
struct GeneratedTemporal {
  const char *name;
  const char *source;
  const char *typeKey;
  const void *functionKey;
  Backend backend;
  int dims;
  const std::type_info *signature;
  GeneratedTemporalFn launch;
  GeneratedTemporalQueryFn query;
  /// 0-based among the parameters after the index.
  int timeInput;
  int timeOutput;
  /// How far one step reads timeInput, per dimension {negative, positive}:
  /// a pass of T steps recomputes T times this around each tile.
  int reach[4][2];
  int maxSteps; ///< The most steps one pass takes.
  /// What a pass launches without tuning: steps, and (bx, by, chunk).
  int defaultSteps;
  int defaultBlock[3];
  /// The tiles (bx, by) the tuner tries, the kernel compiled for them with
  /// constant extents (stencilc's TemporalPlan::ConstantTiles, then
  /// PlanesOnlyTiles): the first tileCount of these. (Version 9.)
  int tiles[4][2];
  int tileCount;
  const char *irHash;
  const char *unit;
  /// Set where some pass is faster when both levels' margins are its input
  /// (stencilc's TemporalPlan::summedByPlanes, and its 3-D ring passes that
  /// take each level's margin from the centre below, CentreMarginUpTo): a
  /// time loop whose two arrays hold the same margin then passes the input
  /// as both margins to launch. Null elsewhere. (Version 12.)
  GeneratedSameMarginsFn sameMargins;
};

/// Launches call \p Call of a step alone (its stencil's own code) over \p R;
/// \p Args as the step launcher's. Returns null or an error text.
using GeneratedStepCallFn = const char *(*)(int Call, const Grid &G,
                                            const Region &R,
                                            const LaunchConfig &C,
                                            void *const *Args);

/// Before call `before` of a step, the halo of the step's array `param`
/// (0-based among the parameters after the stencil::Step) must hold what
/// call `after` wrote (-1: what it held when the step began): `before`
/// reads it off the centre (stencilc's dependency graph of the step).
struct GeneratedStepExchange {
  int param;
  int after;
  int before;
  int halo[4][2];
  bool diagonal; ///< Edges and corners are read.
};

/// Launches fused group \p Group of a step (its consumer recomputing its
/// producers) over \p R. \p V is where the producers' values are defined:
/// a point of it is recomputed where the consumer reads it, a point outside
/// is read from memory (the region itself on one domain; over MPI ranks the
/// rank's points and the halo its neighbours fill). (Version 3.)
using GeneratedStepGroupFn = const char *(*)(int Group, const Grid &G,
                                             const Region &R, const Region &V,
                                             const LaunchConfig &C,
                                             void *const *Args);

/// What a round of a step over MPI ranks reads of one array's halo.
struct GeneratedStepHalo {
  int param;      ///< 0-based among the parameters after the stencil::Step.
  int halo[4][2]; ///< How far around a point it is read.
  bool diagonal;  ///< Edges and corners are read.
  /// Written since its halo was last exchanged (or as the step began): the
  /// exchange comes before the round.
  bool exchange;
  /// With exchange: what the exchange fills, the widths this round and the
  /// later ones read before the array is written again, and whether one of
  /// them reads edges and corners (Version 8).
  int sends[4][2];
  bool sendsDiagonal;
};

/// One group of stencilc's plan of a step as the distributed runtime runs
/// it, in order: the halos it reads, then one call alone or one fused group
/// (which reads its producers' inputs further out than any one call).
/// (Version 3; 4 added the alternative, 7 the producers.)
struct GeneratedStepRound {
  int call;        ///< A call alone (launchCall), or -1.
  int group;       ///< A fused group (launchGroup), or -1.
  int reads[4][2]; ///< The union of the halos: what splits the overlap.
  const GeneratedStepHalo *halos;
  int haloCount;
  /// "Update" (a call alone) or "recompute(Flux, Update)", for timings.
  const char *label;
  /// A fused group's calls, producers then consumer, and the arrays its
  /// consumer recomputes (parameters as above): what runs it call by call.
  const int *calls;
  int callCount;
  const int *recomputed;
  int recomputedCount;
  /// A fused group: the dimensions whose coordinate a producer uses (bit d).
  /// Recomputed across a periodic wrap it would see the coordinate
  /// unwrapped: the runtime runs it call by call where one is periodic.
  unsigned coordinates;
  /// A fused group compiled by another strategy too (Version 4): the group
  /// launchGroup runs it as, and its label ("staged(Flux, Update)"), for a
  /// measured choice; -1 and null when there is none.
  int alternative;
  const char *alternativeLabel;
  /// How many of calls are producers (Version 7): run call by call, they
  /// come first, then the exchange of the recomputed arrays, then the rest
  /// (the consumers of a group's fused parts, and stencils run together).
  int producers;
};

/// A step function's code for one backend (stencilc's plan of its stencils,
/// STENCIL_STEP): one launcher runs the whole step over a region. (Version 2.)
struct GeneratedStep {
  const char *name;        ///< Qualified name, for messages.
  const char *source;      ///< "file:line" of the step.
  const void *functionKey; ///< The step function's address.
  Backend backend;
  int dims;
  /// typeid(void(P...)) of the parameters after the stencil::Step.
  const std::type_info *signature;
  GeneratedLaunchFn launch; ///< Args: each parameter after the Step.
  /// The union of its stencils' halos: the margin every launch needs.
  int halo[4][2];
  /// How its stencils run, e.g. "recompute(Flux, Update)" (for messages
  /// and timings).
  const char *plan;
  const char *unit; ///< The generated file (its __FILE__).
  /// The distributed runtime can run a step call by call, exchanging halos
  /// between them (when the fields' halos are too thin for the plan's
  /// rounds): each call alone, each call's halo, and the exchanges.
  GeneratedStepCallFn launchCall;
  int callCount;
  const int (*callHalos)[4][2];
  const GeneratedStepExchange *exchanges;
  int exchangeCount;
  /// The plan's groups over MPI ranks (Version 3): the rounds, in order,
  /// and the launcher of a fused group.
  GeneratedStepGroupFn launchGroup;
  const GeneratedStepRound *rounds;
  int roundCount;
  const char *const *callNames; ///< Each call's stencil, for timings.
  /// A fingerprint of the step's stencils, calls and plan (Version 4): a
  /// measured choice kept in the tuning cache is stale when it changes.
  const char *irHash;
  /// Per parameter after the Step: the dimensions its calls use the array
  /// over (bit d: dimension d; all of them, 2^dims - 1, but for an array of
  /// lower rank), 0 for a scalar or an array no call uses. Null when the
  /// step has no parameter after the Step. (Version 14.)
  const unsigned *arrayAxes;
  /// Per parameter after the Step: whether one of its calls writes the
  /// array (the runtime then takes its halo as older than its values).
  /// Null when the step has no parameter after the Step. (Version 15.)
  const bool *writes;
};
} // namespace stencil

#endif // STENCIL_GENERATED_ABI_HPP
