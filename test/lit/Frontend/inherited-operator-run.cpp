// A functor whose operator() it inherits (from a base, from a CRTP base, or
// its own hiding a base's) was refused (err_functor_operator). The OpenMP
// code gives the host reference's bits for each; two bases that each have
// one are refused (C++ finds the call ambiguous); a CRTP base's operator()
// that the file itself never calls (the engines' calls are in the runtime's
// headers, whose bodies stencilc does not read) has no body to read, and the
// note says how to instantiate it; so has a functor nested in a class
// template, instantiated or not.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu -o %t -- -std=c++17 -I %runtime_include
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/inherited-operator-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s --check-prefix=OUT
// RUN: not %stencilc %s --emit=cpu -o %t/two -- -std=c++17 -I %runtime_include -DTWO_BASES 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not %stencilc %s --emit=cpu -o %t/uncalled -- -std=c++17 -I %runtime_include -DUNCALLED 2>&1 | FileCheck %s --check-prefix=UNCALLED
#include "Inputs/run_2d.hpp"

#include <cstdio>

struct BlurBase {
  void operator()(const stencil::Index2D &idx, const float *u, float *a) const {
    a[idx.ix()] = 0.25f * u[idx.ix<-1, 0>()] + 0.5f * u[idx.ix()] +
                  0.25f * u[idx.ix<0, 1>()];
  }
};
struct Blur : BlurBase {};
struct Own : BlurBase { // its own operator() hides the base's
  void operator()(const stencil::Index2D &idx, const float *u, float *a) const {
    a[idx.ix()] = u[idx.ix<1, 0>()] - u[idx.ix<0, -1>()];
  }
};
template <typename D> struct Scaled {
  void operator()(const stencil::Index2D &idx, const float *u, float *a) const {
    a[idx.ix()] = 3.0f * u[idx.ix<1, 1>()];
  }
};
struct Thrice : Scaled<Thrice> {};
template struct Scaled<Thrice>; // (the engines' calls of it are not the file's)
template <int D> struct Box {
  struct K {
    void operator()(const stencil::Index2D &idx, const float *u, float *a) const {
      a[idx.ix()] = D * u[idx.ix<-1, 0>()];
    }
  };
};
template struct Box<3>::K; // likewise for a functor inside a class template

#ifdef TWO_BASES
struct OtherBase {
  void operator()(const stencil::Index2D &idx, const float *u, float *a) const {
    a[idx.ix()] = u[idx.ix()];
  }
};
struct Both : BlurBase, OtherBase {}; // TWO: error: functor stencil 'Both' must define exactly one non-template 'operator()'
void runBoth(float *u, float *a) {
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Loop(5, 1, 1, 5, 1, 1);
  Loop.run(Both(), u, a);
}
#endif
#ifdef UNCALLED
struct Twice : Scaled<Twice> {};
void runTwice(float *u, float *a) {
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Loop(5, 1, 1, 5, 1, 1);
  Loop.run(Twice(), u, a);
}
// (Box<2>::K's error comes first: stencils are lowered in the order of their definitions.)
// UNCALLED: error: call to 'K::operator()', which has no visible definition
// UNCALLED: note: 'Box<2>::K' is a class of a class template's instance, whose members C++ compiles only where they are called; instantiate it: 'template struct Box<2>::K;'
// UNCALLED: error: call to 'Twice::operator()', which has no visible definition
// UNCALLED: note: 'Twice' inherits it from 'Scaled<Twice>', a class template's instance whose members C++ compiles only where they are called; instantiate it: 'template struct Scaled<Twice>;'
void runNested(float *u, float *a) {
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Loop(5, 1, 1, 5, 1, 1);
  Loop.run(Box<2>::K(), u, a);
}
#endif

template <typename Engine, typename S> std::vector<float> runOnce(S Stencil) {
  return runOnce2D<Engine>(Stencil, 9, 7, 1, 1);
}

template <typename S> int same(const char *Name, S Stencil) {
  auto Host = runOnce<stencil::HostLoopEngine2D>(Stencil);
  auto OpenMP = runOnce<stencil::OpenMPLoopEngine2D>(Stencil);
  std::printf("%s bit-equal %d, computed %d\n", Name, Host == OpenMP ? 1 : 0,
              Host[10] != -7.0f ? 1 : 0);
  return Host == OpenMP ? 0 : 1;
}

int main() {
  const int Wrong = same("Blur", Blur()) + same("Own", Own()) +
                    same("Thrice", Thrice()) + same("Box<3>::K", Box<3>::K());
  // The functors differ, so each ran its own operator().
  const auto B = runOnce<stencil::OpenMPLoopEngine2D>(Blur());
  const auto O = runOnce<stencil::OpenMPLoopEngine2D>(Own());
  std::printf("Blur and Own differ %d\n", B != O ? 1 : 0);
  return Wrong;
}
// OUT: Blur bit-equal 1, computed 1
// OUT: Own bit-equal 1, computed 1
// OUT: Thrice bit-equal 1, computed 1
// OUT: Box<3>::K bit-equal 1, computed 1
// OUT: Blur and Own differ 1
