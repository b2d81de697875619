#!/usr/bin/env python3
"""Writes hostile stencil bodies into the folder given as argument, for
Diagnostics/limits.test: deep sums, long else-if chains and switches, deeply nested ifs,
exponential helper inlining, many flat statements, and chains deep enough
to overflow a parser's default stack. Each either compiles
fast or fails fast with a limit's diagnostic; none may crash or hang."""
import os
import sys

OUT = sys.argv[1]
HEADER = "#include <stencil/dsl.hpp>\n"
KERNEL_F = "STENCIL_KERNEL void s(const stencil::Index3D &idx, const float *f, float *fn) {\n"
KERNEL_I = "STENCIL_KERNEL void s(const stencil::Index3D &idx, const int *f, int *fn) {\n"


def write(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(HEADER + text)


def deep_sum(terms):
    return KERNEL_F + "  fn[idx.ix()] = " + " + ".join(["f[idx.ix()]"] * terms) + ";\n}\n"


def else_if(branches):
    body = KERNEL_I + "  int v = f[idx.ix()];\n  int r = 0;\n  if (v == 0)\n    r = 0;\n"
    body += "".join("  else if (v == %d)\n    r = %d;\n" % (i, 3 * i) for i in range(1, branches))
    return body + "  fn[idx.ix()] = r;\n}\n"


def switch(cases):
    # An if/else chain of a level a case: held to the same limit.
    body = KERNEL_I + "  int r = 0;\n  switch (f[idx.ix()]) {\n"
    body += "".join("  case %d:\n    r = %d;\n    break;\n" % (i, 3 * i) for i in range(cases))
    return body + "  default:\n    r = -1;\n  }\n  fn[idx.ix()] = r;\n}\n"


def labels(count):
    # Labels sharing one group: an || a label.
    body = KERNEL_I + "  int r = 0;\n  switch (f[idx.ix()]) {\n"
    body += "".join("  case %d:\n" % i for i in range(count))
    return body + "    r = 1;\n    break;\n  }\n  fn[idx.ix()] = r;\n}\n"


def nested_if(depth):
    body = KERNEL_I + "  int v = f[idx.ix()];\n  int r = 0;\n"
    body += "".join("  if (v > %d)\n" % i for i in range(depth)) + "    r = 1;\n"
    return body + "  fn[idx.ix()] = r;\n}\n"


def helpers(levels):
    # Each level calls the one below twice: 2^levels inlined copies.
    body = "static float h0(float x) { return x * 0.5f; }\n"
    for i in range(1, levels + 1):
        body += "static float h%d(float x) { return h%d(x) + h%d(x + 1.0f); }\n" % (i, i - 1, i - 1)
    return body + KERNEL_F + "  fn[idx.ix()] = h%d(f[idx.ix()]);\n}\n" % levels


def ternaries(depth):
    body = KERNEL_I + "  int v = f[idx.ix()];\n  fn[idx.ix()] = "
    return body + "".join("v == %d ? %d : " % (i, i) for i in range(depth)) + "0;\n}\n"


def minuses(depth):
    return KERNEL_F + "  fn[idx.ix()] = " + "- " * depth + "f[idx.ix()];\n}\n"


def flat(statements):
    body = KERNEL_F + "  float a = 0.0f;\n" + "  a += f[idx.ix()];\n" * statements
    return body + "  fn[idx.ix()] = a;\n}\n"


write("sum1900.cpp", deep_sum(1900))
write("sum25000.cpp", deep_sum(25000))
write("elseif900.cpp", else_if(900))
write("elseif2000.cpp", else_if(2000))
write("switch900.cpp", switch(900))
write("switch2000.cpp", switch(2000))
write("switch50000.cpp", switch(50000))
write("labels900.cpp", labels(900))
write("labels100000.cpp", labels(100000))
write("nestedif900.cpp", nested_if(900))
write("nestedif2100.cpp", nested_if(2100))
write("helpers12.cpp", helpers(12))
write("helpers14.cpp", helpers(14))
write("helpers30.cpp", helpers(30))
write("flat20000.cpp", flat(20000))
# Deep enough to overflow clang's parser on an 8 MB stack (a crash before the
# driver ran on a larger one); stencilc's limit refuses them.
write("elseif10000.cpp", else_if(10000))
write("sum200000.cpp", deep_sum(200000))
write("ternary20000.cpp", ternaries(20000))
write("minus200000.cpp", minuses(200000))
