// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

STENCIL_KERNEL void breaks(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = 0.0f;
  for (int m = 0; m < 4; ++m) {
    if (s > 1.0f)
      break; // expected-error {{unsupported statement in a stencil: 'break'}}
    s += f[idx.ix()];
  }
  fn[idx.ix()] = s;
}

// A switch is an if/else chain (Frontend/switch-run.cpp); what no chain
// says is refused, at the statement that says it.
STENCIL_KERNEL void fallsThrough(const stencil::Index3D &idx, int mode, const float *f, float *fn) {
  float v = 0.0f;
  switch (mode) {
  case 0:
    v = f[idx.ix()];
  case 1: // expected-error {{unsupported statement in a stencil: a 'case' reached from the statements before it (falling through: end them with 'break')}}
    v += 1.0f;
  }
  fn[idx.ix()] = v;
}

STENCIL_KERNEL void fallsThroughMarked(const stencil::Index3D &idx, int mode, float *fn) {
  float v = 0.0f;
  switch (mode) {
  case 0:
    v = 2.0f;
    [[fallthrough]];
  default: // expected-error {{a 'case' reached from the statements before it}}
    v += 1.0f;
  }
  fn[idx.ix()] = v;
}

STENCIL_KERNEL void breaksEarly(const stencil::Index3D &idx, int mode, float *fn) {
  float v = 0.0f;
  switch (mode) {
  case 0:
    if (v > 1.0f)
      break; // expected-error {{unsupported statement in a stencil: 'break'}}
    v = 2.0f;
    break;
  }
  fn[idx.ix()] = v;
}

STENCIL_KERNEL void continuesLoop(const stencil::Index3D &idx, int mode, float *fn) {
  float v = 0.0f;
  for (int m = 0; m < 3; ++m) {
    switch (m + mode) {
    case 1:
      continue; // expected-error {{unsupported statement in a stencil: 'continue'}}
    default:
      v += 1.0f;
    }
  }
  fn[idx.ix()] = v;
}

STENCIL_KERNEL void beforeFirstCase(const stencil::Index3D &idx, int mode, float *fn) {
  float v = 0.0f;
  switch (mode) {
    v = 3.0f; // expected-error {{unsupported statement in a stencil: a statement before the first 'case' of a 'switch'}}
  case 0:
    v = 2.0f;
  }
  fn[idx.ix()] = v;
}

STENCIL_KERNEL void afterBreak(const stencil::Index3D &idx, int mode, float *fn) {
  float v = 0.0f;
  switch (mode) {
  case 0:
    v = 2.0f;
    break;
    v = 3.0f; // expected-error {{unsupported statement in a stencil: a statement after the 'break' or 'return' that ends a case, which no label reaches}}
  case 1:
    v = 4.0f;
  }
  fn[idx.ix()] = v;
}

STENCIL_KERNEL void caseRange(const stencil::Index3D &idx, int mode, float *fn) {
  float v = 0.0f;
  switch (mode) {
  case 0 ... 3: // expected-error {{unsupported statement in a stencil: a GNU case range ('case A ... B')}}
    v = 2.0f;
  }
  fn[idx.ix()] = v;
}

STENCIL_KERNEL void sharedLocal(const stencil::Index3D &idx, int mode, float *fn) {
  switch (mode) {
  case 0:
    float t; // expected-error {{unsupported statement in a stencil: a declaration at the top level of a case that later cases can use (declare it inside braces or before the 'switch')}}
    t = 1.0f;
    fn[idx.ix()] = t;
    break;
  case 1:
    t = 2.0f;
    fn[idx.ix()] = t;
  }
}

STENCIL_KERNEL void nestedLabel(const stencil::Index3D &idx, int mode, float *fn) {
  float v = 0.0f;
  switch (mode) {
  case 0:
    if (v < 1.0f) {
    case 1: // expected-error {{unsupported statement in a stencil: a 'case' or 'default' label inside a statement of its 'switch'}}
      v = 2.0f;
    }
  }
  fn[idx.ix()] = v;
}

STENCIL_KERNEL void conditionVariable(const stencil::Index3D &idx, int mode, float *fn) {
  switch (int m = mode * 2) { // expected-error {{unsupported statement in a stencil: a declaration in a switch condition}}
  default:
    fn[idx.ix()] = static_cast<float>(m);
  }
}

// A helper ending in a switch must return on every path: with a default.
inline float noDefault(int m) {
  switch (m) { // expected-error {{helper 'noDefault' must return only at the end of its body, of both branches of a final if/else or of every case of a final switch}}
  case 0:
    return 1.0f;
  }
} // expected-warning {{non-void function does not return a value in all control paths}}
inline float breakInValueHelper(int m) {
  switch (m) {
  case 0:
    break; // expected-error {{helper 'breakInValueHelper'}}
  default:
    return 2.0f;
  }
} // expected-warning {{non-void function does not return a value in all control paths}}
STENCIL_KERNEL void helpers(const stencil::Index3D &idx, int mode, float *fn) {
  fn[idx.ix()] = noDefault(mode) + breakInValueHelper(mode); // expected-note 2 {{inlined from here}}
}
