#!/usr/bin/env python3
"""time_loop_model.py - a model of a time loop with deep halos
(DomainLoop::repeat) on several GPUs, checked against the timings of
`mpi_gpu_run.sh` with TIME_LOOP=1 (diffusion3d_mpi --mode=time-loop).

    tools/time_loop_model.py LOG [--tolerance 0.1] [--link-gbs 383 --link-us 8.8]
        [--reach 1 --value-bytes 4] [--sent halo|steps]

For each K (steps per exchange) of the log's runs on several GPUs split in
one dimension, over the peer transport, it predicts the time of a step from
the one-GPU run of the same K and the same points per GPU:
- compute: the one-GPU step, times the share of points a rank computes more
  than its own: with stencilc's passes (K >= 3: passes of K, or K - 1 when K
  is even) the pass covers (pass - 1) reaches more on each side a neighbour
  fills; one step at a time, step s of K covers K - s more, (K - 1) / 2 on
  average;
- exchange: once per exchange, each rank sends a slab to each neighbour,
  latency + bytes / bandwidth (the peer copies measured between two H200s
  of one host, as tools/scaling_model.py takes them); the slab is as deep
  as the fields' halo (the largest K of the run) with --sent=halo, what the
  runs recorded in docs/ did, or K reaches with --sent=steps, what
  DomainLoop::repeat sends since it exchanges only what K steps read;
- overlap: one step at a time, the exchange hides behind the steps'
  interiors and adds only what exceeds them; passes do not overlap it.
Prints each run beside its prediction and exits 1 when one is off by more
than --tolerance."""
import argparse
import re
import sys

from scaling_model import add_check_arguments


def runs_of(log):
    """(ranks, procs, transport, size, per-exchange list, K, ms per step)."""
    runs, header = [], None
    for line in log.splitlines():
        m = re.match(r"-- np (\d+) transport (\w+): diffusion3d_mpi (.*)", line)
        if m:
            args = m.group(3)
            if "--mode=time-loop" not in args:
                header = None
                continue
            size = [int(v) for v in re.search(r"--size=([\d,]+)", args).group(1).split(",")]
            procs = re.search(r"--procs=([\d,]+)", args)
            procs = [int(v) for v in procs.group(1).split(",")] if procs else [1, 1, 1]
            per = [int(v) for v in re.search(r"--per-exchange=([\d,]+)", args).group(1).split(",")]
            header = (int(m.group(1)), procs, m.group(2), size, per, "--periodic" in args)
            continue
        # The overlapped runs only (older logs say nothing of overlap).
        m = re.match(r"time-loop: .* per-exchange (\d+) (?:overlap on )?ms/step ([\d.]+)", line)
        if m and header:
            runs.append(header + (int(m.group(1)), float(m.group(2))))
    return runs


def pass_steps(k):
    return k - (k % 2 == 0)


def predict(one_gpu_ms, k, local, split_axis, sides, deepest, args):
    extent = local[split_axis]
    if pass_steps(k) > 1:  # passes: no overlap
        extra = sides * (pass_steps(k) - 1) * args.reach
        compute = one_gpu_ms * (extent + extra) / extent
        every = pass_steps(k)
    else:
        extra = sides * (k - 1) / 2 * args.reach
        compute = one_gpu_ms * (extent + extra) / extent
        every = k
    plane = 1
    for a, n in enumerate(local):
        if a != split_axis:
            plane *= n
    depth = deepest if args.sent == "halo" else k
    bytes_sent = depth * args.reach * plane * args.value_bytes
    exchange_ms = (args.link_us * 1e-3 + bytes_sent / (args.link_gbs * 1e9) * 1e3) / every
    if pass_steps(k) > 1:
        return compute + exchange_ms
    return max(compute, exchange_ms)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_check_arguments(p)
    p.add_argument("--reach", type=int, default=1)
    p.add_argument("--value-bytes", type=int, default=4)
    p.add_argument("--sent", choices=["halo", "steps"], default="halo")
    args = p.parse_args()
    try:
        with open(args.log) as f:
            runs = runs_of(f.read())
    except OSError as e:
        print(f"time-loop model: cannot read {args.log}: {e.strerror}")
        return 2
    one = {(tuple(r[3]), r[5], r[6]): r[7] for r in runs if r[0] == 1}
    checked, bad = 0, 0
    for ranks, procs, transport, size, per, periodic, k, ms in runs:
        if ranks == 1 or transport != "auto" or periodic:
            continue
        split = [a for a in range(3) if procs[a] > 1]
        if len(split) != 1:
            continue
        axis = split[0]
        local = list(size)
        local[axis] //= procs[axis]
        base = one.get((tuple(local), False, k))
        if base is None:
            continue
        sides = 2 if procs[axis] > 2 else 1
        model = predict(base, k, local, axis, sides, max(per), args)
        error = model / ms - 1
        checked += 1
        bad += abs(error) > args.tolerance
        print(f"{ranks} GPUs {'x'.join(map(str, size))} K={k}: measured {ms:.4f} ms, "
              f"model {model:.4f} ms ({error:+.1%})")
    if not checked:
        print("time-loop model: no run on several GPUs with a one-GPU run beside it")
        return 1
    print(f"time-loop model: {'PASS' if not bad else 'FAIL'} ({checked - bad} of {checked} "
          f"within {args.tolerance:.0%})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
