// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
//
// A repeat() call's level marks against its stencil: the previous level is
// the array a step reads, the next the one it writes. Swapped, one rank
// still gets the steps right, but a DomainLoop would exchange the array the
// steps write: refused where the marks are, with the parameter named.
#include <stencil/dsl.hpp>

struct STENCIL_KERNEL Smooth {
  void operator()(const stencil::Index3D &idx, float a, const float *f,
                  float *fn) const {
    fn[idx.ix()] = a * (f[idx.ix<-1, 0, 0>()] + f[idx.ix<1, 0, 0>()]);
  }
};

// Writes its output in one branch only: still the array a step writes.
struct STENCIL_KERNEL Clip {
  void operator()(const stencil::Index3D &idx, const float *f, float *fn) const {
    if (f[idx.ix()] > 0.0f)
      fn[idx.ix()] = f[idx.ix<0, 0, 1>()];
  }
};

// Reads two arrays, writes one.
struct STENCIL_KERNEL Mix {
  void operator()(const stencil::Index3D &idx, const float *k, const float *f,
                  float *fn) const {
    fn[idx.ix()] = k[idx.ix()] * f[idx.ix<0, 1, 0>()];
  }
};

void run(float *u, float *un, float *k) {
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> loop;
  loop.repeat(4, Smooth(), 0.5f, stencil::previousLevel(u), stencil::nextLevel(un));
  loop.repeat(4, Clip(), stencil::previousLevel(u), stencil::nextLevel(un));
  loop.repeat(4, Smooth(), 0.5f,
              stencil::nextLevel(u),      // expected-error {{stencil::nextLevel marks parameter 'f', which stencil 'Smooth' never writes: the next level is the array a step writes}}
              stencil::previousLevel(un)); // expected-error {{stencil::previousLevel marks parameter 'fn', which stencil 'Smooth' writes: the previous level is the array a step reads}}
  // Another read array as the next level: it is never written.
  loop.repeat(4, Mix(), stencil::nextLevel(k), // expected-error {{stencil::nextLevel marks parameter 'k', which stencil 'Mix' never writes}}
              stencil::previousLevel(u), un);
  // The other read array as the previous level: it is read, so allowed.
  loop.repeat(4, Mix(), stencil::previousLevel(k), u, stencil::nextLevel(un));
}

// A profile along z (an array of lower rank) or a scalar cannot trade places
// with the array a step writes: the steps would write past its end.
struct STENCIL_KERNEL Profile {
  void operator()(const stencil::Index3D &idx, float a, const float *p,
                  const float *f, float *fn) const {
    fn[idx.ix()] = a * f[idx.ix<1, 0, 0>()] * p[idx.ix_z()];
  }
};

void runProfile(float *p, float *u, float *un, float *k) {
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> loop;
  loop.repeat(2, Profile(), 0.5f, p, stencil::previousLevel(u), stencil::nextLevel(un));
  loop.repeat(2, Profile(), 0.5f, stencil::previousLevel(p), k, stencil::nextLevel(un)); // expected-error {{stencil::previousLevel marks parameter 'p' of stencil 'Profile', an array of lower rank: the two time levels are arrays over all of the stencil's dimensions, which trade places between steps}}
  loop.repeat(2, Profile(), 0.5f, p, stencil::nextLevel(u), stencil::previousLevel(un)); // expected-error {{stencil::nextLevel marks parameter 'f', which stencil 'Profile' never writes}} expected-error {{stencil::previousLevel marks parameter 'fn', which stencil 'Profile' writes}}
  // The marks one place off: on the scalar.
  loop.repeat(2, Profile(), stencil::previousLevel(u), p, k, stencil::nextLevel(un)); // expected-error {{stencil::previousLevel marks parameter 'a' of stencil 'Profile', a scalar}}
  loop.repeat(2, Profile(), stencil::nextLevel(un), p, stencil::previousLevel(u), k); // expected-error {{stencil::nextLevel marks parameter 'a' of stencil 'Profile', a scalar}}
}

// The same on the serial host engine (nothing is generated for it, and it
// cannot tell a profile from a field): refused all the same.
void runOnHost(float *p, float *u, float *un, float *k) {
  stencil::Loop3D<stencil::HostLoopEngine3D> loop;
  loop.repeat(2, Profile(), 0.5f, p, stencil::previousLevel(u), stencil::nextLevel(un));
  loop.repeat(2, Profile(), 0.5f, stencil::previousLevel(p), k, stencil::nextLevel(un)); // expected-error {{stencil::previousLevel marks parameter 'p' of stencil 'Profile', an array of lower rank}}
  loop.repeat(4, Smooth(), 0.5f,
              stencil::nextLevel(u),      // expected-error {{stencil::nextLevel marks parameter 'f', which stencil 'Smooth' never writes}}
              stencil::previousLevel(un)); // expected-error {{stencil::previousLevel marks parameter 'fn', which stencil 'Smooth' writes}}
}

// Marks missing or repeated (the runtime's static_assert is in a body
// stencilc does not instantiate): refused at the stencil, on every engine.
void runMarks(float *p, float *u, float *un, float *k) {
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> loop;
  stencil::Loop3D<stencil::HostLoopEngine3D> host;
  loop.repeat(4, Smooth(), 0.5f, u, stencil::nextLevel(un)); // expected-error {{repeat() marks 0 argument(s) stencil::previousLevel and 1 stencil::nextLevel: mark exactly one of each, the array a step reads and the one it writes}}
  loop.repeat(4, Smooth(), 0.5f, u, un); // expected-error {{repeat() marks 0 argument(s) stencil::previousLevel and 0 stencil::nextLevel}}
  host.repeat(2, Mix(), stencil::previousLevel(k), stencil::previousLevel(u), stencil::nextLevel(un)); // expected-error {{repeat() marks 2 argument(s) stencil::previousLevel and 1 stencil::nextLevel}}
}

// The levels trade places: one type, not const (the runtime's static_asserts
// say so too, in bodies stencilc skips). On every engine, in templates too.
struct STENCIL_KERNEL Widen {
  void operator()(const stencil::Index3D &idx, const float *f, double *fn) const {
    fn[idx.ix()] = f[idx.ix<0, 0, 1>()];
  }
};
template <typename LoopT, typename P> void advance(LoopT &loop, P *&f, float *&fn) {
  loop.repeat(2, Smooth(), 0.5f, stencil::previousLevel(f), stencil::nextLevel(fn)); // expected-error {{repeat()'s time levels are 'const float *' (stencil::previousLevel) and 'float *' (stencil::nextLevel): they trade places between steps, so they must be of one type, pointers to non-const elements or stencil::Fields}}
}
void runTypes(float *u, float *un, const float *c, double *d) {
  stencil::Loop3D<stencil::OpenMPLoopEngine3D> loop;
  stencil::Loop3D<stencil::HostLoopEngine3D> host;
  loop.repeat(2, Widen(), stencil::previousLevel(u), stencil::nextLevel(d)); // expected-error {{repeat()'s time levels are 'float *' (stencil::previousLevel) and 'double *' (stencil::nextLevel)}}
  host.repeat(2, Smooth(), 0.5f, stencil::previousLevel(c), stencil::nextLevel(un)); // expected-error {{repeat()'s time levels are 'const float *' (stencil::previousLevel) and 'float *' (stencil::nextLevel)}}
  const float *cu = u, *cun = un;
  loop.repeat(2, Smooth(), 0.5f, stencil::previousLevel(cu), stencil::nextLevel(cun)); // expected-error {{repeat()'s time levels are 'const float *' (stencil::previousLevel) and 'const float *' (stencil::nextLevel)}}
  advance(loop, c, un); // the error is in advance()
  advance(loop, u, un); // fine
  loop.repeat(2, Smooth(), 0.5f, stencil::previousLevel(u), stencil::nextLevel(un)); // fine
}
