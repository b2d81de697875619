#!/usr/bin/env bash
# scaling_gpu_run.sh - the runs on several GPUs of one host, in one run per
# machine, from a bundle made by `tools/make_bundle.sh mpi`:
#
#   bash scaling_gpu_run.sh BUNDLE [OUT_DIR]
#
# 1. the dycore's step (dycore_mpi_gpu_run.sh on the bundle's dycore/gen):
#    bits, weak and strong scaling, the compute/exchange/overlap split;
# 2. time loops with deep halos (mpi_gpu_run.sh with TIME_LOOP=1): bits, and
#    steps per exchange K = PER_EXCHANGE (default 1,2,3,0; 0: chosen by
#    timing) at 512^3 per GPU;
# each on every GPU count the machine has of 1, 2 and 4. Their logs go to
# OUT_DIR (dycore_mpi_gpu_run.log, mpi_gpu_run.log) and the models read them
# here: tools/scaling_model.py and tools/time_loop_model.py.
# Exits 1 when either part failed.
# Environment: as the two runners (CUDA_ARCH, NVCC, STEPS: timed steps,
# default 20 for the dycore and 60 for the time loops).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bundle=${1:?usage: scaling_gpu_run.sh BUNDLE [OUT_DIR]}
out=${2:-${OUT:-$bundle/results}}
mkdir -p "$out"
status=0
echo "==== the dycore's step"
DYCORE_GEN=dycore/gen STEPS=${STEPS:-20} bash "$here/dycore_mpi_gpu_run.sh" "$bundle" "$out" || status=1
echo "==== time loops with deep halos"
TIME_LOOP=1 PER_EXCHANGE=${PER_EXCHANGE:-1,2,3,0} STEPS=${STEPS:-60} \
  bash "$here/mpi_gpu_run.sh" "$bundle" "$out" || status=1
echo "scaling_gpu_run: $([[ $status == 0 ]] && echo PASS || echo FAIL)"
exit "$status"
