// Mock DSL header for compiler tests: the names and shapes stencilc looks
// for, without the runtime (see STYLE.md: no system or CUDA headers).
#pragma once
#define STENCIL_KERNEL __attribute__((annotate("stencilc.stencil")))
#define STENCIL_HD
namespace stencil {
template <int Dims> class Index {
public:
  template <int... Off> long ix() const { return 0; }
  int i() const { return 0; }
  int j() const { return 0; }
  int k() const { return 0; }
  int w() const { return 0; }
};
using Index2D = Index<2>;
using Index3D = Index<3>;
using Index4D = Index<4>;
} // namespace stencil
using ArrayIndex2D = stencil::Index2D;
using ArrayIndex3D = stencil::Index3D;
using ArrayIndex4D = stencil::Index4D;
