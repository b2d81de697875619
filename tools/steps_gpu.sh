#!/usr/bin/env bash
# steps_gpu.sh - the random differential test of steps (STENCIL_STEP) on the
# GPU machine (nvcc, a GPU; no Clang, no stencilc, no Python). Builds every
# program folder of a bundle made by `tools/make_bundle.sh steps`
# (steps<seed>-<strategy>/steps<seed>.{cpp,stencil.cpp,stencil.cu}, one per
# --step-strategy) as differential_gpu.sh does and runs each with
# --backend=all: per step the host reference, then OpenMP bit for bit and CUDA
# (device arrays) within a relative tolerance, each with stencilc's plan and
# with STENCIL_STEP_PLAN=multi-kernel (test/differential/step_harness.hpp).
# Prints one line per program, its failures, the totals and how many steps ran
# a staged group on the GPU; exits 1 on any failure.
#
#   steps_gpu.sh [BUNDLE_DIR]     (default: the folder of this script)
#
# Environment: CUDA_ARCH, NVCC, JOBS, HOST_FLAGS as for differential_gpu.sh.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=gpu_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu_common.sh"

gpu_init "${1:-$(dirname "${BASH_SOURCE[0]}")}"
gpu_random_tests

start=$(date +%s)
# steps<seed>-<strategy>/steps<seed>.cpp: the name is the folder's up to its first '-'.
# shellcheck disable=SC2016 # expanded by the inner bash
printf '%s\n' "$bundle"/steps*-*/ | sed 's:/$::' |
  xargs -P "$jobs" -I{} bash -c 'tag=$(basename "$1"); gpu_build_random "$1" "${tag%%-*}"' _ {}
echo "built in $(($(date +%s) - start)) s"

programs=0 failed=0 omp_pass=0 omp_all=0 cuda_pass=0 cuda_all=0 staged=0 worst=0
for dir in "$bundle"/steps*-*/; do
  tag=$(basename "$dir")
  programs=$((programs + 1))
  if [[ -f $work/$tag.failed ]]; then
    echo "$tag: BUILD FAILED"
    tail -n 20 "$work/$tag.build.log"
    failed=$((failed + 1))
    continue
  fi
  out=$(OMP_NUM_THREADS=${OMP_NUM_THREADS:-4} "$work/$tag" --backend=all 2>&1)
  rc=$?
  omp=$(grep '^steps: seed ' <<<"$out" | tail -n 1)
  cuda=$(grep '^cuda: seed ' <<<"$out" | tail -n 1)
  # "step3 (cuda): multi-kernel(step3_st0), staged(step3_st0, step3_st1)"
  n_staged=$(grep -c '^step[0-9]* (cuda): .*staged(' <<<"$out")
  echo "$tag: ${omp:-no openmp summary}; ${cuda:-no cuda summary}; $n_staged steps staged (exit $rc)"
  grep '^FAIL' <<<"$out"
  if [[ $rc -ne 0 || -z $omp || -z $cuda ]]; then
    failed=$((failed + 1))
    [[ -z $omp || -z $cuda ]] && tail -n 20 <<<"$out"
  fi
  # steps: seed S: P passed, F failed
  read -r _ _ _ p _ f _ <<<"$omp"
  # cuda: seed S: P passed, F failed, worst error/tolerance R
  read -r _ _ _ cp _ cf _ _ _ ratio <<<"$cuda"
  omp_pass=$((omp_pass + ${p:-0})) omp_all=$((omp_all + ${p:-0} + ${f:-0}))
  cuda_pass=$((cuda_pass + ${cp:-0})) cuda_all=$((cuda_all + ${cp:-0} + ${cf:-0}))
  staged=$((staged + n_staged))
  worst=$(awk -v a="$worst" -v b="${ratio:-0}" 'BEGIN { print (b > a ? b : a) }')
done
echo
echo "steps_gpu: $((programs - failed)) of $programs programs passed;" \
     "openmp bit-exact $omp_pass/$omp_all; cuda within tolerance $cuda_pass/$cuda_all;" \
     "steps with a staged group on the GPU $staged; worst cuda error/tolerance $worst"
((programs > 0)) || { echo "steps_gpu: no program folders in $bundle"; gpu_fail; }
((failed == 0)) || gpu_fail
gpu_exit
