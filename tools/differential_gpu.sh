#!/usr/bin/env bash
# differential_gpu.sh - the random differential test on the GPU machine (nvcc,
# cmake, a GPU; no Clang, no stencilc). Builds every program of a bundle made
# by `tools/make_bundle.sh differential` with nvcc (the DSL source and the
# generated OpenMP code by the host compiler with the flags of the host
# reference, the generated CUDA code by nvcc) and runs each with
# --backend=all: OpenMP against the host bit for bit, CUDA against the host
# within each stencil's derived tolerance (docs/correctness.md). Prints one
# line per program and the totals; exits 1 on any failure.
#
#   differential_gpu.sh [BUNDLE_DIR]     (default: the folder of this script)
#
# Environment: CUDA_ARCH (default sm_90), NVCC (default nvcc), JOBS (parallel
# builds, default: number of cores), HOST_FLAGS (default: -O2 -frounding-math,
# what the bundle's MANIFEST names).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=gpu_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu_common.sh"

gpu_init "${1:-$(dirname "${BASH_SOURCE[0]}")}"
gpu_random_tests

start=$(date +%s)
# prog<seed>/prog<seed>.cpp: the program's name is its folder's.
# shellcheck disable=SC2016 # expanded by the inner bash
printf '%s\n' "$bundle"/prog*/ | sed 's:/$::' |
  xargs -P "$jobs" -I{} bash -c 'gpu_build_random "$1" "$(basename "$1")"' _ {}
echo "built in $(($(date +%s) - start)) s"

programs=0 failed=0 stencils=0 omp_pass=0 omp_all=0 cuda_pass=0 cuda_all=0 worst=0
for dir in "$bundle"/prog*/; do
  name=$(basename "$dir")
  programs=$((programs + 1))
  if [[ -f $work/$name.failed ]]; then
    echo "$name: BUILD FAILED"
    tail -n 20 "$work/$name.build.log"
    failed=$((failed + 1))
    continue
  fi
  out=$(OMP_NUM_THREADS=${OMP_NUM_THREADS:-4} "$work/$name" --backend=all 2>&1)
  rc=$?
  line=$(grep '^stencils ' <<<"$out" | tail -n 1)
  echo "$name: ${line:-no summary} (exit $rc)"
  grep '^FAIL' <<<"$out"
  if [[ $rc -ne 0 || -z $line ]]; then
    failed=$((failed + 1))
    [[ -z $line ]] && tail -n 20 <<<"$out"
  fi
  # stencils N openmp P/A cuda P/A worst-cuda-error/tolerance R
  read -r _ n _ omp _ cuda _ ratio <<<"$line"
  stencils=$((stencils + ${n:-0}))
  omp_pass=$((omp_pass + ${omp%/*})) omp_all=$((omp_all + ${omp#*/}))
  cuda_pass=$((cuda_pass + ${cuda%/*})) cuda_all=$((cuda_all + ${cuda#*/}))
  worst=$(awk -v a="$worst" -v b="${ratio:-0}" 'BEGIN { print (b > a ? b : a) }')
done
echo
echo "differential_gpu: $((programs - failed)) of $programs programs passed; stencils $stencils;" \
     "openmp bit-exact $omp_pass/$omp_all; cuda within tolerance $cuda_pass/$cuda_all;" \
     "worst cuda error/tolerance $worst"
((failed == 0)) || gpu_fail
gpu_exit
