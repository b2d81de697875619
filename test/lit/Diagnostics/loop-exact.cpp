// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
//
// Trip counts follow C++ exactly in the counter's type; what the generated
// loop cannot reproduce exactly is an error, never a different count.
#include <stencil/dsl.hpp>

// A signed counter that would overflow is undefined behaviour in C++.
STENCIL_KERNEL void signedOverflow(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (int m = 2147483600; m > 0; m += 100) // expected-error {{loop variable 'm' of type 'int' overflows in the step from 2147483600; stencil loops must not overflow a signed variable}}
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}

// The step after the last trip overflows too: C++ still executes it.
STENCIL_KERNEL void lastStepOverflows(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (long m = 9223372036854775800L; m < 9223372036854775807L; m += 3) // expected-error {{loop variable 'm' of type 'long' overflows in the step from 9223372036854775806}}
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}

// INT64_MIN divided by -1 crashed the old trip computation (SIGFPE).
STENCIL_KERNEL void minByMinusOne(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (long m = 0; m != (-9223372036854775807L - 1); m -= 1) // expected-error {{loop runs more than 1048576 times (or never ends); stencil loops are limited to 1048576 iterations}}
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}

STENCIL_KERNEL void tooManyTrips(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (int m = 0; m <= 1048576; ++m) // expected-error {{loop runs more than 1048576 times}}
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}

// An unsigned counter that cycles without reaching its end never ends.
STENCIL_KERNEL void unsignedCycle(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (unsigned m = 0; m != 5u; m += 2u) // expected-error {{loop runs more than 1048576 times}}
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}

STENCIL_KERNEL void zeroStep(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (int m = 0; m < 4; m += 0) // expected-error {{loop runs more than 1048576 times}}
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}

// Counters the IR has no type for.
STENCIL_KERNEL void charCounter(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (unsigned char m = 250; m != 4; ++m) // expected-error {{loop variable 'm' has type 'unsigned char'; stencil loop variables are int, unsigned, long, unsigned long, long long or unsigned long long (and their aliases)}}
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}

STENCIL_KERNEL void boolCounter(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (bool m = false; m != true; m = true) // expected-error {{loop variable 'm' has type 'bool'}}
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}

// A step that is not a constant integer.
STENCIL_KERNEL void floatStep(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (int m = 0; m < 4; m += 1.5) // expected-error {{loop trip count is not a compile-time constant}}
    s += f[idx.ix()];
  fn[idx.ix()] = s;
}
