#!/usr/bin/env bash
# check_bundles.sh - every mode of tools/make_bundle.sh, without a GPU: makes the
# bundle with the built stencilc, then runs the mode's runner on it with a fake
# toolchain (fake-bin/: nvcc, g++, mpicxx, nvidia-smi, mpirun, ompi_info) that
# fails on any input file, -I folder or include the bundle lacks. Last, a bundle
# with a file taken away must fail the same way.
#
#   check_bundles.sh BUILD_DIR WORK_DIR
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
work=$2
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run_runner MODE BUNDLE RUNNER ARGS...: the runner's exit code; its output and
# the fake tools' log in WORK_DIR/MODE.{out,log}.
run_runner() {
  local mode=$1 bundle=$2 runner=$3
  shift 3
  export FAKE_LOG="$work/$mode.log"
  : >"$FAKE_LOG"
  PATH="$here/fake-bin:$PATH" CXX="$here/fake-bin/g++" OUT="$work/$mode-out" \
    bash "$bundle/$runner" "$bundle" "$@" >"$work/$mode.out" 2>&1
}

# expect MODE PATTERN...: each pattern is in the fake tools' log.
expect_log() {
  local mode=$1 pattern
  shift
  for pattern in "$@"; do
    grep -q -- "$pattern" "$work/$mode.log" || fail "$mode: the runner did not run '$pattern'"
  done
}

check_mode() { # MODE RUNNER [MODE ARGS]
  local mode=$1 runner=$2 bundle="$work/$1-bundle"
  shift 2
  echo "== $mode"
  if ! "$root/tools/make_bundle.sh" "$mode" "$build" "$bundle" "$@" >"$work/$mode.make.log" 2>&1; then
    cat "$work/$mode.make.log"
    fail "$mode: make_bundle.sh failed"
    return
  fi
  for file in "$runner" gpu_common.sh MANIFEST; do
    [[ -f $bundle/$file ]] || fail "$mode: the bundle has no $file"
  done
  grep -q "made by: tools/make_bundle.sh $mode\|^programs " "$bundle/MANIFEST" ||
    fail "$mode: MANIFEST does not say what made it"
  run_runner "$mode" "$bundle" "$runner"
  local rc=$?
  if grep -q missing "$work/$mode.log" || ((rc != 0)); then
    cat "$work/$mode.out"
    grep missing "$work/$mode.log"
    fail "$mode: $runner exit $rc on its bundle"
  fi
}

check_mode check gpu_check.sh
expect_log check "compiled .*/diffusion3d/gen/diffusion3d.stencil.cu" \
  "compiled .*/heat2d/heat2d.cpp" "compiled .*/varcoef3d/gen/varcoef3d.stencil.cpp" \
  "compiled .*/copy_bandwidth.cu" "compiled .*/tests/mixed_rank/gen/mixed_rank.stencil.cu" \
  "compiled .*/tests/step_staged/gen/step_staged.stencil.cu"
grep -q "gpu_check: PASS" "$work/check.out" || fail "check: gpu_check.sh did not pass"

check_mode benchmark benchmark.sh
expect_log benchmark "compiled .*/cpu_benchmark.cpp" "compiled .*/gen/cpu_benchmark.stencil.cpp" \
  "compiled .*/benchmark.cpp" "compiled .*/gen/benchmark.stencil.cu" "compiled .*/copy_bandwidth.cu"
for file in machine.txt cpu.txt bench.txt verify.txt cache.txt copy.txt ptxas.txt; do
  [[ -f $work/benchmark-out/$file ]] || fail "benchmark: benchmark.sh wrote no \$OUT/$file"
done

check_mode mpi mpi_gpu_run.sh
expect_log mpi "compiled .*/runtime/src/mpi_device_cuda.cu" "compiled .*/runtime/src/mpi_cuda_aware.cpp" \
  "compiled .*/mpi-test/gen/mpi_test.stencil.cu" "compiled .*/diffusion3d-mpi/diffusion3d_mpi.cpp" \
  "mpirun .*mpi_test" "mpirun .*diffusion3d_mpi"
[[ -f $work/mpi-out/mpi_gpu_run.log ]] || fail "mpi: mpi_gpu_run.sh wrote no mpi_gpu_run.log"
# The runs on several GPUs, from the same bundle: the fake mpirun prints no
# checksum, so their checks fail; what they compiled and ran counts.
run_runner scaling "$work/mpi-bundle" scaling_gpu_run.sh
if grep missing "$work/scaling.log"; then
  fail "mpi: scaling_gpu_run.sh misses a file of its bundle"
fi
expect_log scaling "compiled .*/dycore/gen/dycore.stencil.cu" "mpirun .*dycore --backend=cuda --procs=2,1,1" \
  "mpirun .*diffusion3d_mpi --memory=device --mode=time-loop" "mpirun .*mpi_test --memory device"
for log in dycore_mpi_gpu_run.log mpi_gpu_run.log; do
  [[ -f $work/scaling-out/$log ]] || fail "mpi: scaling_gpu_run.sh wrote no $log"
done
grep -q "scaling_gpu_run: FAIL" "$work/scaling.out" ||
  fail "mpi: scaling_gpu_run.sh did not fail on a run without checksums"

check_mode dycore dycore_gpu_run.sh
expect_log dycore "compiled .*/gen/dycore.stencil.cu" "compiled .*/gen-recompute/dycore.stencil.cu" \
  "compiled .*/gen-staged/dycore.stencil.cu" "compiled .*/dycore/dycore.cpp" \
  "compiled .*/runtime/src/mpi_device_cuda.cu" "mpirun .*dycore-recompute" "mpirun .*dycore-staged"
grep -q "stencilc_ring" "$work/dycore-bundle/gen-staged/dycore.stencil.cu" ||
  fail "dycore: gen-staged has no staged kernel"
for file in plan-auto.txt plan-recompute.txt plan-staged.txt step_traffic.txt; do
  [[ -s $work/dycore-bundle/$file ]] || fail "dycore: the bundle has no $file"
done
grep -q "^bytes per point: [1-9]" "$work/dycore-bundle/step_traffic.txt" ||
  fail "dycore: step_traffic.txt has no bytes per point"
[[ -f $work/dycore-out/dycore_gpu_run.log ]] || fail "dycore: dycore_gpu_run.sh wrote no dycore_gpu_run.log"
# Its runner for several GPUs: the fake mpirun prints no checksum, so the
# runner's bits check fails; what it compiled and ran, and its log, count.
run_runner dycore-mpi "$work/dycore-bundle" dycore_mpi_gpu_run.sh
if grep missing "$work/dycore-mpi.log"; then
  fail "dycore: dycore_mpi_gpu_run.sh misses a file of its bundle"
fi
expect_log dycore-mpi "compiled .*/gen/dycore.stencil.cu" "compiled .*/dycore/dycore.cpp" \
  "mpirun .*-np 2 .*dycore --backend=cuda --procs=2,1,1" "mpirun .*--no-overlap"
[[ -f $work/dycore-mpi-out/dycore_mpi_gpu_run.log ]] ||
  fail "dycore: dycore_mpi_gpu_run.sh wrote no dycore_mpi_gpu_run.log"

check_mode differential differential_gpu.sh 2 2 1
expect_log differential "compiled .*/prog1/prog1.stencil.cu" "compiled .*/prog2/prog2.cpp"
grep -q "differential_gpu: 2 of 2 programs passed" "$work/differential.out" ||
  fail "differential: differential_gpu.sh did not build and run both programs"

check_mode steps steps_gpu.sh 2 1
expect_log steps "compiled .*/steps1-staged/steps1.stencil.cu" "compiled .*/steps2-multi-kernel/steps2.cpp" \
  "compiled .*/steps1-auto/steps1.stencil.cpp"
grep -q "steps_gpu: 8 of 8 programs passed; openmp bit-exact 16/16; cuda within tolerance 16/16" \
  "$work/steps.out" || fail "steps: steps_gpu.sh did not build and run the 2 programs x 4 strategies"

# Time loops: AN5D's kernels are not part of the repository; a stand-in
# folder with a run.sh takes their place.
mkdir -p "$work/an5d-stand-in"
printf '#!/usr/bin/env bash\necho "AN5D stand-in"\n' >"$work/an5d-stand-in/run.sh"
check_mode temporal temporal_gpu_run.sh "$work/an5d-stand-in"
# The generated CUDA compiled a stencil a part (split_cuda.py), then linked.
expect_log temporal "compiled .*/temporal.parts/[0-9]*_Box27w.cu" \
  "compiled .*/temporal.parts/[0-9]*_Star2Dr4.cu" "compiled .*/tests/temporal/temporal.cpp" \
  "compiled .*/temporal_benchmark.parts/[0-9]*_Box3d1rF.cu"
# A file not laid out as stencilc's (here the copy kernel) is refused, nothing
# written: the runner then compiles it whole.
python3 "$root/tools/split_cuda.py" "$root/tools/copy_bandwidth.cu" "$work/split-refused" \
  2>/dev/null && fail "split_cuda.py split copy_bandwidth.cu"
[[ -e $work/split-refused ]] && fail "split_cuda.py wrote parts of a file it refused"
grep -q "AN5D stand-in" "$work/temporal.out" || fail "temporal: the runner did not run an5d/run.sh"
# Built beforehand (BUILD_ONLY=1): the binaries go to the bundle's bin/, and a
# later run takes them from there and compiles nothing.
BUILD_ONLY=1 run_runner temporal-build "$work/temporal-bundle" temporal_gpu_run.sh ||
  fail "temporal: BUILD_ONLY=1 failed"
for binary in temporal temporal_benchmark copy_bandwidth; do
  [[ -x $work/temporal-bundle/bin/$binary ]] || fail "temporal: BUILD_ONLY=1 left no bin/$binary"
done
grep -q "AN5D stand-in" "$work/temporal-build.out" && fail "temporal: BUILD_ONLY=1 ran the timings"
run_runner temporal-prebuilt "$work/temporal-bundle" temporal_gpu_run.sh ||
  fail "temporal: the run on prebuilt binaries failed"
grep -q "compiled" "$work/temporal-prebuilt.log" && fail "temporal: the run on prebuilt binaries compiled"
grep -q "AN5D stand-in" "$work/temporal-prebuilt.out" ||
  fail "temporal: the run on prebuilt binaries did not run to the end"
# FAST_MATH=1: a second benchmark, built with AN5D's flags, timed after the other.
FAST_MATH=1 BUILD_ONLY=1 run_runner temporal-fast-build "$work/temporal-bundle" temporal_gpu_run.sh ||
  fail "temporal: FAST_MATH=1 BUILD_ONLY=1 failed"
[[ -x $work/temporal-bundle/bin/temporal_benchmark_fast ]] ||
  fail "temporal: FAST_MATH=1 left no bin/temporal_benchmark_fast"
FAST_MATH=1 run_runner temporal-fast "$work/temporal-bundle" temporal_gpu_run.sh ||
  fail "temporal: the run with FAST_MATH=1 failed"
grep -q "built with AN5D's flags" "$work/temporal-fast.out" ||
  fail "temporal: FAST_MATH=1 did not time the second benchmark"
# BEFORE_BIN: the benchmarks of the code before a change, timed first.
BEFORE_BIN="$work/temporal-bundle/bin" FAST_MATH=1 run_runner temporal-before \
  "$work/temporal-bundle" temporal_gpu_run.sh || fail "temporal: BEFORE_BIN failed"
for binary in temporal_benchmark temporal_benchmark_fast; do
  grep -q "== before: $binary\$" "$work/temporal-before.out" ||
    fail "temporal: BEFORE_BIN did not time $binary"
done
BEFORE_BIN="$work/nowhere" run_runner temporal-no-before "$work/temporal-bundle" \
  temporal_gpu_run.sh && fail "temporal: BEFORE_BIN without benchmarks passed"

# The fake toolchain catches what a bundle lacks: a header a source includes.
echo "== a bundle without a file its runner needs"
rm "$work/mpi-bundle/mpi-test/mpi_stencils.hpp"
run_runner mpi-broken "$work/mpi-bundle" mpi_gpu_run.sh && fail "mpi: a broken bundle passed"
grep -q "missing header mpi_stencils.hpp" "$work/mpi-broken.log" ||
  fail "the fake compiler did not name the missing mpi_stencils.hpp"

if ((failures)); then
  echo "check_bundles: $failures failure(s)"
  exit 1
fi
echo "check_bundles: PASS"
