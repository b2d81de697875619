#!/usr/bin/env python3
"""scaling_model.py - a model of the dycore's step on many GPUs, checked
against the runs of tools/dycore_mpi_gpu_run.sh and used to project further.

    stencilc dycore.cpp --emit=ir  -o - -- ... > ir.json
    stencilc dycore.cpp --emit=plan -o - -- ... > plan.txt
    tools/scaling_model.py ir.json plan.txt dycore_mpi_gpu_run.log [--tolerance 0.1]
        [--link-gbs 383 --link-us 8.8] [--project 4096 --net-gbs 25 --net-us 5]

The model (its assumptions, each an option or read from the inputs):
- compute: a step on one GPU takes a + b * points, fitted to the log's two
  one-GPU runs (512x512x64 and 1024x1024x64, the weak and strong bases);
- exchange: each round of the plan (the `over ranks` lines of --emit=plan)
  sends, along each split dimension, the halo widths it names of each array
  it exchanges (element sizes from the IR), as one message per side, both
  sides at once: latency + bytes / bandwidth per split dimension, the
  dimensions one after the other;
- overlap: a round's exchange hides behind that round's compute, a share of
  the step's compute equal for every round; only what exceeds it adds up
  (without overlap, --no-overlap runs: compute plus every exchange).
One GPU exchanges too (its periodic wraps, by device copies): the model
prices them as link transfers, and they hide alike.
The link defaults are the peer copies measured between two H200s of one host
(docs/TOOLCHAIN: 88 GB/s at 1 MB, 316 GB/s at 16 MB, fitted to 8.8 us +
bytes / 383 GB/s). The projection uses --net-gbs and --net-us for every
split dimension (the links between nodes), per GPU.
Prints each measured run beside its prediction and exits 1 when one is off
by more than --tolerance; then the projection, with the flops of the step
(the IR's flops per point of each call, three stages) per second."""
import argparse
import json
import re
import sys

SIZES = {"f32": 4, "f64": 8, "i32": 4, "i64": 8, "u32": 4, "u64": 8}
# The link between two H200s of one host, as measured (peer copies, fitted):
# latency in microseconds and bandwidth in GB/s. tools/time_loop_model.py
# takes them too, with the arguments below.
LINK_US, LINK_GBS = 8.8, 383.0


def add_check_arguments(p):
    """The arguments both models share: the log checked, the tolerance and
    the link (defaults: the measured one)."""
    p.add_argument("log")
    p.add_argument("--tolerance", type=float, default=0.1)
    p.add_argument("--link-gbs", type=float, default=LINK_GBS)
    p.add_argument("--link-us", type=float, default=LINK_US)


def rounds_of(plan_text):
    """Per round, the arrays it exchanges: (name, {axis: (lo, hi)})."""
    rounds = []
    for line in plan_text.splitlines():
        if not line.startswith("  over ranks, before group"):
            continue
        arrays = []
        for name, halo in re.findall(r"(\w+) exchanged \(([^)]*)\)", line):
            widths = {}
            for axis, lo, hi in re.findall(r"([xyzw]) -(\d+)\.\.\+(\d+)", halo):
                widths[axis] = (int(lo), int(hi))
            arrays.append((name, widths))
        rounds.append(arrays)
    return rounds


def exchange_seconds(rounds, sizes, local, procs, gbs, us, periodic=(True, True, False)):
    """Seconds a step's exchanges take on one rank (three stages), and per
    round."""
    per_round = []
    for arrays in rounds:
        t = 0.0
        for d, axis in enumerate("xyz"):
            if procs[d] == 1 and not periodic[d]:
                continue
            side = 0
            for name, widths in arrays:
                lo, hi = widths.get(axis, (0, 0))
                face = 1
                for e in range(3):
                    if e != d:
                        face *= local[e]
                side += max(lo, hi) * face * sizes[name]
            if side:
                t += us * 1e-6 + side / (gbs * 1e9)
        per_round.append(3 * t)
    return sum(per_round), per_round


def runs_of(log):
    """(kind, gpus, procs, size, ms) of each timed run of the log."""
    runs, current = [], None
    for line in log.splitlines():
        m = re.match(r"-- np (\d+) --procs=([\d,]+) --size=([\d,]+) --steps=\d+(.*)", line)
        if m:
            current = (int(m.group(1)), tuple(map(int, m.group(2).split(","))),
                       tuple(map(int, m.group(3).split(","))), m.group(4).strip())
            continue
        m = re.match(r"time per step: ([\d.]+) ms", line)
        if m and current:
            runs.append(current + (float(m.group(1)),))
            current = None
    return runs


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("ir")
    p.add_argument("plan")
    add_check_arguments(p)
    p.add_argument("--project", type=int, default=4096)
    p.add_argument("--net-gbs", type=float, default=25.0)
    p.add_argument("--net-us", type=float, default=5.0)
    a = p.parse_args()
    if a.project < 1:
        p.error(f"--project takes a number of GPUs, 1 or more (got {a.project})")
    ir = json.load(open(a.ir))
    step = [s for s in ir["steps"] if s["name"] == "rungeKuttaStage"][0]
    sizes = {q["name"]: SIZES.get(q["type"], 8) for q in step["params"]}
    flops = {s["qualified_name"]: s["flops_per_point"] for s in ir["stencils"]}
    flops_point = 3 * sum(flops[c["stencil"]] for c in step["calls"])
    rounds = rounds_of(open(a.plan).read())
    # The scaling runs (not the small runs that check bits).
    runs = [r for r in runs_of(open(a.log).read()) if r[2][1] >= 512]
    one = sorted((r[2][0] * r[2][1] * r[2][2], r[4]) for r in runs
                 if r[0] == 1 and r[3] == "")
    if len(one) < 2:
        sys.exit("scaling_model: the log has no two one-GPU runs of different sizes")
    (n0, t0), (n1, t1) = one[0], one[-1]
    b = (t1 - t0) / (n1 - n0)
    a0 = t0 - b * n0
    print(f"compute: {a0:.4f} ms + {b * 1e6:.4f} ms per million points "
          f"(one GPU, {n0} and {n1} points)")
    print(f"link: {a.link_us} us + bytes / {a.link_gbs} GB/s; {len(rounds)} rounds a stage")
    worst = 0.0

    def predict(gpus, procs, size, gbs, us):
        local = [size[d] // procs[d] for d in range(3)]
        points = local[0] * local[1] * local[2]
        compute = a0 + b * points
        total, per_round = exchange_seconds(rounds, sizes, local, procs, gbs, us)
        share = compute / max(len(per_round), 1)
        exposed = sum(max(0.0, t * 1e3 - share) for t in per_round)
        return compute, total * 1e3, compute + exposed, points

    for gpus, procs, size, flags, ms in runs:
        compute, exchange, step_ms, _ = predict(gpus, procs, size, a.link_gbs, a.link_us)
        overlap = "--no-overlap" not in flags
        if not overlap:
            step_ms = compute + exchange  # every exchange before its round
        error = step_ms / ms - 1
        # The one-GPU runs with overlap are the compute fit itself.
        fitted = gpus == 1 and overlap
        if not fitted:
            worst = max(worst, abs(error))
        print(f"{gpus} GPUs {procs} {size}{'' if overlap else ' no overlap'}: measured "
              f"{ms:.4f} ms, model {step_ms:.4f} ms (compute {compute:.4f}, exchange "
              f"{exchange:.4f}): {error * 100:+.1f}%{' (fitted)' if fitted else ''}")
    ok = worst <= a.tolerance
    print(f"worst error {worst * 100:.1f}% (tolerance {a.tolerance * 100:.0f}%): "
          f"{'PASS' if ok else 'FAIL'}")
    # Projection: weak scaling, 512x512x64 per GPU, the squarest grid of
    # exactly --project ranks in x-y.
    side = max(d for d in range(1, int(a.project ** 0.5) + 1) if a.project % d == 0)
    procs = (side, a.project // side, 1)
    size = (512 * procs[0], 512 * procs[1], 64)
    compute, exchange, step_ms, points = predict(a.project, procs, size, a.net_gbs, a.net_us)
    rate = flops_point * points * procs[0] * procs[1] / (step_ms * 1e-3)
    print(f"projection, {procs[0] * procs[1]} GPUs ({procs[0]}x{procs[1]}), 512x512x64 each, "
          f"{a.net_us} us + bytes / {a.net_gbs} GB/s a link: step {step_ms:.4f} ms "
          f"(compute {compute:.4f}, exchange {exchange:.4f}), weak-scaling efficiency "
          f"{compute / step_ms:.3f}, {flops_point} flops a point a step: "
          f"{rate / 1e12:.1f} TFlop/s in f64")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
