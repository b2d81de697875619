#!/usr/bin/env python3
"""gen_domain_steps.py - random steps (STENCIL_STEP) run by stencil::DomainStep.

Prints one C++ program (domain_step_harness.hpp does the checking): STEPS
random steps of 2-6 stencils each, 2-D or 3-D, float or double, made with
gen_steps.py's stencils (random offsets up to radius 2, diagonals among them;
1-3 inputs, 1-2 outputs, sometimes inout at the centre, sometimes stores
under if/else; sometimes arrays of lower rank). The bindings favour what
DomainStep's fused groups are made of: an input is what the call before
wrote (half the time), or what any earlier call wrote (a producer read by
several consumers, producers not adjacent to their consumer), else any array;
outputs are mostly arrays no call touched yet, else any array the call does
not read, so arrays read early are rewritten later (anti and output
dependences). A third of the steps fan in: their first calls read only arrays
nothing writes and write fresh ones, the last read those (a group of several
producers). A stencil is sometimes run twice. Each step comes with a
template of the same body that the harness runs on its host reference.

  gen_domain_steps.py --seed S [--steps N] [--coordinates any] > domain_steps.cpp

Global extents are even and at least 16 in every dimension: four ranks along
one dimension keep blocks of 4, the deepest halo a plan of radius-2 stencils
needs. Left out by default, because it gives other bits than call by call (a
fused group recomputes its producers in a periodic halo, where the
coordinates are those beyond the edge, -1, not the wrapped ones, N - 1):
  --coordinates any   conditions idx.j() > n and idx.i() % 3 == 1 (by default
                      only parities, the same across the wrap of an even
                      extent)
Margins beyond a wall are taken from the global coordinates as they are (not
periodic along a periodic dimension; domain_step_harness.hpp,
STENCIL_TEST_WRAPPED_MARGINS=1 for wrapped ones): where a consumer reads a
recomputed array at such a margin across the wrap, its group runs apart.
"""
import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "differential"))
from gen_steps import Gen, lower_rank_axes, make_stencil  # noqa: E402


def make_step(r, sname, seed_tag, args):
    dims = r.choice([2, 3, 3])
    ty = r.choice(["float", "double"])
    radius = r.choice([1, 1, 2])
    g = Gen(r, dims, ty, radius)
    g.coordinate_conditions = args.coordinates
    ncalls = r.randint(2, 6)
    # Fan-in, a third of the steps: the first calls read only arrays nothing
    # writes and write fresh ones (independent producers), the others read
    # what they wrote (a consumer of several producers).
    nprod = r.randint(2, ncalls - 1) if ncalls > 2 and r.random() < 0.35 else 0
    nfull = max(r.randint(3, 7), 2 + 2 * nprod + 2)
    axes_pool = lower_rank_axes(dims)
    nlow = r.choice([0, 0, 1, 2])
    low_axes = [r.choice(axes_pool) for _ in range(nlow)]
    # Full arrays F0.. are never read through ix_<axes> and arrays of lower
    # rank L0.. never written (gen_steps.py, "Excluded").
    full = [f"F{i}" for i in range(nfull)]
    low = [f"L{i}" for i in range(nlow)]
    step_sc = [(f"k{i}", r.choice(["double", ty])) for i in range(r.randint(0, 3))]
    base = full[:2]
    stencils, calls = [], []
    prev_out, written, touched = [], [], set()
    for c in range(ncalls):
        if stencils and r.random() < 0.15 and c >= nprod:
            st = r.choice(stencils)
        else:
            # A fan-in producer that can be recomputed, mostly: not inout,
            # storing at the top level of its body (not only under if/else).
            for _ in range(4 if c < nprod else 1):
                st = make_stencil(g, f"{sname}_st{len(stencils)}", sorted(set(low_axes)))
                if not any(p[0] == "inout" for p in st.params) and "else" not in st.text:
                    break
            stencils.append(st)
        outs = [p for p in st.params if p[0] in ("out", "inout")]
        ins = [p for p in st.params if p[0] == "in"]
        bind = {}
        # A fan-in consumer reads the producers' outputs, each once at first.
        pool = r.sample(written, len(written)) if nprod and c >= nprod else []
        for _, n, axes in ins:
            roll = r.random()
            if axes is not None:
                bind[n] = r.choice([low[i] for i in range(nlow) if low_axes[i] == axes])
            elif pool:
                bind[n] = pool.pop()
            elif c < nprod:
                bind[n] = r.choice(base)
            elif prev_out and not nprod and roll < 0.5:
                bind[n] = r.choice(prev_out)
            elif written and roll < 0.8:
                bind[n] = r.choice(written)
            else:
                bind[n] = r.choice(full)
        taken = set(bind.values())
        free = [a for a in full if a not in taken]
        # Fresh outputs (nothing before touched them) for fan-in producers
        # and most other calls: else the output often is what an earlier
        # call reads, and no group forms.
        if c < nprod or r.random() < 0.6:
            fresh = [a for a in free if a not in base and a not in touched]
            free = fresh if len(fresh) >= len(outs) else free
        if len(free) < len(outs):
            for _, n, axes in ins:
                if axes is None:
                    bind[n] = full[0]
            taken = set(bind.values())
            free = [a for a in full if a not in taken]
        r.shuffle(free)
        for (_, n, _), a in zip(outs, free):
            bind[n] = a
        cargs = []
        for kind, n, _ in st.params:
            if kind == "scalar":
                if step_sc and r.random() < 0.6:
                    cargs.append(r.choice(step_sc)[0])
                else:
                    v = r.choice(["0.5", "0.75", "1.25", "0.3", "1.1"])
                    cargs.append(v + ("f" if r.random() < 0.5 else ""))
            else:
                cargs.append(bind[n])
        ref = (r.choice([f"{st.name}()", f"{st.name}{{}}"]) if st.functor
               else r.choice([st.name, f"&{st.name}"]))
        calls.append((st, ref, cargs))
        prev_out = [bind[n] for _, n, _ in outs]
        touched |= set(bind.values())
        written += [a for a in prev_out if a not in written]
    used, wrote = [], set()
    for st, _, cargs in calls:
        for (kind, _, _), a in zip(st.params, cargs):
            if kind != "scalar" and a not in used:
                used.append(a)
            if kind in ("out", "inout"):
                wrote.add(a)
    used_sc = [s for s in step_sc if any(s[0] in ca for _, _, ca in calls)]
    params = [("arr", a) for a in used] + [("sc", s) for s in used_sc]
    r.shuffle(params)
    decl = []
    for kind, p in params:
        if kind == "sc":
            decl.append(f"{p[1]} {p[0]}")
        else:
            decl.append(f"{'' if p in wrote else 'const '}{ty} *{p}")
    body = "".join(f"  s.run({', '.join([ref] + ca)});\n" for _, ref, ca in calls)
    text = "".join(st.text + "\n" for st in stencils)
    text += (f"STENCIL_STEP\nvoid {sname}({', '.join([f'stencil::Step{dims}D &s'] + decl)}) {{\n"
             f"{body}}}\n")
    # The same calls on the harness's host reference.
    text += (f"template <typename R>\nvoid {sname}_ref({', '.join(['const R &s'] + decl)}) {{\n"
             f"{body}}}\n")
    if dims == 2:
        ext = [r.randrange(16, 33, 2), r.randrange(16, 27, 2)]
    else:
        ext = [r.randrange(16, 21, 2) for _ in range(3)]
    arrays = [p for k, p in params if k == "arr"]
    masks, read_only = [], []
    for i, a in enumerate(arrays):
        if a.startswith("L"):
            masks.append(sum(1 << "xyzw".index(ch) for ch in low_axes[int(a[1:])]))
        else:
            masks.append((1 << dims) - 1)
            if a not in wrote:
                read_only.append(i)
    dist, host = [], []
    for kind, p in params:
        if kind == "arr":
            i = arrays.index(p)
            dist.append(f"A.f({i})" if p.startswith("F") else f"A.p({i})")
            host.append(f"A.p({i})")
        else:
            v = r.choice(["0.5", "0.625", "0.875", "1.0625", "1.3", "0.7", "0.9"])
            lit = v + ("f" if p[1] == "float" else "")
            dist.append(lit)
            host.append(lit)
    names = ", ".join(f'"{a}"' for a in arrays)
    case = (f"    {{\n      const long long Ext[{dims}] = {{{', '.join(map(str, ext))}}};\n"
            f"      dstest::Case<{ty}, {dims}> C(\"{sname}\", {seed_tag}u, Ext, "
            f"{{{', '.join(map(str, masks))}}}, {{{names}}}, {{{', '.join(map(str, read_only))}}});\n"
            f"      C.run(&{sname},\n"
            f"            [](stencil::DomainStep &S, auto &A, bool Overlap) {{\n"
            f"              dstest::call(S, Overlap, &{sname}, {', '.join(dist)});\n"
            f"            }},\n"
            f"            [](const auto &R, auto &A) {{ {sname}_ref(R, {', '.join(host)}); }});\n"
            f"    }}\n")
    return text, case


def generate_program(seed, steps, args):
    r = random.Random(seed)
    flags = " --coordinates any" if args.coordinates == "any" else ""
    out = [f"// gen_domain_steps.py --seed {seed} --steps {steps}{flags}\n"
           "#include \"domain_step_harness.hpp\"\n\n"]
    cases = []
    for i in range(steps):
        text, case = make_step(r, f"step{i}", seed * 100 + i, args)
        out.append(text + "\n")
        cases.append(case)
    out.append("int main(int argc, char **argv) {\n"
               "  return stencil::runMpiMain(argc, argv, [&] {\n" + "".join(cases) +
               f"    return dstest::summary(\"seed {seed}\");\n  }});\n}}\n")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--coordinates", choices=("parity", "any"), default="parity")
    ap.add_argument("-o", "--output", help="write here (only if it changes) instead of stdout")
    args = ap.parse_args()
    text = generate_program(args.seed, args.steps, args)
    if not args.output:
        sys.stdout.write(text)
        return 0
    old = None
    if os.path.exists(args.output):
        with open(args.output) as f:
            old = f.read()
    if old != text:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
