//===- SameMarginsPrinter.cpp - Whether two arrays hold one margin --------===//
///
/// \file
/// A time pair's comparison of its two arrays' margins (the points outside
/// the region that one step reads), which the runtime runs before a time
/// loop's passes: where the bits are the same, every level's margin is the
/// input's, and the passes that take it so run (passes summed by planes,
/// TemporalPlan::summedByPlanes; the rings' CENTRE_MARGIN instances,
/// TemporalPlan::CentreMarginUpTo).
///
//===----------------------------------------------------------------------===//
#include "stencilc/CodeGen/CudaKernels.h"

using namespace stencilc;
using namespace stencilc::codegen;
using namespace stencilc::codegen::cuda;

/// Prints \p Name_same_margins (GeneratedSameMarginsFn): a block of threads a
/// row of the box a step reads, the region grown by the reach, comparing
/// the bits of the row's points outside the region.
void cuda::printSameMargins(CodeWriter &W, const ir::Stencil &S,
                            const planning::TimePair &P,
                            const std::string &Name) {
  const analysis::Halo &Reach = P.Reach;
  const unsigned Bytes = S.Params[P.Out].Ty.bytes();
  // Compared as unsigned words of the element's size (a bool's is one byte).
  const char *Bits = Bytes == 8   ? "unsigned long long"
                     : Bytes == 4 ? "unsigned int"
                     : Bytes == 2 ? "unsigned short"
                                  : "unsigned char";
  W.line("static __device__ int {}_differ;", Name);
  W.open(fmt::format("__global__ void {}_margins_differ(const long long "
                     "lo0, const long long hi0, const long long lo1, const "
                     "long long lo2, const long long hi2, const "
                     "stencil::Region r, const long long sy, const long long "
                     "sz, const {} *a, const {} *b, int *differ) {{",
                     Name, Bits, Bits));
  W.line("const long long y = lo1 + blockIdx.x;");
  W.open("for (long long z = lo2 + blockIdx.y; z < hi2; z += gridDim.y) {");
  W.line("// A row inside the region in y and z: only its points beyond "
         "the region's in x.");
  W.line("const bool inner = y >= r.lo[1] && y < r.hi[1] && z >= r.lo[2] && "
         "z < r.hi[2];");
  W.open("for (long long x = lo0 + threadIdx.x; x < hi0; x += blockDim.x) "
         "{");
  W.line("if (inner && x >= r.lo[0] && x < r.hi[0])");
  W.line("  continue;");
  W.line("const long long i = x + y * sy + z * sz;");
  W.line("if (a[i] != b[i])");
  W.line("  *differ = 1;");
  W.close();
  W.close();
  W.close();
  W.blank();
  W.line("// Whether the time pair's two arrays hold the same margin (a "
         "step's reads outside the region).");
  W.open(fmt::format(
      "static const char *{}_same_margins(const stencil::Grid &g, const "
      "stencil::Region &r, const void *a, const void *b, void *stream, "
      "bool *same) {{",
      Name));
  W.line("long long lo[3], hi[3];");
  for (unsigned D = 0; D < 3; ++D) {
    W.line("lo[{0}] = r.lo[{0}] - {1}LL < 0 ? 0 : r.lo[{0}] - {1}LL;", D,
           Reach[D].Lo);
    W.line("hi[{0}] = r.hi[{0}] + {1}LL > g.extent[{0}] ? g.extent[{0}] : "
           "r.hi[{0}] + {1}LL;",
           D, Reach[D].Hi);
  }
  W.line("*same = true;");
  W.line("if (hi[0] <= lo[0] || hi[1] <= lo[1] || hi[2] <= lo[2])");
  W.line("  return nullptr;");
  W.line("if (hi[1] - lo[1] > 2147483647LL)");
  W.line("  return \"too many rows to compare the margins\";");
  W.line("const cudaStream_t s = static_cast<cudaStream_t>(stream);");
  W.line("int *differ = nullptr;");
  W.line("cudaError_t err = cudaGetSymbolAddress(reinterpret_cast<void "
         "**>(&differ), {}_differ);",
         Name);
  W.line("if (err == cudaSuccess)");
  W.line("  err = cudaMemsetAsync(differ, 0, sizeof(int), s);");
  W.open("if (err == cudaSuccess) {");
  W.line("const dim3 grid(static_cast<unsigned>(hi[1] - lo[1]), "
         "static_cast<unsigned>(hi[2] - lo[2] < 65535 ? hi[2] - lo[2] : "
         "65535));");
  W.line("{}_margins_differ<<<grid, 128, 0, s>>>(lo[0], hi[0], lo[1], "
         "lo[2], hi[2], r, g.extent[0], g.extent[0] * g.extent[1], "
         "static_cast<const {} *>(a), static_cast<const {} *>(b), differ);",
         Name, Bits, Bits);
  W.line("err = cudaGetLastError();");
  W.close();
  W.line("int found = 0;");
  W.line("if (err == cudaSuccess)");
  W.line("  err = cudaMemcpyAsync(&found, differ, sizeof(int), "
         "cudaMemcpyDeviceToHost, s);");
  W.line("if (err == cudaSuccess)");
  W.line("  err = cudaStreamSynchronize(s);");
  W.open("if (err != cudaSuccess) {");
  W.line("(void)cudaGetLastError();");
  W.line("return cudaGetErrorString(err);");
  W.close();
  W.line("*same = found == 0;");
  W.line("return nullptr;");
  W.close();
}
