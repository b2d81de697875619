#!/usr/bin/env python3
"""Copies CUDA kernels of a stencilc .stencil.cu into a C++ file that a test
run on CPU threads includes.

    extract_kernels.py GENERATED.stencil.cu OUT.inc           (temporal passes)
    extract_kernels.py --steps GENERATED.stencil.cu OUT.inc   (fused groups)
    extract_kernels.py --variant NAME[,NAME...] GENERATED.stencil.cu OUT.inc
                                                   (marching variants' kernels)

Temporal passes (cpu_threads.cpp): each `__global__` template (the passes
summed by planes among them, and the `__noinline__` chunk function of a pass
with a barrier a level) becomes a
host function template whose shared memory is the emulating block's; the
helpers (min and max, the division by a constant) host functions; a pass
summed by planes' points a thread (`..._planes_points`) as generated.

Fused groups of steps (test/e2e/common/cuda_on_cpu.hpp runs them): the
recomputations, the helpers, the kernels fused by recomputation
or of stencils together, and each step's group launcher
(`..._cuda_launch_group`), its launches `K<<<grid, block, 0,
stream>>>(args)` turned into `cuda_on_cpu::launch(grid, block, [&] {
K(args); })`, or launchTogether for a staged kernel (its threads wait for
each other at __syncthreads()). Then cuda_on_cpu::steps(), the table of each
step's function (its registration's key), group launcher and number of fused
groups.

Marching variants NAME (zsum, zsum4, zmarch): each stencil's kernel
`stencilc_<Symbol>_NAME`, its helpers (`stencilc_<Symbol>_NAME_<what>`) and
its launcher (`stencilc_<Symbol>_NAME_cuda_launch`), whose launch runs the
kernel's threads one after another (cuda_on_cpu::launch), or, for a kernel
with barriers (zsum4), together (launchTogether, its dynamic shared memory
the launch's).
"""
import re
import sys

# A pass's register bound: __launch_bounds__ or the generated file's macro.
BOUND = r"(?:__launch_bounds__|STENCILC_PASS_REGISTERS)\([^)]*\)"
# The passes, and the chunk functions of passes with a barrier a level.
TEMPORAL = re.compile(r"template <int STEPS(?:, int BX(?:, int BY(?:, bool CENTRE_MARGIN = false)?)?|, bool BORDERED(?:, int BX = 0, int BY = 0)?)?>\n"
                      r"(?:__global__ void " +
                      BOUND + r"|__device__ __noinline__ void) (stencilc_\w+_temporal\d+(?:_chunk|_planes)?)\(")
STEP = re.compile(r"^(__device__ __forceinline__ [\w ]+ stencilc_step_\w+_recompute\d+\(|"
                  r"__global__ void __launch_bounds__\([^)]*\) stencilc_step_\w+_g\d+(_alt)?\(|"
                  r"static const char \*stencilc_step_\w+_cuda_launch_group\()",
                  re.MULTILINE)
# One line each: min and max, the division by a constant.
HELPER = re.compile(r"^(?:template <typename T> )?__device__ __forceinline__ \w+ "
                    r"stencilc_(?:min|max|divide|divide_or)\(.*$", re.MULTILINE)
# A pass summed by planes: the points a thread computes (its launcher's).
POINTS = re.compile(r"^static constexpr int stencilc_\w+_planes_points = \d+;$",
                    re.MULTILINE)
KEY = re.compile(r"/\*functionKey=\*/(.*),$", re.MULTILINE)
GROUPS = re.compile(r"/\*launchGroup=\*/&(\w+),")
ROUNDS = re.compile(r"/\*rounds=\*/(\w+),")
ROUND = re.compile(r"^    \{-?\d+, (-?\d+), ", re.MULTILINE)
LAUNCH = re.compile(r"(\w+)<<<grid, block, (\w+), static_cast<cudaStream_t>\(cfg\.stream\)>>>"
                    r"\((.*)\);$", re.MULTILINE)


def functions(source, pattern):
    """The text of each function whose first line matches pattern."""
    for match in pattern.finditer(source):
        end = source.index("\n}\n", match.start()) + 3
        yield re.sub(r"#line .*\n", "", source[match.start():end])


def temporal(text):
    text = re.sub(r"__global__ void " + BOUND, "void", text)
    text = text.replace("__device__ __noinline__ void", "void")
    return text.replace(
        "extern __shared__ __align__(16) unsigned char stencilc_shared[];",
        "unsigned char *stencilc_shared = cpu_threads::shared;")


def step(text, together):
    """One function of a step's group code; \p together: the kernels whose
    threads wait for each other."""
    text = re.sub(r"__global__ void __launch_bounds__\([^)]*\)", "void", text)
    text = text.replace("__device__ __forceinline__", "inline")
    text = text.replace(
        "extern __shared__ __align__(16) unsigned char stencilc_smem[];",
        "unsigned char *const stencilc_smem = cuda_on_cpu::DynamicShared.data();")
    return LAUNCH.sub(lambda m: "cuda_on_cpu::%s(grid, block, [&] { %s(%s); }%s);" % (
        "launchTogether" if m.group(1) in together else "launch", m.group(1), m.group(3),
        "" if m.group(2) == "0" else ", " + m.group(2)), text)


def variant_pattern(names):
    """Marching variants' kernels, helpers and launchers."""
    name = "(?:%s)" % "|".join(names)
    return re.compile(r"^(__global__ void stencilc_\w+_%s\(|"
                      r"__host__ __device__ __forceinline__ unsigned long long "
                      r"stencilc_\w+_%s_\w+\(|"
                      r"static const char \*stencilc_\w+_%s_cuda_launch\()" % (name, name, name),
                      re.MULTILINE)


def step_table(source):
    """cuda_on_cpu::steps(): each registered CUDA step with a group launcher."""
    rows = []
    for start in [m.start() for m in re.finditer(r"registerGeneratedStep\(", source)]:
        block = source[start:source.index("});", start)]
        key, groups = KEY.search(block), GROUPS.search(block)
        if key and groups and "/*backend=*/stencil::Backend::Cuda," in block:
            # Its fused groups: the rounds whose group is not -1.
            name = ROUNDS.search(block).group(1)
            table = source[source.index("GeneratedStepRound %s[] = {" % name):]
            table = table[:table.index("\n};\n")]
            fused = sum(1 for g in ROUND.findall(table) if int(g) >= 0)
            rows.append("    {%s, &%s, %d}," % (key.group(1), groups.group(1), fused))
    body = ("  static const cuda_on_cpu::StepEntry Steps[] = {\n%s\n  };\n"
            "  Count = %d;\n  return Steps;\n" % ("\n".join(rows), len(rows))
            if rows else "  Count = 0;\n  return nullptr;\n")
    return ("const cuda_on_cpu::StepEntry *cuda_on_cpu::steps(int &Count) {\n" + body + "}\n")


def main():
    args = sys.argv[1:]
    steps = args[:1] == ["--steps"]
    variant = args[1] if args[:1] == ["--variant"] and len(args) > 1 else None
    args = args[1:] if steps else args[2:] if variant else args
    if len(args) != 2:
        sys.exit("usage: extract_kernels.py [--steps | --variant NAME] "
                 "GENERATED.stencil.cu OUT.inc")
    source = open(args[0]).read()
    kind, pattern = (("fused step", STEP) if steps else
                     (variant, variant_pattern(variant.split(","))) if variant
                     else ("temporal", TEMPORAL))
    texts = list(functions(source, pattern))
    if variant:
        # Kernels with barriers run their threads together, others one after
        # another.
        together = {re.search(r"(stencilc_\w+)\(", t).group(1) for t in texts
                    if t.startswith("__global__") and "__syncthreads" in t}
        kernels = [step(t.replace("__global__ void", "void"), together) for t in texts]
    elif steps:
        together = {re.search(r"(stencilc_step_\w+)\(", t).group(1) for t in texts
                    if t.startswith("__global__") and "__syncthreads" in t}
        kernels = [step(t, together) for t in texts]
    else:
        kernels = POINTS.findall(source) + [temporal(t) for t in texts]
    if not kernels and not steps:
        sys.exit("extract_kernels: no %s kernel in %s" % (kind, args[0]))
    helpers = [h.replace("__device__ __forceinline__", "inline")
               for h in HELPER.findall(source)]
    kernels = helpers + kernels + ([step_table(source)] if steps else [])
    with open(args[1], "w") as out:
        out.write("// Generated by extract_kernels.py from %s.\n" % args[0])
        out.write("\n".join(kernels))


if __name__ == "__main__":
    main()
