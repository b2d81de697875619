#!/usr/bin/env bash
# temporal_gpu_run.sh - time loops on the GPU machine (nvcc, a GPU): builds a
# bundle made by `tools/make_bundle.sh temporal`, then in one run
#   1. the test/e2e/temporal test with --backend=all at three seeds (every
#      steps per pass, tiles and chunks against the host reference);
#   2. the copy bandwidth;
#   3. tools/benchmark/temporal_benchmark.cpp (CASES, STEPS, QUICK=1 pass on);
#   4. AN5D's own kernels (an5d/run.sh), built and timed beside it.
# Everything printed also goes to OUT_DIR/temporal.log.
#
#   temporal_gpu_run.sh [BUNDLE_DIR] [OUT_DIR]
#
# Environment: CUDA_ARCH, NVCC as gpu_common.sh; CASES (a,b), STEPS, QUICK,
# PASSES, CHUNKS, TILES and SIZE (the benchmark's --passes, --chunks, --tiles,
# --size: after BEFORE_BIN), TEST_SEEDS (default "1 2 3"), SKIP_TEST=1 /
# SKIP_AN5D=1 to leave a part out;
# FAST_MATH=1 also builds the benchmark with AN5D's flags (--use_fast_math:
# approximate division, denormals flushed) and times it after the other;
# DECAYED=1 also times j2d5pt with each run going on from the last (--decayed);
# BEFORE_BIN=DIR first times the benchmarks built beforehand in DIR (the code
# before a change: temporal_benchmark and, with FAST_MATH=1,
# temporal_benchmark_fast) with the same arguments, BEFORE_CASES for CASES;
# BEFORE_INCLUDE=DIR also builds the benchmark against the runtime headers in
# DIR (the runtime before a change; stencilc's code as the bundle's) and
# times it before the other, ROUNDS times in turn (default 1);
# TUNED=N times only the tuner's choice, N tuners each (--tuned);
# BUILD_ONLY=1 builds into BUNDLE_DIR/bin and stops (where nvcc is but no
# GPU), and a later run takes the binaries from there; PROFILE (ncu
# regexes on mangled names; PROFILE_COUNT launches each, PROFILE_CASES)
# profiles those pass kernels.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=gpu_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu_common.sh"

gpu_start_runner temporal "${1:-$(dirname "${BASH_SOURCE[0]}")}" "${2:-}"
if [[ ${BUILD_ONLY:-0} != 1 ]]; then
  echo "== machine"
  gpu_machine
fi
include=$bundle/runtime/include
build() { # OUT SOURCE GEN_DIR [NVCC_FLAG...]; BUILD_INCLUDE: other headers
  local include=${BUILD_INCLUDE:-$include}
  # The CUDA file a stencil a part, compiled at once (split_cuda.py; whole
  # where it cannot be split): ptxas takes minutes on one file of passes.
  local parts=$1.parts part compiles=()
  rm -rf "$parts"
  python3 "$bundle/split_cuda.py" "$3"/*.stencil.cu "$parts" ||
    { mkdir -p "$parts" && cp "$3"/*.stencil.cu "$parts/"; }
  for part in "$parts"/*.cu; do
    "$nvcc" -std=c++17 -O3 "-arch=$arch" -Xcompiler -fopenmp -I "$include" \
      "${@:4}" -c "$part" -o "$part.o" &
    compiles+=($!)
  done
  wait "${compiles[@]}"
  "$nvcc" -std=c++17 -O3 "-arch=$arch" -Xcompiler -fopenmp -I "$include" \
    "${@:4}" "$2" "$parts"/*.o "$3"/*.stencil.cpp -o "$1" -lgomp
}
binaries=(temporal temporal_benchmark copy_bandwidth)
[[ ${FAST_MATH:-0} == 1 ]] && binaries+=(temporal_benchmark_fast)
[[ -n ${BEFORE_INCLUDE:-} ]] && binaries+=(temporal_benchmark_before)
if [[ -d $bundle/bin && ${BUILD_ONLY:-0} != 1 ]]; then
  echo "== built beforehand (BUILD_ONLY=1): $bundle/bin"
  cp "$bundle"/bin/* "$work"/
else
  echo "== build"
  # The builds' own pids: a bare wait would also wait for the log's tee.
  pids=()
  build "$work/temporal" "$bundle/tests/temporal/temporal.cpp" "$bundle/tests/temporal/gen" &
  pids+=($!)
  build "$work/temporal_benchmark" "$bundle/temporal_benchmark.cpp" "$bundle/gen" &
  pids+=($!)
  if [[ ${FAST_MATH:-0} == 1 ]]; then
    build "$work/temporal_benchmark_fast" "$bundle/temporal_benchmark.cpp" \
      "$bundle/gen" --use_fast_math &
    pids+=($!)
  fi
  if [[ -n ${BEFORE_INCLUDE:-} ]]; then
    BUILD_INCLUDE=$BEFORE_INCLUDE build "$work/temporal_benchmark_before" \
      "$bundle/temporal_benchmark.cpp" "$bundle/gen" &
    pids+=($!)
  fi
  gpu_build_copy_bandwidth &
  pids+=($!)
  wait "${pids[@]}"
fi
for binary in "${binaries[@]}"; do
  [[ -x $work/$binary ]] || { echo "build of $binary failed"; gpu_fail; }
done
# Built where nvcc is but no GPU, the GPU run copies them: ptxas takes
# minutes on the passes of many steps, minutes of the GPU machine's time.
if [[ ${BUILD_ONLY:-0} == 1 ]]; then
  mkdir -p "$bundle/bin"
  for binary in "${binaries[@]}"; do
    cp "$work/$binary" "$bundle/bin/" || gpu_fail
  done
  gpu_exit
fi

if [[ ${SKIP_TEST:-0} != 1 && -x $work/temporal ]]; then
  for seed in ${TEST_SEEDS:-1 2 3}; do
    echo "== test temporal --backend=all --seed=$seed"
    "$work/temporal" --backend=all --seed="$seed" | tail -n 40 || gpu_fail
  done
fi

echo "== copy bandwidth"
gpu_copy_bandwidth "$out/copy_bandwidth.txt"

if [[ -n ${BEFORE_BIN:-} ]]; then
  before_args=()
  cases=${BEFORE_CASES:-${CASES:-}}
  [[ -n $cases ]] && before_args+=("--cases=$cases")
  [[ -n ${STEPS:-} ]] && before_args+=("--steps=$STEPS")
  [[ ${QUICK:-0} == 1 ]] && before_args+=(--quick)
  for binary in temporal_benchmark temporal_benchmark_fast; do
    [[ $binary == *_fast && ${FAST_MATH:-0} != 1 ]] && continue
    [[ -x $BEFORE_BIN/$binary ]] || { echo "no $BEFORE_BIN/$binary"; gpu_fail; }
    echo "== before: $binary"
    "$BEFORE_BIN/$binary" "${before_args[@]}" || gpu_fail
  done
fi

if [[ -x $work/temporal_benchmark ]]; then
  args=()
  [[ -n ${CASES:-} ]] && args+=("--cases=$CASES")
  [[ -n ${STEPS:-} ]] && args+=("--steps=$STEPS")
  [[ ${QUICK:-0} == 1 ]] && args+=(--quick)
  [[ -n ${PASSES:-} ]] && args+=("--passes=$PASSES")
  [[ -n ${CHUNKS:-} ]] && args+=("--chunks=$CHUNKS")
  [[ -n ${TILES:-} ]] && args+=("--tiles=$TILES")
  [[ -n ${SIZE:-} ]] && args+=("--size=$SIZE")
  [[ -n ${TUNED:-} ]] && args+=("--tuned=$TUNED")
  for ((round = 1; round <= ${ROUNDS:-1}; ++round)); do
    if [[ -x $work/temporal_benchmark_before ]]; then
      echo "== stencilc time loops, runtime of BEFORE_INCLUDE (round $round)"
      "$work/temporal_benchmark_before" "${args[@]}" || gpu_fail
    fi
    echo "== stencilc time loops (round $round)"
    "$work/temporal_benchmark" "${args[@]}" || gpu_fail
  done
  if [[ ${DECAYED:-0} == 1 ]]; then
    echo "== j2d5pt, each run going on from the last (--decayed)"
    "$work/temporal_benchmark" --cases=j2d5pt-f32 --quick --decayed || gpu_fail
  fi
  if [[ -x $work/temporal_benchmark_fast ]]; then
    echo "== stencilc time loops built with AN5D's flags (--use_fast_math)"
    "$work/temporal_benchmark_fast" "${args[@]}" || gpu_fail
  fi
fi

if [[ -n ${PROFILE:-} && -x $work/temporal_benchmark ]]; then
  # What limits a pass: for each ncu regex in PROFILE (on mangled names, e.g.
  # Star3d1rD_temporal0ILi3ELi32ELi32E for 3 steps on 32 x 32) the first
  # PROFILE_COUNT launches, during the quick search of PROFILE_CASES
  # (default CASES).
  ncu=${NCU:-ncu}
  command -v "$ncu" >/dev/null || ncu=/usr/local/cuda/bin/ncu
  args=(--quick --steps="${STEPS:-8}")
  cases=${PROFILE_CASES:-${CASES:-}}
  [[ -n $cases ]] && args+=("--cases=$cases")
  read -r -a kernels <<<"$PROFILE" # split at spaces, never globbed
  for kernel in "${kernels[@]}"; do
    echo "== profile of $kernel"
    "$ncu" --kernel-name-base mangled --kernel-name "regex:$kernel" \
      --launch-count "${PROFILE_COUNT:-1}" \
      --section SpeedOfLight --section ComputeWorkloadAnalysis \
      --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
      --section WarpStateStats --section SchedulerStats --section Occupancy \
      --section LaunchStats --section InstructionStats \
      "$work/temporal_benchmark" "${args[@]}" | grep -v " GCells/s" || gpu_fail
  done
fi

if [[ ${SKIP_AN5D:-0} != 1 ]]; then
  echo "== AN5D's kernels (an5d/run.sh)"
  bash "$bundle/an5d/run.sh" || gpu_fail
fi
gpu_exit
