#!/usr/bin/env python3
"""run_differential.py - the random differential test of stencilc.

Generates PROGRAMS programs of STENCILS random stencils each
(gen_stencils.py), runs stencilc on them, builds each with the host compiler
and runs it: every stencil's generated OpenMP code must equal the host
reference bit for bit on fresh random inputs (outputs poisoned with NaN).
Programs with an even seed are "wild" (see gen_stencils.py). Seeds are
SEED, SEED+1, ...: a failure prints the seed and the command that reproduces
it.

  run_differential.py --stencilc PATH --runtime-include DIR [--programs N]
      [--stencils N] [--seed N | --random-seed] [--jobs N] [--work DIR]
      [--cxx g++] [--cxx-flags "..."]
  run_differential.py ... --bundle DIR
      GPU mode, part one (here, with stencilc): writes the programs, their
      generated .stencil.cpp and .stencil.cu, the harness and the runtime
      headers into DIR; `tools/make_bundle.sh differential` calls this and
      adds the runner, tools/differential_gpu.sh, which builds them with nvcc
      and runs them on the GPU machine (no stencilc needed there).
"""
import argparse
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_stencils  # noqa: E402

# What cmake/StencilcHelpers.cmake adds to a target built with GCC, so that the
# host reference and the generated code fold no math call differently.
DEFAULT_FLAGS = "-O2 -frounding-math"


def run(cmd, timeout, env=None, cwd=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, env=env, cwd=cwd)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        return "timeout", (e.stdout or b"").decode(errors="replace")


def stencilc_cmd(args, src, out_dir, emit):
    return [args.stencilc, src, "-o", out_dir, f"--emit={emit}", "--", "-std=c++17",
            "-I", args.runtime_include, "-I", HERE]


def one_program(args, index, seed):
    """Generates, translates, builds and runs one program; returns
    (seed, ok, stencils checked, message)."""
    # Even seeds are wild (OpenMP only): a seed alone reproduces its program.
    wild = seed % 2 == 0 and not args.bundle
    text = gen_stencils.generate_program(seed, args.stencils, wild)
    d = os.path.join(args.bundle or args.work, f"prog{seed}")
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, f"prog{seed}.cpp")
    with open(src, "w") as f:
        f.write(text)
    repro = (f"test/differential/run_differential.py --stencilc {args.stencilc} "
             f"--runtime-include {args.runtime_include} --programs 1 --seed {seed} "
             f"--stencils {args.stencils}")
    emit = "cpu,cuda" if args.bundle else "cpu"
    rc, out = run(stencilc_cmd(args, src, d, emit), args.timeout)
    if rc != 0:
        return seed, False, 0, f"stencilc exit {rc} on {src}\n{out[-3000:]}\nreproduce: {repro}"
    if args.bundle:
        return seed, True, args.stencils, ""
    exe = os.path.join(d, f"prog{seed}")
    cmd = [args.cxx, "-std=c++17", "-fopenmp", "-I", args.runtime_include, "-I", HERE]
    cmd += args.cxx_flags.split() + [src, os.path.join(d, f"prog{seed}.stencil.cpp"), "-o", exe]
    rc, out = run(cmd, args.timeout * 4)
    if rc != 0:
        return seed, False, 0, f"build failed ({rc}): {' '.join(cmd)}\n{out[-3000:]}\nreproduce: {repro}"
    # Once with the cache blocking the runtime chooses (one y tile at these
    # sizes), once with short ragged tiles and chunks (the seed picks them):
    # every block boundary must give the same bits.
    checked = 0
    tile = f"{2 + seed % 3},{1 + seed % 4}"
    for extra in ({}, {"STENCIL_OPENMP_TILE": tile}):
        env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), **extra)
        rc, out = run([exe, "--backend=openmp"], args.timeout, env=env)
        for line in out.splitlines():
            if line.startswith("stencils "):
                checked = int(line.split()[1])
        if rc != 0:
            where = f" (STENCIL_OPENMP_TILE={tile})" if extra else ""
            return seed, False, checked, f"{exe} exit {rc}{where}\n{out[-3000:]}\nreproduce: {repro}"
    if not args.keep:
        shutil.rmtree(d, ignore_errors=True)
    return seed, True, checked, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stencilc", required=True)
    ap.add_argument("--runtime-include", required=True)
    ap.add_argument("--programs", type=int, default=24)
    ap.add_argument("--stencils", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-seed", action="store_true", help="a fresh seed (printed)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--threads", type=int, default=2, help="OMP_NUM_THREADS of each run")
    ap.add_argument("--work", default=None, help="work folder (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep passing programs too")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cxx-flags", default=DEFAULT_FLAGS)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per step")
    ap.add_argument("--bundle", default=None, help="GPU mode: write a bundle here")
    args = ap.parse_args()
    args.stencilc = os.path.abspath(args.stencilc)
    args.runtime_include = os.path.abspath(args.runtime_include)
    if args.random_seed:
        args.seed = random.SystemRandom().randrange(1 << 30)
    if args.bundle:
        args.bundle = os.path.abspath(args.bundle)
        shutil.rmtree(args.bundle, ignore_errors=True)
        os.makedirs(args.bundle)
    temporary = args.work is None
    if temporary:
        import tempfile
        args.work = tempfile.mkdtemp(prefix="stencilc-differential-")
    os.makedirs(args.work, exist_ok=True)
    print(f"differential: {args.programs} programs x {args.stencils} stencils, seeds "
          f"{args.seed}..{args.seed + args.programs - 1}, flags '{args.cxx_flags}'", flush=True)
    start = time.time()
    failures, checked = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(one_program, args, i, args.seed + i) for i in range(args.programs)]
        for fut in concurrent.futures.as_completed(futures):
            seed, ok, n, msg = fut.result()
            checked += n
            if not ok:
                failures.append((seed, msg))
                print(f"FAIL seed {seed}:\n{msg}\n", flush=True)
    if args.bundle:
        for sub in ("include",):
            shutil.copytree(args.runtime_include, os.path.join(args.bundle, sub))
        shutil.copy(os.path.join(HERE, "diff_harness.hpp"), args.bundle)
        with open(os.path.join(args.bundle, "MANIFEST"), "w") as f:
            f.write(f"programs {args.programs} stencils {args.stencils} seed {args.seed}\n"
                    f"flags {args.cxx_flags}\n")
    elapsed = time.time() - start
    print(f"differential: {args.programs - len(failures)} of {args.programs} programs passed, "
          f"{checked} stencils checked, {elapsed:.0f} s"
          + (f"; failing seeds: {sorted(s for s, _ in failures)}" if failures else ""))
    if not args.keep and not failures and not args.bundle:
        shutil.rmtree(args.work, ignore_errors=True)
    elif temporary and not os.listdir(args.work):
        os.rmdir(args.work)  # a bundle's run keeps nothing here
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
