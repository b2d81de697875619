# gpu_common.sh - the part the GPU runners share (gpu_check.sh, benchmark.sh,
# mpi_gpu_run.sh, differential_gpu.sh, steps_gpu.sh, the dycore_*.sh ones);
# sourced from the runner's folder, not run. tools/make_bundle.sh puts it
# beside the runner in every bundle.
#
#   gpu_init BUNDLE_DIR   sets bundle (absolute), arch (CUDA_ARCH, default
#                         sm_90), nvcc (NVCC, default nvcc; else
#                         /usr/local/cuda/bin/nvcc where nvcc is not on PATH),
#                         cuda_home, work (a temporary folder, removed at
#                         exit) and status=0
#   gpu_out_dir NAME      sets out to $OUT (default BUNDLE_DIR/NAME) and makes it
#   gpu_build_dycore GEN:TAG...   the dycore with each GEN's code as $work/TAG
#   gpu_start_runner NAME BUNDLE_DIR [OUT_DIR]   gpu_init, out (OUT_DIR, else
#                         $OUT, else BUNDLE_DIR/results), and a copy of all
#                         that follows in out/NAME.log
#   gpu_machine           prints the GPUs, the CUDA version, the date and the
#                         bundle's MANIFEST
#   gpu_build_copy_bandwidth   builds the copy probe into $work/copy_bandwidth
#   gpu_copy_bandwidth [LOG]   runs it on 1 GiB; the line goes to stdout and LOG
#   gpu_copy_gbs          reads a probe's output on stdin, prints its GB/s
#   gpu_fail              marks the run failed; gpu_exit exits with the status
#   gpu_random_tests      for the random tests' runners (differential_gpu.sh,
#                         steps_gpu.sh): sets jobs (JOBS, default: the cores) and
#                         host_flags (HOST_FLAGS, else the MANIFEST's flags line,
#                         else -O2 -frounding-math); exports gpu_build_random;
#                         prints the machine and the flags
#   gpu_build_random DIR NAME   one random test program, built as its folder's
#                         basename TAG: DIR/NAME.cpp and DIR/NAME.stencil.cpp by
#                         the host compiler (host_flags, OpenMP), DIR/NAME.stencil.cu
#                         by nvcc, into $work/TAG; log $work/TAG.build.log,
#                         $work/TAG.failed if it failed
# shellcheck shell=bash

gpu_init() {
  bundle=$(cd "$1" && pwd) || exit 1
  arch=${CUDA_ARCH:-sm_90}
  nvcc=${NVCC:-nvcc}
  # A login shell on a GPU machine does not always have CUDA on PATH.
  if ! command -v "$nvcc" >/dev/null && [[ -z ${NVCC:-} && -x /usr/local/cuda/bin/nvcc ]]; then
    nvcc=/usr/local/cuda/bin/nvcc
  fi
  # shellcheck disable=SC2034 # mpi_gpu_run.sh links with its lib64
  cuda_home=$(dirname "$(dirname "$(command -v "$nvcc" || echo /usr/local/cuda/bin/nvcc)")")
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  status=0
}

# gpu_start_runner NAME BUNDLE [OUT_DIR]: gpu_init, the out folder (OUT_DIR,
# else $OUT, else BUNDLE/results) and from here on everything printed also
# goes to OUT/NAME.log.
gpu_start_runner() {
  gpu_init "$2"
  [[ -n ${3:-} ]] && OUT=$3
  gpu_out_dir results
  exec > >(tee "$out/$1.log") 2>&1
}

gpu_out_dir() {
  out=${OUT:-$bundle/$1}
  mkdir -p "$out"
}

gpu_machine() {
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv ||
    echo "nvidia-smi failed"
  "$nvcc" --version | tail -n 2
  date -u +%Y-%m-%dT%H:%M:%SZ
  if [[ -f $bundle/MANIFEST ]]; then cat "$bundle/MANIFEST"; fi
}

gpu_build_copy_bandwidth() {
  "$nvcc" -O3 "-arch=$arch" "$bundle/copy_bandwidth.cu" -o "$work/copy_bandwidth"
}

gpu_copy_bandwidth() {
  "$work/copy_bandwidth" 1024 | tee -a "${1:-/dev/null}"
}

gpu_copy_gbs() {
  sed -n 's/^copy bandwidth: \([0-9.]*\) GB\/s.*/\1/p'
}

gpu_random_tests() {
  # shellcheck disable=SC2034 # the runner's parallel builds
  jobs=${JOBS:-$(nproc)}
  host_flags=${HOST_FLAGS:-$(sed -n 's/^flags //p' "$bundle/MANIFEST" 2>/dev/null)}
  host_flags=${host_flags:--O2 -frounding-math}
  export -f gpu_build_random
  export nvcc arch host_flags bundle work
  echo "== machine"
  gpu_machine
  echo "host flags: $host_flags; nvcc -arch=$arch (default contraction: -fmad=true)"
}

gpu_build_random() {
  local dir=$1 name=$2 tag
  tag=$(basename "$dir")
  # shellcheck disable=SC2086 # host_flags is a list of flags
  "$nvcc" -std=c++17 "-arch=$arch" -O2 -Xcompiler "$(tr ' ' ',' <<<"$host_flags"),-fopenmp" \
    -I "$bundle/include" -I "$bundle" "$dir/$name.cpp" "$dir/$name.stencil.cpp" \
    "$dir/$name.stencil.cu" -o "$work/$tag" -lgomp >"$work/$tag.build.log" 2>&1 ||
    echo "build failed" >"$work/$tag.failed"
}

gpu_fail() {
  status=1
}

gpu_exit() {
  exit "$status"
}

# The distributed runtime's toolchain: nvcc for .cu, mpicxx for the rest.
gpu_mpi_toolchain() {
  local inc="$bundle/runtime/include"
  mpicxx=${MPICXX:-mpicxx}
  nvcc_cmd=("$nvcc" -O3 -std=c++17 "-arch=$arch" -I "$inc")
  cxx_cmd=("$mpicxx" -O3 -std=c++17 -fopenmp -DDYCORE_WITH_MPI=1 -I "$inc")
  link_libs=(-L "$cuda_home/lib64" -lcudart "-Wl,-rpath,$cuda_home/lib64")
}

# gpu_compile_mpi_runtime: its two sources, in the background (pids+=).
gpu_compile_mpi_runtime() {
  "${nvcc_cmd[@]}" -c "$bundle/runtime/src/mpi_device_cuda.cu" -o "$work/mpi_device_cuda.o" & pids+=($!)
  "${cxx_cmd[@]}" -c "$bundle/runtime/src/mpi_cuda_aware.cpp" -o "$work/mpi_cuda_aware.o" & pids+=($!)
}

# gpu_compile_program DIR NAME GEN TAG: DIR/NAME.cpp and GEN/NAME.stencil.{cu,cpp}
# (DIR and GEN in the bundle) to $work/TAG*.o, in the background (pids+=).
gpu_compile_program() {
  local dir=$bundle/$1 name=$2 gen=$bundle/$3 tag=$4
  "${nvcc_cmd[@]}" -c "$gen/$name.stencil.cu" -o "$work/$tag.cu.o" & pids+=($!)
  "${cxx_cmd[@]}" -c "$gen/$name.stencil.cpp" -o "$work/$tag.omp.o" & pids+=($!)
  "${cxx_cmd[@]}" -c "$dir/$name.cpp" -o "$work/$tag.o" & pids+=($!)
}

# gpu_build_dycore GEN:TAG...: the copy probe, the MPI runtime and the dycore
# (bundle folder dycore/) with each GEN folder's generated code as
# $work/TAG, compiled at once. Needs gpu_mpi_toolchain.
gpu_build_dycore() {
  local pids=() build
  gpu_build_copy_bandwidth & pids+=($!)
  gpu_compile_mpi_runtime
  for build in "$@"; do
    gpu_compile_program dycore dycore "${build%%:*}" "${build#*:}"
  done
  wait "${pids[@]}" # not a bare wait: that would wait for a runner's tee too
  for build in "$@"; do
    gpu_link_program "${build#*:}"
  done
}

# gpu_link_program TAG: $work/TAG from what gpu_compile_program made.
gpu_link_program() {
  local tag=$1
  "${cxx_cmd[@]}" "$work/$tag.o" "$work/$tag.omp.o" "$work/$tag.cu.o" "$work/mpi_device_cuda.o" \
    "$work/mpi_cuda_aware.o" "${link_libs[@]}" -o "$work/$tag" || { echo "build of $tag FAILED"; exit 1; }
}
