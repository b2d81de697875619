#!/usr/bin/env bash
# mpi_gpu_run.sh - the many-GPU runs, on the GPU machine (nvcc and Open MPI,
# no Clang 16), from a bundle made by `tools/make_bundle.sh mpi`:
#
#   bash mpi_gpu_run.sh BUNDLE [OUT_DIR]
#
# 1. prints the machine: GPUs, NVLink topology, CUDA, Open MPI and whether it
#    is CUDA-aware; the device-to-device copy ceiling;
# 2. builds diffusion3d_mpi, mpi_test and the dycore (nvcc for .cu, mpicxx
#    for the rest); runs the dycore's --check on the GPU and times a step;
# 3. correctness on device memory: mpi_test on 1 and 2 ranks (every
#    decomposition, periodic or not, plain and overlapped, bit-equal to one
#    rank) with each transport, and diffusion3d_mpi checksums on 1 and 2 GPUs;
# 4. timings (seed 001's Fig. 4 breakdown): weak scaling, 512^3 per GPU, and
#    strong scaling, 1024^3 in all, on 1 and 2 GPUs, per transport.
# Everything goes to stdout and OUT_DIR/mpi_gpu_run.log.
# Steps 3 and 4 run once per kernel of KERNELS ("variant:bx,by,chunk" of
# stencilc's CUDA code, DomainLoop::setVariant and setBlock).
# Environment: CUDA_ARCH (default sm_90), NVCC (default nvcc), STEPS (timed steps, default 50),
# KERNELS (default "grid:64,4,1 zmarch2:128,2,2"), QUICK=1 (only mpi_test on
# 2 ranks and the 2-GPU timings, with and without STENCIL_MPI_PACK_FIRST),
# TIME_LOOP=1 (instead: time loops with deep halos, DomainLoop::repeat:
# mpi_test on 1 and 2 ranks, diffusion3d_mpi --mode=time-loop checksums on
# 1 and 2 GPUs, and its timings at 512^3 per GPU, 1 and 2 GPUs (2 also
# without overlapping the exchanges, --no-repeat-overlap), for each
# steps per exchange of PER_EXCHANGE, default 1,2,3,4,0 (0: timed), the
# passes' tile and chunk PASS (BX,BY,CHUNK; default the plan's); on a
# machine of four GPUs or more also mpi_test on 4 ranks, checksums on 4
# GPUs and timings on 4 (split in z); with CASE=TEXT only mpi_test's cases
# named so, on 1 and 2 ranks, their differences shown).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=gpu_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu_common.sh"

gpu_start_runner mpi_gpu_run "${1:?usage: mpi_gpu_run.sh BUNDLE [OUT_DIR]}" "${2:-}"
steps=${STEPS:-50}
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)

echo "== machine ($gpus GPUs)"
gpu_machine
nvidia-smi topo -m | head -n $((gpus + 1))
mpirun --version 2>&1 | head -n 1
ompi_info --parsable --all 2>/dev/null | grep mpi_built_with_cuda_support

gpu_mpi_toolchain

echo "== build"
pids=()
gpu_build_copy_bandwidth & pids+=($!)
gpu_compile_mpi_runtime
programs=(diffusion3d-mpi/diffusion3d_mpi mpi-test/mpi_test dycore/dycore)
[[ ${TIME_LOOP:-0} == 1 ]] && programs=(diffusion3d-mpi/diffusion3d_mpi mpi-test/mpi_test)
for prog in "${programs[@]}"; do
  name=$(basename "$prog")
  gpu_compile_program "$(dirname "$prog")" "$name" "$(dirname "$prog")/gen" "$name"
done
wait "${pids[@]}" # not a bare wait: that would wait for tee too
for prog in "${programs[@]}"; do
  gpu_link_program "$(basename "$prog")"
done
echo "built: $(ls "$work")"
gpu_copy_bandwidth

mpirun=(mpirun --bind-to none -x STENCIL_MPI_TRANSPORT -x STENCIL_MPI_PACK_FIRST -x OMP_NUM_THREADS)
export STENCIL_MPI_PACK_FIRST=${STENCIL_MPI_PACK_FIRST:-1}
[[ $(id -u) == 0 ]] && mpirun+=(--allow-run-as-root)
export OMP_NUM_THREADS=4
run() { # run RANKS TRANSPORT PROGRAM ARGS...
  local ranks=$1 transport=$2
  shift 2
  echo "-- np $ranks transport $transport: $(basename "$1") ${*:2}"
  STENCIL_MPI_TRANSPORT=$transport timeout 150 "${mpirun[@]}" -np "$ranks" "$@" 2>&1 |
    grep -v '^\s*$' | grep -v -- '^----' || true
}

if [[ ${TIME_LOOP:-0} == 1 ]]; then
  d3=("$work/diffusion3d_mpi" --memory=device --mode=time-loop --variant=zmarch --block=128,2,4 ${PASS:+--pass=$PASS})
  per=${PER_EXCHANGE:-1,2,3,4,0}
  if [[ -n ${CASE:-} ]]; then # one case of mpi_test, its differences shown
    export STENCIL_TEST_VERBOSE=1
    mpirun+=(-x STENCIL_TEST_VERBOSE)
    for transport in auto staged; do
      run 1 $transport "$work/mpi_test" --memory device --case "$CASE"
      run 2 $transport "$work/mpi_test" --memory device --case "$CASE"
    done
    exit 0
  fi
  ranks_list=(1 2) layouts=(1,1,1 1,1,2 2,1,1)
  ((gpus >= 4)) && ranks_list+=(4) layouts+=(1,1,4 2,2,1)
  echo "== time loops, correctness: mpi_test on device memory (repeat: one by one and passes)"
  for ranks in "${ranks_list[@]}"; do
    run "$ranks" auto "$work/mpi_test" --memory device | tee "$work/test-$ranks.txt"
    # Every check bit-equal, or the passes' within the CUDA tolerance.
    sed -n 's/.*: \([0-9]*\) of \([0-9]*\) checks bit-equal.*(\([0-9]*\) more within.*/\1 \2 \3/p' \
      "$work/test-$ranks.txt" | awk '{ ok = $1 + $3 == $2 } END { exit !(NR == 1 && ok) }' ||
      { echo "mpi_test on $ranks ranks: FAIL"; gpu_fail; }
  done
  echo "== time loops: checksums of both levels, ${ranks_list[*]} GPUs (equal per steps per exchange)"
  for procs in "${layouts[@]}"; do
    ranks=$(( ${procs//,/*} ))
    run "$ranks" auto "${d3[@]}" --size=256,240,200 --steps=20 --procs=$procs --per-exchange=$per | tee -a "$work/sums-walls.txt"
    run "$ranks" auto "${d3[@]}" --size=256,240,200 --steps=20 --procs=$procs --per-exchange=$per --periodic | tee -a "$work/sums-periodic.txt"
  done
  # Split in z one plane off a chunk (64 or 128): the ranks' columns differ
  # around the chunk, and the timed choice (0) must still make the same
  # trials, collectives and all, on every rank.
  for nz in 129 257; do
    for procs in 1,1,1 1,1,2; do
      run "${procs//1,1,/}" auto "${d3[@]}" --size=96,80,$nz --steps=20 --procs=$procs --per-exchange=1,3,0 | tee -a "$work/sums-z$nz.txt"
    done
  done
  same_sums() { # same_sums KIND RUNS: every run of sums-KIND.txt one checksum
    local sums lines
    sums=$(sed -n 's/^time-loop: .* checksum: \([0-9a-f]*\).*/\1/p' "$work/sums-$1.txt" | sort -u)
    lines=$(grep -c '^time-loop: ' "$work/sums-$1.txt")
    if [[ $(wc -w <<<"$sums") == 1 && $lines == "$2" ]]; then
      echo "checksums ($1): $lines runs, one checksum $sums: PASS"
    else
      echo "checksums ($1): $lines of $2 runs, checksums ${sums//$'\n'/ }: FAIL"
      gpu_fail
    fi
  }
  for kind in walls periodic; do
    same_sums $kind $(( ${#layouts[@]} * $(tr ',' ' ' <<<"$per" | wc -w) ))
  done
  same_sums z129 6
  same_sums z257 6
  echo "== time loops: timings, 512^3 per GPU (weak scaling, split in z), $steps steps"
  run 1 auto "${d3[@]}" --size=512,512,512 --steps="$steps" --per-exchange=$per
  run 2 auto "${d3[@]}" --size=512,512,1024 --steps="$steps" --procs=1,1,2 --per-exchange=$per
  run 2 auto "${d3[@]}" --size=512,512,1024 --steps="$steps" --procs=1,1,2 --per-exchange=$per --no-repeat-overlap
  run 2 staged "${d3[@]}" --size=512,512,1024 --steps="$steps" --procs=1,1,2 --per-exchange=$per
  ((gpus >= 4)) && run 4 auto "${d3[@]}" --size=512,512,2048 --steps="$steps" --procs=1,1,4 --per-exchange=$per
  echo "== single steps for reference (zmarch:128,2,4), 512^3 per GPU"
  run 1 auto "$work/diffusion3d_mpi" --memory=device --mode=bench --steps="$steps" --size=512,512,512 --variant=zmarch --block=128,2,4
  run 2 auto "$work/diffusion3d_mpi" --memory=device --mode=bench --steps="$steps" --size=512,512,1024 --procs=1,1,2 --variant=zmarch --block=128,2,4
  ((gpus >= 4)) && run 4 auto "$work/diffusion3d_mpi" --memory=device --mode=bench --steps="$steps" --size=512,512,2048 --procs=1,1,4 --variant=zmarch --block=128,2,4
  gpu_copy_bandwidth
  echo "== done ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  gpu_exit
fi

echo "== dycore on the GPU: --check against the host reference (two sizes, one rank and two),"
echo "== and the time of a step at 512x512x64"
run 1 auto "$work/dycore" --backend=cuda --check
run 1 auto "$work/dycore" --backend=cuda --check --size=67,45,19 --steps=5
run 2 auto "$work/dycore" --backend=cuda --check --procs=2,1,1
run 1 auto "$work/dycore" --backend=cuda --size=512,512,64 --steps=20
run 1 auto "$work/dycore" --backend=openmp --size=512,512,64 --steps=2

d3="$work/diffusion3d_mpi"
kernels=${KERNELS:-grid:64,4,1 zmarch2:128,2,2}
for kernel in $kernels; do
  variant=${kernel%%:*} block=${kernel#*:}
  kd3=("$d3" --memory=device --variant="$variant" --block="$block")
  # mpi_test's grids are ~20 points wide: small blocks and a chunk that
  # divides no extent, so that every rank launches several partial blocks.
  ktest=("$work/mpi_test" --memory device --variant "$variant" --block 8,2,3)
  echo "==== kernel $kernel"
  if [[ ${QUICK:-0} == 1 ]]; then
    run 2 auto "${ktest[@]}"
    for first in 0 1; do
      echo "== STENCIL_MPI_PACK_FIRST=$first"
      export STENCIL_MPI_PACK_FIRST=$first
      run 1 auto "${kd3[@]}" --mode=bench --steps="$steps" --size=512,512,512
      run 2 auto "${kd3[@]}" --mode=bench --steps="$steps" --size=512,512,1024 --procs=1,1,2
      run 2 staged "${kd3[@]}" --mode=bench --steps="$steps" --size=512,512,1024 --procs=1,1,2
      run 2 auto "${kd3[@]}" --mode=bench --steps="$steps" --size=1024,1024,1024 --procs=1,1,2
    done
    continue
  fi

  echo "== correctness: mpi_test on device memory"
  run 1 auto "${ktest[@]}"
  for transport in auto staged; do
    run 2 "$transport" "${ktest[@]}"
  done

  echo "== correctness: diffusion3d_mpi checksums (identical within each group)"
  for procs in 1,1,1 1,1,2 2,1,1 1,2,1; do
    ranks=$(( ${procs//,/*} ))
    run "$ranks" auto "${kd3[@]}" --size=256,240,200 --steps=20 --procs=$procs
  done
  run 2 staged "${kd3[@]}" --size=256,240,200 --steps=20 --procs=1,1,2
  for procs in 1,1,1 1,1,2; do
    ranks=$(( ${procs//,/*} ))
    run "$ranks" auto "${kd3[@]}" --size=256,240,200 --steps=20 --procs=$procs --periodic
  done

  echo "== timings: weak scaling (512^3 per GPU), then strong scaling (1024^3 in all)"
  run 1 auto "${kd3[@]}" --mode=bench --steps="$steps" --size=512,512,512
  for transport in auto staged; do
    run 2 "$transport" "${kd3[@]}" --mode=bench --steps="$steps" --size=512,512,1024 --procs=1,1,2
  done
  run 1 auto "${kd3[@]}" --mode=bench --steps="$steps" --size=1024,1024,1024
  for transport in auto staged; do
    run 2 "$transport" "${kd3[@]}" --mode=bench --steps="$steps" --size=1024,1024,1024 --procs=1,1,2
  done
done
gpu_copy_bandwidth
echo "== done ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
