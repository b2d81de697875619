#!/usr/bin/env python3
"""gen_steps.py - the random differential test of steps (STENCIL_STEP).

Each seed gives one program of STEPS random steps. A step runs 2-5 stencils
(2-D, 3-D or 4-D, float or double: one element type per step) over a pool of
the step's arrays: each stencil reads 1-3 arrays at random offsets within the
step's radius (sometimes arrays of lower rank: ix_z<dz>(), ix_xy<dx,dy>(),
...), writes 1-2 (sometimes inout, read at the centre), sometimes stores
inside if/else; bindings are random: consumers read what the previous stencil
wrote (fusion candidates), arrays read early are written later, scalars come
from step parameters (double step scalars passed to float stencils too) or
literals, a stencil is sometimes run twice in one step. All values are
positive sums and products of [1, 2) inputs with weights in [0.25, 1.5).

The program (step_harness.hpp) runs each step on the host reference and on
the OpenMP engine (stencilc's plan, then STENCIL_STEP_PLAN=multi-kernel) and
compares every array bit for bit. The runner builds it four times: stencilc
default, then --step-strategy=recompute, staged and multi-kernel (STRATEGIES).

  gen_steps.py --seed S [--steps N]              print one program
  gen_steps.py --run --stencilc PATH --runtime-include DIR [--programs N]
      [--seed S | --random-seed] [--steps N] [--jobs N] [--work DIR] [--keep]
      [--cxx g++] [--cxx-flags "..."]
  gen_steps.py --bundle DIR --stencilc PATH --runtime-include DIR [--programs N]
      [--seed S] [--steps N] [--jobs N]
      GPU mode, part one (here, with stencilc): per program and strategy a
      folder DIR/steps<seed>-<strategy>/ with the program
      (steps<seed>.cpp) and its generated .stencil.cpp and .stencil.cu, plus
      the harness, include/ (the runtime headers) and a MANIFEST;
      `tools/make_bundle.sh steps` calls this and adds the runner,
      tools/steps_gpu.sh, which builds them with nvcc and runs them with
      --backend=all on the GPU machine (no stencilc needed there).
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_differential import run  # noqa: E402
AXES = "xyzw"
# staged: its OpenMP code is the recomputed one (built to check that), its
# CUDA code runs in the GPU bundle.
STRATEGIES = ("auto", "recompute", "staged", "multi-kernel")
# --cuda-on-cpu: the builds whose CUDA plans fuse.
CUDA_ON_CPU_STRATEGIES = ("auto", "recompute", "staged")
E2E_COMMON = os.path.join(HERE, "..", "e2e", "common")
EXTRACT = os.path.join(E2E_COMMON, "extract_kernels.py")


def lower_rank_axes(dims):
    """The axis sets an array of lower rank can span in a DIMS-D stencil."""
    out = []
    for mask in range(1, (1 << dims) - 1):
        out.append("".join(AXES[d] for d in range(dims) if mask >> d & 1))
    return out


class Gen:
    def __init__(self, rng, dims, ty, radius):
        self.r = rng
        self.dims = dims
        self.ty = ty
        self.radius = radius
        self.suffix = "f" if ty == "float" else ""
        self.max_off = 0
        # "parity": conditions only on idx.i/j/k() % 2 (gen_domain_steps.py).
        self.coordinate_conditions = "any"

    def lit(self, v):
        return f"{v}{self.suffix}"

    def weight(self):
        return self.lit(self.r.choice(["0.25", "0.5", "0.375", "0.75", "0.625", "1.25"]))

    def offsets(self, n):
        offs = [self.r.randint(-self.radius, self.radius) if self.r.random() < 0.6 else 0
                for _ in range(n)]
        # Sometimes exactly the radius: margin == halo.
        if self.r.random() < 0.3:
            offs[self.r.randrange(n)] = self.r.choice([-self.radius, self.radius])
        self.max_off = max([self.max_off] + [abs(o) for o in offs])
        return offs

    def read(self, name, axes):
        """A read of array NAME (axes None: full rank)."""
        if axes is None:
            offs = self.offsets(self.dims)
            if not any(offs) and self.r.random() < 0.6:
                return f"{name}[idx.ix()]"
            return f"{name}[idx.ix<{', '.join(map(str, offs))}>()]"
        offs = self.offsets(len(axes))
        if not any(offs) and self.r.random() < 0.5:
            return f"{name}[idx.ix_{axes}()]"
        return f"{name}[idx.ix_{axes}<{', '.join(map(str, offs))}>()]"

    def expr(self, reads, scalars, depth=0):
        """A positive expression of the reads (each used once) and scalars."""
        if len(reads) == 1:
            e = reads[0]
            c = self.r.random()
            if c < 0.3:
                return f"{self.weight()} * {e}"
            if c < 0.45 and scalars:
                return f"{self.r.choice(scalars)} * {e}"
            return e
        k = self.r.randint(1, len(reads) - 1)
        a = self.expr(reads[:k], scalars, depth + 1)
        b = self.expr(reads[k:], scalars, depth + 1)
        c = self.r.random()
        if c < 0.55:
            return f"({a} + {b})"
        if c < 0.8:
            return f"{self.weight()} * ({a} + {b})"
        return f"({a}) * ({b}) * {self.lit('0.5')}"


class Stencil:
    """A stencil: its name, parameters [(kind, name, axes)], kind in
    scalar/in/out/inout, and its C++ text."""

    def __init__(self, name, params, text, functor):
        self.name, self.params, self.text, self.functor = name, params, text, functor


def make_stencil(g, name, lower_pool):
    r = g.r
    nin = r.randint(1, 3)
    nout = r.randint(1, 2)
    nsc = r.choice([0, 0, 1, 1, 2])
    inout = r.random() < 0.15
    params = []
    for i in range(nin):
        axes = None
        if lower_pool and r.random() < 0.3:
            axes = r.choice(lower_pool)
        params.append(("in", f"a{i}", axes))
    for i in range(nout):
        params.append(("inout" if inout and i == 0 else "out", f"o{i}", None))
    for i in range(nsc):
        params.append(("scalar", f"s{i}", None))
    r.shuffle(params)
    scal = [p[1] for p in params if p[0] == "scalar"]
    ins = [p for p in params if p[0] == "in"]
    outs = [p for p in params if p[0] in ("out", "inout")]
    ty = g.ty
    body = []
    cond_used = False
    for kind, o, _ in outs:
        def rhs():
            reads = []
            for _, a, axes in ins:
                for _ in range(r.randint(1, 2)):
                    reads.append(g.read(a, axes))
            r.shuffle(reads)
            e = g.expr(reads, scal)
            if kind == "inout":
                e = f"{g.weight()} * {o}[idx.ix()] + {e}"
            return e
        c = r.random()
        if c < 0.15:
            cond_used = True
            conds = [f"{ins[0][1]}[idx.{'ix' if ins[0][2] is None else 'ix_' + ins[0][2]}()] > {g.lit('1.5')}",
                     "idx.i() % 2 == 0", f"idx.j() > {r.randint(1, 6)}"]
            if g.coordinate_conditions == "parity":
                conds[2] = f"idx.{'jk'[g.dims > 2 and r.random() < 0.5]}() % 2 == 0"
            cond = r.choice(conds)
            body.append(f"  if ({cond})\n    {o}[idx.ix()] = {rhs()};\n  else\n    {o}[idx.ix()] = {rhs()};")
        elif c < 0.22:
            cond_used = True
            body.append(f"  {o}[idx.ix()] = {rhs()};")
            again = "idx.i() % 3 == 1" if g.coordinate_conditions == "any" else "idx.j() % 2 != 0"
            body.append(f"  if ({again}) {{\n    {o}[idx.ix()] = {rhs()};\n  }}")
        elif c < 0.5:
            body.append(f"  const {ty} t_{o} = {rhs()};\n  {o}[idx.ix()] = t_{o};")
        else:
            body.append(f"  {o}[idx.ix()] = {rhs()};")
    del cond_used
    decl = []
    for kind, n, axes in params:
        if kind == "scalar":
            # Not `const T &n`: a stencil's scalars are by value (err_param_type).
            decl.append(f"{ty} {n}" if r.random() < 0.8 else f"const {ty} {n}")
        elif kind == "in":
            decl.append(f"const {ty} *{n}")
        else:
            decl.append(f"{ty} *{n}")
    index = f"const stencil::Index{g.dims}D &idx"
    functor = r.random() < 0.5
    sig = ", ".join([index] + decl)
    b = "\n".join(body)
    if functor:
        text = (f"struct STENCIL_KERNEL {name} {{\n  STENCIL_HD void operator()({sig}) const {{\n"
                + "\n".join("  " + line for line in b.split("\n")) + "\n  }\n};\n")
    else:
        text = f"STENCIL_KERNEL\nvoid {name}({sig}) {{\n{b}\n}}\n"
    return Stencil(name, params, text, functor)


def make_call(r, st, bind, step_sc):
    """A call of stencil ST: arrays from BIND (parameter name -> step
    array), scalars from the step's STEP_SC or literals."""
    args = []
    for kind, n, _ in st.params:
        if kind == "scalar":
            if step_sc and r.random() < 0.6:
                args.append(r.choice(step_sc)[0])
            else:
                v = r.choice(["0.5", "0.75", "1.25", "0.3", "1.1"])
                args.append(v + ("f" if r.random() < 0.5 else ""))
        else:
            args.append(bind[n])
    if st.functor:
        ref = r.choice([f"{st.name}()", f"{st.name}{{}}"])
    else:
        ref = r.choice([st.name, f"&{st.name}"])
    return (st, ref, args)


def make_step(r, sname, seed_tag):
    dims = r.choice([2, 3, 3, 4])
    ty = r.choice(["float", "double"])
    radius = r.choice([1, 1, 2, 3]) if dims < 4 else r.choice([1, 1, 2])
    g = Gen(r, dims, ty, radius)
    nfull = r.randint(3, 7)
    axes_pool = lower_rank_axes(dims)
    nlow = r.choice([0, 0, 1, 2])
    low_axes = [r.choice(axes_pool) for _ in range(nlow)]
    # Pool: full arrays F0.., lower-rank L0.. (axes low_axes[i]).
    # Excluded (see README.md, "Excluded"):
    # - a full array that one stencil writes and the next reads as an array of
    #   lower rank (F written, then read as ix_x<1>()): an error since bug S1
    #   (err_step_array_axes); so L arrays are never written and F arrays are
    #   never read through ix_<axes>;
    # - one array passed to two array parameters of the step (runStep(f, a,
    #   b, a)): run stencil by stencil since bug S2 (differential.step_repros);
    #   the main passes distinct arrays.
    full = [f"F{i}" for i in range(nfull)]
    low = [f"L{i}" for i in range(nlow)]
    nstep_sc = r.randint(0, 3)
    step_sc = [(f"k{i}", r.choice(["double", ty])) for i in range(nstep_sc)]
    ncalls = r.randint(2, 5)
    stencils, calls = [], []
    prev_out = []
    for c in range(ncalls):
        if stencils and r.random() < 0.15:
            st = r.choice(stencils)
        else:
            st = make_stencil(g, f"{sname}_st{len(stencils)}", sorted(set(low_axes)))
            stencils.append(st)
        outs = [p for p in st.params if p[0] in ("out", "inout")]
        ins = [p for p in st.params if p[0] == "in"]
        # Inputs first, biased to what the previous call wrote.
        bind = {}
        for _, n, axes in ins:
            if axes is not None:
                bind[n] = r.choice([low[i] for i in range(nlow) if low_axes[i] == axes])
            elif prev_out and r.random() < 0.7:
                bind[n] = r.choice(prev_out)
            else:
                bind[n] = r.choice(full)
        taken = set(bind.values())
        free = [a for a in full if a not in taken]
        if len(free) < len(outs):
            # Rebind inputs to make room (the pool has at least 3 arrays).
            for _, n, axes in ins:
                if axes is None:
                    bind[n] = full[0]
            taken = set(bind.values())
            free = [a for a in full if a not in taken]
        r.shuffle(free)
        for (_, n, _), a in zip(outs, free):
            bind[n] = a
        calls.append(make_call(r, st, bind, step_sc))
        prev_out = [bind[n] for _, n, _ in outs]
    # Twins, from an RNG of their own (the programs of earlier seeds stay
    # what they were): a producer and its consumer twice over, both
    # producers reading one array of the pool, each pair into arrays of its
    # own (T<twin>_<param>): two fusible groups that share an input and
    # depend on neither, which the model's plan runs together in one kernel.
    rt = random.Random(f"{sname} {seed_tag} twins")
    twin_off = 0
    if rt.random() < 0.35:
        gt = Gen(rt, dims, ty, radius)
        prod = make_stencil(gt, f"{sname}_st{len(stencils)}", [])
        cons = make_stencil(gt, f"{sname}_st{len(stencils) + 1}", [])
        stencils += [prod, cons]
        shared = rt.choice(full)
        pairs = []
        for t in range(2):
            pb = {n: shared if kind == "in" else f"T{t}_{n}" for kind, n, _ in prod.params}
            made = [pb[n] for kind, n, _ in prod.params if kind in ("out", "inout")]
            cb = {}
            for i, (kind, n, _) in enumerate(p for p in cons.params if p[0] != "scalar"):
                if kind != "in":
                    cb[n] = f"T{t}_c{n}"
                else:
                    cb[n] = made[0] if i == 0 else rt.choice(made + [shared])
            pairs.append((make_call(rt, prod, pb, step_sc), make_call(rt, cons, cb, step_sc)))
        calls += [pairs[0][0], pairs[1][0], pairs[0][1], pairs[1][1]]
        twin_off = gt.max_off
    used = []
    written = set()
    for st, _, args in calls:
        for (kind, n, _), a in zip(st.params, args):
            if kind != "scalar" and a not in used:
                used.append(a)
            if kind in ("out", "inout"):
                written.add(a)
    # Scratch arrays (STENCIL_SCRATCH): an array whose first use is a plain
    # write ("out", not read by that call), marked at random, from an RNG of
    # its own so the programs of earlier seeds stay what they were. Their
    # region is not compared (the step's own, unspecified after it).
    first = {}
    for st, _, args in calls:
        kinds = {}
        for (kind, n, _), a in zip(st.params, args):
            if kind != "scalar":
                kinds.setdefault(a, set()).add(kind)
        for a, k in kinds.items():
            first.setdefault(a, k)
    rs = random.Random(f"{sname} {seed_tag} scratch")
    scratch = {a for a in written
               if first.get(a) == {"out"} and not a.startswith("L") and rs.random() < 0.4}
    used_sc = [s for s in step_sc if any(s[0] in args for _, _, args in calls)]
    params = [("arr", a) for a in used] + [("sc", s) for s in used_sc]
    r.shuffle(params)
    decl = [f"stencil::Step{dims}D &s"]
    for kind, p in params:
        if kind == "sc":
            decl.append(f"{p[1]} {p[0]}")
        else:
            const = p not in written
            mark = "STENCIL_SCRATCH " if p in scratch else ""
            decl.append(f"{mark}{'const ' if const else ''}{ty} *{p}")
    text = "".join(st.text + "\n" for st in stencils)
    text += f"STENCIL_STEP\nvoid {sname}({', '.join(decl)}) {{\n"
    for st, ref, args in calls:
        text += f"  s.run({', '.join([ref] + args)});\n"
    text += "}\n"
    # The case in main.
    margin = max(g.max_off, twin_off) + (1 if r.random() < 0.3 else 0)
    if dims == 2:
        ext = [r.randint(1, 40), r.randint(1, 30)]
    elif dims == 3:
        ext = [r.randint(1, 18), r.randint(1, 14), r.randint(1, 12)]
    else:
        ext = [r.randint(1, 8), r.randint(1, 7), r.randint(1, 6), r.randint(1, 6)]
    ext = [e + 2 * margin for e in ext]
    arrays = [p for k, p in params if k == "arr"]
    sizes = []
    for a in arrays:
        if a.startswith("L"):
            ax = low_axes[int(a[1:])]
            n = 1
            for ch in ax:
                n *= ext[AXES.index(ch)]
            sizes.append(str(n))
        else:
            n = 1
            for e in ext:
                n *= e
            sizes.append(str(n))
    lam = []
    for kind, p in params:
        if kind == "arr":
            lam.append(f"A[{arrays.index(p)}]")
        else:
            v = r.choice(["0.5", "0.625", "0.875", "1.0625", "1.3", "0.7", "0.9"])
            lam.append(v + ("f" if p[1] == "float" else ""))
    case = (f"  {{\n    const int Ext[{dims}] = {{{', '.join(map(str, ext))}}};\n"
            f"    stepdiff::StepCase<{ty}, {dims}> C(\"{sname}\", {seed_tag}u, Ext, {margin}, "
            f"{{{', '.join(sizes)}}}, {{{', '.join('true' if a in scratch else 'false' for a in arrays)}}});\n"
            f"    C.run(&{sname}, []({ty} **A) {{ (void)A; return std::make_tuple({', '.join(lam)}); }});\n"
            f"  }}\n")
    return text, case


def generate_program(seed, steps):
    r = random.Random(seed)
    out = [f"// gen_steps.py --seed {seed} --steps {steps}\n#include \"step_harness.hpp\"\n\n"]
    cases = []
    for i in range(steps):
        text, case = make_step(r, f"step{i}", seed * 100 + i)
        out.append(text + "\n")
        cases.append(case)
    # The CUDA group kernels, extracted to run on the CPU (--cuda-on-cpu):
    # their table names the step functions, so it comes after them.
    out.append("#ifdef STENCILC_CUDA_ON_CPU_KERNELS\n#include STENCILC_CUDA_ON_CPU_KERNELS\n"
               "#endif\n\n")
    out.append("int main(int argc, char **argv) {\n  stepdiff::parseOptions(argc, argv);\n"
               + "".join(cases) + f"  return stepdiff::summary({seed}u);\n}}\n")
    return "".join(out)


# --- runner -----------------------------------------------------------------

def stencilc_cmd(args, src, out_dir, emit, strategy):
    cmd = [args.stencilc, src, "-o", out_dir, f"--emit={emit}"]
    if strategy != "auto":
        cmd.append(f"--step-strategy={strategy}")
    return cmd + ["--", "-std=c++17", "-I", args.runtime_include, "-I", HERE]


def write_program(args, d, seed):
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, f"steps{seed}.cpp")
    with open(src, "w") as f:
        f.write(generate_program(seed, args.steps))
    return src


def bundle_program(args, seed):
    """Writes the program's folder for each strategy into the bundle; returns
    (seed, ok, steps with a staged group in the CUDA plan, message)."""
    staged = 0
    for strat in STRATEGIES:
        d = os.path.join(args.bundle, f"steps{seed}-{strat}")
        src = write_program(args, d, seed)
        cmd = stencilc_cmd(args, src, d, "cuda,cpu", strat)
        rc, out = run(cmd, args.timeout)
        if rc != 0:
            return seed, False, 0, f"stencilc ({strat}) exit {rc}: {' '.join(cmd)}\n{out[-3000:]}"
        if strat == "staged":
            with open(os.path.join(d, f"steps{seed}.stencil.cu")) as f:
                staged = sum("/*plan=*/" in line and "staged(" in line for line in f)
    return seed, True, staged, ""


def write_bundle(args):
    """GPU mode, part one: the programs, the harness, include/, MANIFEST."""
    shutil.rmtree(args.bundle, ignore_errors=True)
    os.makedirs(args.bundle)
    seeds = range(args.seed, args.seed + args.programs)
    failures, staged = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for seed, ok, n, msg in pool.map(lambda s: bundle_program(args, s), seeds):
            staged += n
            if not ok:
                failures.append(seed)
                print(f"FAIL seed {seed}:\n{msg}\n", flush=True)
    shutil.copytree(args.runtime_include, os.path.join(args.bundle, "include"))
    for header in ("step_harness.hpp", "diff_harness.hpp"):
        shutil.copy(os.path.join(HERE, header), args.bundle)
    steps = args.programs * args.steps
    with open(os.path.join(args.bundle, "MANIFEST"), "w") as f:
        f.write(f"programs {args.programs} steps {args.steps} seed {args.seed}\n"
                f"strategies {' '.join(STRATEGIES)}\n"
                f"flags {args.cxx_flags}\n"
                f"staged {staged} of {steps} steps (the staged build's CUDA plans)\n")
    print(f"steps: bundle of {args.programs - len(failures)} of {args.programs} programs x "
          f"{len(STRATEGIES)} strategies in {args.bundle}; {staged} of {steps} steps "
          f"have a staged group" + (f"; failing seeds: {sorted(failures)}" if failures else ""))
    return 1 if failures else 0


CPU_LINE = re.compile(r"^cuda on cpu: seed \d+: (\d+) passed, (\d+) failed \((\d+) with a staged "
                      r"group\), (\d+) without a fused group$", re.MULTILINE)
CPU_TOTALS = [0, 0, 0, 0]
CPU_LOCK = threading.Lock()


def count_cuda_on_cpu(out):
    """Adds a program's line of CUDA-on-the-CPU totals to CPU_TOTALS."""
    m = CPU_LINE.search(out)
    with CPU_LOCK:
        for i, v in enumerate(m.groups() if m else ()):
            CPU_TOTALS[i] += int(v)


def one_program(args, seed):
    """Returns (seed, ok, steps checked, message)."""
    d = os.path.join(args.work, f"steps{seed}")
    src = write_program(args, d, seed)
    repro = (f"test/differential/gen_steps.py --run --stencilc {args.stencilc} "
             f"--runtime-include {args.runtime_include} --programs 1 --seed {seed} "
             f"--steps {args.steps} --keep")
    inc = ["-I", args.runtime_include, "-I", HERE]
    flags = ["-std=c++17", "-fopenmp"] + args.cxx_flags.split()
    main_o = os.path.join(d, "main.o")
    rc, out = run([args.cxx] + flags + inc + ["-c", src, "-o", main_o], args.timeout * 4)
    if rc != 0:
        return seed, False, 0, f"host build failed ({rc}) on {src}\n{out[-3000:]}\nreproduce: {repro}"
    checked = 0
    for strat in CUDA_ON_CPU_STRATEGIES if args.cuda_on_cpu else STRATEGIES:
        sd = os.path.join(d, strat)
        os.makedirs(sd, exist_ok=True)
        cmd = stencilc_cmd(args, src, sd, "cpu,cuda" if args.cuda_on_cpu else "cpu", strat)
        rc, out = run(cmd, args.timeout)
        if rc != 0:
            return seed, False, checked, (f"stencilc ({strat}) exit {rc} on {src}: {' '.join(cmd)}\n"
                                          f"{out[-3000:]}\nreproduce: {repro}")
        gen = os.path.join(sd, f"steps{seed}.stencil.cpp")
        exe = os.path.join(sd, "prog")
        prog_o = main_o
        if args.cuda_on_cpu:
            # The program again, with its CUDA group kernels to run on the CPU.
            kernels = os.path.join(sd, "kernels.inc")
            prog_o = os.path.join(sd, "main.o")
            for cmd in ([sys.executable, EXTRACT, "--steps",
                         os.path.join(sd, f"steps{seed}.stencil.cu"), kernels],
                        [args.cxx] + flags + inc + ["-I", E2E_COMMON,
                                                    f"-DSTENCILC_CUDA_ON_CPU_KERNELS=\"{kernels}\"",
                                                    "-c", src, "-o", prog_o]):
                rc, out = run(cmd, args.timeout * 4)
                if rc != 0:
                    return seed, False, checked, (f"CUDA on the CPU ({strat}): {' '.join(cmd)} "
                                                  f"exit {rc}\n{out[-3000:]}\nreproduce: {repro}")
        cmd = [args.cxx] + flags + inc + [prog_o, gen, "-o", exe]
        rc, out = run(cmd, args.timeout * 4)
        if rc != 0:
            return seed, False, checked, (f"generated code ({strat}) does not build: {' '.join(cmd)}\n"
                                          f"{out[-3000:]}\nreproduce: {repro}")
        # Once with the runtime's cache blocking, once with short ragged
        # tiles (as run_differential.py): a fused kernel's recomputation must
        # not depend on the block boundaries.
        tile = f"{2 + seed % 3},{1 + seed % 4}"
        for extra in ({}, {"STENCIL_OPENMP_TILE": tile}):
            env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), **extra)
            rc, out = run([exe], args.timeout, env=env)
            if rc != 0:
                where = f", STENCIL_OPENMP_TILE={tile}" if extra else ""
                return seed, False, checked, (f"{exe} ({strat}{where}) exit {rc}\n{out[-3000:]}\n"
                                              f"reproduce: {repro}")
            if args.cuda_on_cpu and not extra:
                count_cuda_on_cpu(out)
        checked += args.steps
    if not args.keep:
        shutil.rmtree(d, ignore_errors=True)
    return seed, True, checked, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=6, help="steps per program")
    ap.add_argument("--run", action="store_true", help="generate, build and run programs")
    ap.add_argument("--bundle", default=None, help="GPU mode: write a bundle here")
    ap.add_argument("--stencilc")
    ap.add_argument("--runtime-include")
    ap.add_argument("--programs", type=int, default=8)
    ap.add_argument("--random-seed", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--work", default=None)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cxx-flags", default="-O2 -frounding-math")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--cuda-on-cpu", action="store_true",
                    help="with --run: the auto, recompute and staged builds only, each also "
                         "running its CUDA group kernels on the CPU (step_harness.hpp)")
    args = ap.parse_args()
    if args.random_seed:
        args.seed = random.SystemRandom().randrange(1 << 30)
    if not args.run and not args.bundle:
        sys.stdout.write(generate_program(args.seed, args.steps))
        return 0
    if not args.stencilc or not args.runtime_include:
        ap.error("--run and --bundle need --stencilc and --runtime-include")
    args.stencilc = os.path.abspath(args.stencilc)
    args.runtime_include = os.path.abspath(args.runtime_include)
    if args.bundle:
        args.bundle = os.path.abspath(args.bundle)
        return write_bundle(args)
    tmp = args.work is None
    if tmp:
        import tempfile
        args.work = tempfile.mkdtemp(prefix="stencilc-steps-")
    os.makedirs(args.work, exist_ok=True)
    builds = CUDA_ON_CPU_STRATEGIES if args.cuda_on_cpu else STRATEGIES
    print(f"steps: {args.programs} programs x {args.steps} steps, seeds "
          f"{args.seed}..{args.seed + args.programs - 1}, builds {', '.join(builds)}"
          + (", each also with its CUDA group kernels on the CPU" if args.cuda_on_cpu else ""),
          flush=True)
    start = time.time()
    failures, checked = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = [pool.submit(one_program, args, args.seed + i) for i in range(args.programs)]
        for fut in concurrent.futures.as_completed(futs):
            seed, ok, n, msg = fut.result()
            checked += n
            if not ok:
                failures.append(seed)
                print(f"FAIL seed {seed}:\n{msg}\n", flush=True)
    print(f"steps: {args.programs - len(failures)} of {args.programs} programs passed, "
          f"{checked} step builds checked (each: plan and STENCIL_STEP_PLAN=multi-kernel), "
          f"{time.time() - start:.0f} s"
          + (f"; failing seeds: {sorted(failures)}" if failures else ""))
    if args.cuda_on_cpu:
        passed, failed, staged, unfused = CPU_TOTALS
        print(f"steps: CUDA group kernels on the CPU: {passed} runs passed, {failed} failed "
              f"({staged} with a staged group), {unfused} steps without a fused group")
        # Emulation that ran nothing would prove nothing.
        if passed == 0 and not failures:
            print("FAIL: no step's CUDA group kernels ran on the CPU")
            failures.append(-1)
    if tmp and not failures and not args.keep:
        shutil.rmtree(args.work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
