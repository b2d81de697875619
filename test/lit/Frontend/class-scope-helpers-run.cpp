// Constants and helpers in a class's scope, which stencilc refused: an entry
// of a constant table of two dimensions ("subscript of something other than
// an array parameter"; one dimension was folded) and a static member
// function (a free function in a class's scope: "call of a member
// function"), also one a CRTP base calls through its parameter (D::off()).
// The OpenMP code gives the host reference's bits. A table of two
// dimensions at a subscript not constant is refused by the message of one.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu,cuda -o %t -- -std=c++17 -I %runtime_include
// RUN: c++ -std=c++17 -O2 -fopenmp -I %runtime_include %s %t/class-scope-helpers-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s --check-prefix=OUT
// RUN: not %stencilc %s --emit=cpu -o %t/loop -- -std=c++17 -I %runtime_include -DLOOP 2>&1 | FileCheck %s --check-prefix=LOOP
#include "Inputs/run_2d.hpp"

#include <cstdio>

constexpr float W2[2][3] = {{0.1f, 0.2f, 0.3f}, {0.4f, 0.5f, 0.6f}};
constexpr double W3[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8.5}}};

struct STENCIL_KERNEL Table2 {
  void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = W2[1][2] * f[idx.ix<1, 0>()] + W2[0][1] * f[idx.ix()] +
                   static_cast<float>(W3[1][1][1]) * f[idx.ix<0, -1>()];
  }
};
struct Coefficients {
  static constexpr float c = 0.75f;
  static constexpr float half(float x) { return 0.5f * x + c; }
};
struct STENCIL_KERNEL StaticMember {
  void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = Coefficients::half(f[idx.ix<-1, 0>()]) - f[idx.ix()];
  }
};
template <class D> struct SmoothBase {
  void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = D::c * f[idx.ix<0, 1>()] + D::off();
  }
};
struct STENCIL_KERNEL Smooth : SmoothBase<Smooth> {
  static constexpr float c = 0.5f;
  static constexpr float off() { return 1.0f + c; }
};
template struct SmoothBase<Smooth>;
#ifdef LOOP
STENCIL_KERNEL void looped(const stencil::Index2D &idx, const float *f, float *fn) {
  float s = 0;
  for (int n = 0; n < 3; ++n)
    s += W2[1][n] * f[idx.ix()];
  fn[idx.ix()] = s;
}
// LOOP: error: {{.*}}subscript of 'W2', an array that is not a parameter of the stencil (a table of constants: name each entry
#endif

template <typename S> void same(const char *Name) {
  auto Host = runOnce2D<stencil::HostLoopEngine2D>(S(), 11, 6, 1, 1);
  auto OpenMP = runOnce2D<stencil::OpenMPLoopEngine2D>(S(), 11, 6, 1, 1);
  std::printf("%s bit-equal %d, computed %d\n", Name, Host == OpenMP ? 1 : 0,
              Host[13] != -7.0f ? 1 : 0);
}

int main() {
  same<Table2>("Table2");
  same<StaticMember>("StaticMember");
  same<Smooth>("Smooth");
}
// OUT: Table2 bit-equal 1, computed 1
// OUT: StaticMember bit-equal 1, computed 1
// OUT: Smooth bit-equal 1, computed 1
