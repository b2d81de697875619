"""Writes a step of N calls of six small 3-D stencils (argv: N, output
file): each call reads the array the call before it wrote, so every pair of
calls is a question for the planner (a chain: fused groups of two)."""
import sys

calls, out = int(sys.argv[1]), sys.argv[2]
arrays = 40
lines = ["#include <stencil/dsl.hpp>"]
for k in range(6):
    dx, dy, dz = k % 3 - 1, (k + 1) % 3 - 1, (k + 2) % 3 - 1
    lines.append(
        f"STENCIL_KERNEL void f{k}(const stencil::Index3D &idx, float s, "
        f"const float *a, const float *b, float *o) {{ o[idx.ix()] = "
        f"s * a[idx.ix<{dx}, 0, 0>()] + a[idx.ix<0, {dy}, 0>()] * "
        f"b[idx.ix<0, 0, {dz}>()] + b[idx.ix()]; }}")
params = ", ".join(f"float *a{i}" for i in range(arrays))
lines.append(f"STENCIL_STEP void chain(stencil::Step3D &s, float c, {params}) {{")
read = 0
for n in range(calls):
    other = (7 * n + 3) % arrays
    write = next(x for x in ((read + 1 + n % 5 + j) % arrays for j in range(arrays))
                 if x not in (read, other))
    lines.append(f"  s.run(f{n % 6}, c, a{read}, a{other}, a{write});")
    read = write
lines.append("}")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
