#!/usr/bin/env python3
"""temporal_goals.py - the time loops against AN5D, from one temporal.log.

    tools/temporal_goals.py temporal.log [--plot out.png]

Reads the log of tools/temporal_gpu_run.sh (the benchmark's lines and AN5D's,
both from the same run) and prints, per stencil, stencilc one step at a time,
its best pass per steps a pass, the tuner's choice, AN5D's best kernel and the
ratio of the tuned rate to it against issue 13's goal. The last line says how
many goals are met. --plot also draws it (needs matplotlib; CI runs the table
only): left, GCells/s per step of one step at a time, tuned, AN5D and the goal;
right, the best pass per steps a pass as a fraction of AN5D.

A pass row counts for the longest pass it ran where the log prints the
schedule (the steps of a case run as passes as even as can be); older logs
count it for its steps/pass. Where the log times a benchmark twice (a "before" binary first), the last
timing of a case counts.
"""
import re
import sys

# Issue 13's goals: stencilc tuned over AN5D in the same run.
GOALS = {
    "star3d1r-f32": 1.3,
    "star3d1r-f64": 1.3,
    "j2d5pt-f32": 1.2,
    "box3d1r-f32": 1.5,
    "star3d2r-f32": 1.3,
}
TYPES = {"float": "f32", "double": "f64"}

PASS = re.compile(
    r"^(\S+) pass steps/pass (\d+) tile (\d+)x(\d+) chunk (\d+): ([\d.]+) GCells/s")
SINGLE = re.compile(r"^(\S+) single steps/pass 1 .*: ([\d.]+) GCells/s")
SCHEDULE = re.compile(r", passes ((?:\d+x\d+(?: \+ )?)+)")
TUNED = re.compile(r"^(\S+) tuned: ([\d.]+) GCells/s \((.*)\)$")
AN5D = re.compile(
    r"^(float|double) (\w+)-[\dx]+-\d+-\d+ size \S+, \d+ steps: [\d.]+ ms => ([\d.]+) GCells/s")


def parse(lines):
    """Per case: single, tuned, choice, passes {steps: best}, an5d."""
    cases = {}

    def case(name):
        return cases.setdefault(name, {"passes": {}})

    an5d = {}
    for line in lines:
        line = line.rstrip("\n")
        if m := SINGLE.match(line):
            # A second timing of the case (after a "before" binary) starts over.
            case(m[1]).update(single=float(m[2]), passes={})
        elif m := PASS.match(line):
            steps, rate = int(m[2]), float(m[6])
            # The longest pass that ran (the benchmark prints its schedule:
            # a row of 8 over 60 steps runs passes of 7 and 6).
            if sched := SCHEDULE.search(line):
                steps = max(int(x) for x in re.findall(r"\d+x(\d+)", sched[1]))
            passes = case(m[1])["passes"]
            passes[steps] = max(passes.get(steps, 0.0), rate)
        elif m := TUNED.match(line):
            case(m[1]).update(tuned=float(m[2]), choice=m[3])
        elif m := AN5D.match(line):
            name = f"{m[2]}-{TYPES[m[1]]}"
            an5d[name] = max(an5d.get(name, 0.0), float(m[3]))
    for name, c in cases.items():
        if name in an5d:
            c["an5d"] = an5d[name]
    return cases


def table(cases):
    """The rows printed, and how many goals are met out of how many."""
    rows, met, judged = [], 0, 0
    for name, goal in GOALS.items():
        c = cases.get(name)
        if not c or "tuned" not in c or "an5d" not in c:
            rows.append(f"{name}: not in the log (tuned and AN5D both needed)")
            continue
        ratio = c["tuned"] / c["an5d"]
        judged += 1
        ok = ratio >= goal
        met += ok
        best = " ".join(f"{s}:{r:.1f}" for s, r in sorted(c["passes"].items()))
        rows.append(
            f"{name}: one step {c.get('single', 0.0):.1f}, tuned {c['tuned']:.1f} "
            f"({c['choice']}), AN5D {c['an5d']:.1f}, tuned/AN5D {ratio:.3f}, "
            f"goal {goal} ({c['an5d'] * goal:.1f}): {'met' if ok else 'not met'}"
            f"; best pass by steps {best or '-'}")
    return rows, met, judged


def plot(cases, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [n for n in GOALS if n in cases and "an5d" in cases[n]]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8))
    width = 0.27
    for i, (key, label) in enumerate(
            [("single", "stencilc, one step"), ("tuned", "stencilc, tuned"),
             ("an5d", "AN5D")]):
        left.bar([x + (i - 1) * width for x in range(len(names))],
                 [cases[n].get(key, 0.0) for n in names], width, label=label)
    for x, n in enumerate(names):
        goal = cases[n]["an5d"] * GOALS[n]
        left.plot([x - 1.5 * width, x + 1.5 * width], [goal, goal], "k--",
                  label="goal" if x == 0 else None)
    left.set_xticks(range(len(names)), names, rotation=15)
    left.set_ylabel("GCells/s per time step")
    left.legend(fontsize=8)
    for n in names:
        passes = sorted(cases[n]["passes"].items())
        if passes:
            right.plot([s for s, _ in passes],
                       [r / cases[n]["an5d"] for _, r in passes], "o-", label=n)
    right.axhline(1.0, color="k", linewidth=0.8)
    right.set_xlabel("steps per pass")
    right.set_ylabel("best pass / AN5D")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--plot"):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding="utf-8", errors="replace") as f:
        cases = parse(f)
    rows, met, judged = table(cases)
    for row in rows:
        print(row)
    print(f"temporal goals: {met} of {judged} met ({len(GOALS)} goals)")
    if len(argv) == 4:
        plot(cases, argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
