#!/usr/bin/env bash
# dycore_gpu_profile.sh - the dycore's step kernels under Nsight Compute
# (ncu), from a bundle made by `tools/make_bundle.sh dycore`:
#
#   bash dycore_gpu_profile.sh BUNDLE [OUT_DIR]
#
# Builds the plan's build (gen/), then profiles one step at SIZE (default
# 512,512,64) as planned and call by call (STENCIL_STEP_PLAN=multi-kernel):
# every kernel of the stage whose name matches KERNELS (default: all of
# stencilc's), each launch once. Prints per launch the time, the DRAM bytes
# read and written, DRAM and SM throughput, achieved occupancy, registers
# per thread and the warp stall reasons (ncu's sections SpeedOfLight,
# Occupancy, LaunchStats, WarpStateStats, MemoryWorkloadAnalysis); the whole
# reports go to OUT_DIR/profile-{plan,multi-kernel}.txt.
# Environment: CUDA_ARCH (default sm_90), NVCC, NCU (default ncu), SIZE,
# KERNELS (an ncu regex, default "stencilc_").
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=gpu_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu_common.sh"

gpu_init "${1:?usage: dycore_gpu_profile.sh BUNDLE [OUT_DIR]}"
[[ -n ${2:-} ]] && OUT=$2
gpu_out_dir profile
size=${SIZE:-512,512,64}
ncu=${NCU:-ncu}
command -v "$ncu" >/dev/null || ncu=/usr/local/cuda/bin/ncu

echo "== machine"
gpu_machine
gpu_mpi_toolchain
gpu_build_dycore gen:dycore

metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for plan in "" multi-kernel; do
  tag=${plan:-plan}
  echo "== one step, ${plan:-as planned}"
  STENCIL_STEP_PLAN=$plan OMP_NUM_THREADS=4 "$ncu" --kernel-name "regex:${KERNELS:-stencilc_}" \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis --metrics "$metrics" \
    "$work/dycore" --backend=cuda --size="$size" --steps=1 >"$out/profile-$tag.txt" 2>&1 ||
    { tail -n 20 "$out/profile-$tag.txt"; gpu_fail; continue; }
  # One line per launch: name, then the figures that say what limits it.
  awk '
    /^  [a-zA-Z_0-9]+\(/ { if (name != "") print line; name = $1; sub(/\(.*/, "", name); line = name }
    /gpu__time_duration.sum/ { line = line " time " $NF " " $(NF-1) }
    /dram__bytes_read.sum/ { line = line ", read " $NF " " $(NF-1) }
    /dram__bytes_write.sum/ { line = line ", written " $NF " " $(NF-1) }
    /DRAM Throughput/ { line = line ", DRAM " $NF "%" }
    /Compute \(SM\) Throughput/ { line = line ", SM " $NF "%" }
    /Achieved Occupancy/ { line = line ", occupancy " $NF "%" }
    /Registers Per Thread/ { line = line ", " $NF " registers" }
    END { if (name != "") print line }' "$out/profile-$tag.txt"
done
echo "== done ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
gpu_exit
