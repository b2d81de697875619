// A stencil in a system header (-isystem) is compiled like any other (it was
// skipped: no code, nothing in --list, exit 0). A helper there has no body
// to inline (stencilc skips function bodies in system headers): the error
// says so and how to include the header instead.
// RUN: %stencilc %s --list -- -isystem %S/Inputs/system -I %mock_include | FileCheck %s
// RUN: %stencilc %s --emit=cpu -o - -- -isystem %S/Inputs/system -I %mock_include | FileCheck %s --check-prefix=CPU
// RUN: %stencilc %s --emit=plan -o - -- -isystem %S/Inputs/system -I %mock_include | FileCheck %s --check-prefix=STEP
// RUN: not %stencilc %s --emit=cpu -o - -- -isystem %S/Inputs/system -I %mock_include -DWITH_HELPER 2>&1 | FileCheck %s --check-prefix=HELPER
#include <system_blur.hpp>

// CHECK: system_blur.hpp:6: SystemBlur (functor, 2-D): halo x[1,1] y[0,0]
// CPU: un[c] = 0.5 * (u[c - 1] + u[c + 1]);
// STEP: step systemSmooth ({{.*}}system_blur.hpp:{{[0-9]+}}), 2-D, 2 stencils
// HELPER: system_blur.hpp:{{[0-9]+}}:20: error: call to 'twice', which has no visible definition; {{.*}} [err_call_no_definition]
// HELPER: system_blur.hpp:{{[0-9]+}}:1: note: 'twice' is defined in a system header, whose function bodies stencilc does not read; include its directory with -I rather than -isystem
