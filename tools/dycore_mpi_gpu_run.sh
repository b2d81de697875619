#!/usr/bin/env bash
# dycore_mpi_gpu_run.sh - the dycore's step on several GPUs of one host, one
# MPI rank a GPU, from a bundle made by `tools/make_bundle.sh dycore`:
#
#   bash dycore_mpi_gpu_run.sh BUNDLE [OUT_DIR]
#
# 1. prints the machine (GPUs, NVLink topology, Open MPI); builds the plan's
#    build (gen/); measures the copy ceiling;
# 2. bits: the checksum after STEPS steps of one global grid (256x256x64) on
#    1 GPU and on 2 (and 4) GPUs in every decomposition of x and y: equal;
# 3. weak scaling, 512x512x64 per GPU (1: 512x512x64, 2: 1024x512x64 split
#    in x, 4: 1024x1024x64 split 2x2), each with overlap (the default) and
#    without (--no-overlap: every exchange before its round);
# 4. strong scaling of 1024x1024x64 on 1, 2 (and 4) GPUs, with overlap;
# 5. the report: per GPU count the step's time, weak-scaling efficiency
#    (the one-GPU time over the P-GPU time), and the step split as seed 001
#    splits ASUCA's: compute (one GPU with the same points per GPU: its
#    exchanges are its own periodic wraps), exchange (the time without
#    overlap less the compute), and the overlapped step against
#    max(compute, exchange).
# Everything goes to stdout and OUT_DIR/dycore_mpi_gpu_run.log.
# Environment: CUDA_ARCH (default sm_90), NVCC, STEPS (timed steps, default 20),
# DYCORE_GEN (the bundle's folder of the dycore's generated code, default gen;
# dycore/gen in a bundle of `tools/make_bundle.sh mpi`),
# STENCIL_MPI_TRANSPORT (default auto: peer copies where the GPUs allow).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=gpu_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu_common.sh"

gpu_start_runner dycore_mpi_gpu_run "${1:?usage: dycore_mpi_gpu_run.sh BUNDLE [OUT_DIR]}" "${2:-}"
steps=${STEPS:-20}
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)

echo "== machine ($gpus GPUs)"
gpu_machine
nvidia-smi topo -m | head -n $((gpus + 1))
mpirun --version 2>&1 | head -n 1
gpu_mpi_toolchain

echo "== build"
gpu_build_dycore "${DYCORE_GEN:-gen}:dycore"
gpu_copy_bandwidth "$work/copy.txt"

mpirun=(mpirun --bind-to none -x STENCIL_MPI_TRANSPORT -x OMP_NUM_THREADS)
[[ $(id -u) == 0 ]] && mpirun+=(--allow-run-as-root)
export OMP_NUM_THREADS=4
run() { # run LOG PROCS ARGS...: the dycore on A*B*C ranks, kept in $work/LOG
  local log=$1 procs=$2
  shift 2
  local ranks=$((${procs//,/*}))
  echo "-- np $ranks --procs=$procs $*"
  timeout 300 "${mpirun[@]}" -np "$ranks" "$work/dycore" --backend=cuda --procs="$procs" "$@" 2>&1 |
    grep -v '^\s*$' | tee "$work/$log"
  grep -q "FAIL\|error" "$work/$log" && gpu_fail
}
step_ms() { sed -n 's/^time per step: \([0-9.]*\) ms.*/\1/p' "$work/$1" | head -n 1; }
sum_of() { sed -n 's/^checksum: \([0-9a-f]*\).*/\1/p' "$work/$1" | head -n 1; }

echo "== bits: one grid, 256x256x64, $steps steps, on 1 GPU and split"
layouts=(1,1,1 2,1,1 1,2,1)
((gpus >= 4)) && layouts+=(2,2,1 4,1,1)
for procs in "${layouts[@]}"; do
  run "bits-$procs.log" "$procs" --size=256,256,64 --steps="$steps"
done
first=$(sum_of bits-1,1,1.log)
for procs in "${layouts[@]}"; do
  got=$(sum_of "bits-$procs.log")
  if [[ -n $first && $got == "$first" ]]; then
    echo "bits $procs: checksum $got, the one-GPU run's: PASS"
  else
    echo "bits $procs: checksum ${got:-none}, one GPU ${first:-none}: FAIL"
    gpu_fail
  fi
done

echo "== weak scaling: 512x512x64 per GPU"
declare -A weak=([1]="1,1,1 512,512,64" [2]="2,1,1 1024,512,64" [4]="2,2,1 1024,1024,64")
counts=(1 2)
((gpus >= 4)) && counts+=(4)
for p in "${counts[@]}"; do
  read -r procs size <<<"${weak[$p]}"
  run "weak-$p.log" "$procs" --size="$size" --steps="$steps"
  run "weak-$p-no-overlap.log" "$procs" --size="$size" --steps="$steps" --no-overlap
done

echo "== strong scaling: 1024x1024x64"
for p in "${counts[@]}"; do
  procs=$([[ $p == 1 ]] && echo 1,1,1 || { [[ $p == 2 ]] && echo 2,1,1 || echo 2,2,1; })
  run "strong-$p.log" "$procs" --size=1024,1024,64 --steps="$steps"
done

echo "== report"
one=$(step_ms weak-1.log)
for p in "${counts[@]}"; do
  ov=$(step_ms "weak-$p.log") noov=$(step_ms "weak-$p-no-overlap.log")
  awk -v p="$p" -v one="$one" -v ov="$ov" -v noov="$noov" 'BEGIN {
    if (one == "" || ov == "" || noov == "") { printf "weak %d GPUs: numbers missing\n", p; exit }
    exchange = noov - one; if (exchange < 0) exchange = 0
    bound = one > exchange ? one : exchange
    printf "weak %d GPUs: step %.4f ms (no overlap %.4f), efficiency %.3f; compute %.4f, exchange %.4f, overlapped %.4f = %.3f x max(compute, exchange)\n",
      p, ov, noov, one / ov, one, exchange, ov, ov / bound }'
done
s1=$(step_ms strong-1.log)
for p in "${counts[@]}"; do
  sp=$(step_ms "strong-$p.log")
  awk -v p="$p" -v s1="$s1" -v sp="$sp" 'BEGIN {
    if (s1 == "" || sp == "") { printf "strong %d GPUs: numbers missing\n", p; exit }
    printf "strong %d GPUs: step %.4f ms, speed-up %.3f, efficiency %.3f\n", p, sp, s1 / sp, s1 / sp / p }'
done
gpu_copy_bandwidth
echo "== done ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
gpu_exit
