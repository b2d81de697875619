// Mock DSL header for compiler tests: the names and shapes stencilc looks
// for, without the runtime (see STYLE.md: no system or CUDA headers).
#pragma once
#define STENCIL_KERNEL __attribute__((annotate("stencilc.stencil")))
#define STENCIL_HD
#define STENCIL_STEP __attribute__((annotate("stencilc.step")))
#define STENCIL_SCRATCH __attribute__((annotate("stencilc.scratch")))
namespace stencil {
template <int Dims> class Index {
public:
  template <int... Off> long ix() const { return 0; }
  template <int... Off> long ix_x() const { return 0; }
  template <int... Off> long ix_y() const { return 0; }
  template <int... Off> long ix_z() const { return 0; }
  template <int... Off> long ix_w() const { return 0; }
  template <int... Off> long ix_xy() const { return 0; }
  template <int... Off> long ix_xz() const { return 0; }
  template <int... Off> long ix_yz() const { return 0; }
  template <int... Off> long ix_xw() const { return 0; }
  template <int... Off> long ix_yw() const { return 0; }
  template <int... Off> long ix_zw() const { return 0; }
  template <int... Off> long ix_xyz() const { return 0; }
  template <int... Off> long ix_xyw() const { return 0; }
  template <int... Off> long ix_xzw() const { return 0; }
  template <int... Off> long ix_yzw() const { return 0; }
  int i() const { return 0; }
  int j() const { return 0; }
  int k() const { return 0; }
  int w() const { return 0; }
};
using Index2D = Index<2>;
using Index3D = Index<3>;
using Index4D = Index<4>;
struct LoopRange {
  int n, begin, end;
};
template <int Dims> class HostLoopEngine {};
template <int Dims> class OpenMPLoopEngine {};
template <int Dims> class AutoLoopEngine {};
template <int Dims, typename Engine> class Loop {
public:
  template <typename StencilT, typename... Args> void run(const StencilT &, Args &&...) {}
  template <typename F, typename... Args> void runStep(F &&, Args &&...) {}
  template <typename StencilT, typename... Args>
  void repeat(long long, const StencilT &, Args &&...) {}
};
// The distributed loop: its repeat() is a time loop too.
class DomainLoop {
public:
  template <typename StencilT, typename... Args> void run(const StencilT &, Args &&...) {}
  template <typename StencilT, typename... Args>
  void repeat(long long, const StencilT &, Args &&...) {}
};
template <typename V> struct PreviousLevel { V *array; };
template <typename V> struct NextLevel { V *array; };
template <typename T> PreviousLevel<T *> previousLevel(T *&A) { return {&A}; }
template <typename T> NextLevel<T *> nextLevel(T *&A) { return {&A}; }
template <int Dims> class Step {
public:
  template <typename StencilT, typename... Args> void run(const StencilT &, Args &&...) const {}
};
using Step2D = Step<2>;
using Step3D = Step<3>;
using Step4D = Step<4>;
template <typename Engine = AutoLoopEngine<2>> class Loop2D : public Loop<2, Engine> {};
template <typename Engine = AutoLoopEngine<3>> class Loop3D : public Loop<3, Engine> {};
using HostLoopEngine3D = HostLoopEngine<3>;
using OpenMPLoopEngine2D = OpenMPLoopEngine<2>;
using OpenMPLoopEngine3D = OpenMPLoopEngine<3>;
} // namespace stencil
using ArrayIndex2D = stencil::Index2D;
using ArrayIndex3D = stencil::Index3D;
using ArrayIndex4D = stencil::Index4D;
