// RUN: rm -rf %t && mkdir -p %t
// RUN: %stencilc %s --emit=cuda,cpu -o %t -- -I %mock_include
// RUN: FileCheck %s --check-prefixes=MAP,CUDA < %t/line-directives.stencil.cu
// RUN: FileCheck %s --check-prefixes=MAP,CPU < %t/line-directives.stencil.cpp
//
// Every directive naming the generated file gives the next line its own
// number in that file, so errors in the code around a body point at it:
// RUN: %python %S/check_line_directives.py %t/line-directives.stencil.cu %t/line-directives.stencil.cpp
//
// The line table a debugger or profiler reads names the user's lines.
// RUN: c++ -std=c++17 -fopenmp -g -O0 -c -I %runtime_include %t/line-directives.stencil.cpp -o %t/gen.o
// RUN: objdump --dwarf=decodedline %t/gen.o | FileCheck %s --check-prefix=DWARF
// DWARF-DAG: {{^}}line-directives.cpp 41
// DWARF-DAG: {{^}}line-directives.cpp 25
// --no-line-directives leaves them all out.
// RUN: %stencilc %s --emit=cpu --no-line-directives -o - -- -I %mock_include | FileCheck %s --check-prefix=NONE
// NONE-NOT: #line
//
// Each statement of the body (and of an inlined helper, at the helper's
// line) is preceded by the directive naming its line; a statement on the
// line after the previous one needs none.
#include <stencil/dsl.hpp>

inline float twice(float x) {
  float y = x + x;
  return y;
}

STENCIL_KERNEL void mapped(const stencil::Index3D &idx, const float *f, float *fn) {
  float s = f[idx.ix()];
  float t = 0.0f;
  if (s > 1.0f) {
    t = twice(s);
  } else if (s < -1.0f) {
    t = -s;
  } else {
    t = s;
  }
  for (int m = 0; m < 4; ++m)
    t = t * 0.5f;
  fn[idx.ix()] = t;
}

// MAP-LABEL: from {{.*}}line-directives.cpp:29, variant grid
// MAP:       #line 30 "{{/.*}}/CodeGen/line-directives.cpp"
// MAP-NEXT:  float s = f[c];
// MAP-NEXT:  float t = 0.0f;
// MAP-NEXT:  if (s > 1.0f) {
// MAP-NEXT:  float x = s;
// MAP-NEXT:  #line 33 "{{/.*}}/CodeGen/line-directives.cpp"
// MAP-NEXT:  float twice_result;
// MAP-NEXT:  {
// MAP-NEXT:  #line 25 "{{/.*}}/CodeGen/line-directives.cpp"
// MAP-NEXT:  float y = x + x;
// MAP-NEXT:  twice_result = y;
// MAP-NEXT:  }
// MAP-NEXT:  #line 33 "{{/.*}}/CodeGen/line-directives.cpp"
// MAP-NEXT:  t = twice_result;
// MAP-NEXT:  } else if (s < (-1.0f)) {
// MAP-NEXT:  t = -s;
// MAP-NEXT:  } else {
// MAP-NEXT:  t = s;
// MAP-NEXT:  }
// CUDA-NEXT: #pragma unroll
// CUDA-NEXT: #line 39 "{{/.*}}/CodeGen/line-directives.cpp"
// MAP-NEXT:  for (int m = 0; m < 4; ++m) {
// MAP-NEXT:  t = t * 0.5f;
// MAP-NEXT:  }
// MAP-NEXT:  #line 41 "{{/.*}}/CodeGen/line-directives.cpp"
// MAP-NEXT:  fn[c] = t;
// CUDA-NEXT: #line {{[0-9]+}} "{{/.*}}/line-directives.stencil.cu"
// CPU-NEXT:  #line {{[0-9]+}} "{{/.*}}/line-directives.stencil.cpp"
