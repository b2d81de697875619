#!/usr/bin/env bash
# benchmark.sh - runs on the GPU machine (nvcc, no Clang 16), from a bundle
# made by `tools/make_bundle.sh benchmark`: builds the benchmark with nvcc,
# measures the device-to-device copy bandwidth, checks every variant and
# candidate against the host reference (--verify), times every case
# (--bench: each variant's tuned best, the auto-tuned choice, the fixed
# engine's planned default, the fixed baselines), and shows online tuning
# then a second run from the cache. First the CPU benchmark: g++ builds the
# OpenMP code, which is timed against a copy with the same threads (default
# threads, libgomp's old default of one per CPU of the mask, and 1 thread).
#
#   benchmark.sh [BUNDLE_DIR]      (default: the script's folder)
#
# Writes benchmark.csv, cpu.csv and the logs to $OUT (default BUNDLE_DIR/out).
# Environment: CUDA_ARCH (default sm_90), NVCC (default nvcc), CXX (default
# g++), BENCH_CASES (comma-separated case names; default all), BENCH_LAYOUTS
# (default tight,aligned), BENCH_KINDS (the rows, ';'-separated, see
# benchmark.cpp's --kinds; default the standard rows), SKIP_VERIFY=1, SKIP_CACHE_DEMO=1, SKIP_CPU=1,
# SKIP_GPU=1, CPU_SIZE (default 256), SKIP_STEPS=1, STEP_SIZE (X,Y,Z; default
# 512,512,256): the steps of step_benchmark.cpp, stencilc's plan and every
# fusible pair fused, each against one kernel per stencil.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=gpu_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu_common.sh"

gpu_init "${1:-$(dirname "${BASH_SOURCE[0]}")}"
gpu_out_dir out

echo "== machine"
gpu_machine | tee "$out/machine.txt"

if [[ -z ${SKIP_CPU:-} ]]; then
  echo "== cpu: build"
  cxx=${CXX:-g++}
  # No FMA contraction: the check against the host reference stays exact
  # (GCC contracts the two differently; a memory-bound stencil runs as fast).
  "$cxx" -std=c++17 -O3 -march=native -ffp-contract=off -fopenmp -I "$bundle/runtime/include" \
    "$bundle/cpu_benchmark.cpp" "$bundle"/gen/cpu_benchmark.stencil.cpp -o "$work/cpu_benchmark" ||
    { echo "cpu_benchmark: build FAILED"; gpu_fail; }
  if [[ -x $work/cpu_benchmark ]]; then
    echo "== cpu: OpenMP 7-point stencils against a copy with the same threads"
    { nproc; grep -m1 "model name" /proc/cpuinfo; cat /sys/fs/cgroup/cpu.max 2>/dev/null; } | tee -a "$out/machine.txt"
    rm -f "$out/cpu.csv"
    size=${CPU_SIZE:-256}
    "$work/cpu_benchmark" "--size=$size" "--csv=$out/cpu.csv" 2>&1 | tee "$out/cpu.txt" || gpu_fail
    OMP_NUM_THREADS=$(nproc) "$work/cpu_benchmark" "--size=$size" "--csv=$out/cpu.csv" 2>&1 | tee -a "$out/cpu.txt"
    OMP_NUM_THREADS=1 "$work/cpu_benchmark" "--size=$size" --reps=3 "--csv=$out/cpu.csv" 2>&1 | tee -a "$out/cpu.txt"
  fi
fi
if [[ -n ${SKIP_GPU:-} ]]; then
  grep -h "^cpu " "$out/cpu.txt" 2>/dev/null
  gpu_exit
fi

echo "== build"
gpu_build_copy_bandwidth &
"$nvcc" -std=c++17 -O3 "-arch=$arch" -Xcompiler -fopenmp -Xptxas -v -I "$bundle/runtime/include" \
  "$bundle/benchmark.cpp" "$bundle"/gen/benchmark.stencil.cu -o "$work/benchmark" -lgomp \
  2>"$work/ptxas.log" || { cat "$work/ptxas.log"; echo "benchmark: build FAILED"; exit 1; }
wait
grep -E "registers|spill" "$work/ptxas.log" | sed 's/_ZN18stencilc_generated[^ ]*stencilc_/stencilc_/' >"$out/ptxas.txt" || true

copy() { gpu_copy_bandwidth "$out/copy.txt" | gpu_copy_gbs; }
echo "== copy bandwidth (device to device, 1 GiB, read + write)"
copy_gbs=$(copy)
echo "copy: $copy_gbs GB/s"

if [[ -z ${SKIP_VERIFY:-} ]]; then
  echo "== verify"
  "$work/benchmark" --verify 2>&1 | tee "$out/verify.txt"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || gpu_fail
fi

echo "== bench"
cases=()
[[ -n ${BENCH_CASES:-} ]] && cases=("--cases=$BENCH_CASES")
[[ -n ${BENCH_LAYOUTS:-} ]] && cases+=("--layouts=$BENCH_LAYOUTS")
[[ -n ${BENCH_KINDS:-} ]] && cases+=("--kinds=$BENCH_KINDS")
BENCH_REPORT=1 "$work/benchmark" --bench "--copy-gbs=$copy_gbs" "--csv=$out/benchmark.csv" "${cases[@]}" 2>&1 |
  tee "$out/bench.txt"
[[ ${PIPESTATUS[0]} -eq 0 ]] || gpu_fail
copy_after=$(copy)
echo "copy after: $copy_after GB/s"

if [[ -z ${SKIP_STEPS:-} ]]; then
  echo "== steps: stencilc's plan against one kernel per stencil"
  for plan in auto recompute; do
    gen=gen
    [[ $plan == recompute ]] && gen=gen-recompute
    if "$nvcc" -std=c++17 -O3 "-arch=$arch" -Xcompiler -fopenmp -I "$bundle/runtime/include" \
      "$bundle/step_benchmark.cpp" "$bundle/$gen/step_benchmark.stencil.cu" \
      -o "$work/step_benchmark_$plan" -lgomp; then
      "$work/step_benchmark_$plan" "--copy-gbs=$copy_gbs" "--label=$plan" \
        ${STEP_SIZE:+"--size=$STEP_SIZE"} 2>&1 | tee -a "$out/steps.txt"
      [[ ${PIPESTATUS[0]} -eq 0 ]] || gpu_fail
    else
      echo "step_benchmark ($plan): build FAILED"
      gpu_fail
    fi
  done
fi

if [[ -z ${SKIP_CACHE_DEMO:-} ]]; then
  echo "== online tuning, then a second run from the cache"
  rm -f "$work/tuning.json"
  {
    "$work/benchmark" "--cache-demo=$work/tuning.json" || gpu_fail
    "$work/benchmark" "--cache-demo=$work/tuning.json" || gpu_fail
    cat "$work/tuning.json"
  } 2>&1 | tee "$out/cache.txt"
fi

echo "== summary: copy $copy_gbs GB/s before, $copy_after GB/s after"
grep -E "^verify" "$out/verify.txt" 2>/dev/null | tail -n 3
# case, row, configuration, ms per step, ratio to copy
grep -E "^[a-z0-9-]+ +[a-z0-9-]+ +[0-9xa]+ +(best-|auto|default|fixed)" "$out/bench.txt" |
  awk '{ printf "%-10s %-24s %-18s %9s ms %s of copy\n", $1, $4, $5, $6, $14 }'
# The fixed engine's planned default against the best tuned row, per case
# and layout (goal: within 10%).
awk -F, 'NR > 1 { key = $1 "," $21; ms = $13 + 0
  if ($8 ~ /^best-|^auto$/ && (!(key in best) || ms < best[key])) best[key] = ms
  if ($8 == "default") { def[key] = ms; cfg[key] = $9 ":" $10 "," $11 "," $12 } }
  END { for (k in def) if (k in best)
    printf "default-vs-best %-22s %-22s %9.4f ms vs %9.4f ms: %5.3f of the best%s\n", k, cfg[k],
      def[k], best[k], best[k] / def[k], best[k] / def[k] < 0.9 ? "  (more than 10% slower)" : "" }' \
  "$out/benchmark.csv" | sort | tee "$out/default-vs-best.txt"
grep -h "^step " "$out/steps.txt" 2>/dev/null
grep -h "^cpu " "$out/cpu.txt" 2>/dev/null
gpu_exit
