// A switch is an if/else chain on its value: groups of labels, each ended by
// 'break' (or 'return' at a helper's end), the default taken last wherever it
// is written. The OpenMP run gives the host reference's bits for every
// point; each branch is taken somewhere, so a wrong chain fails. A switch
// was refused before ("unsupported statement in a stencil: 'switch'").
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cpu,cuda -o %t -- -std=c++17 -I %runtime_include 2>&1 | FileCheck %s --allow-empty --check-prefix=WARN
// RUN: c++ -std=c++17 -O0 -fopenmp -I %runtime_include %s %t/switch-run.stencil.cpp -o %t/run
// RUN: %t/run | FileCheck %s --check-prefix=OUT
// WARN-NOT: warning
#include <stencil/dsl.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

enum class Scheme { Upwind, Centred, Third };
enum Side { West = 1, East = 2 };

// A helper ending in a switch whose cases return.
inline float weight(int m) {
  switch (m) {
  case 0:
    return 0.5f;
  case 1:
  case -1:
    return 0.25f;
  default:
    return 0.0f;
  }
}

// Cases that return on every path: in braces, by an if/else, by a switch.
inline float pick(int v, float x) {
  switch (v & 3) {
  case 0: {
    float t = x * 2.0f;
    return t;
  }
  case 1:
    if (x > 2.0f)
      return 1.0f;
    else
      return 2.0f;
  case 2:
    switch (v & 4) {
    case 0:
      return 3.0f;
    default:
      return x + 4.0f;
    }
  default:
    return -x;
  }
}

inline float flux(Scheme s, float l, float c, float r) {
  switch (s) {
  case Scheme::Upwind:
    return c - l;
  case Scheme::Centred:
    return 0.5f * (r - l);
  default:
    return (2.0f * r + 3.0f * c - 6.0f * l) / 6.0f;
  }
}

STENCIL_KERNEL void cases(const stencil::Index2D &idx, const int *k,
                          const float *a, float *b, int mode) {
  float v = 0.0f;
  switch (k[idx.ix()] % 7) {
  case 0:
    v = a[idx.ix()];
    break;
  default: // in the middle: taken when no case matches
    v = -1.0f;
    break;
  case 1:
  case 2:
  case 3: {
    float t = a[idx.ix<1, 0>()];
    v = t * 2.0f;
    break;
  }
  case 4:
    ;
  case 5:
    for (int m = -1; m <= 1; ++m)
      switch (m) { // the break ends this switch's case, not the loop
      case 0:
        v += 10.0f;
        break;
      default:
        v += weight(m) * a[idx.ix<0, 1>()];
      }
    break;
  }
  switch (const int w = mode + 1; w) {
  case West:
    v += flux(Scheme::Upwind, a[idx.ix<-1, 0>()], a[idx.ix()],
              a[idx.ix<1, 0>()]);
    break;
  case East:
    v += flux(static_cast<Scheme>(k[idx.ix()] & 1 ? 1 : 2),
              a[idx.ix<-1, 0>()], a[idx.ix()], a[idx.ix<1, 0>()]);
  }
  switch (static_cast<int>(k[idx.ix()] > 3)) {
  case 1:
    v *= 3.0f;
  }
  b[idx.ix()] = v + pick(k[idx.ix()], a[idx.ix<0, -1>()]);
}

int main() {
  const int N = 12, P = N * N;
  std::vector<int> K(P);
  std::vector<float> A(P), B(P, 7.0f), HB(P, 7.0f);
  unsigned S = 7;
  for (int I = 0; I < P; ++I) {
    S = S * 1103515245u + 12345u;
    K[I] = static_cast<int>((S >> 8) % 23) - 4;
    A[I] = static_cast<float>((S >> 12) % 1000) / 64.0f - 7.0f;
  }
  stencil::Loop2D<stencil::HostLoopEngine2D> Host(N - 2, 1, 1, N - 2, 1, 1);
  stencil::Loop2D<stencil::OpenMPLoopEngine2D> Omp(N - 2, 1, 1, N - 2, 1, 1);
  int Differ = 0;
  for (int Mode = -1; Mode <= 2; ++Mode) {
    Host.run(cases, K.data(), A.data(), HB.data(), Mode);
    Omp.run(cases, K.data(), A.data(), B.data(), Mode);
    for (int I = 0; I < P; ++I)
      Differ += std::memcmp(&B[I], &HB[I], sizeof(float)) != 0;
  }
  // OUT: switch: 0 points differ
  std::printf("switch: %d points differ\n", Differ);
}
