// RUN: %stencilc %s --emit=ir -o - -- -I %mock_include | FileCheck %s
//
// Trip counts follow C++ in the counter's type: unsigned wraparound, the
// usual conversions of the comparison, the step's computation type. Begin,
// step and trips in the IR reproduce the host's sequence of values.
#include <stencil/dsl.hpp>

#define LOOP_STENCIL(Name, Head)                                                        \
  STENCIL_KERNEL void Name(const stencil::Index3D &idx, const float *f, float *fn) {  \
    float s = 0.0f;                                                                     \
    for Head s += f[idx.ix()];                                                          \
    fn[idx.ix()] = s;                                                                   \
  }

// 0, 1e9, 2e9 pass; 3e9 does not: 3 trips (the old count said 0).
LOOP_STENCIL(unsignedBigStep, (unsigned m = 0; m < 3000000000u; m += 1000000000u))
// CHECK-LABEL: "name": "unsignedBigStep",
// CHECK: for m = 0 step 1000000000 trips 3\n

// The example: 0 passes, 1000000000 does not: 1 trip (not 0).
LOOP_STENCIL(unsignedSmallBound, (unsigned m = 0; m < 3u; m += 1000000000u))
// CHECK-LABEL: "name": "unsignedSmallBound",
// CHECK: for m = 0 step 1 trips 1\n

// A step wider than the counter's type: computed in unsigned long, then
// converted back to unsigned, 4294967297 adds 1: 10 trips (the old count
// said 1).
LOOP_STENCIL(widerStep, (unsigned m = 0; m < 10; m += 4294967297ul))
// CHECK-LABEL: "name": "widerStep",
// CHECK: for m = 0 step 1 trips 10\n
LOOP_STENCIL(widerStepSigned, (int m = 0; m < 10; m += 4294967297L))
// CHECK-LABEL: "name": "widerStepSigned",
// CHECK: for m = 0 step 1 trips 10\n

// 4294967290 ... 4294967295, then wraps to 0, 1, 2; 3 ends it: 9 trips.
LOOP_STENCIL(unsignedWrap, (unsigned m = 4294967290u; m != 3u; ++m))
// CHECK-LABEL: "name": "unsignedWrap",
// CHECK: for m = 4294967290 step 1 trips 9\n

// A step wider than the range wraps: 5, then 5 + 4294967295 = 4 (mod 2^32),
// 3, 2, 1, 0, then 4294967295 is not < 10: 6 trips.
LOOP_STENCIL(unsignedWideStep, (unsigned m = 5; m < 10; m += 4294967295u))
// CHECK-LABEL: "name": "unsignedWideStep",
// CHECK: for m = 5 step -1 trips 6\n

// An unsigned counter counting down past zero with `>`: 3 > 0, 2, 1; 0 is
// not > 0: 3 trips. With `>=` it wraps to 4294967295 >= 0 forever: error
// (see Diagnostics/loop-exact.cpp).
LOOP_STENCIL(unsignedDown, (unsigned m = 3; m > 0; --m))
// CHECK-LABEL: "name": "unsignedDown",
// CHECK: for m = 3 step -1 trips 3\n

// The comparison converts the int counter to unsigned: -1 is 4294967295,
// not < 3u, so the loop never runs.
LOOP_STENCIL(signedVsUnsigned, (int m = -1; m < 3u; ++m))
// CHECK-LABEL: "name": "signedVsUnsigned",
// CHECK: for m = -1 step 1 trips 0\n

// A signed counter going negative against an unsigned bound stops at -1
// (4294967295 is not < 10u): 2, 1, 0: 3 trips.
LOOP_STENCIL(signedDownUnsignedBound, (int m = 2; m < 10u; --m))
// CHECK-LABEL: "name": "signedDownUnsignedBound",
// CHECK: for m = 2 step -1 trips 3\n

// A step that overshoots the bound: 0 and 7 pass, 14 ends it.
LOOP_STENCIL(overshoot, (int m = 0; m < 10; m += 7))
// CHECK-LABEL: "name": "overshoot",
// CHECK: for m = 0 step 7 trips 2\n

// `!=` hit exactly: 10, 7, 4, 1; -2 ends it.
LOOP_STENCIL(notEqual, (int m = 10; m != -2; m -= 3))
// CHECK-LABEL: "name": "notEqual",
// CHECK: for m = 10 step -3 trips 4\n

// Near the top of long without overflow: 800, 803 run; 806 ends the loop
// (with `<` the step from 806 would overflow: Diagnostics/loop-exact.cpp).
LOOP_STENCIL(longNearMax, (long m = 9223372036854775800L; m != 9223372036854775806L; m += 3))
// CHECK-LABEL: "name": "longNearMax",
// CHECK: for m = 9223372036854775800 step 3 trips 2\n

// uint64_t beyond INT64_MAX, wrapping through zero.
LOOP_STENCIL(ulongWrap, (unsigned long m = 18446744073709551614ul; m != 2; ++m))
// CHECK-LABEL: "name": "ulongWrap",
// CHECK: for m = 18446744073709551614 step 1 trips 4\n

// int counter stepped by an unsigned constant: computed in unsigned and
// converted back; 4294967295u is -1 in the counter's type.
LOOP_STENCIL(signedUnsignedStep, (int m = 3; m > 0; m += 4294967295u))
// CHECK-LABEL: "name": "signedUnsignedStep",
// CHECK: for m = 3 step -1 trips 3\n

// A huge first step that ends the loop at once: only the direction matters.
LOOP_STENCIL(oneTrip, (long m = -5; m < 0; m -= (-9223372036854775807L - 1)))
// CHECK-LABEL: "name": "oneTrip",
// CHECK: for m = -5 step 1 trips 1\n

// == runs while equal: once here.
LOOP_STENCIL(equal, (int m = 0; m == 0; ++m))
// CHECK-LABEL: "name": "equal",
// CHECK: for m = 0 step 1 trips 1\n

// Exactly the limit.
LOOP_STENCIL(atLimit, (int m = 0; m < 1048576; ++m))
// CHECK-LABEL: "name": "atLimit",
// CHECK: for m = 0 step 1 trips 1048576\n
