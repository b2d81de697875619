#!/usr/bin/env python3
"""step_traffic.py - a step's compulsory traffic, from stencilc's --emit=ir.

    stencilc FILE --emit=ir -o - -- ... | tools/step_traffic.py STEP

Prints, for step STEP (its name or qualified name), the arrays that span
every dimension which the step reads before it writes them (its inputs) and
the arrays it writes (its outputs), as

    inputs N: a b ...
    outputs M: c d ...
    bytes per point: B
    scratch K: e f ...
    bytes per point with the scratch arrays stored: B2

where B counts each input read once and each output written once, with the
element sizes of the step's parameters: the least any plan of the step can
move. Scratch arrays (STENCIL_SCRATCH) are the step's own, neither inputs
nor outputs; B2 counts them as outputs too (what a step whose scratch
arrays are not marked must write). Arrays of lower rank (profiles, surface
fields) are left out: they hold a point per column or level, not per
point."""
import json
import sys

SIZES = {"f32": 4, "f64": 8, "i32": 4, "i64": 8, "u32": 4, "u64": 8}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: step_traffic.py STEP < ir.json")
    ir = json.load(sys.stdin)
    steps = [s for s in ir.get("steps", [])
             if sys.argv[1] in (s["name"], s["qualified_name"])]
    if len(steps) != 1:
        sys.exit(f"step_traffic: {len(steps)} steps named {sys.argv[1]}")
    step = steps[0]
    stencils = {s["qualified_name"]: s for s in ir["stencils"]}
    types = {p["name"]: p["type"] for p in step["params"]}
    scratch = [p["name"] for p in step["params"] if p.get("scratch")]
    read, written, lower = set(), [], set()
    inputs = []
    for call in step["calls"]:
        stencil = stencils[call["stencil"]]
        arrays = {a["name"]: a for a in stencil["arrays"]}
        params = [p["name"] for p in stencil["params"][1:]]
        uses = []
        for param, arg in zip(params, call["args"]):
            if param not in arrays:
                continue
            a = arrays[param]
            if len(a["axes"]) < stencil["dims"]:
                lower.add(arg)
                continue
            uses.append((arg, a["intent"]))
        for arg, intent in uses:  # reads of this call come before its writes
            if intent in ("in", "inout") and arg not in written and arg not in read:
                read.add(arg)
                inputs.append(arg)
        for arg, intent in uses:
            if intent in ("out", "inout") and arg not in written:
                written.append(arg)
    outputs = [a for a in written if a not in scratch]
    kept = [a for a in written if a in scratch]
    size = sum(SIZES[types[a]] for a in inputs) + sum(SIZES[types[a]] for a in outputs)
    print(f"inputs {len(inputs)}: {' '.join(inputs)}")
    print(f"outputs {len(outputs)}: {' '.join(outputs)}")
    print(f"bytes per point: {size}")
    if kept:
        print(f"scratch {len(kept)}: {' '.join(kept)}")
        print("bytes per point with the scratch arrays stored: "
              f"{size + sum(SIZES[types[a]] for a in kept)}")
    if lower:
        print(f"left out (lower rank): {' '.join(sorted(lower))}")


if __name__ == "__main__":
    main()
