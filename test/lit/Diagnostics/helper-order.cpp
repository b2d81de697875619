// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
//
// Inlining runs a helper's body before the expression that uses its result.
// Where C++ leaves the order of the call and another access of an array the
// helper writes unspecified, there is no one result to match: refused. Where
// C++ orders them, accepted.
#include <stencil/dsl.hpp>
#include <cmath>

inline float bump(const stencil::Index2D &idx, float *p) {
  p[idx.ix()] += 1.0f;
  return 0.0f;
}
inline float get(const stencil::Index2D &idx, const float *p) { return p[idx.ix()]; }
inline float second(float a, float b) { return b; }
inline float twice(float a) { return 2.0f * a; }
inline float readsAfter(float a, const stencil::Index2D &idx, const float *p) {
  return a + p[idx.ix()];
}

STENCIL_KERNEL void unordered(const stencil::Index2D &idx, float *o, float *o2,
                              const float *a) {
  o2[idx.ix()] = o[idx.ix()] + bump(idx, o); // expected-error {{helper 'bump' writes array 'o', which this expression also reads outside the call, in an order inlining cannot keep (C++ leaves it unspecified, or reads through a reference after the call): call 'bump' in a statement of its own}}
  o2[idx.ix()] = second(bump(idx, o), get(idx, o)); // expected-error {{helper 'bump' writes array 'o', which this expression also reads outside the call}}
  o2[idx.ix()] = twice(o[idx.ix()]) * twice(bump(idx, o)); // expected-error {{helper 'bump' writes array 'o', which this expression also reads outside the call}}
  float t = bump(idx, o) + bump(idx, o); // expected-error {{helper 'bump' writes array 'o', which this expression also writes outside the call}}
  if (bump(idx, o) < o[idx.ix()]) // expected-error {{helper 'bump' writes array 'o'}}
    t = 1.0f;
  o2[idx.ix()] = t + (a[idx.ix()] > 0.0f ? o[idx.ix()] + bump(idx, o) : 0.0f); // expected-error {{helper 'bump' writes array 'o'}}
}

// The same inside a helper: refused there, with the call that inlined it.
inline float inner(const stencil::Index2D &idx, float *p) {
  return p[idx.ix()] - bump(idx, p); // expected-error {{helper 'bump' writes array 'o', which this expression also reads outside the call}}
}
STENCIL_KERNEL void nested(const stencil::Index2D &idx, float *o, float *o2) {
  o2[idx.ix()] = inner(idx, o); // expected-note {{in helper 'inner' inlined from here}}
}

// Ordered by C++: the store after its right side, an argument before the
// body, the condition of ?: and the left side of && before the rest, two
// branches of ?:, one statement after another, other arrays.
STENCIL_KERNEL void ordered(const stencil::Index2D &idx, float *o, float *o2,
                            const float *a) {
  o[idx.ix()] = bump(idx, o);
  o[idx.ix()] += bump(idx, o);
  o2[idx.ix()] = readsAfter(bump(idx, o), idx, o);
  float t = a[idx.ix()] > 0.0f ? bump(idx, o) : o[idx.ix()];
  t += o[idx.ix()] > 0.0f && bump(idx, o) > 0.0f ? 1.0f : 0.0f;
  t += (bump(idx, o) > 0.0f ? o[idx.ix()] : 0.0f);
  float u = bump(idx, o);
  o2[idx.ix()] = t + u + o[idx.ix()] + a[idx.ix()] * bump(idx, o2);
}

// A const reference to an element of an array the helper writes: C++ reads
// the element where the parameter is used, after the write; stencilc's copy
// would not see it. By value, or an array the helper does not write: fine.
inline float refThenWrite(const float &x, const stencil::Index2D &idx, float *p) {
  p[idx.ix()] = 5.0f;
  return x;
}
inline float valueThenWrite(float x, const stencil::Index2D &idx, float *p) {
  p[idx.ix()] = 5.0f;
  return x;
}
inline float refThroughHelper(const float &x, const stencil::Index2D &idx, float *p) {
  return bump(idx, p) + x;
}
STENCIL_KERNEL void references(const stencil::Index2D &idx, float *o, float *o2,
                               const float *a) {
  float t = refThenWrite(o[idx.ix()], idx, o); // expected-error {{parameter 'x' of helper 'refThenWrite' refers to an element of array 'o', which the helper writes; C++ reads 'x' where it is used, after the write: take 'x' by value}}
  t += refThroughHelper(o[idx.ix()], idx, o); // expected-error {{parameter 'x' of helper 'refThroughHelper' refers to an element of array 'o', which the helper writes}}
  t += valueThenWrite(o[idx.ix()], idx, o);
  t += refThenWrite(a[idx.ix()], idx, o);
  o2[idx.ix()] = t + refThenWrite(o2[idx.ix()] + 1.0f, idx, o2);
}

// A reference bound through ?: or std::min names an element too; one bound
// to an element another argument's helper writes is read after that write
// (the copy would be taken before it).
inline float viaRef(const float &x, const stencil::Index2D &idx, float *p) {
  return refThenWrite(x, idx, p);
}
inline float refAdd(const float &x, float y) { return x + y; }
STENCIL_KERNEL void referencesThrough(const stencil::Index2D &idx, float *o, float *o2,
                                      const float *a) {
  float t = refThenWrite(a[idx.ix()] < 1.0f ? o[idx.ix()] : o2[idx.ix()], idx, o); // expected-error {{parameter 'x' of helper 'refThenWrite' refers to an element of array 'o', which the helper writes}}
  t += refThenWrite(std::min(o[idx.ix()], 1000.0f), idx, o); // expected-error {{parameter 'x' of helper 'refThenWrite' refers to an element of array 'o'}}
  t += viaRef(a[idx.ix()] < 1.0f ? o[idx.ix()] : a[idx.ix()], idx, o); // expected-error {{parameter 'x' of helper 'viaRef' refers to an element of array 'o'}}
  t += refAdd(o[idx.ix()], bump(idx, o)); // expected-error {{helper 'bump' writes array 'o', which this expression also reads outside the call}}
  t += refThenWrite(std::min(a[idx.ix()], 1000.0f), idx, o);
  o2[idx.ix()] = t;
}

// std::min reads through its references after both arguments (the bumped
// value either way). C++17 orders << and >> left first, but the lowering runs
// the right side's helper first: refused.
STENCIL_KERNEL void shiftsAndMin(const stencil::Index2D &idx, int *n, float *o, float *o2) {
  n[idx.ix()] = (int)o[idx.ix()] << (int)bump(idx, o); // expected-error {{helper 'bump' writes array 'o', which this expression also reads outside the call}}
  n[idx.ix()] += (int)o[idx.ix()] >> (int)bump(idx, o); // expected-error {{helper 'bump' writes array 'o', which this expression also reads outside the call}}
  o2[idx.ix()] = std::min(o[idx.ix()], bump(idx, o));
  o2[idx.ix()] += std::max(bump(idx, o), o[idx.ix()]);
  o2[idx.ix()] += std::max(bump(idx, o), o[idx.ix()] + 1.0f); // expected-error {{helper 'bump' writes array 'o', which this expression also reads outside the call}}
  o2[idx.ix()] += std::min(o[idx.ix()], 1.0f) + bump(idx, o); // expected-error {{helper 'bump' writes array 'o', which this expression also reads outside the call}}
  o2[idx.ix()] += std::sqrt(o[idx.ix()]) + bump(idx, o); // expected-error {{helper 'bump' writes array 'o', which this expression also reads outside the call}}
}

// The arguments of a variadic helper: refused (they would be dropped).
inline float first(float x, ...) { return x; }
STENCIL_KERNEL void variadic(const stencil::Index2D &idx, float *o, float *o2) {
  o2[idx.ix()] = first(o[idx.ix()], bump(idx, o)); // expected-error {{unsupported expression in a stencil: call of a variadic helper (its '...' arguments)}}
}
