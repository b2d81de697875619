#!/usr/bin/env python3
"""gen_temporal.py - the random differential test of stencilc's time-loop
passes (temporal blocking, docs/dsl-reference.md "Time loops").

Each seed gives one program of N random stencils passed to loop.repeat(),
each in the class stencilc generates passes for: 2-D or 3-D; float, double,
int or long long; one next level stored on every path, a previous level read
within a reach of 1 to 4 a side (stars, boxes, irregular and one-sided
footprints); flat sums in random term orders (terms of earlier planes after
later ones: held terms), constant and scalar weights, coefficient arrays read
at the centre or off it, divisions by constants (/118, /3, /6, /0.7f) and by
scalars, a ?: on a value, locals. 2-D f32 stencils reading rows off the point's
only at its column (a barrier a level) and 3-D sums of the previous level
alone (summed by planes) are made on purpose.

--run --cuda-on-cpu: writes the program, runs stencilc (--emit=cuda,plan),
fails loudly where a stencil gets no passes, extracts the passes' kernels
(../e2e/common/extract_kernels.py) and their launchers (here: the launches
run on the CPU, a fiber per CUDA thread, ../e2e/common/cuda_on_cpu.hpp),
builds the program with temporal_harness.hpp and runs it: per pass entry,
passes of 1 (2 summed by planes) to the most steps a tile allows, on the
plan's tiles with constant extents and random ones, random chunks and store
boxes, margins from memory, from the centre below and the input's (the
passes summed by planes), must equal the steps one by one on the host inside
the store box bit for bit and leave every other point as it was.

  gen_temporal.py --seed S [--stencils N]         print one program
  gen_temporal.py --run --cuda-on-cpu --stencilc PATH --runtime-include DIR
      [--programs N] [--seed S | --random-seed] [--stencils N] [--jobs N]
      [--work DIR] [--keep] [--cxx g++] [--cxx-flags "..."]
      [--mutate PYTHON-REGEX=REPLACEMENT]    (to see the test fail: applied
                                              to the extracted kernels once)
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_differential import run  # noqa: E402
E2E_COMMON = os.path.join(HERE, "..", "e2e", "common")
EXTRACT = os.path.join(E2E_COMMON, "extract_kernels.py")

# The pass kinds the plans report (parse_plan) and the runs take (the
# harness's "kinds run" line); printed per program, and the ones no program
# ran at the end.
PLAN_KINDS = ("rings", "a barrier a level", "summed by planes", "held terms",
              "2 points a thread", "divisions as products", "a division kept",
              "margin from the centre", "a copy for blocks off the margin",
              "chunks with no test")
KINDS = ("rings", "a barrier a level", "summed by planes", "held terms", "2 points a thread",
         "divisions as products", "margin from the centre", "constant-extent tiles",
         "shrinking tiles", "bordered tiles")


# --- the generator ------------------------------------------------------------

class Gen:
    def __init__(self, r, name, dims, ty, cls):
        self.r, self.name, self.dims, self.ty, self.cls = r, name, dims, ty, cls
        self.integer = ty in ("int", "long long")
        self.suffix = "f" if ty == "float" else ""
        self.scalars = []     # (name, type, value)
        self.coeffs = []      # names of coefficient arrays
        self.locals = 0

    def lit(self, v):
        if self.integer:
            return str(v)
        return f"{v}{self.suffix}"

    def off(self, o):
        if not any(o):
            return "idx.ix()"
        return f"idx.ix<{', '.join(map(str, o))}>()"

    def weight(self):
        if self.integer:
            return str(self.r.choice([1, 1, 2, 3]))
        return self.lit(self.r.choice(["0.125", "0.25", "0.375", "0.0625", "0.3125", "0.2",
                                       "0.1", "0.75", "0.5", "0.1875", "0.3"]))

    def scalar(self):
        """A scalar parameter (new or one already made)."""
        if self.scalars and self.r.random() < 0.5:
            return self.r.choice(self.scalars)[0]
        n = f"s{len(self.scalars)}"
        t = self.ty if self.integer or self.r.random() < 0.7 else "double"
        v = self.r.choice(["0.25", "0.125", "0.375", "0.2", "0.5"]) if not self.integer else \
            str(self.r.choice([1, 2, 3]))
        self.scalars.append((n, t, v))
        return n

    def coeff(self):
        if self.coeffs and self.r.random() < 0.6:
            return self.r.choice(self.coeffs)
        n = f"k{len(self.coeffs)}"
        self.coeffs.append(n)
        return n


def footprint(r, dims, cls):
    """Offsets of the previous level: (reach a side per axis, offsets)."""
    if cls == "planes":
        # A sum by planes: a box (reach 1 or 2) or a star of radius 1, now
        # and then one-sided or reaching far along z.
        shape = r.choice(["box", "star", "star", "irregular"])
        reach = [[r.choice([0, 1, 1]), r.choice([0, 1, 1])] for _ in range(dims)]
        if shape == "box" and r.random() < 0.3:
            reach[r.randrange(2)] = [r.choice([1, 2]), r.choice([1, 2])]
        if shape == "irregular" and r.random() < 0.4:
            reach[2] = [r.choice([0, 1]), r.choice([2, 3, 4])]
        if reach[2] == [0, 0]:  # else every term reads one plane
            reach[2][r.randrange(2)] = 1
    else:
        shape = r.choice(["box", "star", "star", "irregular"])
        most = 4 if dims == 2 else 2
        reach = [[r.choice([0, 1, 1, 2, most]), r.choice([0, 1, 1, 2, most])] for _ in range(dims)]
        if dims == 3 and r.random() < 0.3:
            reach[2] = [r.randint(0, 4), r.randint(1, 4)]  # far along z is cheap
    if cls == "barrier":
        shape = "barrier"
    if all(lo == 0 and hi == 0 for lo, hi in reach):
        reach[0][1] = 1
    pts = set()
    axes = range(dims)

    def rng(d):
        return list(range(-reach[d][0], reach[d][1] + 1))
    if shape in ("star", "barrier"):
        pts.add((0,) * dims)
        for d in axes:
            if shape == "barrier" and d == 0:
                for v in rng(d):
                    o = [0] * dims
                    o[d] = v
                    pts.add(tuple(o))
                continue
            ends = [-reach[d][0], reach[d][1]]
            for v in rng(d):
                if v in ends or r.random() < 0.6:
                    o = [0] * dims
                    o[d] = v
                    pts.add(tuple(o))
    else:
        box = [()]
        for d in axes:
            box = [b + (v,) for b in box for v in rng(d)]
        want = len(box) if shape == "box" and len(box) <= 27 else r.randint(3, min(12, len(box)))
        pts.update(r.sample(box, min(want, len(box))))
        # The reach's extremes, so that it is what was drawn.
        for d in axes:
            for v in (-reach[d][0], reach[d][1]):
                o = [r.randint(-reach[e][0], reach[e][1]) if e != d else v for e in axes]
                pts.add(tuple(o))
    pts = sorted(pts)
    if len(pts) > 14:
        keep = [p for p in pts if any(p[d] in (-reach[d][0], reach[d][1]) and
                                      all(p[e] == 0 for e in axes if e != d) for d in axes)]
        rest = [p for p in pts if p not in keep]
        pts = sorted(set(keep + r.sample(rest, max(0, 14 - len(keep)))))
    return shape, pts


def plane_order(r, pts, dims):
    """Terms in the planes' order (the sum's marching axis, z), a few of
    them moved after some terms of the next plane (held terms: the passes
    summed by planes hold at most 4 values a point)."""
    ax = dims - 1
    pts = sorted(pts, key=lambda p: (p[ax], r.random()))
    for _ in range(r.choice([0, 1, 1, 2])):
        i = r.randrange(len(pts))
        later = [j for j in range(len(pts)) if pts[j][ax] == pts[i][ax] + 1]
        if not later:
            continue
        p = pts.pop(i)
        pts.insert(r.choice(later), p)  # after the pop: just after that term
    return pts


def float_term(g, o, allow_coeff):
    r = g.r
    a = f"a[{g.off(o)}]"
    c = r.random()
    if c < 0.45:
        return f"{g.weight()} * {a}"
    if c < 0.6:
        return f"{g.scalar()} * {a}"
    if c < 0.72 and allow_coeff:
        k = g.coeff()
        ko = (0,) * g.dims if r.random() < 0.6 else tuple(r.randint(-1, 1) for _ in range(g.dims))
        return f"{k}[{g.off(ko)}] * {a}"
    return a


def planes_body(g, pts):
    """One store of a flat sum of the previous level's terms."""
    r = g.r
    parts = []
    for i, o in enumerate(plane_order(r, pts, g.dims)):
        t = float_term(g, o, False)
        sign = " - " if i and r.random() < 0.25 else " + "
        parts.append((sign, t))
        if r.random() < 0.1:
            parts.append((" + ", g.lit(r.choice(["0.125", "1.0", "0.25"]))))
    if r.random() < 0.15:
        parts.insert(0, (" + ", g.lit("0.5")))
    s = parts[0][1] + "".join(sg + t for sg, t in parts[1:])
    return [f"b[idx.ix()] = {s};"]


def general_body(g, pts):
    """Groups of terms, weighted, divided by constants or scalars; locals, a
    ?: on a value, coefficient arrays."""
    r = g.r
    ty = g.ty
    pts = list(pts)
    r.shuffle(pts)
    groups = []
    while pts:
        n = r.randint(1, min(4, len(pts)))
        groups.append(pts[:n])
        pts = pts[n:]
    lines, exprs = [], []
    for grp in groups:
        e = " + ".join(float_term(g, o, True) for o in grp)
        if len(grp) > 1 and r.random() < 0.25:
            e = e.replace(" + ", " - ", 1)
        c = r.random()
        if c < 0.3:
            d = r.choice(["118", "3", "6", "0.7", "12", "5", "0.25"])
            e = f"({e}) / {g.lit(d + ('' if '.' in d else '.0'))}"
        elif c < 0.4:
            e = f"({e}) / ({g.scalar()} + {g.lit('1.0')})"
        elif c < 0.55:
            e = f"{g.weight()} * ({e})"
        if r.random() < 0.35:
            v = f"t{g.locals}"
            g.locals += 1
            lines.append(f"const {ty} {v} = {e};")
            e = v
        exprs.append(e)
    if r.random() < 0.4:
        # A ?: on a value (both sides read the previous level).
        x, y = exprs[0], exprs[-1] if len(exprs) > 1 else "a[idx.ix()]"
        cond = r.choice([f"a[idx.ix()] > {g.lit('1.5')}", f"{x} < {y}",
                         f"a[{g.off(r.choice(g.pts))}] >= a[idx.ix()]"])
        exprs[0] = f"({cond} ? {x} : {g.weight()} * {y})"
    if r.random() < 0.15:
        exprs.append(g.lit(r.choice(["0.125", "0.5"])))
    r.shuffle(exprs)
    lines.append(f"b[idx.ix()] = {' + '.join(exprs)};")
    return lines


def integer_body(g, pts):
    """A weighted average: |values| stay within the inputs'."""
    r = g.r
    pts = list(pts)
    r.shuffle(pts)
    terms, total = [], 0
    for o in pts:
        w = r.choice([1, 1, 2, 3])
        total += w
        terms.append(f"a[{g.off(o)}]" if w == 1 else f"{w} * a[{g.off(o)}]")
    lines = []
    if r.random() < 0.3 and len(pts) > 1:
        x, y = r.sample(pts, 2)
        lines.append(f"const {g.ty} m = a[{g.off(x)}] > a[{g.off(y)}] ? a[{g.off(x)}] : "
                     f"a[{g.off(y)}];")
        terms.append("m")
        total += 1
    d = total + r.choice([0, 1, 2, 5])
    lines.append(f"b[idx.ix()] = ({' + '.join(terms)}) / {d};")
    return lines


def make_stencil(r, name):
    dims = r.choice([2, 2, 3, 3, 3])
    c = r.random()
    if dims == 3:
        cls = "planes" if c < 0.55 else "general"
    else:
        cls = "barrier" if c < 0.35 else "general"
    ty = r.choice(["float", "float", "double"])
    if cls == "barrier":
        ty = "float"
    if cls == "planes":
        ty = r.choice(["float", "double"])  # 8-byte stars: 2 points a thread
    if cls == "general" and r.random() < 0.2:
        ty = r.choice(["int", "long long"])
        cls = "integer"
    g = Gen(r, name, dims, ty, cls)
    shape, pts = footprint(r, dims, cls)
    g.pts = pts
    body = (planes_body if cls == "planes" else integer_body if cls == "integer"
            else general_body)(g, pts)
    params = [("in", "a")] + [("coef", k) for k in g.coeffs] + [("out", "b")] + \
             [("scalar", s) for s in g.scalars]
    r.shuffle(params)
    decl = []
    for kind, p in params:
        if kind == "scalar":
            decl.append(f"{p[1]} {p[0]}")
        elif kind == "out":
            decl.append(f"{ty} *{p}")
        else:
            decl.append(f"const {ty} *{p}")
    sig = ", ".join([f"const stencil::Index{dims}D &idx"] + decl)
    functor = r.random() < 0.75
    if functor:
        text = (f"struct STENCIL_KERNEL {name} {{\n  STENCIL_HD void operator()({sig}) const {{\n"
                + "".join(f"    {line}\n" for line in body) + "  }\n};\n")
        ref = f"{name}()"
    else:
        text = f"STENCIL_KERNEL\nvoid {name}({sig}) {{\n" + "".join(f"  {line}\n" for line in body) + "}\n"
        ref = name
    reach = [[0, 0] for _ in range(dims)]
    for o in pts:
        for d in range(dims):
            reach[d][0] = max(reach[d][0], -o[d])
            reach[d][1] = max(reach[d][1], o[d])
    desc = f"{dims}-D {ty} {cls} {shape}, {len(pts)} points, reach " + " ".join(
        f"{'xyz'[d]} -{reach[d][0]}..+{reach[d][1]}" for d in range(dims))
    return dict(name=name, dims=dims, ty=ty, cls=cls, params=params, text=text, ref=ref,
                scalars=g.scalars, desc=desc)


def generate_program(seed, count):
    r = random.Random(seed)
    stencils = [make_stencil(r, f"t{seed}_{i}") for i in range(count)]
    out = [f"// gen_temporal.py --seed {seed} --stencils {count}\n"
           f"#include \"temporal_harness.hpp\"\n\n"]
    for s in stencils:
        out.append(f"// {s['desc']}\n{s['text']}\n")
    # The time loops stencilc sees (never run: the harness runs the passes).
    types = sorted({s["ty"] for s in stencils})
    tname = {"float": "f", "double": "d", "int": "i", "long long": "l"}
    decl = ", ".join(f"{t} *{tname[t]}0, {t} *{tname[t]}1, const {t} *{tname[t]}k" for t in types)
    out.append(f"void timeLoops({decl}) {{\n"
               "  stencil::Loop2D<> P(9, 4, 4, 9, 4, 4);\n"
               "  stencil::Loop3D<> L(9, 4, 4, 9, 4, 4, 9, 4, 4);\n")
    for s in stencils:
        t = tname[s["ty"]]
        args = []
        for kind, p in s["params"]:
            if kind == "in":
                args.append(f"stencil::previousLevel({t}0)")
            elif kind == "out":
                args.append(f"stencil::nextLevel({t}1)")
            elif kind == "coef":
                args.append(f"{t}k")
            else:
                args.append(p[2] + ("f" if p[1] == "float" else ""))
        out.append(f"  {'P' if s['dims'] == 2 else 'L'}.repeat(2, {s['ref']}, {', '.join(args)});\n")
    out.append("}\n\n#ifdef STENCILC_TEMPORAL_KERNELS\n#include STENCILC_TEMPORAL_KERNELS\n\n"
               "int main(int argc, char **argv) {\n  tdiff::parseOptions(argc, argv);\n")
    for s in stencils:
        args = []
        for kind, p in s["params"]:
            if kind == "scalar":
                args.append(p[2] + ("f" if p[1] == "float" else ""))
            else:
                args.append("tdiff::Array()")
        out.append(f"  tdiff::checkStencil<{s['dims']}>(\"{s['name']}\", {s['ref']}, "
                   f"{', '.join(args)});\n")
    out.append(f"  return tdiff::summary({seed}u);\n}}\n#endif\n")
    return "".join(out), stencils


# --- extraction of the launchers ---------------------------------------------

LAUNCHER = re.compile(r"^(?:template <int STEPS>\n)?static [^\n]*?\b(stencilc_\w+_temporal\d+"
                      r"_(?:instance|shared|run|rings_tile|cuda_launch|planes_shared|planes_launch))\(",
                      re.MULTILINE)
LAUNCH = re.compile(r"^(\s*)(\w+)<<<(\w+), (\w+), (\w+), (\w+)>>>\((.*)\);$", re.MULTILINE)
REGISTRATION = re.compile(r"registerGeneratedTemporal\(/\*abiVersion=\*/\d+, \{(.*?)\}\);", re.DOTALL)


def field(block, name):
    m = re.search(r"/\*%s=\*/(.*?),?\n" % name, block)
    return m.group(1).rstrip(",") if m else None


def launchers(source):
    texts = []
    for m in LAUNCHER.finditer(source):
        end = source.index("\n}\n", m.start()) + 3
        t = re.sub(r"#line .*\n", "", source[m.start():end])
        t = LAUNCH.sub(lambda x: "%stdiff::launch(__func__, %s, %s, %s, [&] { %s(%s); });" % (
            x.group(1), x.group(3), x.group(4), x.group(5), x.group(2), x.group(7)), t)
        # Which way a pass summed by planes covers the region.
        t = t.replace("  *stencilc_taken = true;\n",
                      "  *stencilc_taken = true;\n  tdiff::noteBordered(bordered);\n")
        texts.append(t)
    return texts


def entries(source, plan):
    """The table of pass entries: from the registrations, and what the plan
    says of each stencil (kinds; a pass summed by planes' points a thread,
    most steps and tile compiled with constant extents)."""
    rows = []
    for m in REGISTRATION.finditer(source):
        b = m.group(1)
        if field(b, "backend") != "stencil::Backend::Cuda":
            continue
        name = field(b, "name").strip('"')
        launch = field(b, "launch").lstrip("&")
        info = plan.get(name, {})
        rows.append(
            "  {%s, &%s, %s, %s, %s, %s, %s, %s, %s, %d, %d, {%d, %d}, %d, \"%s\"}," % (
                f"\"{name}\"", launch, field(b, "dims"), field(b, "timeInput"),
                field(b, "timeOutput"), field(b, "reach"), field(b, "maxSteps"),
                field(b, "tiles"), field(b, "tileCount"),
                info.get("points", 0), info.get("planes_most", 0),
                *info.get("planes_tile", (0, 0)), info.get("centre", 0),
                ", ".join(info.get("kinds", []))))
    return ("const tdiff::Entry *tdiff::entries(int &Count) {\n"
            "  static const tdiff::Entry Table[] = {\n%s\n  };\n"
            "  Count = %d;\n  return Table;\n}\n" % ("\n".join(rows), len(rows)))


def parse_plan(text):
    """Per stencil: the pass kinds its plan names, its passes' count, and
    what the passes summed by planes take."""
    out = {}
    for block in re.split(r"^stencil ", text, flags=re.MULTILINE)[1:]:
        name = block.split(" ", 1)[0]
        kinds = []
        temporal = re.findall(r"^  temporal \(CUDA\): (.*)$", block, re.MULTILINE)
        info = {"temporal": temporal, "kinds": kinds}
        if any("a ring of" in t for t in temporal):
            kinds.append("rings")
        if any("a barrier a level" in t for t in temporal):
            kinds.append("a barrier a level")
        planes = re.search(r"^  temporal passes summed by planes: (.*)$", block, re.MULTILINE)
        info["planes_line"] = planes.group(1) if planes else ""
        if planes and not planes.group(1).startswith("none"):
            p = planes.group(1)
            kinds.append("summed by planes")
            steps = re.match(r"(\d+)(?: to (\d+))? steps?, (\d+) points a thread", p)
            info["planes_most"] = int(steps.group(2) or steps.group(1))
            info["points"] = int(steps.group(3))
            if info["points"] == 2:
                kinds.append("2 points a thread")
            if " held " in p:
                kinds.append("held terms")
            # The tiles compiled with constant extents ("for 32 x 8, 64 x 4
            # threads"): one of them, by the stencil's name.
            listed = re.search(r"compiled with constant extents for ([\d x,]+) threads", p)
            if listed:
                tiles = re.findall(r"(\d+) x (\d+)", listed.group(1))
                x, y = tiles[sum(map(ord, name)) % len(tiles)]
                info["planes_tile"] = (int(x), int(y) * info["points"])
        if re.search(r"float divisions by constants \(CUDA\):.*exact product", block):
            kinds.append("divisions as products")
        if re.search(r"float divisions by constants \(CUDA\):.*kept as a division", block):
            kinds.append("a division kept")
        if "printed again for blocks with no point of the margin" in block:
            kinds.append("a copy for blocks off the margin")
        if "temporal chunks: with no test" in block:
            kinds.append("chunks with no test")
        centre = re.search(r"temporal margin: the level below's centre .*?passes of up to (\d+) steps",
                           block)
        if centre:
            kinds.append("margin from the centre")
            info["centre"] = int(centre.group(1))
        out[name] = info
    return out


# --- runner -------------------------------------------------------------------

def one_program(args, seed):
    """Returns (seed, ok, summary line, kinds run, plan kinds, message)."""
    planned = set()
    d = os.path.join(args.work, f"temporal{seed}")
    os.makedirs(d, exist_ok=True)
    text, stencils = generate_program(seed, args.stencils)
    src = os.path.join(d, f"temporal{seed}.cpp")
    with open(src, "w") as f:
        f.write(text)
    repro = (f"test/differential/gen_temporal.py --run --cuda-on-cpu --stencilc {args.stencilc} "
             f"--runtime-include {args.runtime_include} --programs 1 --seed {seed} "
             f"--stencils {args.stencils} --keep --work /tmp/temporal-repro")
    inc = ["-I", args.runtime_include, "-I", HERE, "-I", E2E_COMMON]
    cmd = [args.stencilc, src, "-o", d, "--emit=cuda,plan", "--",
           "-std=c++17"] + inc
    rc, out = run(cmd, args.timeout)
    if rc != 0:
        return seed, False, "", set(), planned, f"stencilc exit {rc}: {' '.join(cmd)}\n{out[-3000:]}\nreproduce: {repro}"
    cu = os.path.join(d, f"temporal{seed}.stencil.cu")
    with open(os.path.join(d, f"temporal{seed}.stencil.plan")) as f:
        plan = parse_plan(f.read())
    # Every stencil in the class that gets passes, its marked levels' among them.
    for info in plan.values():
        planned.update(info["kinds"])
    missing = []
    for s in stencils:
        info = plan.get(s["name"])
        if not info or not any(t.startswith("a -> b,") for t in info["temporal"]):
            why = "; ".join(info["temporal"]) if info else "not in the plan"
            missing.append(f"{s['name']} ({s['desc']}): {why}\n{s['text']}")
    if missing:
        return seed, False, "", set(), planned, ("stencils with no passes (a -> b) in the plan:\n"
                                        + "\n".join(missing) + f"\nreproduce: {repro}")
    raw = os.path.join(d, "kernels_raw.inc")
    rc, out = run([sys.executable, EXTRACT, cu, raw], args.timeout)
    if rc != 0:
        return seed, False, "", set(), planned, f"extract_kernels.py exit {rc}\n{out[-3000:]}"
    with open(cu) as f:
        source = f.read()
    with open(raw) as f:
        kernels = f.read().replace("cpu_threads::shared", "cuda_on_cpu::DynamicShared.data()")
    if args.mutate:
        pattern, repl = args.mutate.split("=", 1)
        kernels, n = re.subn(pattern, repl, kernels, count=1)
        if n == 0:
            return seed, False, "", set(), planned, f"--mutate: no match of {pattern!r}"
    inc_file = os.path.join(d, "kernels.inc")
    with open(inc_file, "w") as f:
        f.write(kernels + "\n\n// The launchers (gen_temporal.py).\n" + "\n".join(launchers(source))
                + "\n" + entries(source, plan))
    exe = os.path.join(d, "prog")
    cmd = [args.cxx, "-std=c++17"] + args.cxx_flags.split() + inc + [
        f"-DSTENCILC_TEMPORAL_KERNELS=\"{inc_file}\"", src, "-o", exe]
    rc, out = run(cmd, args.timeout * 4)
    if rc != 0:
        return seed, False, "", set(), planned, (f"harness build failed ({rc}): {' '.join(cmd)}\n{out[-4000:]}"
                                        f"\nreproduce: {repro}")
    rc, out = run([exe], args.timeout * 4)
    line = "\n".join(l for l in out.splitlines() if l.startswith("temporal: seed"))
    kinds = set()
    for l in out.splitlines():
        if l.startswith("kinds run: "):
            kinds.update(k for k in l[len("kinds run: "):].split(", ") if k)
    if rc != 0:
        return seed, False, line, kinds, planned, f"{exe} exit {rc}\n{out[-6000:]}\nreproduce: {repro}"
    if args.verbose:
        print(out, flush=True)
    if not args.keep:
        shutil.rmtree(d, ignore_errors=True)
    return seed, True, line, kinds, planned, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stencils", type=int, default=8, help="stencils per program")
    ap.add_argument("--run", action="store_true")
    ap.add_argument("--cuda-on-cpu", action="store_true",
                    help="with --run: the passes' CUDA kernels run on the CPU (the only mode)")
    ap.add_argument("--stencilc")
    ap.add_argument("--runtime-include")
    ap.add_argument("--programs", type=int, default=1)
    ap.add_argument("--random-seed", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", default=None)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="print each program's output")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cxx-flags", default="-O0")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--mutate", default=None,
                    help="REGEX=REPLACEMENT applied once to the extracted kernels (to see a failure)")
    args = ap.parse_args()
    if args.random_seed:
        args.seed = random.SystemRandom().randrange(1 << 30)
    if not args.run:
        sys.stdout.write(generate_program(args.seed, args.stencils)[0])
        return 0
    if not args.cuda_on_cpu:
        ap.error("--run needs --cuda-on-cpu (there is no other mode yet)")
    if not args.stencilc or not args.runtime_include:
        ap.error("--run needs --stencilc and --runtime-include")
    args.stencilc = os.path.abspath(args.stencilc)
    args.runtime_include = os.path.abspath(args.runtime_include)
    tmp = args.work is None
    if tmp:
        args.work = tempfile.mkdtemp(prefix="stencilc-temporal-")
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    print(f"temporal: {args.programs} programs x {args.stencils} stencils, seeds "
          f"{args.seed}..{args.seed + args.programs - 1}, passes' CUDA kernels on the CPU",
          flush=True)
    start = time.time()
    failures, seen, seen_plan = [], set(), set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = [pool.submit(one_program, args, args.seed + i) for i in range(args.programs)]
        for fut in concurrent.futures.as_completed(futs):
            seed, ok, line, kinds, planned, msg = fut.result()
            seen |= kinds
            seen_plan |= planned
            if line:
                print(line, flush=True)
            print(f"  seed {seed}: plans: {', '.join(k for k in PLAN_KINDS if k in planned) or 'none'}",
                  flush=True)
            print(f"  seed {seed}: kinds run: {', '.join(k for k in KINDS if k in kinds) or 'none'}",
                  flush=True)
            if not ok:
                failures.append(seed)
                print(f"FAIL seed {seed}:\n{msg}\n", flush=True)
    print(f"temporal: {args.programs - len(failures)} of {args.programs} programs passed, "
          f"{time.time() - start:.0f} s; kinds no plan reported: "
          f"{', '.join(k for k in PLAN_KINDS if k not in seen_plan) or 'none'}; kinds not run: "
          f"{', '.join(k for k in KINDS if k not in seen) or 'none'}"
          + (f"; failing seeds: {sorted(failures)}" if failures else ""), flush=True)
    if tmp and not failures and not args.keep:
        shutil.rmtree(args.work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
