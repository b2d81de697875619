// A functor annotated inside a class template: each instance's functor is a
// stencil of its own, named with the instance's arguments (the profile's
// rows, --list, the kernels' symbols); the template's own functor, whose
// types and offsets depend on the arguments, is not one (stencilc read it
// and refused every dependent type, and registered "WrapR::K" for it).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --list -- -std=c++17 -I %runtime_include | FileCheck %s --check-prefix=LIST
// RUN: %stencilc %s --emit=cpu,cuda -o %t -- -std=c++17 -I %runtime_include
// RUN: FileCheck %s --check-prefix=CUDA < %t/template-member-functor-run.stencil.cu
// RUN: c++ -std=c++17 -O2 -fopenmp -I %runtime_include %s %t/template-member-functor-run.stencil.cpp -o %t/run
// RUN: env STENCIL_PROFILE=1 %t/run > %t/out.txt 2> %t/profile.txt
// RUN: FileCheck %s --check-prefix=OUT < %t/out.txt
// RUN: FileCheck %s --check-prefix=PROFILE < %t/profile.txt
#include "Inputs/run_2d.hpp"

#include <cstdio>

template <int R> struct WrapR {
  struct STENCIL_KERNEL K {
    STENCIL_HD void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
      fn[idx.ix()] = 0.5f * (f[idx.ix<R, 0>()] + f[idx.ix<-R, 0>()]);
    }
  };
};
template <typename T> struct WrapT {
  struct STENCIL_KERNEL K {
    STENCIL_HD void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
      const T s = T(f[idx.ix<1, 0>()]) / T(3);
      fn[idx.ix()] = float(s);
    }
  };
};
// Never instantiated: no stencil.
template <int R> struct Unused {
  struct STENCIL_KERNEL K {
    STENCIL_HD void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
      fn[idx.ix()] = f[idx.ix<R, 0>()];
    }
  };
};
// An argument's namespace stays in the name (two instances, two names).
namespace tag {
struct A {};
} // namespace tag
template <typename T> struct Tagged {
  struct STENCIL_KERNEL K {
    STENCIL_HD void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
      fn[idx.ix()] = 2.0f * f[idx.ix<-1, 0>()];
    }
  };
};
template struct WrapR<1>::K;
template struct WrapR<2>::K;
template struct WrapT<double>::K;
template struct Tagged<tag::A>::K;
// LIST-NOT: Unused
// LIST: WrapR<1>::K (functor, 2-D): halo x[1,1] y[0,0]
// LIST: WrapR<2>::K (functor, 2-D): halo x[2,2] y[0,0]
// LIST: WrapT<double>::K (functor, 2-D)
// LIST: Tagged<tag::A>::K (functor, 2-D)
// LIST-NOT: {{WrapR::K|Unused}}
// CUDA: __global__ void stencilc_WrapR_1__K_grid(
// CUDA: /*name=*/"WrapR<1>::K",
// CUDA: __global__ void stencilc_WrapR_2__K_grid(

template <typename S> int same(const char *Name) {
  auto Host = runOnce2D<stencil::HostLoopEngine2D>(S(), 13, 7, 2, 0);
  auto OpenMP = runOnce2D<stencil::OpenMPLoopEngine2D>(S(), 13, 7, 2, 0);
  std::printf("%s bit-equal %d\n", Name, Host == OpenMP ? 1 : 0);
  return Host == OpenMP ? 0 : 1;
}

int main() {
  return same<WrapR<1>::K>("WrapR<1>::K") + same<WrapR<2>::K>("WrapR<2>::K") +
         same<WrapT<double>::K>("WrapT<double>::K");
}
// OUT: WrapR<1>::K bit-equal 1
// OUT: WrapR<2>::K bit-equal 1
// OUT: WrapT<double>::K bit-equal 1
// Three rows, one a stencil (a row a name: the three were one).
// PROFILE: stencil profile: 3 launches of 3 stencil variants
// PROFILE-DAG: WrapR<1>::K grid openmp 1
// PROFILE-DAG: WrapR<2>::K grid openmp 1
// PROFILE-DAG: WrapT<double>::K grid openmp 1
