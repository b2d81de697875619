#!/usr/bin/env bash
# compare_benchmarks.sh - runs on the GPU machine: two benchmark bundles
# (tools/make_bundle.sh benchmark, e.g. one from the commit before a change
# and one after it) in one run, the later one with --verify first, and
# prints each case's tuned rows side by side with their ratio.
#
#   compare_benchmarks.sh BEFORE_BUNDLE AFTER_BUNDLE
#
# Writes before/ and after/ (each benchmark.sh's outputs) and comparison.txt
# to $OUT (default ./compare-out). Environment: BENCH_CASES, BENCH_LAYOUTS
# (passed on), TOLERANCE (default 0.02: a row more than 2% slower after is
# flagged).
set -uo pipefail
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
out=${OUT:-$PWD/compare-out}
tol=${TOLERANCE:-0.02}
mkdir -p "$out/before" "$out/after"
status=0
echo "== after: verify every candidate, then the benchmark"
OUT=$out/after SKIP_CPU=1 SKIP_CACHE_DEMO=1 bash "$after/benchmark.sh" "$after" >"$out/after/log.txt" 2>&1 || status=1
grep -E "^verify" "$out/after/verify.txt" | tail -n 3
echo "== before: the benchmark"
OUT=$out/before SKIP_CPU=1 SKIP_VERIFY=1 SKIP_CACHE_DEMO=1 bash "$before/benchmark.sh" "$before" >"$out/before/log.txt" 2>&1 || status=1
# case, layout, row -> ms; rows present in both.
awk -F, -v tol="$tol" 'FNR == 1 { file++; next }
  $8 ~ /^(best-|auto$|default$)/ { key = $1 "," $21 "," $8; ms[file, key] = $13; keys[key] = 1 }
  END { for (k in keys) if ((1, k) in ms && (2, k) in ms) {
      r = ms[1, k] / ms[2, k]
      printf "%-36s before %9.4f ms  after %9.4f ms  after/before speed %5.3f%s\n", k, ms[1, k], ms[2, k], r,
        r < 1 - tol ? "  (slower)" : "" } }' \
  "$out/before/benchmark.csv" "$out/after/benchmark.csv" | sort | tee "$out/comparison.txt"
exit $status
