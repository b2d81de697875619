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
# SKIP_TEST=1 / SKIP_AN5D=1 to leave a part out.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=gpu_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu_common.sh"

gpu_start_runner temporal "${1:-$(dirname "${BASH_SOURCE[0]}")}" "${2:-}"
echo "== machine"
gpu_machine
include=$bundle/runtime/include
build() { # OUT SOURCE GEN_DIR
  "$nvcc" -std=c++17 -O3 "-arch=$arch" -Xcompiler -fopenmp -I "$include" \
    "$2" "$3"/*.stencil.cu "$3"/*.stencil.cpp -o "$1" -lgomp
}
echo "== build"
# The builds' own pids: a bare wait would also wait for the log's tee.
pids=()
build "$work/temporal" "$bundle/tests/temporal/temporal.cpp" "$bundle/tests/temporal/gen" &
pids+=($!)
build "$work/temporal_benchmark" "$bundle/temporal_benchmark.cpp" "$bundle/gen" &
pids+=($!)
gpu_build_copy_bandwidth &
pids+=($!)
wait "${pids[@]}"
for binary in temporal temporal_benchmark copy_bandwidth; do
  [[ -x $work/$binary ]] || { echo "build of $binary failed"; gpu_fail; }
done

if [[ ${SKIP_TEST:-0} != 1 && -x $work/temporal ]]; then
  for seed in 1 2 3; do
    echo "== test temporal --backend=all --seed=$seed"
    "$work/temporal" --backend=all --seed=$seed | tail -n 40 || gpu_fail
  done
fi

echo "== copy bandwidth"
gpu_copy_bandwidth "$out/copy_bandwidth.txt"

if [[ -x $work/temporal_benchmark ]]; then
  echo "== stencilc time loops"
  args=()
  [[ -n ${CASES:-} ]] && args+=("--cases=$CASES")
  [[ -n ${STEPS:-} ]] && args+=("--steps=$STEPS")
  [[ ${QUICK:-0} == 1 ]] && args+=(--quick)
  "$work/temporal_benchmark" "${args[@]}" || gpu_fail
fi

if [[ ${SKIP_AN5D:-0} != 1 ]]; then
  echo "== AN5D's kernels (an5d/run.sh)"
  bash "$bundle/an5d/run.sh" || gpu_fail
fi
gpu_exit
