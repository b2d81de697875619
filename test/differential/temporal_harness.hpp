// temporal_harness.hpp - what every program of gen_temporal.py runs per
// stencil: stencilc's CUDA passes of several time steps (temporal blocking)
// on the CPU, one fiber per CUDA thread (../e2e/common/cuda_on_cpu.hpp's
// launchTogether), against the host reference's steps one by one, bit for bit.
//
// The program includes, after its stencils, the extracted kernels and their
// launchers (gen_temporal.py: `K<<<grid, block, shared, stream>>>(args)` made
// tdiff::launch) and the table of pass entries (tdiff::entries(): each
// registration's launcher, levels, reach, most steps and tiles, and what the
// plan says of the passes summed by planes). As in
// ../e2e/temporal/cpu_threads.cpp, one pass from A into B, B poisoned inside
// the region, A poisoned outside it as the input and inside it as level 0's
// margin, must equal the steps one by one inside its store box (the region or
// a random box of it) and leave every other point as it was. Here the pass is
// launched through the generated launcher, as the runtime launches it: the
// launcher picks the instance (a tile with constant extents, the margin from
// the centre below where both margins are one array, a pass summed by planes
// where both are the input, shrinking or bordered tiles); each run says which
// it took. The arrays end where an unreadable page begins.
//
// Per entry: margins Own (each level's from the array that holds it one step
// at a time), Centre (both one array, the input's margin: the rings' centre
// margin) and Same (both the input itself: summed by planes); steps from 1 (2
// summed by planes) to the most a tile of at most 1024 threads leaves points
// in; the plan's tiles with constant extents and random ones; random chunks,
// extents, margins and store boxes; inputs uniform in [1, 2), hostile values
// or tiny ones (e2e::Input) for floats, within 10^6 for integers.
//
//   prog [--seed=N] [--verbose]
#ifndef STENCIL_TEMPORAL_HARNESS_HPP
#define STENCIL_TEMPORAL_HARNESS_HPP

#include <stencil/dsl.hpp>

#include "cuda_on_cpu.hpp"     // test/e2e/common
#include "hostile_values.hpp"  // test/e2e/common
#include "store_box.hpp"       // test/e2e/common

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

// What the launchers ask of the CUDA runtime: an H200's shared memory.
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize };
enum cudaDeviceAttr { cudaDevAttrMaxSharedMemoryPerBlockOptin };
template <typename F> cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) {
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int *D) {
  *D = 0;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int *V, cudaDeviceAttr, int) {
  *V = 232448;
  return cudaSuccess;
}
using std::max;
using std::min;

namespace tdiff {

/// A pass entry: its registration's fields, and from the plan the points a
/// thread of its passes summed by planes (0: none), their most steps, the
/// tile (points) compiled with constant extents, the most steps of the
/// rings' centre margin and the pass kinds the plan names.
struct Entry {
  const char *name;
  stencil::GeneratedTemporalFn launch;
  int dims, timeInput, timeOutput;
  int reach[4][2];
  int maxSteps;
  int tiles[4][2];
  int tileCount;
  int points, planesMost;
  int planesTile[2];
  int centreUpTo;
  const char *kinds;
};
/// Defined by the extracted kernels (gen_temporal.py).
const Entry *entries(int &Count);

/// An array argument of checkStencil (its values random).
struct Array {};

struct Totals {
  int Checks = 0, Failures = 0, Skipped = 0;
  std::set<std::string> Kinds;
  unsigned Seed = 1;
  bool Verbose = false;
  std::string Launched; ///< The last launch's launcher.
  bool Bordered = false;
};
inline Totals &totals() {
  static Totals T;
  return T;
}

inline void parseOptions(int Argc, char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    if (std::strncmp(Argv[I], "--seed=", 7) == 0)
      totals().Seed = static_cast<unsigned>(std::strtoul(Argv[I] + 7, nullptr, 10));
    else if (std::strcmp(Argv[I], "--verbose") == 0)
      totals().Verbose = true;
  }
}

/// A launch of a generated launcher (its `<<<...>>>`).
template <typename F>
void launch(const char *Launcher, const dim3 &Grid, const dim3 &Block,
            unsigned long long Shared, F &&Body) {
  totals().Launched = Launcher;
  cuda_on_cpu::launchTogether(Grid, Block, std::function<void()>(Body),
                              static_cast<size_t>(Shared));
}
inline void noteBordered(bool B) { totals().Bordered = B; }

/// An array whose last element ends where an unreadable page begins.
template <typename T> class Guarded {
public:
  explicit Guarded(long long N) : N(N) {
    const std::size_t Page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t Bytes = static_cast<std::size_t>(N) * sizeof(T);
    Pages = (Bytes + Page - 1) / Page * Page;
    Size = Pages + Page;
    Base = static_cast<unsigned char *>(
        mmap(nullptr, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (Base == MAP_FAILED || mprotect(Base + Pages, Page, PROT_NONE) != 0) {
      std::perror("temporal_harness: guarded array");
      std::exit(2);
    }
    Data = reinterpret_cast<T *>(Base + Pages - Bytes);
  }
  Guarded(const Guarded &) = delete;
  Guarded &operator=(const Guarded &) = delete;
  ~Guarded() { munmap(Base, Size); }
  T *data() const { return Data; }
  T &operator[](long long I) const { return Data[I]; }
  void assign(const std::vector<T> &V) { std::memcpy(Data, V.data(), N * sizeof(T)); }

private:
  long long N;
  unsigned char *Base = nullptr;
  std::size_t Pages = 0, Size = 0;
  T *Data = nullptr;
};

/// How a pass takes each level's margin (see the top of the file).
enum class Margins { Own, Centre, Same };
inline const char *marginsName(Margins M) {
  return M == Margins::Own ? "own margins" : M == Margins::Centre ? "one margin array" : "margins the input";
}
inline const char *inputName(e2e::Input I) {
  return I == e2e::Input::Hostile ? "hostile" : I == e2e::Input::Tiny ? "tiny" : "uniform";
}

/// One configuration of a pass.
struct Config {
  int Steps, Bx, By;
  long long Chunk;
  Margins How;
  e2e::Input Kind;
  bool Fixed; ///< A tile the plan compiled with constant extents.
  /// 2-D: 160 x 100 points; 3-D: three tiles' stored points across and 64
  /// planes: blocks off the margin, the steady part (see checkStencilAs).
  bool Wide = false;
};

template <typename T> T value(std::mt19937 &Rng, e2e::Input Kind) {
  if constexpr (std::is_integral_v<T>)
    return T(static_cast<long long>(Rng() % 2000001) - 1000000);
  else
    return e2e::inputValue<T>(Kind, Rng, [&] {
      return T(std::uniform_real_distribution<double>(1, 2)(Rng));
    });
}

/// Sets argument \p I of \p V to \p P where it is argument \p Which.
template <std::size_t I, typename Tuple, typename Ptr>
void setArg(Tuple &V, int Which, Ptr P) {
  using A = std::tuple_element_t<I, Tuple>;
  if constexpr (std::is_convertible_v<Ptr, A> && std::is_pointer_v<A>)
    if (static_cast<int>(I) == Which)
      std::get<I>(V) = P;
}

/// One pass of \p C over a grid of \p Ext points (margins \p Lo, \p Hi)
/// against C.Steps host steps of \p S with arguments \p Values (the levels'
/// set here); counts and prints.
template <int Dims, typename T, typename StencilT, typename Tuple, std::size_t... I>
void checkPass(const Entry &E, const StencilT &S, Tuple Values, std::index_sequence<I...>,
               const long long (&Ext)[3], const int (&Lo)[3], const int (&Hi)[3],
               const Config &C, std::mt19937 &Rng) {
  Totals &Tot = totals();
  long long N = 1;
  for (int D = 0; D < Dims; ++D)
    N *= Ext[D];
  stencil::Grid G;
  G.dims = Dims;
  stencil::Region R;
  for (int D = 0; D < Dims; ++D) {
    G.extent[D] = Ext[D];
    R.lo[D] = Lo[D];
    R.hi[D] = Ext[D] - Hi[D];
  }
  const stencil::Region Store = e2e::storeBox(R, Dims, Rng);
  auto In = [&](long long P, const stencil::Region &Box) {
    return e2e::inBox(P, Ext, Dims, Box);
  };
  std::vector<T> A(N), B(N);
  for (T &V : A)
    V = value<T>(Rng, C.Kind);
  for (T &V : B) // another margin: each level takes the right one
    V = T(value<T>(Rng, e2e::Input::Uniform) + T(3));
  if (C.How != Margins::Own)
    for (long long P = 0; P < N; ++P)
      if (!In(P, R))
        B[P] = A[P];
  // The host: the steps one by one.
  std::vector<T> HA = A, HB = B;
  T *P = HA.data(), *Q = HB.data();
  for (int Step = 0; Step < C.Steps; ++Step) {
    Tuple V = Values;
    (setArg<I>(V, E.timeInput, P), ...);
    (setArg<I>(V, E.timeOutput, Q), ...);
    if constexpr (Dims == 2) {
      stencil::Loop2D<stencil::HostLoopEngine2D> L(Ext[0], Lo[0], Hi[0], Ext[1], Lo[1], Hi[1]);
      L.run(S, std::get<I>(V)...);
    } else {
      stencil::Loop3D<stencil::HostLoopEngine3D> L(Ext[0], Lo[0], Hi[0], Ext[1], Lo[1], Hi[1],
                                                   Ext[2], Lo[2], Hi[2]);
      L.run(S, std::get<I>(V)...);
    }
    std::swap(P, Q);
  }
  // The pass: into B, its region poisoned; the input inside the region,
  // level 0's margin outside it, each poisoned where the pass must take the
  // other.
  Guarded<T> Out(N), InOnly(N), MarginOnly(N), Full(N), Other(N);
  std::vector<T> Before = B;
  for (long long X = 0; X < N; ++X) {
    const bool Inside = In(X, R);
    if (Inside)
      Before[X] = e2e::poison<T>();
    InOnly[X] = Inside ? A[X] : e2e::poison<T>();
    MarginOnly[X] = Inside ? e2e::poison<T>() : A[X];
  }
  Out.assign(Before);
  Full.assign(A);
  Other.assign(B);
  const void *Margin[2] = {MarginOnly.data(), Other.data()};
  const T *Input = InOnly.data();
  if (C.How == Margins::Centre)
    Margin[1] = MarginOnly.data();
  if (C.How == Margins::Same)
    Margin[0] = Margin[1] = Input = Full.data();
  Tuple V = Values;
  (setArg<I>(V, E.timeInput, Input), ...);
  (setArg<I>(V, E.timeOutput, Out.data()), ...);
  void *Args[] = {static_cast<void *>(&std::get<I>(V))..., nullptr};
  stencil::LaunchConfig Launch;
  Launch.block[0] = C.Bx;
  Launch.block[1] = C.By;
  Launch.block[2] = static_cast<int>(C.Chunk);
  cuda_on_cpu::ReverseBlocks = Rng() % 2;
  Tot.Launched.clear();
  Tot.Bordered = false;
  const char *Error = E.launch(G, R, Store, Launch, C.Steps, Margin, Args);
  char Where[512];
  std::snprintf(Where, sizeof Where,
                "%s (param %d -> %d): %d steps, tile %d x %d, chunk %lld, %s, %s input, extents "
                "%lld x %lld x %lld, margins x %d/%d y %d/%d z %d/%d, store [%lld, %lld) x [%lld, "
                "%lld) x [%lld, %lld), run by %s%s",
                E.name, E.timeInput, E.timeOutput, C.Steps, C.Bx, C.By, C.Chunk,
                marginsName(C.How), inputName(C.Kind), Ext[0], Ext[1], Dims == 3 ? Ext[2] : 1,
                Lo[0], Hi[0], Lo[1], Hi[1], Lo[2], Hi[2], Store.lo[0], Store.hi[0], Store.lo[1],
                Store.hi[1], Store.lo[2], Store.hi[2],
                Tot.Launched.empty() ? "(nothing)" : Tot.Launched.c_str(),
                Tot.Bordered ? " (bordered)" : "");
  if (Error && std::strstr(Error, "shared memory")) {
    ++Tot.Skipped; // an H200 could not launch it either
    return;
  }
  ++Tot.Checks;
  if (Error || Tot.Launched.empty()) {
    ++Tot.Failures;
    std::printf("FAIL %s: %s\n", Where, Error ? Error : "the launcher launched nothing");
    return;
  }
  // Which pass ran.
  const std::string Kinds = E.kinds;
  const bool Planes = Tot.Launched.find("_planes_launch") != std::string::npos;
  if (Planes) {
    Tot.Kinds.insert("summed by planes");
    Tot.Kinds.insert(Tot.Bordered ? "bordered tiles" : "shrinking tiles");
    for (const char *K : {"held terms", "2 points a thread"})
      if (Kinds.find(K) != std::string::npos)
        Tot.Kinds.insert(K);
    if (E.planesTile[0] == C.Bx && E.planesTile[1] == C.By)
      Tot.Kinds.insert("constant-extent tiles");
  } else {
    Tot.Kinds.insert(Kinds.find("a barrier a level") != std::string::npos ? "a barrier a level"
                                                                         : "rings");
    if (C.Fixed)
      Tot.Kinds.insert("constant-extent tiles");
    if (C.Fixed && C.How != Margins::Own && C.Steps <= E.centreUpTo)
      Tot.Kinds.insert("margin from the centre");
  }
  if (Kinds.find("divisions as products") != std::string::npos)
    Tot.Kinds.insert("divisions as products");
  long long Bad = 0;
  for (long long X = 0; X < N; ++X) {
    const bool Stored = In(X, Store);
    const bool Ok = Stored ? e2e::sameAsHost(Out[X], P[X])
                           : std::memcmp(&Out[X], &Before[X], sizeof(T)) == 0;
    if (!Ok && Bad++ == 0) {
      std::printf("  point (%lld, %lld, %lld) (%s): pass %.9g, %s %.9g\n", X % Ext[0],
                  X / Ext[0] % Ext[1], Dims == 3 ? X / Ext[0] / Ext[1] : 0,
                  Stored ? "stored" : "not stored", double(Out[X]), Stored ? "host" : "before",
                  double(Stored ? P[X] : Before[X]));
    }
  }
  if (Bad) {
    ++Tot.Failures;
    std::printf("FAIL %s: %lld points differ\n", Where, Bad);
  } else if (Tot.Verbose) {
    std::printf("ok %s\n", Where);
  }
}

/// checkPass for the time levels' element type (the next level's).
template <int Dims, typename StencilT, typename Tuple, std::size_t... I>
void dispatch(const Entry &E, const StencilT &S, Tuple &Values, std::index_sequence<I...> Is,
              const long long (&Ext)[3], const int (&Lo)[3], const int (&Hi)[3], const Config &C,
              std::mt19937 &Rng) {
  bool Done = false;
  auto Try = [&](auto Index) {
    constexpr std::size_t J = decltype(Index)::value;
    using A = std::tuple_element_t<J, Tuple>;
    if constexpr (std::is_pointer_v<A> && !std::is_const_v<std::remove_pointer_t<A>>)
      if (!Done && static_cast<int>(J) == E.timeOutput) {
        Done = true;
        checkPass<Dims, std::remove_pointer_t<A>>(E, S, Values, Is, Ext, Lo, Hi, C, Rng);
      }
  };
  (Try(std::integral_constant<std::size_t, I>()), ...);
}

template <typename A, typename SpecT, typename Store>
A argument(SpecT Spec, Store &Arrays, long long N, std::mt19937 &Rng) {
  if constexpr (std::is_same_v<SpecT, Array>) {
    using T = std::remove_cv_t<std::remove_pointer_t<A>>;
    Arrays.emplace_back(N * sizeof(T));
    T *Data = reinterpret_cast<T *>(Arrays.back().data());
    for (long long I = 0; I < N; ++I) // coefficients: ordinary values
      Data[I] = value<T>(Rng, e2e::Input::Uniform);
    return Data;
  } else {
    return static_cast<A>(Spec);
  }
}

template <int Dims, typename StencilT, typename... P, std::size_t... I, typename... Spec>
void checkStencilAs(const char *Name, const StencilT &S, stencil::detail::ParamList<P...>,
                    std::index_sequence<I...> Is, Spec... Specs) {
  static_assert(sizeof...(P) == sizeof...(Spec), "an argument per parameter");
  Totals &Tot = totals();
  int Count = 0;
  const Entry *Table = entries(Count);
  std::mt19937 Rng(Tot.Seed * 7919u + static_cast<unsigned>(std::hash<std::string>()(Name)));
  auto Pick = [&](long long A, long long B) {
    return std::uniform_int_distribution<long long>(A, B)(Rng);
  };
  int Found = 0;
  // Margins as wide as every entry's reach (each array's: coefficients
  // read off the centre by 1 at most).
  int Reach[3][2] = {{1, 1}, {1, 1}, {1, 1}};
  for (int K = 0; K < Count; ++K)
    if (std::strcmp(Table[K].name, Name) == 0)
      for (int D = 0; D < Dims; ++D)
        for (int Side = 0; Side < 2; ++Side)
          Reach[D][Side] = std::max(Reach[D][Side], Table[K].reach[D][Side]);
  for (int K = 0; K < Count; ++K) {
    const Entry &E = Table[K];
    if (std::strcmp(E.name, Name) != 0)
      continue;
    ++Found;
    const int Rx = E.reach[0][0] + E.reach[0][1];
    const int Ry = Dims == 3 ? E.reach[1][0] + E.reach[1][1] : 0;
    // The most steps a tile of at most 1024 threads leaves points in.
    int Most = 0;
    for (int St = 1; St <= E.maxSteps; ++St)
      if ((St * Rx + 1) * (Dims == 3 ? St * Ry + 1 : 1) <= 1024)
        Most = St;
    std::vector<Config> Configs;
    auto Add = [&](int Steps, Margins How) {
      const bool Float = E.kinds && std::strstr(E.kinds, "divisions as products");
      // The inputs: mostly ordinary; hostile and tiny values now and then.
      e2e::Input Kind = e2e::Input::Uniform;
      const int Roll = static_cast<int>(Pick(0, 9));
      if (Roll < 2)
        Kind = e2e::Input::Hostile;
      else if (Roll < (Float ? 5 : 3))
        Kind = e2e::Input::Tiny;
      // A tile the plan compiled with constant extents where it leaves points,
      // and a random one.
      for (int Fixed = 0; Fixed < 2; ++Fixed) {
        Config C{Steps, 0, 1, Pick(0, 3) == 0 ? Pick(1, 3) : Pick(4, 40), How, Kind, Fixed == 1};
        if (Fixed) {
          std::vector<int> Fit;
          for (int T = 0; T < E.tileCount; ++T)
            if (E.tiles[T][0] > Steps * Rx && (Dims == 2 || E.tiles[T][1] > Steps * Ry))
              Fit.push_back(T);
          if (Fit.empty())
            continue;
          const int T = Fit[Pick(0, Fit.size() - 1)];
          C.Bx = E.tiles[T][0];
          C.By = Dims == 3 ? E.tiles[T][1] : 1;
        } else {
          for (int Try = 0; Try < 100; ++Try) {
            C.Bx = static_cast<int>(Steps * Rx + Pick(1, Dims == 3 ? 10 : 60));
            C.By = Dims == 3 ? static_cast<int>(Steps * Ry + Pick(1, 10)) : 1;
            if (C.Bx * C.By <= 1024)
              break;
          }
          if (C.Bx * C.By > 1024)
            continue;
        }
        Configs.push_back(C);
      }
    };
    // Rings (or a barrier a level): 1 step, the most, one between; margins
    // from memory and from one array.
    std::set<int> Steps = {1, Most};
    if (Most > 2)
      Steps.insert(static_cast<int>(Pick(2, Most - 1)));
    if (E.centreUpTo > 0 && Most >= 2)
      Steps.insert(static_cast<int>(Pick(2, std::min(Most, E.centreUpTo))));
    for (int St : Steps) {
      Add(St, Pick(0, 1) ? Margins::Own : Margins::Centre);
      if (E.centreUpTo >= St || Pick(0, 2) == 0)
        Add(St, Margins::Centre);
    }
    // Summed by planes: the input as both margins, 2 to the most steps, the
    // plan's tile with constant extents (points) and random ones that the
    // launcher may take (else it runs the rings).
    for (int St = 2; E.points && St <= E.planesMost; ++St) {
      const int Px = E.reach[0][0] + E.reach[0][1], Py = E.reach[1][0] + E.reach[1][1];
      std::vector<std::pair<int, int>> Tiles;
      for (int X = 1; X <= 48; ++X)
        for (int Y = E.points; Y <= 48; Y += E.points) {
          const long long Th = 1LL * X * Y / E.points, Ex = St - 1;
          const bool Shrinking = X > Ex * Px && Y > Ex * Py && (Y + Py) * (X + Px) <= 6 * Th;
          long long Widest = 0;
          for (long long L = 1; L < St; ++L) {
            const long long Dd = St - L;
            Widest = std::max(Widest, Dd * Py * (X + Dd * Px) + Dd * Px * Y);
          }
          const bool Bordered = Widest <= 2 * Th && (Y + St * Py) * ((X + St * Px) | 1) <= 6 * Th;
          // The launcher tries the planes before it checks the tile against
          // the rings' reach (steps times the reach): a tile only the planes
          // take (steps - 1 times) runs too.
          if (Th <= 512 && (Shrinking || Bordered))
            Tiles.push_back({X, Y});
        }
      for (int Round = 0; Round < 3; ++Round) {
        Config C{St, E.planesTile[0], E.planesTile[1], Pick(0, 3) == 0 ? Pick(1, 3) : Pick(4, 40),
                 Margins::Same, Pick(0, 4) == 0 ? e2e::Input::Hostile : e2e::Input::Uniform,
                 false};
        // (The plan's tile too, where the planes' border leaves it points:
        // at 4 steps of a reach of 4 in y, beyond the rings' reach.)
        if (Round > 0 || C.Bx == 0 || C.Bx <= (St - 1) * Px ||
            C.By <= (St - 1) * Py) {
          if (Tiles.empty())
            continue;
          const auto T = Tiles[Pick(0, Tiles.size() - 1)];
          C.Bx = T.first;
          C.By = T.second;
        }
        Configs.push_back(C);
      }
    }
    // Both margins the input for a ring pass too.
    Add(static_cast<int>(Pick(1, Most)), Margins::Same);
    // 2-D: rows of 160 and tiles of about 40, chunks of 32: most blocks hold
    // no point of the margin, middle chunks no row of it (the copies with no
    // test a level), which the small extents above seldom have.
    // 3-D: three tiles' stored points across, 64 planes in chunks of 48: the
    // middle block's tile off the margin, and the steady part of its chunks
    // (away from a chunk's ends; the small extents above seldom reach it),
    // on a tile with constant extents (the margin from the centre below, in
    // the passes that have it) and a random one.
    if (Dims == 3 && Most >= 2)
      for (int Fixed = 0; Fixed < 2; ++Fixed) {
        const int St = static_cast<int>(Pick(2, std::min(Most, 4)));
        Config C{St, 0, 0, 48, Fixed || Pick(0, 1) ? Margins::Centre : Margins::Own,
                 Pick(0, 2) == 0 ? e2e::Input::Hostile : e2e::Input::Uniform, Fixed == 1, true};
        for (int T = 0; Fixed && T < E.tileCount && !C.Bx; ++T)
          if (E.tiles[T][0] > St * Rx && E.tiles[T][1] > St * Ry)
            C.Bx = E.tiles[T][0], C.By = E.tiles[T][1];
        if (!Fixed) {
          C.Bx = static_cast<int>(St * Rx + Pick(1, 6));
          C.By = static_cast<int>(St * Ry + Pick(1, 6));
        }
        if (C.Bx && C.Bx * C.By <= 1024)
          Configs.push_back(C);
      }
    // Ordinary inputs (products taken alone) and hostile or tiny ones (a
    // plane's products checked, the divisions taken again).
    for (int Kind = 0; Dims == 2 && Most > 0 && Kind < 2; ++Kind) {
      const int St = static_cast<int>(Pick(1, Most));
      const bool Fit = 40 > St * Rx;
      Configs.push_back({St, Fit ? 40 : St * Rx + 20, 1, 32, Pick(0, 1) ? Margins::Own : Margins::Centre,
                         Kind == 0 ? e2e::Input::Uniform
                         : Pick(0, 1) ? e2e::Input::Tiny : e2e::Input::Hostile,
                         false, true});
    }
    if (Most == 0) {
      ++Tot.Failures;
      std::printf("FAIL %s: no tile of at most 1024 threads leaves points at 1 step\n", Name);
      continue;
    }
    for (const Config &C : Configs) {
      // Extents: one to three tiles' useful points across, margins as wide
      // as the reach or one more.
      const int Lost = C.How == Margins::Same && E.points ? 0 : C.Steps;
      const long long Ux = std::max<long long>(1, C.Bx - Lost * Rx);
      const long long Uy = std::max<long long>(1, C.By - Lost * Ry);
      int Lo[3] = {0, 0, 0}, Hi[3] = {0, 0, 0};
      long long Ext[3] = {1, 1, 1};
      for (int D = 0; D < Dims; ++D) {
        Lo[D] = Reach[D][0] + static_cast<int>(Pick(0, 3) == 0);
        Hi[D] = Reach[D][1] + static_cast<int>(Pick(0, 3) == 0);
        const long long Across = D == 0 ? Ux : D == 1 && Dims == 3 ? Uy : 0;
        long long Inner = Across ? Pick(1, std::min<long long>(3 * Across, 70)) : Pick(1, Dims == 3 ? 30 : 60);
        if (C.Wide)
          Inner = Dims == 2 ? (D == 0 ? 160 : 100) : D < 2 ? 3 * (D == 0 ? Ux : Uy) : 64;
        Ext[D] = Inner + Lo[D] + Hi[D];
      }
      long long N = 1;
      for (int D = 0; D < Dims; ++D)
        N *= Ext[D];
      std::vector<std::vector<unsigned char>> Arrays;
      Arrays.reserve(sizeof...(P));
      std::tuple<P...> Values{argument<P>(Specs, Arrays, N, Rng)...};
      dispatch<Dims>(E, S, Values, Is, Ext, Lo, Hi, C, Rng);
    }
  }
  if (!Found) {
    ++Tot.Failures;
    std::printf("FAIL %s: no pass entry extracted\n", Name);
  }
}

/// The passes of stencil \p Name (every entry the table has of it) with
/// arguments \p Spec (Array() for an array, else the scalar's value).
template <int Dims, typename StencilT, typename... Spec>
void checkStencil(const char *Name, const StencilT &S, Spec... Specs) {
  using Params = typename stencil::detail::StencilTraits<StencilT>::Params;
  checkStencilAs<Dims>(Name, S, Params(), std::index_sequence_for<Spec...>(), Specs...);
}

/// Prints the totals and the kinds run; the exit status.
inline int summary(unsigned Seed) {
  Totals &T = totals();
  std::string Kinds;
  for (const std::string &K : T.Kinds)
    Kinds += (Kinds.empty() ? "" : ", ") + K;
  std::printf("kinds run: %s\n", Kinds.c_str());
  std::printf("temporal: seed %u: %d passes checked, %d failed, %d skipped (shared memory)\n",
              Seed, T.Checks, T.Failures, T.Skipped);
  if (T.Checks == 0) {
    std::printf("FAIL: no pass checked\n");
    return 1;
  }
  return T.Failures ? 1 : 0;
}

} // namespace tdiff

#endif // STENCIL_TEMPORAL_HARNESS_HPP
