#!/usr/bin/env python3
"""fuzz_stencilc.py - mutation fuzzing of stencilc over the lit and example inputs.

Each input is a seed file (test/lit/**/*.cpp, dsl-examples/*/*.cpp,
test/fuzz/corpus/*.cpp) with 1-4 token- or line-level mutations: numbers
become huge, negative, INT_MIN, ...; operators are swapped; lines deleted,
duplicated, swapped or spliced in from another seed; tokens deleted or
duplicated; a line wrapped in an `if` or a constant-trip `for`; keywords
inserted. stencilc runs on it with a time limit; the outcome is

  fine      exit 0, 1, 2 or 3, and no sanitizer report on stderr
  finding   a signal, a sanitizer report ("runtime error:", "ERROR:
            AddressSanitizer"), any other exit code, or the time limit
            (CPU seconds per input, --timeout; "hang")

Findings are saved to FINDINGS/<n>-<kind>.cpp with the command and output
(<n>-<kind>.log). A finding whose output matches a line of known_findings.txt
(a regular expression and the issue it is filed under) is reported as known
and does not fail the run; every other finding does. Input number N of a
run with seed S is reproducible alone: --seed S --first N --count 1.

  fuzz_stencilc.py --stencilc PATH [--count 200] [--seed 1] [--timeout 5]
                   [--jobs 2] [--findings DIR] [--random-seed]
"""
import argparse
import concurrent.futures
import glob
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
MOCK_INCLUDE = os.path.join(ROOT, "test", "lit", "Inputs", "include")
# Every math function, declared (before the lit mock, whose <cmath> has few).
FUZZ_INCLUDE = os.path.join(HERE, "include")
RUNTIME_INCLUDE = os.path.join(ROOT, "runtime", "include")

TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<number>(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)[uUlLfF]*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<op><<=|>>=|<=|>=|==|!=|&&|\|\||<<|>>|\+\+|--|->|::|[-+*/%<>=!&|^~?:;,.(){}\[\]])
  | (?P<space>\s+)
  | (?P<other>.)
""", re.X | re.S)

NUMBERS = ["0", "-1", "1", "2147483647", "-2147483648", "(-2147483647 - 1)", "4294967295u",
           "4294967296", "9223372036854775807", "(-9223372036854775807LL - 1)",
           "18446744073709551615ull", "1000000", "1048577", "65536", "1e308", "-1e308",
           "1e-320", "-0.0", "0.0f", "3", "-3", "100000", "2000000000"]
OPERATORS = ["+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "<<",
             ">>", "&", "|", "^", "=", "+=", "-=", "?", ":", ","]
KEYWORDS = ["static", "inline", "const", "constexpr", "unsigned", "long long", "volatile",
            "template <int N>", "try", "extern \"C\"", "namespace {", "}", "{", "return",
            "break;", "while (1)", "goto l;", "l:", "switch (0) { default: ; }", "throw 1;",
            "[[noreturn]]", "auto", "decltype(0)", "sizeof(int)", "nullptr", "this",
            "operator()", "#define X 1", "#include <stencil/dsl.hpp>", "\\", "'", "\""]
WRAPPERS = [("if (idx.i() > 0) {", "}"), ("for (int q = 0; q < 3; ++q) {", "}"),
            ("{", "}"), ("if (1) {} else {", "}"), ("for (unsigned q = 0; q < 3u; q += 2u) {", "}"),
            ("for (long long q = 10; q > -10; q -= 7) {", "}")]


def tokens(text):
    return [(m.lastgroup, m.group()) for m in TOKEN.finditer(text)]


def mutate(rng, text, seeds):
    """One mutation of text."""
    kind = rng.randrange(11)
    lines = text.split("\n")
    if kind in (0, 1, 2, 3, 4):
        toks = tokens(text)
        if kind == 0:  # a number
            idx = [i for i, t in enumerate(toks) if t[0] == "number"]
            if idx:
                i = rng.choice(idx)
                toks[i] = ("number", rng.choice(NUMBERS))
        elif kind == 1:  # an operator
            idx = [i for i, t in enumerate(toks) if t[0] == "op" and t[1] in OPERATORS]
            if idx:
                i = rng.choice(idx)
                toks[i] = ("op", rng.choice(OPERATORS))
        elif kind == 2:  # delete a token
            idx = [i for i, t in enumerate(toks) if t[0] not in ("space", "comment")]
            if idx:
                del toks[rng.choice(idx)]
        elif kind == 3:  # duplicate a token
            idx = [i for i, t in enumerate(toks) if t[0] not in ("space", "comment")]
            if idx:
                i = rng.choice(idx)
                toks.insert(i, toks[i])
        else:  # an offset inside ix<...>
            idx = [i for i, t in enumerate(toks) if t == ("ident", "ix")]
            if idx:
                i = rng.choice(idx)
                for j in range(i, min(i + 12, len(toks))):
                    if toks[j][0] == "number" and rng.random() < 0.6:
                        toks[j] = ("number", rng.choice(NUMBERS[:14]))
                        break
        return "".join(t[1] for t in toks)
    if not lines:
        return text
    i = rng.randrange(len(lines))
    if kind == 5:
        del lines[i]
    elif kind == 6:
        lines.insert(i, lines[i])
    elif kind == 7:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 8:  # splice a line from another seed
        other = rng.choice(seeds)[1].split("\n")
        lines.insert(i, rng.choice(other))
    elif kind == 9:  # nesting
        open_, close = rng.choice(WRAPPERS)
        j = min(len(lines), i + rng.randint(1, 3))
        lines[i:j] = [open_] + lines[i:j] + [close]
    else:  # a keyword
        toks = tokens(lines[i])
        pos = rng.randrange(len(toks) + 1)
        toks.insert(pos, ("other", " " + rng.choice(KEYWORDS) + " "))
        lines[i] = "".join(t[1] for t in toks)
    return "\n".join(lines)


def load_seeds():
    files = sorted(glob.glob(os.path.join(ROOT, "test", "lit", "**", "*.cpp"), recursive=True))
    files += sorted(glob.glob(os.path.join(ROOT, "dsl-examples", "*", "*.cpp")))
    files += sorted(glob.glob(os.path.join(HERE, "corpus", "*.cpp")))
    seeds = []
    for f in files:
        with open(f, errors="replace") as fh:
            seeds.append((os.path.relpath(f, ROOT), fh.read()))
    return seeds


def load_known():
    known = []
    path = os.path.join(HERE, "known_findings.txt")
    with open(path) as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            pattern, _, where = line.partition(" | ")
            if not where:
                sys.exit(f"{path}: '{line}': expected 'REGEX | where it is filed'")
            known.append((re.compile(pattern), where.strip()))
    return known


SANITIZER = re.compile(r"runtime error:|ERROR: AddressSanitizer|ERROR: LeakSanitizer|"
                       r"ERROR: UndefinedBehaviorSanitizer|AddressSanitizer:DEADLYSIGNAL")


def classify(rc, output):
    if rc == "timeout":
        return "hang"
    if rc == "wall-timeout":
        return "wall-hang"
    if SANITIZER.search(output):
        return "sanitizer"
    if isinstance(rc, int) and rc < 0:
        return f"signal{-rc}"
    if rc not in (0, 1, 2, 3):
        return f"exit{rc}"
    return None


def known_as(known, kind, out):
    """Where a finding is filed, or None. A sanitizer finding is known only
    when every report line matches a known pattern, so a new report beside
    a known one is still new."""
    if kind == "sanitizer":
        reports = [l for l in out.splitlines() if SANITIZER.search(l)]
        wheres = []
        for line in reports:
            w = next((w for r, w in known if r.search(line)), None)
            if w is None:
                return None
            wheres.append(w)
        return "; ".join(sorted(set(wheres))) or None
    return next((w for r, w in known if r.search(out)), None)


def run_one(args, seeds, n):
    rng = random.Random(args.seed * 1000003 + n)
    name, text = rng.choice(seeds)
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3, 4])):
        text = mutate(rng, text, seeds)
    work = tempfile.mkdtemp(prefix="fuzz-", dir=args.tmp)
    try:
        # Examples include "../common/...": keep that path valid.
        src_dir = os.path.join(work, "src")
        os.makedirs(src_dir)
        os.symlink(os.path.join(ROOT, "dsl-examples", "common"), os.path.join(work, "common"))
        src = os.path.join(src_dir, "input.cpp")
        with open(src, "w") as fh:
            fh.write(text)
        if name.startswith("dsl-examples"):
            includes = ["-I", RUNTIME_INCLUDE]
        else:
            includes = ["-I", FUZZ_INCLUDE, "-I", MOCK_INCLUDE]
        cmd = [args.stencilc, src, "-o", os.path.join(work, "out"), "--emit=all", "--",
               "-std=c++17"] + includes
        os.makedirs(os.path.join(work, "out"))
        # The limit is on CPU time (RLIMIT_CPU: SIGXCPU, then SIGKILL), so a
        # loaded machine does not turn slow inputs into hangs (on the shared
        # build machine an input of 1.3 CPU s took 25 s of wall time); the
        # wall-clock limit only stops a process that sleeps.
        limit = max(1, int(args.timeout + 0.999))
        def set_limit():
            resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=max(300.0, args.timeout * 60), preexec_fn=set_limit)
            rc, out = p.returncode, p.stdout.decode(errors="replace")
            if rc in (-signal.SIGXCPU, -signal.SIGKILL):
                rc = "timeout"
        except subprocess.TimeoutExpired as e:
            rc, out = "wall-timeout", (e.stdout or b"").decode(errors="replace")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # Approximate with several jobs (children of other threads count too).
        secs = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        kind = classify(rc, out)
        return n, name, kind, rc, secs, text, out, " ".join(cmd)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stencilc", required=True)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="number of the first input")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-seed", action="store_true")
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per input")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--findings", default=os.path.join(os.getcwd(), "fuzz-findings"))
    ap.add_argument("--tmp", default=None)
    args = ap.parse_args()
    if args.random_seed:
        args.seed = random.SystemRandom().randrange(1 << 30)
    os.environ.setdefault("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=0")
    os.environ.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    seeds = load_seeds()
    known = load_known()
    print(f"fuzz: {args.count} inputs from {len(seeds)} seed files, seed {args.seed}, "
          f"limit {args.timeout} s per input, stencilc {args.stencilc}", flush=True)
    start = time.time()
    counts = {}
    unknown, known_hits, slowest = 0, 0, (0.0, None)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = [pool.submit(run_one, args, seeds, n)
                for n in range(args.first, args.first + args.count)]
        for fut in concurrent.futures.as_completed(futs):
            n, name, kind, rc, secs, text, out, cmd = fut.result()
            done = sum(counts.values()) + 1
            if done % 100 == 0:
                print(f"fuzz: {done} of {args.count} inputs, {time.time() - start:.0f} s, "
                      f"{unknown} new findings, {known_hits} known", flush=True)
            if secs > slowest[0]:
                slowest = (secs, n)
            key = kind or f"exit{rc}"
            counts[key] = counts.get(key, 0) + 1
            if not kind:
                continue
            where = known_as(known, kind, out)
            os.makedirs(args.findings, exist_ok=True)
            base = os.path.join(args.findings, f"seed{args.seed}-{n}-{kind}")
            with open(base + ".cpp", "w") as fh:
                fh.write(text)
            with open(base + ".log", "w") as fh:
                fh.write(f"seed file: {name}\ncommand: {cmd}\nexit: {rc}\n\n{out}")
            if where:
                known_hits += 1
                print(f"known finding ({where}): input {n} from {name}: {kind} -> {base}.cpp",
                      flush=True)
            else:
                unknown += 1
                print(f"FINDING: input {n} from {name}: {kind} (exit {rc}) -> {base}.cpp\n"
                      f"  reproduce: {sys.argv[0]} --stencilc {args.stencilc} --seed {args.seed} "
                      f"--first {n} --count 1\n{out[-2500:]}", flush=True)
    elapsed = time.time() - start
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    print(f"fuzz: {args.count} inputs in {elapsed:.0f} s ({summary}); {unknown} new findings, "
          f"{known_hits} known; slowest input {slowest[1]} at {slowest[0]:.2f} CPU s")
    return 1 if unknown else 0


if __name__ == "__main__":
    sys.exit(main())
