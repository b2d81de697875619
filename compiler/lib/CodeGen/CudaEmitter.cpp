//===- CudaEmitter.cpp - The CUDA backend ---------------------------------===//
///
/// \file
/// Per stencil and planned variant: a kernel, a host launcher with the
/// runtime's GeneratedLaunchFn signature that unpacks the arguments and
/// launches it on cfg.stream, and a registration.
///
/// "grid": one thread per point of the region box (x on blockIdx.x, y on
/// blockIdx.y, z on blockIdx.z; for 4-D, z and w share blockIdx.z).
///
/// "zmarch" and "smem" (2-D and 3-D): threads cover the plane below the
/// marching dimension M (z in 3-D, y in 2-D; the block is (bx, by) in 3-D and
/// (bx, 1) in 2-D) and each marches cfg.block[2] points along M. Arrays read
/// at column offsets (0, 0, dz) keep them in a queue of registers that
/// shifts by one each step, so each value is loaded once per point. "smem"
/// also stages each plane of the arrays read at in-plane neighbours, with
/// its halo, in a shared-memory tile between two barriers per step. "zmarch2"
/// is "zmarch" with two points per thread. Other loads are plain: a read-only
/// array is a const __restrict__ parameter, which nvcc already loads through
/// the read-only data path (ld.global.nc), and plain loads, unlike __ldg (an
/// asm volatile statement), may be scheduled early and merged. Block shape
/// and chunk are launch parameters: one kernel serves every candidate, and a
/// query function reports its registers and shared memory to the tuner.
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/BodyPrinter.h"
#include "stencilc/CodeGen/CodeWriter.h"
#include "stencilc/CodeGen/Emitter.h"
#include "stencilc/CodeGen/RegistrationGlue.h"
#include <algorithm>
#include <cassert>

using namespace stencilc;
using namespace stencilc::codegen;

namespace {

class DeviceHooks : public BodyPrinterHooks {
public:
  std::string mathCallee(ir::MathFunc F, ir::Type Ty) const override {
    if (F == ir::MathFunc::Abs && Ty.isInteger())
      return Ty.bytes() == 8 ? "llabs" : "abs";
    std::string Name = F == ir::MathFunc::Abs ? "fabs" : ir::mathFuncName(F);
    // CUDA's float functions carry the C suffix: sqrtf computes in float.
    if (Ty.kind() == ir::ScalarKind::Float32)
      Name += 'f';
    return Name;
  }
  std::string_view loopPragma() const override { return "#pragma unroll"; }
};

class CudaEmitter : public Emitter {
public:
  std::string emit(const planning::ModulePlan &Plan) const override;
  const char *fileSuffix() const override { return ".stencil.cu"; }

private:
  void emitGridKernel(CodeWriter &W, const ir::Stencil &S,
                      const std::string &Symbol) const;
  void emitGridLauncher(CodeWriter &W, const ir::Stencil &S,
                        const std::string &Symbol) const;
  void emitTileHelpers(CodeWriter &W, const planning::StencilPlan &SP,
                       const std::string &Symbol) const;
  void emitMarchKernel(CodeWriter &W, const planning::StencilPlan &SP,
                       planning::VariantKind V,
                       const std::string &Symbol) const;
  void emitMarchLauncher(CodeWriter &W, const planning::StencilPlan &SP,
                         planning::VariantKind V,
                         const std::string &Symbol) const;
  void emitQuery(CodeWriter &W, const planning::StencilPlan &SP,
                 planning::VariantKind V, const std::string &Symbol) const;
};

/// Loads of a marching variant: queue registers, tile elements, memory.
class MarchHooks : public DeviceHooks {
public:
  /// \p Points per thread; with several, adjacent along y in 3-D when
  /// \p Adjacent, and their queue registers are arrays indexed by
  /// stencilc_p.
  MarchHooks(const planning::MarchPlan &P, bool Tile, unsigned Points,
             bool Adjacent)
      : P(P), Tile(Tile), Points(Points), Adjacent(Adjacent) {}
  std::string printLoad(unsigned Param, const ir::Offset &Off,
                        const std::string &Memory) const override;

private:
  std::string printSiblingLoad(unsigned Param,
                               const planning::ArrayAccessPlan &A,
                               const ir::Offset &Off,
                               const std::string &Memory) const;

  const planning::MarchPlan &P;
  bool Tile;
  unsigned Points;
  bool Adjacent;
};

} // namespace

static const char *const Positions[] = {"i", "j", "k", "w"};
static const char *const Axes[] = {"x", "y", "z"};

static std::string gridKernelName(const std::string &Symbol) {
  return "stencilc_" + Symbol + "_grid";
}

static std::string kernelName(const std::string &Symbol,
                              planning::VariantKind V) {
  return "stencilc_" + Symbol + "_" + planning::variantName(V);
}

/// The launcher's name; the grid variant keeps the foundation's name.
static std::string launcherName(const std::string &Symbol,
                                planning::VariantKind V) {
  if (V == planning::VariantKind::Grid)
    return "stencilc_" + Symbol + "_cuda_launch";
  return kernelName(Symbol, V) + "_cuda_launch";
}

/// The element type of an array parameter: "const float *" -> "float".
static std::string elementType(const ir::Param &P) {
  std::string Ty = argumentValueType(P);
  while (!Ty.empty() && (Ty.back() == '*' || Ty.back() == ' '))
    Ty.pop_back();
  if (Ty.rfind("const ", 0) == 0)
    Ty = Ty.substr(6);
  return Ty;
}

/// The tile element at in-plane offset \p Off from this thread's.
static std::string tileIndex(const ir::Offset &Off, unsigned M) {
  // Magnitudes in 64 bits: -INT_MIN does not fit an int.
  auto Magnitude = [](int O) { return O < 0 ? -(long long)O : (long long)O; };
  std::string Index = "stencilc_tc";
  if (Off[0])
    Index += fmt::format(" {} {}", Off[0] < 0 ? '-' : '+', Magnitude(Off[0]));
  if (M == 2 && Off[1])
    Index += fmt::format(" {} {} * stencilc_pitch", Off[1] < 0 ? '-' : '+',
                         Magnitude(Off[1]));
  return Index;
}

/// The register of queue \p Q of array \p Param that holds march offset
/// \p Dz: "stencilc_q3_1" for the centre column, "stencilc_q3c2_0" for the
/// array's third queue; \p Point indexes a thread's points.
static std::string queueRegister(unsigned Param,
                                 const planning::ArrayAccessPlan &A,
                                 const planning::ColumnQueue &Q, int Dz,
                                 const std::string &Point) {
  const bool Centre = &Q == planning::centreQueue(A);
  return fmt::format("stencilc_q{}{}_{}{}", Param,
                     Centre ? "" : fmt::format("c{}", &Q - A.Queues.data()),
                     Dz - Q.Lo, Point);
}

std::string MarchHooks::printLoad(unsigned Param, const ir::Offset &Off,
                                  const std::string &Memory) const {
  const planning::ArrayAccessPlan *A = planning::findArrayPlan(P, Param);
  if (!A)
    return Memory;
  const unsigned M = P.MarchDim;
  const std::string Point = Points > 1 ? "[stencilc_p]" : "";
  const planning::ColumnQueue *Q = planning::findQueue(*A, Off, M);
  if (Q && Q == planning::centreQueue(*A))
    return queueRegister(Param, *A, *Q, Off[M], Point);
  if (Tile && A->Tiled && Off[M] == 0)
    return fmt::format("stencilc_t{}[{}]", Param, tileIndex(Off, M));
  if (Points > 1 && Adjacent && Off[1] != 0)
    return printSiblingLoad(Param, *A, Off, Memory);
  if (Q)
    return queueRegister(Param, *A, *Q, Off[M], Point);
  return Memory;
}

/// A load Off[1] rows from this point is the load at y offset 0 of the
/// point that many rows further, when this thread computes it: its queue
/// register then holds the value, loaded one step ahead.
std::string MarchHooks::printSiblingLoad(unsigned Param,
                                         const planning::ArrayAccessPlan &A,
                                         const ir::Offset &Off,
                                         const std::string &Memory) const {
  const int Dy = Off[1];
  const planning::ColumnQueue *Own = planning::findQueue(A, Off, P.MarchDim);
  std::string Fallback =
      Own ? queueRegister(Param, A, *Own, Off[2], "[stencilc_p]") : Memory;
  // Not std::abs: Dy may be INT_MIN.
  if (Dy >= int(Points) || Dy <= -int(Points))
    return Fallback;
  ir::Offset Moved = Off;
  Moved[1] = 0;
  const planning::ColumnQueue *Q = planning::findQueue(A, Moved, P.MarchDim);
  if (!Q)
    return Fallback;
  // The index stays in range in every unrolled copy; the condition picks
  // the copies where the sibling exists.
  std::string Sibling = queueRegister(
      Param, A, *Q, Off[2],
      fmt::format("[(stencilc_p + {}) % {}]", int(Points) + Dy, Points));
  std::string Exists = Dy > 0 ? fmt::format("stencilc_p + {} < stencilc_n", Dy)
                              : fmt::format("stencilc_p >= {}", -Dy);
  return fmt::format("({} ? {} : {})", Exists, Sibling, Fallback);
}

/// ", <type> <name>" per parameter after the index.
static std::string kernelParameters(const ir::Stencil &S,
                                    const BodyNames &Names) {
  std::string Params;
  for (unsigned P = 1; P < S.Params.size(); ++P) {
    const ir::Param &Param = S.Params[P];
    std::string Ty = argumentValueType(Param);
    // Arrays do not alias: each is read-only or written at the centre only.
    if (Param.Kind == ir::ParamKind::Array && Ty.back() == '*')
      Params += fmt::format(", {}__restrict__ {}", Ty, Names.param(P));
    else
      Params += fmt::format(", {} {}", Ty, Names.param(P));
  }
  return Params;
}

void CudaEmitter::emitGridKernel(CodeWriter &W, const ir::Stencil &S,
                                 const std::string &Symbol) const {
  BodyNames Names(S);
  std::string Params = "const stencil::Grid g, const stencil::Region r" +
                       kernelParameters(S, Names);
  W.open(
      fmt::format("__global__ void {}({}) {{", gridKernelName(Symbol), Params));
  for (unsigned D = 0; D < 2; ++D)
    W.line("const long long {0} = r.lo[{1}] + blockIdx.{2} * "
           "static_cast<long long>(blockDim.{2}) + threadIdx.{2};",
           Positions[D], D, Axes[D]);
  if (S.Dims == 3) {
    W.line("const long long k = r.lo[2] + blockIdx.z * "
           "static_cast<long long>(blockDim.z) + threadIdx.z;");
  } else if (S.Dims == 4) {
    W.line("// z and w share blockIdx.z: zblocks blocks of z per w.");
    W.line("const long long zblocks = (r.hi[2] - r.lo[2] + blockDim.z - 1) / "
           "blockDim.z;");
    W.line("const long long k = r.lo[2] + (blockIdx.z % zblocks) * "
           "static_cast<long long>(blockDim.z) + threadIdx.z;");
    W.line("const long long w = r.lo[3] + blockIdx.z / zblocks;");
  }
  std::string Outside;
  for (unsigned D = 0; D < S.Dims; ++D)
    Outside +=
        fmt::format("{}{} >= r.hi[{}]", D ? " || " : "", Positions[D], D);
  W.line("if ({})", Outside);
  W.line("  return;");
  W.line("const long long sy = g.extent[0];");
  std::string Centre = "i + j * sy";
  if (S.Dims >= 3) {
    W.line("const long long sz = sy * g.extent[1];");
    Centre += " + k * sz";
  }
  if (S.Dims >= 4) {
    W.line("const long long sw = sz * g.extent[2];");
    Centre += " + w * sw";
  }
  W.line("const long long c = {};", Centre);
  DeviceHooks Hooks;
  printBody(S, Names, Hooks, W);
  W.close();
}

/// A launcher's opening: its signature, the region's extents (nothing to
/// do when one is empty), the block check and the arguments unpacked.
static void printLauncherPrologue(CodeWriter &W, const ir::Stencil &S,
                                  const BodyNames &Names,
                                  const std::string &Name) {
  W.open(launcherSignature(Name, /*UsesConfig=*/true, S.Params.size() > 1) +
         " {");
  static const char *const Extents[] = {"nx", "ny", "nz", "nw"};
  std::string Empty;
  for (unsigned D = 0; D < S.Dims; ++D) {
    W.line("const long long {} = r.hi[{}] - r.lo[{}];", Extents[D], D, D);
    Empty += fmt::format("{}{} <= 0", D ? " || " : "", Extents[D]);
  }
  W.line("if ({})", Empty);
  W.line("  return nullptr;");
  W.line("if (cfg.block[0] <= 0 || cfg.block[1] <= 0 || cfg.block[2] <= 0)");
  W.line("  return \"invalid CUDA block size\";");
  printArgumentUnpacking(W, S, Names, std::vector<bool>(S.Params.size(), true));
}

void CudaEmitter::emitGridLauncher(CodeWriter &W, const ir::Stencil &S,
                                   const std::string &Symbol) const {
  BodyNames Names(S);
  printLauncherPrologue(W, S, Names, "stencilc_" + Symbol + "_cuda_launch");
  // A 2-D kernel has no z: a deeper block would only repeat its threads.
  W.line("const dim3 block(cfg.block[0], cfg.block[1], {});",
         S.Dims == 2 ? "1" : "cfg.block[2]");
  W.line("const long long gx = (nx + block.x - 1) / block.x;");
  W.line("const long long gy = (ny + block.y - 1) / block.y;");
  if (S.Dims == 2)
    W.line("const long long gz = 1;");
  else if (S.Dims == 3)
    W.line("const long long gz = (nz + block.z - 1) / block.z;");
  else
    W.line("const long long gz = (nz + block.z - 1) / block.z * nw;");
  W.line("if (gx > 2147483647LL || gy > 65535 || gz > 65535)");
  W.line("  return \"region too large for one launch of the grid variant\";");
  W.line(
      "const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy), "
      "static_cast<unsigned>(gz));");
  std::string Args = "g, r";
  for (unsigned P = 1; P < S.Params.size(); ++P)
    Args += ", " + Names.param(P);
  W.line("{}<<<grid, block, 0, static_cast<cudaStream_t>(cfg.stream)>>>({});",
         gridKernelName(Symbol), Args);
  W.line("const cudaError_t err = cudaGetLastError();");
  W.line("return err == cudaSuccess ? nullptr : cudaGetErrorString(err);");
  W.close();
}

//===----------------------------------------------------------------------===//
// Marching variants
//===----------------------------------------------------------------------===//

static const char *marchStride(unsigned M) { return M == 2 ? "sz" : "sy"; }

/// "f[c + 2 * sz]".
static std::string printMemoryLoad(const std::string &Array,
                                   const std::string &Index) {
  return fmt::format("{}[{}]", Array, Index);
}

static int tileWidth(const planning::MarchPlan &P, unsigned D) {
  // Planning keeps each side within MaxTileHalo.
  return static_cast<int>(P.TileHalo[D].Lo + P.TileHalo[D].Hi);
}

void CudaEmitter::emitTileHelpers(CodeWriter &W,
                                  const planning::StencilPlan &SP,
                                  const std::string &Symbol) const {
  const planning::MarchPlan &P = SP.March;
  const std::string Stem = "stencilc_" + Symbol;
  W.line(
      "// The tile's row pitch in elements: a warp of a block narrower than");
  W.line("// 32 spans several rows, and a pitch congruent to the width modulo");
  W.line("// 32 puts them in different banks.");
  W.line("__host__ __device__ __forceinline__ unsigned {}_tile_pitch(unsigned "
         "bx) {{",
         Stem);
  W.line("  return bx < 32u ? bx + 32u * (({}u + 31u) / 32u) : bx + {}u;",
         tileWidth(P, 0), tileWidth(P, 0));
  W.line("}}");
  W.line("__host__ __device__ __forceinline__ unsigned long long "
         "{0}_tile_bytes(unsigned bx, unsigned by, unsigned long long elem) {{",
         Stem);
  W.line("  return ({}_tile_pitch(bx) * static_cast<unsigned long long>(by + "
         "{}u) * elem + 15u) / 16u * 16u;",
         Stem, P.MarchDim == 2 ? tileWidth(P, 1) : 0);
  W.line("}}");
  std::string Sum;
  for (const planning::ArrayAccessPlan &A : P.Arrays)
    if (A.Tiled)
      Sum += fmt::format("{}{}_tile_bytes(bx, by, sizeof({}))",
                         Sum.empty() ? "" : " + ", Stem,
                         elementType(SP.Stencil->Params[A.Param]));
  W.line("// Dynamic shared memory of a (bx, by) block: one tile per array.");
  W.line("__host__ __device__ __forceinline__ unsigned long long "
         "{}_smem_bytes(unsigned bx, unsigned by) {{",
         Stem);
  W.line("  return {};", Sum);
  W.line("}}");
}

void CudaEmitter::emitMarchKernel(CodeWriter &W,
                                  const planning::StencilPlan &SP,
                                  planning::VariantKind V,
                                  const std::string &Symbol) const {
  const ir::Stencil &S = *SP.Stencil;
  const planning::MarchPlan &P = SP.March;
  const bool Tile = V == planning::VariantKind::Smem;
  // Several points per thread (zmarch2; never with a tile).
  const unsigned Points = planning::pointsPerThread(V);
  const bool Multi = Points > 1;
  const std::string Point = Multi ? "[stencilc_p]" : "";
  const unsigned M = P.MarchDim;
  const char *MPos = Positions[M];
  const char *MStride = marchStride(M);
  const std::string Stem = "stencilc_" + Symbol;
  BodyNames Names(S);
  W.open(fmt::format("__global__ void {}(const stencil::Grid g, const "
                     "stencil::Region r, const long long stencilc_chunk{}) {{",
                     kernelName(Symbol, V), kernelParameters(S, Names)));
  // With several points per thread they lie along PD: adjacent in y in 3-D
  // (loads the points share are then made once), a block apart in x in 2-D
  // (y is marched there); stencilc_<i|j>0 is the first.
  const unsigned PD = M == 2 ? 1 : 0;
  const std::string First = fmt::format("stencilc_{}0", Positions[PD]);
  auto Name = [&](unsigned D) {
    return Multi && D == PD ? First : std::string(Positions[D]);
  };
  if (Multi)
    W.line("// This thread computes {} points, {}.", Points,
           PD == 1 ? "adjacent in y" : "blockDim.x apart in x");
  if (Multi && PD == 0)
    W.line("const long long {} = r.lo[0] + blockIdx.x * {}LL * blockDim.x + "
           "threadIdx.x;",
           First, Points);
  else
    W.line("const long long i = r.lo[0] + blockIdx.x * "
           "static_cast<long long>(blockDim.x) + threadIdx.x;");
  if (M == 2 && Multi)
    W.line("const long long {} = r.lo[1] + (blockIdx.y * "
           "static_cast<long long>(blockDim.y) + threadIdx.y) * {};",
           First, Points);
  else if (M == 2)
    W.line("const long long j = r.lo[1] + blockIdx.y * "
           "static_cast<long long>(blockDim.y) + threadIdx.y;");
  W.line("// This block marches [stencilc_m0, stencilc_m1) of {}.", Axes[M]);
  // Chunks on the slowest block index: blocks of one plane run together and
  // share their in-plane halo through L2 (chunks first was slower).
  W.line("const long long stencilc_m0 = r.lo[{}] + blockIdx.{} * "
         "stencilc_chunk;",
         M, Axes[M]);
  W.line("const long long stencilc_m1 = stencilc_m0 + stencilc_chunk < "
         "r.hi[{0}] ? stencilc_m0 + stencilc_chunk : r.hi[{0}];",
         M);
  std::string Outside =
      M == 2 ? fmt::format("{} >= r.hi[0] || {} >= r.hi[1]", Name(0), Name(1))
             : fmt::format("{} >= r.hi[0]", Name(0));
  if (Tile) {
    W.line("// Threads outside the region still stage the tile and meet the "
           "barriers.");
    W.line("const bool stencilc_active = !({});", Outside);
  } else {
    W.line("if ({})", Outside);
    W.line("  return;");
  }
  W.line("const long long sy = g.extent[0];");
  if (M == 2)
    W.line("const long long sz = sy * g.extent[1];");
  const char *C = Multi ? "stencilc_c" : "c";
  W.line("long long {} = {} + {};", C, Name(0),
         M == 2 ? fmt::format("{} * sy + stencilc_m0 * sz", Name(1))
                : "stencilc_m0 * sy");
  // Point p lies p * stencilc_dp from the first along PD; the points from
  // stencilc_n on are past the region. The distance is the same for every
  // thread, so the compiler sees which loads of the points coincide and
  // makes them once.
  if (Multi) {
    W.line("const long long stencilc_dp = {};", PD == 1 ? "1" : "blockDim.x");
    W.line("int stencilc_n = 1;");
    W.line("while (stencilc_n < {0} && {1} + stencilc_n * stencilc_dp < "
           "r.hi[{2}])",
           Points, First, PD);
    W.line("  ++stencilc_n;");
  }

  if (Tile) {
    const analysis::HaloWidth &X = P.TileHalo[0], &Y = P.TileHalo[1];
    W.line("extern __shared__ __align__(16) unsigned char stencilc_smem[];");
    W.line("const long long stencilc_i0 = r.lo[0] + blockIdx.x * "
           "static_cast<long long>(blockDim.x) - {};",
           X.Lo);
    W.line("const long long stencilc_ie = r.hi[0] + {};", X.Hi);
    if (M == 2) {
      W.line("const unsigned stencilc_tw = blockDim.x + {}u;", tileWidth(P, 0));
      W.line("const int stencilc_pitch = "
             "static_cast<int>({}_tile_pitch(blockDim.x));",
             Stem);
      W.line("const long long stencilc_j0 = r.lo[1] + blockIdx.y * "
             "static_cast<long long>(blockDim.y) - {};",
             Y.Lo);
      W.line("const long long stencilc_je = r.hi[1] + {};", Y.Hi);
      W.line("const int stencilc_tc = (threadIdx.y + {}) * stencilc_pitch + "
             "threadIdx.x + {};",
             Y.Lo, X.Lo);
    } else {
      W.line("const int stencilc_tc = threadIdx.x + {};", X.Lo);
    }
    std::string Offset;
    for (const planning::ArrayAccessPlan &A : P.Arrays) {
      if (!A.Tiled)
        continue;
      std::string Ty = elementType(S.Params[A.Param]);
      W.line("{0} *const stencilc_t{1} = reinterpret_cast<{0} *>(stencilc_smem"
             "{2});",
             Ty, A.Param, Offset.empty() ? "" : " + " + Offset);
      Offset += fmt::format("{}{}_tile_bytes(blockDim.x, blockDim.y, "
                            "sizeof({}))",
                            Offset.empty() ? "" : " + ", Stem, Ty);
    }
  }

  // The queues: register n of a column's queue holds the value at march
  // offset Lo + n of the current point.
  std::vector<std::string> Preload, Leading, Shifts;
  for (const planning::ArrayAccessPlan &A : P.Arrays) {
    for (const planning::ColumnQueue &Q : A.Queues) {
      // Planning keeps queues within MaxQueueLength; this only prints them.
      assert((long long)Q.Hi - Q.Lo + 1 <= planning::MaxQueueLength &&
             "queue longer than Planning allows");
      const int Len = Q.Hi - Q.Lo + 1;
      ir::Offset Off{};
      Off[0] = Q.Plane[0];
      Off[1] = M == 2 ? Q.Plane[1] : 0;
      if (&Q != planning::centreQueue(A))
        W.line("// A queue of {} at {}{}, {} offsets {:+d} .. {:+d}.",
               Names.param(A.Param),
               printLinearIndex(Off, S.Dims).substr(1).empty() ? "the centre"
                                                               : "c",
               printLinearIndex(Off, S.Dims).substr(1), Axes[M], Q.Lo, Q.Hi);
      std::string Regs;
      for (int N = 0; N < Len; ++N)
        Regs += fmt::format(
            "{}{}{{}}", N ? ", " : "",
            queueRegister(A.Param, A, Q, Q.Lo + N,
                          Multi ? fmt::format("[{}]", Points) : ""));
      W.line("{} {};", elementType(S.Params[A.Param]), Regs);
      for (int N = 0; N < Len; ++N) {
        Off[M] = Q.Lo + N;
        std::string Load = fmt::format(
            "{} = {};", queueRegister(A.Param, A, Q, Q.Lo + N, Point),
            printMemoryLoad(Names.param(A.Param),
                            printLinearIndex(Off, S.Dims)));
        (N + 1 < Len ? Preload : Leading).push_back(Load);
        if (N + 1 < Len)
          Shifts.push_back(fmt::format(
              "{} = {};", queueRegister(A.Param, A, Q, Q.Lo + N, Point),
              queueRegister(A.Param, A, Q, Q.Lo + N + 1, Point)));
      }
    }
  }
  auto PrintGuarded = [&](const std::vector<std::string> &Lines) {
    if (Lines.empty())
      return;
    if (Tile)
      W.open("if (stencilc_active) {");
    for (const std::string &L : Lines)
      W.line("{}", L);
    if (Tile)
      W.close();
  };
  // With several points: a loop over them, unrolled so that the register
  // arrays are indexed by constants; c and i are the point's.
  auto OpenPoints = [&](bool Body) {
    if (!Multi)
      return;
    W.line("#pragma unroll");
    W.open(fmt::format("for (int stencilc_p = 0; stencilc_p < {}; "
                       "++stencilc_p) {{",
                       Points));
    W.open("if (stencilc_p < stencilc_n) {");
    W.line("const long long c = stencilc_c + stencilc_p * stencilc_dp{};",
           PD == 1 ? " * sy" : "");
    if (Body)
      W.line("[[maybe_unused]] const long long {} = {} + stencilc_p * "
             "stencilc_dp;",
             Positions[PD], First);
  };
  auto ClosePoints = [&] {
    if (!Multi)
      return;
    W.close();
    W.close();
  };
  if (!Preload.empty()) {
    OpenPoints(false);
    PrintGuarded(Preload);
    ClosePoints();
  }

  // Unrolled, the queue's shifts become renames and the loads of several
  // steps are in flight together.
  if (!Tile)
    W.line("#pragma unroll {}", 4 / Points);
  W.open(fmt::format("for (long long {0} = stencilc_m0; {0} < stencilc_m1; "
                     "++{0}, {1} += {2}) {{",
                     MPos, C, MStride));
  // Points adjacent in y read each other's queues: every point's queues are
  // loaded before any body runs and shifted after the last. Otherwise each
  // point loads, computes and shifts in turn (measured faster in 2-D).
  const bool Split = Multi && PD == 1;
  if (Split && !Leading.empty()) {
    OpenPoints(false);
    PrintGuarded(Leading);
    ClosePoints();
  }
  OpenPoints(true);
  if (!Split)
    PrintGuarded(Leading);
  if (Tile) {
    W.line("__syncthreads(); // the previous step has read the tile");
    const analysis::HaloWidth &X = P.TileHalo[0], &Y = P.TileHalo[1];
    // This thread's own cell: the centre from the queue where it holds it;
    // threads outside the region fill the cells of the tile's halo.
    std::string InTile =
        M == 2 ? "i < stencilc_ie && j < stencilc_je" : "i < stencilc_ie";
    for (const planning::ArrayAccessPlan &A : P.Arrays) {
      if (!A.Tiled)
        continue;
      std::string Memory = printMemoryLoad(Names.param(A.Param), "c");
      const planning::ColumnQueue *Centre = planning::centreQueue(A);
      if (Centre && Centre->Lo <= 0 && Centre->Hi >= 0) {
        W.line("if (stencilc_active)");
        W.line("  stencilc_t{}[stencilc_tc] = {};", A.Param,
               queueRegister(A.Param, A, *Centre, 0, ""));
        W.line("else if ({})", InTile);
      } else {
        W.line("if ({})", InTile);
      }
      W.line("  stencilc_t{}[stencilc_tc] = {};", A.Param, Memory);
    }
    // The halo: whole rows above and below, then the side columns.
    std::string Count =
        M == 2 ? fmt::format("stencilc_tw * {}u + blockDim.y * {}u",
                             tileWidth(P, 1), tileWidth(P, 0))
               : fmt::format("{}u", tileWidth(P, 0));
    W.open(fmt::format(
        "for (unsigned stencilc_e = {}; stencilc_e < {}; "
        "stencilc_e += {}) {{",
        M == 2 ? "threadIdx.y * blockDim.x + threadIdx.x" : "threadIdx.x",
        Count, M == 2 ? "blockDim.x * blockDim.y" : "blockDim.x"));
    std::string Slot, Global;
    if (M == 2) {
      W.line("unsigned stencilc_ti, stencilc_tj;");
      W.open(fmt::format("if (stencilc_e < stencilc_tw * {}u) {{",
                         tileWidth(P, 1)));
      W.line("const unsigned stencilc_row = stencilc_e / stencilc_tw;");
      W.line("stencilc_ti = stencilc_e - stencilc_row * stencilc_tw;");
      if (Y.Lo)
        W.line("stencilc_tj = stencilc_row < {0}u ? stencilc_row : "
               "stencilc_row + blockDim.y;",
               Y.Lo);
      else
        W.line("stencilc_tj = stencilc_row + blockDim.y;");
      W.dedent();
      W.open("} else {");
      W.line("const unsigned stencilc_side = stencilc_e - stencilc_tw * {}u;",
             tileWidth(P, 1));
      W.line("const unsigned stencilc_row = stencilc_side / {}u;",
             std::max(1, tileWidth(P, 0)));
      W.line("const unsigned stencilc_col = stencilc_side - stencilc_row * "
             "{}u;",
             tileWidth(P, 0));
      W.line("stencilc_tj = {}u + stencilc_row;", Y.Lo);
      if (X.Lo)
        W.line("stencilc_ti = stencilc_col < {}u ? stencilc_col : "
               "stencilc_col + blockDim.x;",
               X.Lo);
      else
        W.line("stencilc_ti = stencilc_col + blockDim.x;");
      W.close();
      W.line("if (stencilc_i0 + stencilc_ti >= stencilc_ie || stencilc_j0 + "
             "stencilc_tj >= stencilc_je)");
      W.line("  continue;");
      Slot = "stencilc_tj * stencilc_pitch + stencilc_ti";
      Global = "stencilc_i0 + stencilc_ti + (stencilc_j0 + stencilc_tj) * sy "
               "+ k * sz";
    } else {
      if (X.Lo)
        W.line("const unsigned stencilc_ti = stencilc_e < {}u ? stencilc_e : "
               "stencilc_e + blockDim.x;",
               X.Lo);
      else
        W.line("const unsigned stencilc_ti = stencilc_e + blockDim.x;");
      W.line("if (stencilc_i0 + stencilc_ti >= stencilc_ie)");
      W.line("  continue;");
      Slot = "stencilc_ti";
      Global = "stencilc_i0 + stencilc_ti + j * sy";
    }
    W.line("const long long stencilc_g = {};", Global);
    for (const planning::ArrayAccessPlan &A : P.Arrays)
      if (A.Tiled)
        W.line("stencilc_t{}[{}] = {};", A.Param, Slot,
               printMemoryLoad(Names.param(A.Param), "stencilc_g"));
    W.close();
    W.line("__syncthreads(); // the tile holds this step's plane");
    W.open("if (stencilc_active) {");
  }
  MarchHooks Hooks(P, Tile, Points, PD == 1);
  printBody(S, Names, Hooks, W);
  if (Tile)
    W.close();
  if (!Split)
    for (const std::string &L : Shifts)
      W.line("{}", L);
  ClosePoints();
  if (Split && !Shifts.empty()) {
    W.line("#pragma unroll");
    W.open(fmt::format("for (int stencilc_p = 0; stencilc_p < {}; "
                       "++stencilc_p) {{",
                       Points));
    for (const std::string &L : Shifts)
      W.line("{}", L);
    W.close();
  }
  W.close();
  W.close();
}

void CudaEmitter::emitMarchLauncher(CodeWriter &W,
                                    const planning::StencilPlan &SP,
                                    planning::VariantKind V,
                                    const std::string &Symbol) const {
  const ir::Stencil &S = *SP.Stencil;
  const unsigned M = SP.March.MarchDim;
  BodyNames Names(S);
  printLauncherPrologue(W, S, Names, launcherName(Symbol, V));
  W.line("// cfg.block[2] is the chunk of {} each thread marches{}.", Axes[M],
         M == 1 ? "; a 2-D block is one row" : "");
  W.line("const long long stencilc_chunk = cfg.block[2];");
  W.line("const dim3 block(cfg.block[0], {}, 1);",
         M == 2 ? "cfg.block[1]" : "1");
  const unsigned Points = planning::pointsPerThread(V);
  if (Points > 1)
    W.line("// Each thread computes {} points in {}.", Points,
           M == 2 ? "y" : "x");
  if (Points > 1 && M == 1)
    W.line("const long long gx = (nx + {0}LL * block.x - 1) / ({0}LL * "
           "block.x);",
           Points);
  else
    W.line("const long long gx = (nx + block.x - 1) / block.x;");
  if (M == 2 && Points > 1) {
    W.line("const long long gy = (ny + {0}LL * block.y - 1) / ({0}LL * "
           "block.y);",
           Points);
    W.line("const long long gz = (nz + stencilc_chunk - 1) / stencilc_chunk;");
  } else if (M == 2) {
    W.line("const long long gy = (ny + block.y - 1) / block.y;");
    W.line("const long long gz = (nz + stencilc_chunk - 1) / stencilc_chunk;");
  } else {
    W.line("const long long gy = (ny + stencilc_chunk - 1) / stencilc_chunk;");
    W.line("const long long gz = 1;");
  }
  W.line("if (gx > 2147483647LL || gy > 65535 || gz > 65535)");
  W.line("  return \"region too large for one launch of the {} variant\";",
         planning::variantName(V));
  W.line(
      "const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy), "
      "static_cast<unsigned>(gz));");
  std::string Shared = "0";
  if (V == planning::VariantKind::Smem) {
    W.line("const unsigned long long stencilc_shared = "
           "stencilc_{}_smem_bytes(block.x, block.y);",
           Symbol);
    W.line("if (stencilc_shared > 48u * 1024u)");
    W.line("  return \"block too large for the smem variant's tile\";");
    Shared = "stencilc_shared";
  }
  std::string Args = "g, r, stencilc_chunk";
  for (unsigned P = 1; P < S.Params.size(); ++P)
    Args += ", " + Names.param(P);
  W.line("{}<<<grid, block, {}, static_cast<cudaStream_t>(cfg.stream)>>>({});",
         kernelName(Symbol, V), Shared, Args);
  W.line("const cudaError_t err = cudaGetLastError();");
  W.line("return err == cudaSuccess ? nullptr : cudaGetErrorString(err);");
  W.close();
}

void CudaEmitter::emitQuery(CodeWriter &W, const planning::StencilPlan &SP,
                            planning::VariantKind V,
                            const std::string &Symbol) const {
  const bool Tile = V == planning::VariantKind::Smem;
  W.line(
      "// What the tuner needs to know before it launches a (bx, by) block.");
  W.open(fmt::format("static const char *{}_query(int {}, int {}, "
                     "stencil::KernelAttributes *out) {{",
                     kernelName(Symbol, V), Tile ? "bx" : "/*bx*/",
                     Tile ? "by" : "/*by*/"));
  W.line("cudaFuncAttributes a;");
  W.line("const cudaError_t err = cudaFuncGetAttributes(&a, {});",
         kernelName(Symbol, V));
  W.line("if (err != cudaSuccess)");
  W.line("  return cudaGetErrorString(err);");
  W.line("out->registers = a.numRegs;");
  W.line("out->maxThreadsPerBlock = a.maxThreadsPerBlock;");
  if (Tile)
    W.line("out->sharedBytes = static_cast<long long>(a.sharedSizeBytes + "
           "stencilc_{}_smem_bytes(static_cast<unsigned>(bx), "
           "static_cast<unsigned>(by)));",
           Symbol);
  else
    W.line("out->sharedBytes = static_cast<long long>(a.sharedSizeBytes);");
  W.line("return nullptr;");
  W.close();
}

std::string CudaEmitter::emit(const planning::ModulePlan &Plan) const {
  bool MinMax = false;
  for (const planning::StencilPlan &SP : Plan.Stencils)
    MinMax |= scanBody(*SP.Stencil).MinMax;
  // nvcc declares the math functions itself.
  std::vector<std::string> Includes = {"<stencil/generated.hpp>",
                                       "<stencil/cuda/device_ops.cuh>"};
  if (needsFunctionDeclarations(Plan))
    Includes.push_back("<stencil/index.hpp>");

  CodeWriter W;
  if (Plan.LineDirectives)
    W.enableLineDirectives(Plan.GeneratedFile);
  printFileHeader(W, *Plan.Module, Includes);
  printUserFunctionDeclarations(W, Plan);
  W.blank();
  W.line("namespace stencilc_generated {{");
  W.line("namespace {{");
  W.blank();
  W.line("// Engines find the CUDA device operations through the runtime.");
  W.line("[[maybe_unused]] static const bool stencilc_installed_device_ops = "
         "stencil::cuda_ops::install();");
  if (MinMax) {
    W.blank();
    printMinMaxHelpers(W, "__device__ __forceinline__");
  }

  std::vector<std::string> Symbols = uniqueSymbolNames(Plan);
  for (size_t I = 0; I < Plan.Stencils.size(); ++I) {
    const planning::StencilPlan &SP = Plan.Stencils[I];
    for (planning::VariantKind V : SP.Variants) {
      W.blank();
      W.line("{}", stencilComment(*SP.Stencil, V));
      if (V == planning::VariantKind::Grid) {
        emitGridKernel(W, *SP.Stencil, Symbols[I]);
        W.blank();
        emitGridLauncher(W, *SP.Stencil, Symbols[I]);
      } else {
        if (V == planning::VariantKind::Smem) {
          emitTileHelpers(W, SP, Symbols[I]);
          W.blank();
        }
        emitMarchKernel(W, SP, V, Symbols[I]);
        W.blank();
        emitMarchLauncher(W, SP, V, Symbols[I]);
      }
      W.blank();
      emitQuery(W, SP, V, Symbols[I]);
      W.blank();
      RegistrationExtras Extras;
      Extras.Query = kernelName(Symbols[I], V) + "_query";
      Extras.MarchDim = planning::isMarching(V) ? int(SP.March.MarchDim) : -1;
      if (V == SP.Default.Variant)
        std::copy(std::begin(SP.Default.Block), std::end(SP.Default.Block),
                  std::begin(Extras.DefaultBlock));
      printRegistration(W, *SP.Stencil, *SP.Info, Symbols[I],
                        "stencil::Backend::Cuda", launcherName(Symbols[I], V),
                        V, Extras);
    }
  }

  W.blank();
  W.line("}} // namespace");
  W.line("}} // namespace stencilc_generated");
  return W.str();
}

std::unique_ptr<Emitter> codegen::createCudaEmitter() {
  return std::make_unique<CudaEmitter>();
}
