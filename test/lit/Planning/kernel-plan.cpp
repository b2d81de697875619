// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s
// RUN: rm -rf %t && %stencilc %s --emit=plan,cuda -o %t -- -I %mock_include
// RUN: FileCheck %s < %t/kernel-plan.stencil.plan
//
// The kernel plan of each variant (--emit=plan): thread mapping, queues, tile
// and every load's source, for a 3-D star, a 3-D box with an asymmetric
// footprint, a 2-D star, a stencil that reads an array it writes, and 4-D.
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Star {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()] + f[idx.ix<0, -1, 0>()] +
                   f[idx.ix<0, 1, 0>()] + f[idx.ix<0, 0, -1>()] + f[idx.ix<0, 0, 1>()];
  }
};

// CHECK-LABEL: stencil Star ({{.*}}kernel-plan.cpp:10), 3-D
// CHECK-NEXT:    default launch (CUDA, untuned): zmarch2 block (128, 2) chunk 2
// CHECK-NEXT:    variant grid: one point per thread; block (bx, by, bz) over x, y, z
// CHECK-NEXT:    variant zmarch: block (bx, by) over x, y; each thread marches a chunk of z; 1 point per thread
// CHECK-NEXT:      march loop: unrolled 4; queues loaded, used and shifted point by point
// CHECK-NEXT:      queue f (centre): z -1 .. +1, 3 registers
// CHECK-NEXT:      load f[-1,0,0]: memory
// CHECK-NEXT:      load f[0,-1,0]: memory
// CHECK-NEXT:      load f[0,0,-1]: queue f (centre) register 0
// CHECK-NEXT:      load f[0,0,1]: queue f (centre) register 2
// CHECK-NEXT:      load f[0,1,0]: memory
// CHECK-NEXT:      load f[1,0,0]: memory
// CHECK-NEXT:    variant zmarch2: block (bx, by) over x, y; each thread marches a chunk of z; 2 points per thread, adjacent in y
// CHECK-NEXT:      march loop: unrolled 2; queues loaded by every point before any body runs, shifted after the last
// CHECK-NEXT:      queue f (centre): z -1 .. +1, 3 registers
// CHECK-NEXT:      load f[-1,0,0]: memory
// CHECK-NEXT:      load f[0,-1,0]: the point -1 in y when this thread has it: queue f (centre) register 1; else memory
// CHECK-NEXT:      load f[0,0,-1]: queue f (centre) register 0
// CHECK-NEXT:      load f[0,0,1]: queue f (centre) register 2
// CHECK-NEXT:      load f[0,1,0]: the point +1 in y when this thread has it: queue f (centre) register 1; else memory
// CHECK-NEXT:      load f[1,0,0]: memory
// CHECK-NEXT:    variant smem: block (bx, by) over x, y; each thread marches a chunk of z; 1 point per thread
// CHECK-NEXT:      march loop: not unrolled; queues loaded, used and shifted point by point
// CHECK-NEXT:      queue f (centre): z -1 .. +1, 3 registers
// CHECK-NEXT:      tile: halo x -1 .. +1, y -1 .. +1; two barriers per step
// CHECK-NEXT:      tile of f: own cell from queue f (centre) register 1
// CHECK-NEXT:      load f[-1,0,0]: tile cell [-1,0]
// CHECK-NEXT:      load f[0,-1,0]: tile cell [0,-1]
// CHECK-NEXT:      load f[0,0,-1]: queue f (centre) register 0
// CHECK-NEXT:      load f[0,0,1]: queue f (centre) register 2
// CHECK-NEXT:      load f[0,1,0]: tile cell [0,1]
// CHECK-NEXT:      load f[1,0,0]: tile cell [1,0]
// CHECK-NEXT:    openmp: blocked for cache: y tiles x z chunks, sized at run time; 16 bytes per point of a tile row; halo 2 rows, 2 planes

// A box corner column read at two z offsets gets its own queue; the centre
// column only at z+2 (asymmetric): its queue holds 0 .. +2 although the
// centre itself is not read. The sibling of y-1 reads the other point's
// column queue where one exists.
struct STENCIL_KERNEL Box {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const double *f, double *fn) const {
    fn[idx.ix()] = f[idx.ix<1, -1, -1>()] + f[idx.ix<1, -1, 1>()] + f[idx.ix<0, 0, 2>()] +
                   f[idx.ix<1, 0, -1>()] + f[idx.ix<1, 0, 1>()];
  }
};

// CHECK-LABEL: stencil Box ({{.*}}kernel-plan.cpp:{{[0-9]+}}), 3-D
// CHECK-NEXT:    default launch (CUDA, untuned): zmarch block (64, 4) chunk 16
// CHECK:         variant zmarch:
// CHECK:           queue f (centre): z +2 .. +2, 1 registers
// CHECK-NEXT:      queue f [1,-1,0]: z -1 .. +1, 3 registers
// CHECK-NEXT:      queue f [1,0,0]: z -1 .. +1, 3 registers
// CHECK-NEXT:      load f[0,0,2]: queue f (centre) register 0
// CHECK-NEXT:      load f[1,-1,-1]: queue f [1,-1,0] register 0
// CHECK-NEXT:      load f[1,-1,1]: queue f [1,-1,0] register 2
// CHECK-NEXT:      load f[1,0,-1]: queue f [1,0,0] register 0
// CHECK-NEXT:      load f[1,0,1]: queue f [1,0,0] register 2
// CHECK:         variant zmarch2:
// CHECK:           load f[1,-1,-1]: the point -1 in y when this thread has it: queue f [1,0,0] register 0; else queue f [1,-1,0] register 0
// CHECK-NEXT:      load f[1,-1,1]: the point -1 in y when this thread has it: queue f [1,0,0] register 2; else queue f [1,-1,0] register 2
// CHECK-NEXT:      load f[1,0,-1]: queue f [1,0,0] register 0
// CHECK-NOT:     variant smem
// CHECK:         openmp: blocked for cache: {{.*}}; 40 bytes per point of a tile row; halo 1 rows, 3 planes

struct STENCIL_KERNEL Plane {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<-1, 0>()] + f[idx.ix<0, -1>()] + f[idx.ix<0, 1>()];
  }
};

// In 2-D the points of a thread are blockDim.x apart in x, and y is marched.
// CHECK-LABEL: stencil Plane ({{.*}}), 2-D
// CHECK-NEXT:    default launch (CUDA, untuned): zmarch2 block (256, 1) chunk 4
// CHECK:         variant zmarch2: block (bx) over x; each thread marches a chunk of y; 2 points per thread, blockDim.x apart in x
// CHECK-NEXT:      march loop: unrolled 2; queues loaded, used and shifted point by point
// CHECK-NEXT:      queue f (centre): y -1 .. +1, 3 registers
// CHECK-NEXT:      load f[-1,0]: memory
// CHECK-NEXT:      load f[0,-1]: queue f (centre) register 0
// CHECK-NEXT:      load f[0,1]: queue f (centre) register 2
// CHECK:         variant smem:
// CHECK:           tile: halo x -1 .. +0; two barriers per step
// CHECK:           load f[-1,0]: tile cell [-1]
// CHECK:         openmp: rows shared among threads

// An array the stencil writes is read from memory, as written.
struct STENCIL_KERNEL InPlace {
  STENCIL_HD void operator()(const ArrayIndex3D &idx, const float *g, float *u) const {
    u[idx.ix()] = u[idx.ix()] + g[idx.ix<0, 0, 1>()];
  }
};

// CHECK-LABEL: stencil InPlace
// CHECK:         variant zmarch:
// CHECK:           load g[0,0,1]: queue g (centre) register 0
// CHECK-NEXT:      load u[0,0,0]: memory

struct STENCIL_KERNEL Hyper {
  STENCIL_HD void operator()(const stencil::Index4D &idx, const float *f, float *fn) const {
    fn[idx.ix()] = f[idx.ix<0, 0, 0, 1>()];
  }
};

// 4-D: the grid variant only.
// CHECK-LABEL: stencil Hyper ({{.*}}), 4-D
// CHECK-NEXT:    default launch (CUDA, untuned): grid block (64, 4) z 1
// CHECK-NEXT:    variant grid: one point per thread; block (bx, by, bz) over x, y, z (z and w share blockIdx.z)
// CHECK-NEXT:    openmp: blocked for cache
