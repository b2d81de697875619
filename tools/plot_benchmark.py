#!/usr/bin/env python3
"""plot_benchmark.py - draws the benchmark CSV of tools/benchmark.sh.

    tools/plot_benchmark.py benchmark.csv out.png [--copy-gbs=G]

Left: per case and array layout (tight, or "aligned" rows when the CSV has a
layout column), the effective bandwidth of each variant's tuned best, the
auto-tuned choice and the two fixed baselines, as a fraction of the
device-to-device copy bandwidth measured in the same run. Right: seed 000's
Fig. 2 re-measured (tight layout): GFlop/s of the 7-point stencil (f32)
auto-tuned and with the fixed (128, 1, 1) / z-march 2 configuration per mesh.
Needs matplotlib (pip install matplotlib); CI does not run it.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROWS = [
    ("best-grid", "grid (tuned)"),
    ("best-zmarch", "zmarch (tuned)"),
    ("best-zmarch2", "zmarch2 (tuned)"),
    ("best-smem", "smem (tuned)"),
    ("auto", "auto-tuned"),
    ("fixed-zmarch-128x1x1-z2", "fixed (128,1,1) z-march 2"),
    ("fixed-grid-64x4x1", "fixed grid (64,4,1)"),
]
FIG2_CASES = ["s7f-32", "s7f-64", "s7f-256", "s7f-512", "s7f-slabx"]


def size(row):
    dims = int(row["dims"])
    return f'{row["nx"]}x{row["ny"]}' + (f'x{row["nz"]}' if dims == 3 else "")


def label(row):
    """One line per case: slanted tick labels then never run into each other."""
    aligned = ", aligned" if row.get("layout") == "aligned" else ""
    return f'{row["stencil"]} {row["type"]} {size(row)}{aligned}'


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    cases, by_case = [], {}
    for r in rows:
        key = r["case"] + ("/aligned" if r.get("layout") == "aligned" else "")
        if key not in by_case:
            cases.append(key)
            by_case[key] = {}
        by_case[key][r["row"]] = r

    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(24, 7.5), gridspec_kw={"width_ratios": [3, 1.2]})
    width = 0.8 / len(ROWS)
    for k, (key, name) in enumerate(ROWS):
        xs, ys = [], []
        for i, c in enumerate(cases):
            r = by_case[c].get(key)
            if r:
                xs.append(i + (k - len(ROWS) / 2 + 0.5) * width)
                ys.append(float(r["ratio_to_copy"]))
        ax.bar(xs, ys, width, label=name)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels([label(next(iter(by_case[c].values()))) for c in cases], fontsize=8,
                       rotation=40, ha="right", rotation_mode="anchor")
    ax.set_xlim(-0.6, len(cases) - 0.4)
    ax.set_ylabel("effective bandwidth / cudaMemcpy D2D bandwidth")
    ax.set_title("stencilc CUDA variants on one GPU (same-run ratio to copy)", pad=30)
    ax.grid(axis="y", linewidth=0.4, alpha=0.5)
    ax.set_axisbelow(True)
    # Legends above the axes, in one row: never on top of a bar.
    ax.legend(fontsize=8, ncol=len(ROWS), loc="lower center", bbox_to_anchor=(0.5, 1.0),
              frameon=False)

    fig2 = [c for c in FIG2_CASES if c in by_case]
    for k, (key, name) in enumerate([("auto", "auto-tuned"), ("fixed-zmarch-128x1x1-z2", "fixed (128,1,1) z 2")]):
        ys = [float(by_case[c][key]["gflop_per_s"]) if key in by_case[c] else 0 for c in fig2]
        ax2.bar([i + (k - 0.5) * 0.4 for i in range(len(fig2))], ys, 0.4, label=name)
    ax2.set_xticks(range(len(fig2)))
    ax2.set_xticklabels([size(next(iter(by_case[c].values()))) for c in fig2], fontsize=8,
                        rotation=40, ha="right", rotation_mode="anchor")
    ax2.set_ylabel("GFlop/s")
    ax2.set_title("seed 000 Fig. 2 re-measured (7-point, f32)", pad=30)
    ax2.grid(axis="y", linewidth=0.4, alpha=0.5)
    ax2.set_axisbelow(True)
    ax2.legend(fontsize=8, ncol=2, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
