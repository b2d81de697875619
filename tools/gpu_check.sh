#!/usr/bin/env bash
# gpu_check.sh - runs on the GPU machine (nvcc, no Clang 16): builds every
# example of a bundle made by `tools/make_bundle.sh check` with nvcc, and runs
# each with --backend=cuda --check at a few sizes (one of them not a multiple
# of the CUDA block), --backend=cuda-tuned --check (the auto-tuning engine) at
# the largest, plus the OpenMP code once; then builds the bundle's test
# programs (tests/*) and runs each with --backend=all. Prints the GPU, the CUDA version,
# pass/fail, the time per step and the tuner's choice; exits 1 on any failure.
#
#   gpu_check.sh [BUNDLE_DIR]     (default: ./gpu-bundle)
#
# Environment: CUDA_ARCH (default sm_90), STEPS (default 10), NVCC (default nvcc).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=gpu_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu_common.sh"

gpu_init "${1:-gpu-bundle}"
steps=${STEPS:-10}
# A fresh tuning cache: cuda-tuned tunes in every check (and the user's cache
# is left alone).
export STENCIL_TUNING_CACHE="$work/tuning.json"

include="$bundle/runtime/include"
[[ -d $include ]] || include="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/runtime/include"

echo "== machine"
gpu_machine

# The ceiling for memory-bound kernels, measured in the same run: effective
# bandwidths below are also given as a ratio to it.
echo
echo "== device-to-device copy bandwidth"
copy_gbs=""
if gpu_build_copy_bandwidth; then
  copy_line=$(gpu_copy_bandwidth) && echo "$copy_line"
  copy_gbs=$(gpu_copy_gbs <<<"${copy_line:-}")
fi
[[ -n $copy_gbs ]] || echo "gpu_check: copy bandwidth not measured"

# Sizes per example: a small one, and a larger one that no block size divides.
declare -A sizes=(
  [diffusion3d]="64,64,64 253,251,127 512,512,256"
  [varcoef3d]="64,64,64 253,251,127"
  [heat2d]="256,256 2049,1023"
)

results=()
record() { # name status detail
  results+=("$(printf '%-12s %-28s %-5s %s' "$1" "$2" "$3" "$4")")
  [[ $3 == PASS ]] || gpu_fail
}

for dir in "$bundle"/*/gen; do
  example=$(basename "$(dirname "$dir")")
  source="$bundle/$example/$example.cpp"
  binary="$work/$example"
  echo
  echo "== $example: build"
  build=("$nvcc" -std=c++17 -O3 "-arch=$arch" -Xcompiler -fopenmp -I "$include"
         "$source" "$dir"/*.stencil.cu "$dir"/*.stencil.cpp -o "$binary" -lgomp)
  echo "${build[*]}"
  if ! "${build[@]}"; then
    record "$example" "build" FAIL "nvcc failed"
    continue
  fi
  runs=()
  example_sizes=${sizes[$example]:-64,64,64}
  for size in $example_sizes; do
    runs+=("cuda $size")
  done
  runs+=("cuda-tuned ${example_sizes##* }")
  runs+=("openmp ${example_sizes%% *}")
  for run in "${runs[@]}"; do
    read -r backend size <<<"$run"
    echo
    echo "== $example --backend=$backend --size=$size --steps=$steps --check"
    log="$work/$example.log"
    "$binary" --backend="$backend" --size="$size" --steps="$steps" --check 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    time=$(grep -o 'time per step: [0-9.]* ms' "$log" | head -n 1 | sed 's/time per step: //')
    gbs=$(sed -n 's/.* \([0-9.]*\) GB\/s effective.*/\1/p' "$log" | head -n 1)
    if [[ $backend == cuda* && -n $gbs && -n $copy_gbs ]]; then
      time="$time ($gbs GB/s, $(awk -v a="$gbs" -v b="$copy_gbs" 'BEGIN { printf "%.2f", a / b }') of copy)"
    fi
    tuned=$(sed -n 's/^auto-tuning: \([^ ]*\), .*/\1/p' "$log" | head -n 1)
    check=$(grep -m1 '^check:' "$log" | sed 's/.*reference: //')
    if [[ $rc -eq 0 ]]; then
      record "$example" "$backend $size" PASS "${time:-?} per step; ${check}${tuned:+; tuned $tuned}"
    else
      record "$example" "$backend $size" FAIL "exit code $rc; ${check}"
    fi
  done
done

# Test programs: each runs every CUDA variant of its stencils at several
# blocks against the host reference, at the extents of a few seeds.
for dir in "$bundle"/tests/*/gen; do
  [[ -d $dir ]] || continue
  test=$(basename "$(dirname "$dir")")
  binary="$work/test_$test"
  echo
  echo "== test $test: build"
  build=("$nvcc" -std=c++17 -O3 "-arch=$arch" -Xcompiler -fopenmp -I "$include"
         "$bundle/tests/$test/$test.cpp" "$dir"/*.stencil.cu "$dir"/*.stencil.cpp
         -o "$binary" -lgomp)
  echo "${build[*]}"
  if ! "${build[@]}"; then
    record "$test" "build" FAIL "nvcc failed"
    continue
  fi
  for seed in 1 2 3 4 5; do
    echo
    echo "== test $test --backend=all --seed=$seed"
    log="$work/test_$test.log"
    "$binary" --backend=all --seed="$seed" >"$log" 2>&1
    rc=$?
    cat "$log"
    line=$(tail -n 1 "$log")
    record "$test" "all seed $seed" "$([[ $rc -eq 0 ]] && echo PASS || echo FAIL)" "$line"
  done
done

echo
echo "== summary ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1), $("$nvcc" --version | grep -o 'release [0-9.]*'))"
printf '%s\n' "${results[@]}"
if ((${#results[@]} == 0)); then
  echo "gpu_check: no examples found in $bundle (expected <example>/gen/)"
  exit 1
fi
if ((status)); then
  echo "gpu_check: FAIL"
  exit 1
fi
echo "gpu_check: PASS"
