// RUN: %stencilc %s -- -I %mock_include -Xclang -verify
#include <stencil/dsl.hpp>

struct Coefficients { float a, b; };

STENCIL_KERNEL void structParam(const stencil::Index3D &idx, Coefficients c, float *fn) { // expected-error {{parameter 'c' of stencil 'structParam' has type 'Coefficients'; stencil parameters are scalars by value or pointers to scalars (arrays)}}
  fn[idx.ix()] = 0.0f;
}

STENCIL_KERNEL void refParam(const stencil::Index3D &idx, float &out, float *fn) { // expected-error {{parameter 'out' of stencil 'refParam' has type 'float &'}}
  fn[idx.ix()] = 0.0f;
}

// Generated code cannot name the user's enumeration (it neither unpacks the
// argument nor checks the signature), nor keep volatile values in registers.
enum Mode { Fast, Exact };
namespace ns { enum class Wide : long long { One }; }

STENCIL_KERNEL void modeParam(const stencil::Index3D &idx, Mode m, float *fn) { // expected-error {{parameter 'm' of stencil 'modeParam' has enumeration type 'Mode', which generated code cannot name; pass its underlying integer type}}
  fn[idx.ix()] = m == Fast ? 1.0f : 0.0f;
}

STENCIL_KERNEL void wideArray(const stencil::Index3D &idx, const ns::Wide *w, float *fn) { // expected-error {{parameter 'w' of stencil 'wideArray' has enumeration type 'const ns::Wide *'}}
  fn[idx.ix()] = 0.0f;
}

STENCIL_KERNEL void volatileParam(const stencil::Index3D &idx, const volatile float *f, float *fn) { // expected-error {{parameter 'f' of stencil 'volatileParam' has volatile type 'const volatile float *'; generated code keeps values in registers, which volatile forbids}}
  fn[idx.ix()] = f[idx.ix()];
}

STENCIL_KERNEL void volatileScalar(const stencil::Index3D &idx, volatile float c, float *fn) { // expected-error {{parameter 'c' of stencil 'volatileScalar' has volatile type 'volatile float'}}
  fn[idx.ix()] = c;
}

// C varargs: generated code passes exactly the declared parameters.
STENCIL_KERNEL void varStencil(const stencil::Index3D &idx, float *fn, ...) { // expected-error {{stencil 'varStencil' takes a variable argument list ('...'); generated code passes exactly the parameters a stencil or step declares}}
  fn[idx.ix()] = 0.0f;
}

// Named like a CUDA vector type at global scope: the generated .cu file could
// not declare it (in a namespace it can).
STENCIL_KERNEL void int2(const stencil::Index3D &idx, float *fn) { // expected-error {{stencil 'int2' has the name of a CUDA vector type, which the CUDA headers declare at global scope: the generated code could not declare the function; rename it or put it in a namespace}}
  fn[idx.ix()] = 0.0f;
}
STENCIL_KERNEL void dim3(const stencil::Index3D &idx, float *fn) { // expected-error {{stencil 'dim3' has the name of a CUDA vector type}}
  fn[idx.ix()] = 0.0f;
}
namespace fine {
STENCIL_KERNEL void float4(const stencil::Index3D &idx, float *fn) {
  fn[idx.ix()] = 0.0f;
}
} // namespace fine
STENCIL_KERNEL void int5(const stencil::Index3D &idx, float *fn) {
  fn[idx.ix()] = 0.0f;
}
STENCIL_KERNEL void ufloat2(const stencil::Index3D &idx, float *fn) {
  fn[idx.ix()] = 0.0f;
}
STENCIL_KERNEL void ulonglong3(const stencil::Index3D &idx, float *fn) { // expected-error {{stencil 'ulonglong3' has the name of a CUDA vector type}}
  fn[idx.ix()] = 0.0f;
}
