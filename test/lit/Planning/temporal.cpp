// Time loops: a stencil passed to a loop's repeat() gets CUDA passes of
// several steps for each array it could read as its previous level (its
// type and rank, within a reach of 4), with the plan's defaults; one that
// cannot says why; a stencil only run() gets none.
// RUN: %stencilc %s --emit=plan -o - -- -I %mock_include | FileCheck %s --check-prefix=PLAN
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=CUDA64
// RUN: %stencilc %s --emit=cuda --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=KEEPS
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Heat {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un,
                             float coef) const {
    un[idx.ix()] = u[idx.ix()] + coef * (u[idx.ix<1, 0, 0>()] + u[idx.ix<0, -1, 0>()] +
                                      u[idx.ix<0, 0, 2>()] - 3.0f * u[idx.ix()]);
  }
};
// k and u could each be the previous level: two pairs.
struct STENCIL_KERNEL VarCoef {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const double *k, const double *u,
                             double *un) const {
    un[idx.ix()] = u[idx.ix()] + k[idx.ix<1, 0>()] * (u[idx.ix<-1, 0>()] - u[idx.ix()]);
  }
};
// Reads the array it writes: no passes.
struct STENCIL_KERNEL InPlace {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = un[idx.ix()] + u[idx.ix<1, 0, 0>()];
  }
};
// Stores on one path only.
STENCIL_KERNEL
void partial(const stencil::Index2D &idx, const float *u, float *un) {
  if (u[idx.ix()] > 0.0f)
    un[idx.ix()] = u[idx.ix<0, 1>()];
}
// Only run(), never repeated.
struct STENCIL_KERNEL Once {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix<0, 0, 1>()];
  }
};

// Repeated by a DomainLoop (over MPI ranks); uses its z coordinate.
struct STENCIL_KERNEL Spread {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix<-1, 0, 0>()] + 0.5f * static_cast<float>(idx.k());
  }
};

// Integers: a thread computes only the levels its point needs (an unneeded
// value could be a zero it divides by).
struct STENCIL_KERNEL IntDiv {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const int *a, int *b) const {
    b[idx.ix()] = (a[idx.ix<-1, 0>()] + a[idx.ix<1, 0>()]) / (a[idx.ix()] + 1);
  }
};

// f64: tiles of 512 threads by default, so the tuner also tries one twice
// as high (1024 threads).
struct STENCIL_KERNEL Heat64 {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u, double *un) const {
    un[idx.ix()] = 0.5 * u[idx.ix()] + 0.25 * (u[idx.ix<0, 1, 0>()] + u[idx.ix<0, 0, -1>()]);
  }
};

// Eight points a level: too dear to compute levels before they are wanted,
// so the steady part starts where every level is (Heat's, four points,
// starts at its chunk's first plane).
struct STENCIL_KERNEL Eight {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix<-1, 0, 0>()] + u[idx.ix<1, 0, 0>()] + u[idx.ix<0, -1, 0>()] +
                   u[idx.ix<0, 1, 0>()] + u[idx.ix<0, 0, -1>()] + u[idx.ix<0, 0, 1>()] +
                   u[idx.ix<1, 1, 0>()] + u[idx.ix()];
  }
};

// A division by a constant, a 2-D f32 star: a barrier a level, rows in
// registers; a chunk inside the region takes the exact product and checks it
// once (the chunk again, dividing, where one may differ).
struct STENCIL_KERNEL Mean {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *un) const {
    un[idx.ix()] = (u[idx.ix<-1, 0>()] + u[idx.ix<0, 1>()]) / 118.0f;
  }
};
// The same with a corner read: rings of rows, whose steady part takes the
// exact product and checks it once a plane.
struct STENCIL_KERNEL MeanBox {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *un) const {
    un[idx.ix()] = (u[idx.ix<-1, 1>()] + u[idx.ix<0, 1>()]) / 118.0f;
  }
};
// 0.7's reciprocal has no split of one sign that passes: its division is
// tested where it is computed, and a chunk checks only 118's products.
struct STENCIL_KERNEL MeanMixed {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix<-1, 0>()] / 0.7f + u[idx.ix<0, 1>()] / 118.0f;
  }
};
// Two least dividends (1e-6's 2^-113, 12345.678's 2^-84): the chunk's one
// test takes the larger, below which 12345.678's products may differ.
struct STENCIL_KERNEL MeanTwo {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix<-1, 0>()] / 1e-6f + u[idx.ix<0, 1>()] / 12345.678f;
  }
};
// With 0.7 alone, no chunk checks products.
struct STENCIL_KERNEL MeanSeven {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *u, float *un) const {
    un[idx.ix()] = (u[idx.ix<-1, 0>()] + u[idx.ix<0, 1>()]) / 0.7f;
  }
};

// A box summed by planes: passes of 2 to 4 steps may be too, where the two
// arrays hold the same margin.
struct STENCIL_KERNEL BoxSum {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = 0.1f * u[idx.ix<-1, -1, -1>()] + 0.2f * u[idx.ix<1, 1, -1>()] +
                   0.3f * u[idx.ix<0, -1, 0>()] + 0.4f * u[idx.ix<1, 0, 0>()] +
                   0.5f * u[idx.ix<-1, 1, 1>()] + 0.6f * u[idx.ix<1, 1, 1>()];
  }
};
// The same reading a second array: not by planes.
struct STENCIL_KERNEL BoxTwo {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, const float *c,
                             float *un) const {
    un[idx.ix()] = u[idx.ix<-1, -1, -1>()] + u[idx.ix<1, 1, -1>()] + c[idx.ix()] +
                   u[idx.ix<-1, 1, 1>()] + u[idx.ix<1, 1, 1>()];
  }
};

// Off-centre columns read at two planes, in terms out of the planes' order:
// summed by planes, the two terms of plane -1 held two planes each.
struct STENCIL_KERNEL BoxOrder {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix<1, 1, 1>()] + u[idx.ix<-1, -1, -1>()] + u[idx.ix<1, 1, -1>()];
  }
};
// One more held term: more registers a point than MaxHeldValues.
struct STENCIL_KERNEL BoxScrambled {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = u[idx.ix<1, 1, 1>()] + u[idx.ix<-1, -1, -1>()] + u[idx.ix<1, 1, -1>()] + u[idx.ix<0, 0, 0>()];
  }
};
// AN5D's star as written: the plane below's term after the centre plane's.
struct STENCIL_KERNEL StarAn5d {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = 0.25f * u[idx.ix()] + 0.1248f * u[idx.ix<-1, 0, 0>()] +
                   0.1249f * u[idx.ix<1, 0, 0>()] + 0.1250f * u[idx.ix<0, -1, 0>()] +
                   0.1251f * u[idx.ix<0, 1, 0>()] + 0.1252f * u[idx.ix<0, 0, -1>()] +
                   0.1253f * u[idx.ix<0, 0, 1>()];
  }
};
// A star with its terms in the planes' order: its passes summed by planes in
// f32 (its single step keeps the queues: no zsum), not in f64.
struct STENCIL_KERNEL StarOrdered {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = 0.1f * u[idx.ix<0, 0, -1>()] + 0.2f * u[idx.ix<0, -1, 0>()] +
                   0.3f * u[idx.ix<-1, 0, 0>()] + 0.4f * u[idx.ix()] +
                   0.5f * u[idx.ix<1, 0, 0>()] + 0.6f * u[idx.ix<0, 1, 0>()] +
                   0.7f * u[idx.ix<0, 0, 1>()];
  }
};
// Of radius 2 along z, or along x: not by planes; nor one reading only its
// own column.
struct STENCIL_KERNEL StarOrdered2 {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = 0.1f * u[idx.ix<0, 0, -2>()] + 0.4f * u[idx.ix<1, 0, 0>()] + 0.7f * u[idx.ix<0, 0, 1>()];
  }
};
struct STENCIL_KERNEL StarOrderedX2 {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = 0.1f * u[idx.ix<0, 0, -1>()] + 0.4f * u[idx.ix<-2, 0, 0>()] + 0.7f * u[idx.ix<0, 0, 1>()];
  }
};
struct STENCIL_KERNEL OwnColumn {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *u, float *un) const {
    un[idx.ix()] = 0.1f * u[idx.ix<0, 0, -1>()] + 0.4f * u[idx.ix()] + 0.7f * u[idx.ix<0, 0, 1>()];
  }
};
struct STENCIL_KERNEL StarOrdered64 {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u, double *un) const {
    un[idx.ix()] = 0.1 * u[idx.ix<0, 0, -1>()] + 0.4 * u[idx.ix<-1, 0, 0>()] + 0.7 * u[idx.ix<0, 0, 1>()];
  }
};
// 3-D f64 with a coefficient array, and 3-D integers: where the margin is the
// centre below, their threads of the margin take it without computing.
struct STENCIL_KERNEL Heat64Coef {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *u, const double *c,
                             double *un) const {
    un[idx.ix()] = 0.5 * u[idx.ix()] + c[idx.ix()] * u[idx.ix<0, 0, -1>()];
  }
};
struct STENCIL_KERNEL IntStar3 {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const int *a, int *b) const {
    b[idx.ix()] = a[idx.ix<-1, 0, 0>()] + a[idx.ix<0, 0, 1>()] - a[idx.ix()];
  }
};
// bool levels: their margins compared a byte an element.
struct STENCIL_KERNEL BoolOr {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const bool *a, bool *b) const {
    b[idx.ix()] = a[idx.ix<1, 0, 0>()] || a[idx.ix<0, 0, -1>()];
  }
};
// A coefficient read 40 planes apart: no plan along z, so no sums by planes
// (said as such, not as a sum of another type).
struct STENCIL_KERNEL FarCoef {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *c, const float *u,
                             float *un) const {
    un[idx.ix()] = u[idx.ix<0, 0, -1>()] + u[idx.ix()] + c[idx.ix()] + c[idx.ix<0, 0, 40>()];
  }
};

void timeLoops(float *u, float *un, double *k, double *v, double *vn, int *ia,
               int *ib, double *w, double *wn, float *c, bool *ba, bool *bb) {
  stencil::DomainLoop dl;
  dl.repeat(4, Spread(), stencil::previousLevel(u), stencil::nextLevel(un));
  stencil::Loop3D<> l3;
  stencil::Loop2D<> l2;
  l3.repeat(10, Heat(), stencil::previousLevel(u), stencil::nextLevel(un), 0.1f);
  l2.repeat(10, VarCoef(), k, stencil::previousLevel(v), stencil::nextLevel(vn));
  l3.repeat(3, InPlace(), stencil::previousLevel(u), stencil::nextLevel(un));
  l2.repeat(3, partial, stencil::previousLevel(u), stencil::nextLevel(un));
  l3.run(Once(), u, un);
  l2.repeat(3, IntDiv(), stencil::previousLevel(ia), stencil::nextLevel(ib));
  l3.repeat(5, Heat64(), stencil::previousLevel(w), stencil::nextLevel(wn));
  l3.repeat(5, Eight(), stencil::previousLevel(u), stencil::nextLevel(un));
  l2.repeat(4, Mean(), stencil::previousLevel(u), stencil::nextLevel(un));
  l2.repeat(4, MeanBox(), stencil::previousLevel(u), stencil::nextLevel(un));
  l2.repeat(4, MeanMixed(), stencil::previousLevel(u), stencil::nextLevel(un));
  l2.repeat(4, MeanSeven(), stencil::previousLevel(u), stencil::nextLevel(un));
  l2.repeat(4, MeanTwo(), stencil::previousLevel(u), stencil::nextLevel(un));
  l3.repeat(4, BoxSum(), stencil::previousLevel(u), stencil::nextLevel(un));
  l3.repeat(4, BoxTwo(), stencil::previousLevel(u), un, stencil::nextLevel(un));
  l3.repeat(4, BoxOrder(), stencil::previousLevel(u), stencil::nextLevel(un));
  l3.repeat(4, BoxScrambled(), stencil::previousLevel(u), stencil::nextLevel(un));
  l3.repeat(4, StarAn5d(), stencil::previousLevel(u), stencil::nextLevel(un));
  l3.repeat(4, StarOrdered(), stencil::previousLevel(u), stencil::nextLevel(un));
  l3.repeat(4, StarOrdered64(), stencil::previousLevel(w), stencil::nextLevel(wn));
  l3.repeat(4, StarOrdered2(), stencil::previousLevel(u), stencil::nextLevel(un));
  l3.repeat(4, StarOrderedX2(), stencil::previousLevel(u), stencil::nextLevel(un));
  l3.repeat(4, OwnColumn(), stencil::previousLevel(u), stencil::nextLevel(un));
  l3.repeat(4, FarCoef(), c, stencil::previousLevel(u), stencil::nextLevel(un));
  l3.repeat(4, Heat64Coef(), stencil::previousLevel(w), k, stencil::nextLevel(wn));
  l3.repeat(4, IntStar3(), stencil::previousLevel(ia), stencil::nextLevel(ib));
  l3.repeat(4, BoolOr(), stencil::previousLevel(ba), stencil::nextLevel(bb));
}

// PLAN-LABEL: stencil Heat
// PLAN: temporal (CUDA): u -> un, up to 8 steps per pass; reach x -0..+1 y -1..+0 z -0..+2; a ring of 4 planes per level; own columns from the rings from 4 steps a pass (shorter: level 1's, the others' from registers)
// PLAN-NEXT: temporal default: 1 step (one by one); a pass: tile 32 x 32, chunk 64
// PLAN-NEXT: temporal tiles with constant extents: 32 x 32, 64 x 16 (others: the kernel with runtime extents)
// PLAN-NEXT: temporal registers: 32 a thread up to 4 steps per pass (two blocks of 1024 threads an SM), up to 64 above
// PLAN-NEXT: temporal steady part: every thread computes every level; from a chunk's first plane where the loop's are in the region{{$}}
// PLAN-NEXT: temporal margin: the level below's centre where the two arrays hold the same (passes of up to 4 steps, tiles with constant extents), else from memory
// PLAN-NEXT: temporal passes summed by planes: none: no sum by planes: a term reads two planes
// PLAN-LABEL: stencil VarCoef
// PLAN: temporal (CUDA): k -> un, up to 16 steps per pass; reach x -0..+1 y -0..+0; a ring of 2 rows per level; own columns from the rings from 4 steps a pass (shorter: level 1's, the others' from registers)
// PLAN-NEXT: temporal (CUDA): u -> un, up to 16 steps per pass; reach x -1..+0 y -0..+0; a ring of 2 rows per level; own columns from the rings from 4 steps a pass (shorter: level 1's, the others' from registers)
// PLAN-NEXT: temporal default: 1 step (one by one); a pass: tile 256, chunk 128
// PLAN-NEXT: temporal tiles with constant extents: 256, 512 (others: the kernel with runtime extents)
// PLAN-NEXT: temporal registers: 32 a thread up to 3 steps per pass (two blocks of 1024 threads an SM), up to 48 above (where nvcc can bound them so; 64 before 12.4)
// PLAN-NEXT: temporal steady part: a thread computes the levels wanted at its point
// PLAN-NOT: temporal margin
// PLAN-LABEL: stencil InPlace
// PLAN: temporal (CUDA): none: it reads the array it writes ('un')
// PLAN-LABEL: stencil partial
// PLAN: temporal (CUDA): none: it does not store 'un' on every path
// PLAN-LABEL: stencil Once
// PLAN-NOT: temporal (CUDA)
// PLAN-LABEL: stencil Spread
// PLAN: temporal (CUDA): u -> un, up to 8 steps per pass; reach x -1..+0 y -0..+0 z -0..+0; a ring of 2 planes per level; own columns from the rings from 6 steps a pass (shorter: level 1's, the others' from registers)
// PLAN-LABEL: stencil IntDiv
// PLAN: temporal steady part: a thread computes the levels wanted at its point
// PLAN-LABEL: stencil Heat64
// PLAN: temporal default: 1 step (one by one); a pass: tile 32 x 16, chunk 128
// PLAN-NEXT: temporal tiles with constant extents: 32 x 16, 64 x 8, 32 x 32 (others: the kernel with runtime extents)
// PLAN: temporal margin: the level below's centre where the two arrays hold the same (passes of up to 3 steps, tiles with constant extents; its threads compute the levels too), else from memory
// PLAN-LABEL: stencil Eight
// PLAN: temporal steady part: every thread computes every level{{$}}
// PLAN-LABEL: stencil Mean
// PLAN: temporal (CUDA): u -> un, up to 16 steps per pass; reach x -1..+0 y -0..+1; 2 rows per level in registers, the neighbours along x from a shared row, a barrier a level
// PLAN: temporal registers: 32 a thread up to 4 steps per pass (two blocks of 1024 threads an SM), up to 40 above
// PLAN: temporal chunks: with no test where the tile and every level's rows are inside the region; there exact divisions as products, the chunk again dividing where one may differ (a dividend below 2^-92){{$}}
// PLAN-NOT: temporal steady part
// PLAN-LABEL: stencil MeanBox
// PLAN: temporal (CUDA): u -> un, up to 16 steps per pass; reach x -1..+0 y -0..+1; a ring of 3 rows per level
// PLAN: temporal steady part: every thread computes every level; printed again for blocks with no point of the margin; exact divisions as products, checked once a plane (a dividend below 2^-92){{$}}
// PLAN-LABEL: stencil MeanMixed
// PLAN: float divisions by constants (CUDA): by 0.7 as an exact product (1); by 118 as an exact product (1)
// PLAN: temporal chunks: with no test where the tile and every level's rows are inside the region; there exact divisions as products, the chunk again dividing where one may differ (a dividend below 2^-92){{$}}
// PLAN-LABEL: stencil MeanTwo
// PLAN: the chunk again dividing where one may differ (a dividend below 2^-84){{$}}
// PLAN-LABEL: stencil MeanSeven
// PLAN: temporal chunks: with no test where the tile and every level's rows are inside the region{{$}}
// PLAN-LABEL: stencil BoxSum
// PLAN: temporal passes summed by planes: 2 to 4 steps, 4 points a thread (a tile of bx x by points, all stored, by a multiple of 4, at most 512 threads; the border each level below the last adds, at most 2 points a thread), where the two arrays' margins are the same; compiled with constant extents for 32 x 8, 64 x 4, 64 x 8 threads; the tuner also tries 64 x 32 points, which only this pass takes (the rings' pass in halves)
// PLAN-LABEL: stencil BoxTwo
// PLAN: temporal passes summed by planes: none: it reads more than one array
// PLAN-LABEL: stencil BoxOrder
// PLAN: temporal passes summed by planes: 2 to 4 steps, {{.*}} where the two arrays' margins are the same; term 2 of plane -1 held 2 planes, added at plane +1; term 3 of plane -1 held 2 planes, added at plane +1; compiled with constant extents for 32 x 8, 64 x 4, 64 x 8 threads; the tuner also tries 64 x 32 points, which only this pass takes (the rings' pass in halves)
// PLAN-LABEL: stencil BoxScrambled
// PLAN: temporal passes summed by planes: none: no sum by planes: its terms of earlier planes after later ones would hold 5 values a point in registers (the passes summed by planes hold at most 4, the single step's zsum none)
// PLAN-LABEL: stencil StarAn5d
// PLAN: temporal passes summed by planes: 2 to 4 steps, {{.*}} where the two arrays' margins are the same; term 6 of plane -1 held 1 plane, added at plane 0; compiled with constant extents for 32 x 8, 64 x 4, 64 x 8 threads; the tuner also tries 64 x 32 points, which only this pass takes (the rings' pass in halves)
// PLAN-LABEL: stencil StarOrdered (
// PLAN-NOT: variant zsum
// PLAN: temporal passes summed by planes: 2 to 4 steps, 4 points a thread (a tile of bx x by points, all stored, by a multiple of 4, at most 512 threads; the border each level below the last adds, at most 2 points a thread), where the two arrays' margins are the same; compiled with constant extents for 32 x 8, 64 x 4, 64 x 8 threads; the tuner also tries 64 x 32 points, which only this pass takes (the rings' pass in halves)
// PLAN-LABEL: stencil StarOrdered2
// PLAN: temporal passes summed by planes: none: a star (no column off the centre read at two planes) reaching further than 1: only radius 1 was measured faster so
// PLAN-LABEL: stencil StarOrderedX2
// PLAN: temporal passes summed by planes: none: a star (no column off the centre read at two planes) reaching further than 1: only radius 1 was measured faster so
// PLAN-LABEL: stencil OwnColumn
// PLAN: temporal passes summed by planes: none: it reads no column but the point's own
// PLAN-LABEL: stencil StarOrdered64
// PLAN-NOT: variant zsum
// PLAN: temporal passes summed by planes: 2 steps, 2 points a thread (a tile of bx x by points, all stored, by a multiple of 2, at most 512 threads; the border each level below the last adds, at most 2 points a thread), where the two arrays' margins are the same; compiled with constant extents for 32 x 8, 64 x 4, 32 x 16 threads
// PLAN-LABEL: stencil Heat64Coef
// PLAN: temporal margin: the level below's centre where the two arrays hold the same (passes of up to 3 steps, tiles with constant extents), else from memory
// PLAN-LABEL: stencil IntStar3
// PLAN: temporal margin: the level below's centre where the two arrays hold the same (passes of up to 4 steps, tiles with constant extents), else from memory
// PLAN-LABEL: stencil FarCoef
// PLAN: temporal passes summed by planes: none: no sum by planes: no plan marching along z: a queue would span more than 32 planes

// Mean's division (below): its product alone, and the least dividend kept.
// CUDA: __device__ __forceinline__ float stencilc_divide_or(float x, float high, float low, unsigned &smallest) { const unsigned b = __float_as_uint(x) * 2u - 2u; smallest = b < smallest ? b : smallest; return __fmaf_rn(x, high, __fmul_rn(x, low)); }
// CUDA: // CENTRE_MARGIN: both arrays hold the same margin, so a level's is the level below's centre.
// CUDA-NEXT: template <int STEPS, int BX, int BY, bool CENTRE_MARGIN = false>
// CUDA-NEXT: __global__ void __launch_bounds__(1024, STEPS <= 4 ? 2 : 1) stencilc_Heat_temporal0(const stencil::Grid g, const stencil::Region r, const stencil::Region stencilc_store, const long long stencilc_chunk, const float *stencilc_margin0, const float *stencilc_margin1, const float *__restrict__ u, float *__restrict__ un, float coef) {
// Four points a level: the steady part from the chunk's first plane where
// every plane from the loop's first (reach 0 behind, 3 a level) is in the
// region, the last level stored from the chunk's first plane on.
// CUDA: const int stencilc_steady = stencilc_first - STEPS * (0 + 3) >= r.lo[2] ? stencilc_first - STEPS * 0 : stencilc_first + STEPS * 3;
// The level's own column from registers (level 0's, and every level's in
// passes of 4 steps or more, from its ring), its neighbours from the ring.
// CUDA: stencilc_value = (stencilc_l == 1 || STEPS >= 4 ? stencilc_ring[stencilc_sk * stencilc_plane + stencilc_cell] : stencilc_q[stencilc_l - 1][1]) + (coef * (((stencilc_ring[stencilc_sk * stencilc_plane + stencilc_cell + 1] + stencilc_ring[stencilc_sk * stencilc_plane + stencilc_cell - 1 * stencilc_bx]) + (stencilc_l == 1 || STEPS >= 4 ? stencilc_ring[((stencilc_sk + 6) % 4) * stencilc_plane + stencilc_cell] : stencilc_q[stencilc_l - 1][3])) - (3.0f * (stencilc_l == 1 || STEPS >= 4 ? stencilc_ring[stencilc_sk * stencilc_plane + stencilc_cell] : stencilc_q[stencilc_l - 1][1]))));
// CUDA: if (stencilc_l == STEPS && stencilc_keep && stencilc_k >= stencilc_first){{$}}
// The margin: the centre below where both arrays hold the same (after the
// level, which every thread computes), else from memory.
// CUDA-NEXT: un[c] = stencilc_v;
// CUDA-NEXT: if (CENTRE_MARGIN && stencilc_l < STEPS && stencilc_edge)
// CUDA-NEXT: stencilc_v = (stencilc_l == 1 || STEPS >= 4 ? stencilc_ring[stencilc_sk * stencilc_plane + stencilc_cell] : stencilc_q[stencilc_l - 1][1]);
// CUDA-NEXT: }
// CUDA-NEXT: if (!CENTRE_MARGIN && stencilc_l < STEPS && stencilc_edge) {
// The tuner's tiles get instances with constant extents, others the
// runtime's; the constant ones of up to 4 steps a pass another where the
// two margins are one array.
// CUDA: static auto stencilc_Heat_temporal0_instance(const unsigned bx, const unsigned by, const bool same) -> decltype(&stencilc_Heat_temporal0<STEPS, 0, 0>) {
// CUDA: if (bx == 32u && by == 32u) {
// CUDA-NEXT: if constexpr (STEPS <= 4)
// CUDA-NEXT: if (same)
// CUDA-NEXT: return stencilc_Heat_temporal0<STEPS, 32, 32, true>;
// CUDA-NEXT: return stencilc_Heat_temporal0<STEPS, 32, 32>;
// CUDA-NEXT: }
// CUDA-NEXT: if (bx == 64u && by == 16u) {
// CUDA-NEXT: if constexpr (STEPS <= 4)
// CUDA-NEXT: if (same)
// CUDA-NEXT: return stencilc_Heat_temporal0<STEPS, 64, 16, true>;
// CUDA-NEXT: return stencilc_Heat_temporal0<STEPS, 64, 16>;
// CUDA-NEXT: }
// CUDA-NEXT: return stencilc_Heat_temporal0<STEPS, 0, 0>;
// CUDA: const auto kernel = stencilc_Heat_temporal0_instance<STEPS>(block.x, block.y, m0 == m1);
// The rings' pass takes a tile of more points than a block has threads in
// halves.
// CUDA: static void stencilc_Heat_temporal0_rings_tile(long long (&tile)[2]) {
// CUDA-NEXT: while (tile[0] * tile[1] > 1024)
// CUDA-NEXT: tile[tile[1] > tile[0] ? 1 : 0] = (tile[tile[1] > tile[0] ? 1 : 0] + 1) / 2;
// CUDA: static const char *stencilc_Heat_temporal0_same_margins(
// CUDA: static const char *stencilc_Heat_temporal0_cuda_launch(const stencil::Grid &g, const stencil::Region &r, const stencil::Region &stencilc_store, const stencil::LaunchConfig &cfg, int steps, const void *const *margins, void *const *args) {
// CUDA: if (stencilc_store.hi[0] <= stencilc_store.lo[0] || stencilc_store.hi[1] <= stencilc_store.lo[1] || stencilc_store.hi[2] <= stencilc_store.lo[2])
// CUDA-NEXT: return nullptr;
// CUDA-NEXT: if (stencilc_store.lo[0] < r.lo[0] || stencilc_store.hi[0] > r.hi[0] || stencilc_store.lo[1] < r.lo[1] || stencilc_store.hi[1] > r.hi[1] || stencilc_store.lo[2] < r.lo[2] || stencilc_store.hi[2] > r.hi[2])
// CUDA-NEXT: return "the store region is not inside the region";
// CUDA: long long stencilc_tile[2] = {cfg.block[0], cfg.block[1]};
// CUDA-NEXT: stencilc_Heat_temporal0_rings_tile(stencilc_tile);
// CUDA: const long long stencilc_ux = stencilc_tile[0] - steps * 1LL;
// CUDA: const long long gx = (stencilc_store.hi[0] - stencilc_store.lo[0] + stencilc_ux - 1) / stencilc_ux;
// CUDA: const dim3 block(static_cast<unsigned>(stencilc_tile[0]), static_cast<unsigned>(stencilc_tile[1]), 1);
// CUDA: case 8: return stencilc_Heat_temporal0_run<8>(
// CUDA: case 1: err = cudaFuncGetAttributes(&a, stencilc_Heat_temporal0_instance<1>(static_cast<unsigned>(tile[0]), static_cast<unsigned>(tile[1]), false)); break;
// CUDA: stencil::registerGeneratedTemporal(/*abiVersion=*/{{[0-9]+}}, {
// CUDA: /*timeInput=*/0,
// CUDA-NEXT: /*timeOutput=*/1,
// CUDA-NEXT: /*reach=*/{{[{][{]}}0, 1}, {1, 0}, {0, 2}, {0, 0}},
// CUDA-NEXT: /*maxSteps=*/8,
// CUDA-NEXT: /*defaultSteps=*/1,
// CUDA-NEXT: /*defaultBlock=*/{32, 32, 64},
// CUDA-NEXT: /*tiles=*/{{[{][{]}}32, 32}, {64, 16}},
// CUDA-NEXT: /*tileCount=*/2,
// CUDA: /*sameMargins=*/&stencilc_Heat_temporal0_same_margins});
// 2-D passes: 48 registers above two blocks' steps, where nvcc can say so.
// CUDA: #define STENCILC_PASS_REGISTERS(TWO, MOST) __maxnreg__((TWO) ? 32 : (MOST))
// CUDA: #define STENCILC_PASS_REGISTERS(TWO, MOST) __launch_bounds__(1024, (TWO) ? 2 : 1)
// CUDA: __global__ void STENCILC_PASS_REGISTERS(STEPS <= 3, 48) stencilc_VarCoef_temporal0(
// 2-D passes take their margins from memory.
// CUDA-NOT: CENTRE_MARGIN
// CUDA: stencilc_VarCoef_temporal0_cuda_launch
// CUDA: stencilc_VarCoef_temporal1_cuda_launch
// CUDA-NOT: stencilc_InPlace_temporal
// CUDA-NOT: stencilc_Once_temporal
// The coordinates a stencil uses (bit 2: z), for time loops over ranks.
// CUDA: stencilc_registered_Spread =
// CUDA: /*coordinates=*/4u,
// CUDA: stencilc_Spread_temporal0_cuda_launch
// f64, reading the time input alone: where the margin is the centre below,
// its threads compute the levels too, then take it.
// CUDA: const int stencilc_computes = CENTRE_MARGIN && stencilc_column ? stencilc_deepest : stencilc_work;
// CUDA: if (stencilc_l <= stencilc_computes) {
// CUDA: if (CENTRE_MARGIN && stencilc_l < STEPS && stencilc_edge)
// CUDA: else if (!CENTRE_MARGIN && stencilc_l < STEPS && stencilc_edge) {
// The tuner's tiles, the plan's, with constant extents (those of up to 3
// steps a pass also taking the margin from the centre).
// CUDA: if (bx == 32u && by == 32u) {
// CUDA-NEXT: if constexpr (STEPS <= 3)
// CUDA-NEXT: if (same)
// CUDA-NEXT: return stencilc_Heat64_temporal0<STEPS, 32, 32, true>;
// CUDA-NEXT: return stencilc_Heat64_temporal0<STEPS, 32, 32>;
// CUDA: /*tiles=*/{{[{][{]}}32, 16}, {64, 8}, {32, 32}},
// CUDA-NEXT: /*tileCount=*/3,
// Eight points a level: the steady part from where every level is wanted.
// CUDA: stencilc_Eight_temporal0(
// CUDA: const int stencilc_steady = stencilc_first + STEPS * 2;
// CUDA: if (stencilc_l == STEPS && stencilc_keep){{$}}
// Mean: the levels' rows in registers, the neighbours along x from one of
// two shared rows, a barrier a level. A chunk with no row or column outside
// the region takes the products; the chunk function (every row tested,
// dividing) runs the others, and runs it again where a product may differ.
// CUDA: template <int STEPS, int BX>
// CUDA-NEXT: __device__ __noinline__ void stencilc_Mean_temporal0_chunk(const stencil::Grid g, const stencil::Region r, const long long i,
// CUDA: constexpr int stencilc_group = (STEPS * 2) % 2 ? 4 : 2;
// CUDA: float stencilc_q[STEPS][2] = {};
// CUDA: stencilc_q[0][(stencilc_u + 18) % 2] = stencilc_input(stencilc_k0, i + stencilc_k0 * sy);
// CUDA: float *const stencilc_row = stencilc_rows + ((stencilc_u * STEPS + stencilc_l) & 1) * stencilc_row_size;
// CUDA-NEXT: stencilc_row[stencilc_tx] = stencilc_q[stencilc_l - 1][(stencilc_u - stencilc_l * 1 + 18) % 2];
// CUDA-NEXT: __syncthreads();
// CUDA: stencilc_v = (stencilc_l & 1 ? stencilc_margin1 : stencilc_margin0)[c];
// CUDA: stencilc_value = stencilc_divide(stencilc_row[stencilc_tx - 1] + stencilc_q[stencilc_l - 1][(stencilc_u - stencilc_l * 1 + 19) % 2], 118.0f,
// Above 4 steps, 40 registers: six blocks of 256 threads an SM.
// CUDA: __global__ void STENCILC_PASS_REGISTERS(STEPS <= 4, 40) stencilc_Mean_temporal0(
// CUDA: const bool stencilc_clear = stencilc_i0 >= r.lo[0] && stencilc_i0 + stencilc_bx <= r.hi[0] && stencilc_base - STEPS * 1 >= r.lo[1] && stencilc_stop <= r.hi[1];
// CUDA-NEXT: bool stencilc_again = !stencilc_clear;
// CUDA-NEXT: if (stencilc_clear) {
// CUDA-NEXT: unsigned stencilc_smallest = 0xffffffffu;
// CUDA: stencilc_q[0][(stencilc_u + 18) % 2] = u[i + stencilc_k0 * sy];
// 118's split: 1/118 rounded toward zero, the rest of one sign; products
// of dividends below 2^-92 (0x11800000, so 0x22fffffe) may differ.
// CUDA: stencilc_value = stencilc_divide_or(stencilc_row[stencilc_tx - 1] + stencilc_q[stencilc_l - 1][(stencilc_u - stencilc_l * 1 + 19) % 2], 0.008474575f, 9.155374e-10f, stencilc_smallest);
// CUDA: stencilc_again = __syncthreads_or(stencilc_smallest < 0x22fffffeu);
// CUDA: if (stencilc_again)
// CUDA-NEXT: stencilc_Mean_temporal0_chunk<STEPS, BX>(g, r, i, stencilc_first, stencilc_end, stencilc_base, stencilc_stop, stencilc_keep, stencilc_rows, stencilc_margin0, stencilc_margin1, u, un);
// CUDA: static unsigned long long stencilc_Mean_temporal0_shared(int steps, unsigned bx, unsigned by) {
// CUDA: return 2ULL * (bx + 1ULL) * sizeof(float);
// Blocks with no point of the margin run a steady part with no branch a level
// for it; there MeanBox's divisions are products, checked once a plane.
// CUDA: __global__ void STENCILC_PASS_REGISTERS(STEPS <= 4, 48) stencilc_MeanBox_temporal0(
// CUDA: const bool stencilc_edge_block = __syncthreads_or(stencilc_edge);
// CUDA: if (!stencilc_edge_block) {
// CUDA: unsigned stencilc_smallest = 0xffffffffu;
// CUDA: stencilc_value = stencilc_divide_or(
// CUDA-SAME: , 0.008474575f, 9.155374e-10f, stencilc_smallest);
// CUDA: if (stencilc_smallest < 0x22fffffeu) {
// CUDA: stencilc_value = stencilc_divide(
// CUDA: else {
// CUDA: if (stencilc_l < STEPS && stencilc_edge) {
// Two divisions: 0.7's (its split's parts of two signs) tested where it is
// computed, 118's product alone and checked once a chunk.
// CUDA: __global__ void STENCILC_PASS_REGISTERS(STEPS <= 4, 40) stencilc_MeanMixed_temporal0(
// CUDA: unsigned stencilc_smallest = 0xffffffffu;
// CUDA: stencilc_value = stencilc_divide(stencilc_row[stencilc_tx - 1], 0.7f, 1.4285715f, (-9.73137e-09f), 1.2621775e-29f) + stencilc_divide_or(stencilc_q[stencilc_l - 1][(stencilc_u - stencilc_l * 1 + 19) % 2], 0.008474575f, 9.155374e-10f, stencilc_smallest);
// CUDA: stencilc_again = __syncthreads_or(stencilc_smallest < 0x22fffffeu);
// Two least dividends: the larger (12345.678's 2^-84: bits 0x15800000).
// CUDA: __global__ void STENCILC_PASS_REGISTERS(STEPS <= 4, 40) stencilc_MeanTwo_temporal0(
// CUDA: stencilc_value = stencilc_divide_or(stencilc_row[stencilc_tx - 1], 1000000.0f, 0.0025247573f, stencilc_smallest) + stencilc_divide_or(
// CUDA-SAME: , 8.1000006e-05f, 2.7912431e-12f, stencilc_smallest);
// CUDA: stencilc_again = __syncthreads_or(stencilc_smallest < 0x2afffffeu);
// 0.7 alone: no chunk checks products.
// CUDA: __global__ void STENCILC_PASS_REGISTERS(STEPS <= 4, 40) stencilc_MeanSeven_temporal0(
// CUDA-NOT: stencilc_smallest
// CUDA: bool stencilc_again = !stencilc_clear;
// CUDA-NOT: stencilc_smallest
// CUDA: stencilc_value = stencilc_divide(stencilc_row[stencilc_tx - 1] + stencilc_q[stencilc_l - 1][(stencilc_u - stencilc_l * 1 + 19) % 2], 0.7f,
// CUDA-NOT: stencilc_smallest
// CUDA: if (stencilc_again)
// BoxSum: the pass summed by planes, taken where both margins are the input.
// CUDA: template <int STEPS, bool BORDERED, int BX = 0, int BY = 0>
// CUDA-NEXT: __global__ void __launch_bounds__(512, 2) stencilc_BoxSum_temporal0_planes(const stencil::Grid g, const stencil::Region r, const stencil::Region stencilc_store, const long long stencilc_chunk, const float *__restrict__ u, float *__restrict__ un) {
// Level 1 at iteration t completes plane q0 + t - 1; a margin point takes
// the level below's centre, read a plane before.
// The tile's threads: constants where compiled for the plan's tile.
// CUDA: const unsigned stencilc_bx = BX ? BX : blockDim.x, stencilc_by = BY ? BY : blockDim.y;
// CUDA-NOT: blockDim
// CUDA: const long long stencilc_done = stencilc_q0 + t - 1;
// Its border around the tile, from a thread's second point of it.
// CUDA: stencilc_dst[stencilc_xr1_b1 + 1 * stencilc_w + 1] = stencilc_zin && stencilc_xi1_b1 ? stencilc_o0 : stencilc_c1_b1_0;
// CUDA-NEXT: stencilc_c1_b1_0 = stencilc_src[1 * stencilc_w + 1];
// CUDA: stencilc_dst[0] = stencilc_zin && stencilc_in[0] ? stencilc_o0 : stencilc_c1_0_0;
// CUDA-NEXT: stencilc_c1_0_0 = stencilc_src[1 * stencilc_w + 1];
// CUDA: static constexpr int stencilc_BoxSum_temporal0_planes_points = 4;
// CUDA: static const char *stencilc_BoxSum_temporal0_planes_launch(
// CUDA: if (steps < 2 || steps > 4 || cfg.block[1] % stencilc_BoxSum_temporal0_planes_points != 0)
// CUDA-NEXT: return nullptr;
// CUDA-NEXT: const long long bx = cfg.block[0], by = cfg.block[1] / stencilc_BoxSum_temporal0_planes_points, nt = bx * by, uy = by * stencilc_BoxSum_temporal0_planes_points;
// Shrinking tiles or bordered ones, each within the block's shared memory,
// the cheaper by the points their blocks compute, a border's point weighed
// as the plan says.
// CUDA: const unsigned long long fits = static_cast<unsigned long long>(most);
// CUDA: const bool shrinking = ux0 > 0 && uy0 > 0 && (uy + 2) * (bx + 2) <= 6 * nt && stencilc_BoxSum_temporal0_planes_shared(steps, bx, by, false) <= fits;
// CUDA: const long long d = steps - l, p = d * 2 * (bx + d * 2) + d * 2 * uy;
// CUDA: bool bordered = widest <= 2 * nt && (uy + steps * 2) * ((bx + steps * 2) | 1) <= 6 * nt && stencilc_BoxSum_temporal0_planes_shared(steps, bx, by, true) <= fits;
// CUDA: bordered = blocks1 * (steps * nt * 4 + 2.7 * ring) < blocks0 * steps * nt * 4;
// CUDA: auto kernel = bordered ? stencilc_BoxSum_temporal0_planes<2, true> : stencilc_BoxSum_temporal0_planes<2, false>;
// The tuner's tiles with constant extents, the plan's default (32 x 32
// points, 32 x 8 threads) first, at every steps.
// CUDA: if (bx == 32 && by == 8) {
// CUDA-NEXT: kernel = bordered ? stencilc_BoxSum_temporal0_planes<2, true, 32, 8> : stencilc_BoxSum_temporal0_planes<2, false, 32, 8>;
// CUDA-NEXT: switch (steps) {
// CUDA-NEXT: case 3: kernel = bordered ? stencilc_BoxSum_temporal0_planes<3, true, 32, 8> : stencilc_BoxSum_temporal0_planes<3, false, 32, 8>; break;
// CUDA-NEXT: case 4: kernel = bordered ? stencilc_BoxSum_temporal0_planes<4, true, 32, 8> : stencilc_BoxSum_temporal0_planes<4, false, 32, 8>; break;
// And the tuner's other tiles these passes take, 64 x 32 points among them.
// CUDA: if (bx == 64 && by == 4) {
// CUDA: if (bx == 64 && by == 8) {
// CUDA-NEXT: kernel = bordered ? stencilc_BoxSum_temporal0_planes<2, true, 64, 8> : stencilc_BoxSum_temporal0_planes<2, false, 64, 8>;
// CUDA: static const char *stencilc_BoxSum_temporal0_same_margins(
// CUDA: static const char *stencilc_BoxSum_temporal0_cuda_launch(
// CUDA: if (margins[0] == margins[1] && margins[0] == static_cast<const void *>(u)) {
// CUDA-NEXT: bool stencilc_taken = false;
// CUDA-NEXT: const char *const stencilc_error = stencilc_BoxSum_temporal0_planes_launch(g, r, stencilc_store, cfg, steps, &stencilc_taken, u, un);
// The query: a tile of more than 1024 points, where the pass summed by
// planes takes it, is that pass's (its threads four points each).
// CUDA: static const char *stencilc_BoxSum_temporal0_query(
// CUDA: if (static_cast<long long>(bx) * by > 1024 && steps >= 2 && steps <= 4 && threads > 0 && threads <= 512) {
// CUDA: case 2: err = cudaFuncGetAttributes(&a, stencilc_BoxSum_temporal0_planes<2, false>); break;
// CUDA: out->threads = static_cast<int>(threads);
// CUDA: return nullptr;
// CUDA: long long tile[2] = {bx, by};
// CUDA-NEXT: stencilc_BoxSum_temporal0_rings_tile(tile);
// The tuner's tiles: the plan's, then the one only these passes take.
// CUDA: /*tiles=*/{{[{][{]}}32, 32}, {64, 16}, {64, 32}},
// CUDA-NEXT: /*tileCount=*/3,
// CUDA: /*sameMargins=*/&stencilc_BoxSum_temporal0_same_margins});
// CUDA: stencilc_BoxTwo_temporal0_cuda_launch
// CUDA-NOT: stencilc_BoxTwo_temporal0_planes
// CUDA: /*sameMargins=*/&stencilc_BoxTwo_temporal0_same_margins});
// With a coefficient array (f64), or integers: the threads of the margin
// take the centre below without computing the level.
// CUDA: stencilc_Heat64Coef_temporal0(
// CUDA-NOT: stencilc_computes
// CUDA: if (stencilc_l <= stencilc_work) {
// CUDA: else if (stencilc_l < STEPS && stencilc_edge) {
// CUDA-NEXT: if (CENTRE_MARGIN) {
// CUDA-NEXT: double *const stencilc_ring = stencilc_rings + (stencilc_l - 1) * 3 * stencilc_plane;
// CUDA-NEXT: stencilc_v = (stencilc_l == 1 || STEPS >= 3 ? stencilc_ring[stencilc_sk * stencilc_plane + stencilc_cell] : stencilc_q[stencilc_l - 1][{{[0-3]}}]);
// CUDA-NEXT: } else {
// CUDA-NEXT: {{.*}} const long long k = stencilc_k;
// CUDA: stencilc_IntStar3_temporal0(
// CUDA-NOT: stencilc_computes
// CUDA: if (CENTRE_MARGIN) {
// CUDA-NEXT: int *const stencilc_ring =
// CUDA: __global__ void stencilc_BoolOr_temporal0_margins_differ(
// CUDA-SAME: const unsigned char *a, const unsigned char *b, int *differ) {

// The f64 star's pass summed by planes: two points a thread, two steps (the
// rings' passes beyond), its one instance chosen without a switch. Its
// border has no band above or below (no row off the point's is read): no
// extent for them.
// CUDA64: stencilc_StarOrdered64_temporal0_planes(
// CUDA64: auto stencilc_border = [&](int e, int k, int *rd, bool *in) {
// CUDA64-NEXT: const int bh = stencilc_by * 2;
// CUDA64: static constexpr int stencilc_StarOrdered64_temporal0_planes_points = 2;
// CUDA64: static const char *stencilc_StarOrdered64_temporal0_planes_launch(
// CUDA64: if (steps < 2 || steps > 2 || cfg.block[1] % stencilc_StarOrdered64_temporal0_planes_points != 0)
// CUDA64: auto kernel = bordered ? stencilc_StarOrdered64_temporal0_planes<2, true> : stencilc_StarOrdered64_temporal0_planes<2, false>;
// CUDA64-NOT: switch (steps)
// CUDA64: if (bx == 32 && by == 8) {
// CUDA64-NEXT: kernel = bordered ? stencilc_StarOrdered64_temporal0_planes<2, true, 32, 8> : stencilc_StarOrdered64_temporal0_planes<2, false, 32, 8>;
// CUDA64-NOT: switch (steps)
// CUDA64: kernel<<<grid, block, shared, stream>>>

// The registry says which arrays keep what they held where a launch does
// not overwrite it (read at the centre, or stored on one path): a time loop
// over MPI ranks exchanges such a next level's halo too.
// KEEPS-DAG: static const bool stencilc_keeps_InPlace[] = {false, true};
// KEEPS-DAG: static const bool stencilc_keeps_partial[] = {false, true};
// KEEPS-DAG: static const bool stencilc_keeps_Once[] = {false, false};
