#!/usr/bin/env bash
# make_bundle.sh - prepares a run on the GPU machine, which has nvcc but no
# Clang 16: runs the built stencilc here and collects, in one folder, the
# sources, the generated code, the runtime, the runner script with
# gpu_common.sh (its shared part) and a MANIFEST saying what made the bundle.
#
#   tools/make_bundle.sh MODE [BUILD_DIR] [OUT_DIR] [MODE ARGS]
#     BUILD_DIR  a configured and built tree with stencilc
#     OUT_DIR    the bundle, replaced if present
#
# Modes (default BUILD_DIR, default OUT_DIR: what the bundle holds; the runner):
#   check         build, <repo>/gpu-bundle: every dsl-example (<example>/<example>.cpp,
#                 <example>/gen/ with CUDA and OpenMP code), common/, runtime/include/,
#                 copy_bandwidth.cu; gpu_check.sh
#   benchmark     build, BUILD_DIR/bench-bundle: tools/benchmark/benchmark.cpp (CUDA code)
#                 and cpu_benchmark.cpp (OpenMP code) with gen/, runtime/include/,
#                 copy_bandwidth.cu; benchmark.sh
#   mpi           build-mpi, BUILD_DIR/mpi-gpu-bundle: dsl-examples/diffusion3d-mpi and
#                 test/mpi with gen/ (CUDA and OpenMP), runtime/include/ and runtime/src/,
#                 copy_bandwidth.cu; mpi_gpu_run.sh (and scaling_gpu_run.sh with
#                 dycore_mpi_gpu_run.sh: the dycore's step and the time loops on
#                 several GPUs, one run per machine)
#   dycore        build-mpi, BUILD_DIR/dycore-bundle: dsl-examples/dycore with gen/
#                 (stencilc's plan), gen-recompute/ (every fusible group fused) and
#                 gen-staged/ (every fusible group staged on chip), their plans, the stage's compulsory traffic (step_traffic.txt), runtime/
#                 include/ and src/, copy_bandwidth.cu; dycore_gpu_run.sh (and
#                 dycore_gpu_profile.sh: the step's kernels under ncu;
#                 dycore_mpi_gpu_run.sh: the step on several GPUs)
#   differential  build, BUILD_DIR/differential-bundle; MODE ARGS: [PROGRAMS] [STENCILS]
#                 [SEED] (default 25 12 1): random programs (test/differential/) with their
#                 CUDA and OpenMP code, the harness, include/; differential_gpu.sh
#   steps         build, BUILD_DIR/steps-bundle; MODE ARGS: [PROGRAMS] [SEED] (default 8 1):
#                 random step programs of 6 steps (test/differential/gen_steps.py), each
#                 with its CUDA and OpenMP code per --step-strategy (auto, recompute, staged,
#                 multi-kernel) in steps<seed>-<strategy>/, the harness, include/; steps_gpu.sh
#   temporal      build, BUILD_DIR/temporal-bundle; MODE ARGS: [AN5D_DIR] (default
#                 ../shared/peers/an5d beside the repository): time loops, the
#                 test/e2e/temporal test and tools/benchmark/temporal_benchmark.cpp with
#                 gen/ (CUDA and OpenMP code), runtime/include/, AN5D's kernels in an5d/,
#                 copy_bandwidth.cu, split_cuda.py; temporal_gpu_run.sh
#
# Then, on the GPU machine (the bundle copied there):
#   bash gpu-bundle/gpu_check.sh gpu-bundle
#   bash <bundle>/benchmark.sh <bundle>         (OUT=<dir>: where its CSV files go)
#   bash <bundle>/mpi_gpu_run.sh <bundle> [OUT_DIR]     (two or more GPUs)
#   bash <bundle>/scaling_gpu_run.sh <bundle> [OUT_DIR] (two or more GPUs)
#   bash <bundle>/dycore_gpu_run.sh <bundle> [OUT_DIR]
#   bash <bundle>/differential_gpu.sh <bundle>
#   bash <bundle>/steps_gpu.sh <bundle>
#   bash <bundle>/temporal_gpu_run.sh <bundle> [OUT_DIR]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage="usage: tools/make_bundle.sh check|benchmark|mpi|dycore|differential|steps|temporal [BUILD_DIR] [OUT_DIR] [MODE ARGS]"
mode=${1:-}
case $mode in
  check) runner=gpu_check.sh default_build=$root/build ;;
  benchmark) runner=benchmark.sh default_build=$root/build ;;
  mpi) runner=mpi_gpu_run.sh default_build=$root/build-mpi ;;
  dycore) runner=dycore_gpu_run.sh default_build=$root/build-mpi ;;
  differential) runner=differential_gpu.sh default_build=$root/build ;;
  steps) runner=steps_gpu.sh default_build=$root/build ;;
  temporal) runner=temporal_gpu_run.sh default_build=$root/build ;;
  *) echo "make_bundle: unknown mode '$mode'; $usage" >&2; exit 2 ;;
esac
build=${2:-$default_build}
case $mode in
  check) out=${3:-$root/gpu-bundle} ;;
  benchmark) out=${3:-$build/bench-bundle} ;;
  mpi) out=${3:-$build/mpi-gpu-bundle} ;;
  dycore) out=${3:-$build/dycore-bundle} ;;
  differential) out=${3:-$build/differential-bundle} ;;
  steps) out=${3:-$build/steps-bundle} ;;
  temporal) out=${3:-$build/temporal-bundle} ;;
esac
stencilc="$build/compiler/tools/stencilc/stencilc"
if [[ ! -x $stencilc ]]; then
  echo "make_bundle: no stencilc at $stencilc: build it first (cmake --build $build --target stencilc)" >&2
  exit 1
fi

# run_stencilc SOURCE GEN_DIR EMIT [COMPILER ARGS]: SOURCE and GEN_DIR relative to the bundle.
run_stencilc() {
  local source=$1 gen=$2 emit=$3
  shift 3
  echo "make_bundle: stencilc $source"
  mkdir -p "$out/$gen"
  "$stencilc" "$out/$source" -o "$out/$gen" "--emit=$emit" \
    -- -std=c++17 -I "$out/runtime/include" "$@"
}

# The commit, and whether files that go into the bundle differ from it.
commit_line() {
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet -- "$@" 2>/dev/null || echo ' (with local changes)')"
}

manifest() { # extra lines on stdin
  {
    echo "made by: tools/make_bundle.sh $mode"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    commit_line "$@"
    echo "stencilc: $("$stencilc" --version 2>&1 | head -n 1)"
    cat
  } >"$out/MANIFEST"
}

rm -rf "$out"
mkdir -p "$out"
case $mode in
  check)
    examples=(diffusion3d heat2d varcoef3d)
    mkdir -p "$out/runtime"
    cp -r "$root/runtime/include" "$out/runtime/include"
    cp -r "$root/dsl-examples/common" "$out/common"
    for example in "${examples[@]}"; do
      mkdir -p "$out/$example"
      cp "$root/dsl-examples/$example/$example.cpp" "$out/$example/"
      run_stencilc "$example/$example.cpp" "$example/gen" cuda,cpu
    done
    # Test programs that need a GPU: every CUDA variant against the host.
    # name, source (test/e2e/<source>/<source>.cpp), stencilc options.
    gpu_tests=("mixed_rank mixed_rank" "step step" "step_recompute step --step-strategy=recompute"
               "step_staged step --step-strategy=staged" "step_multi step --step-strategy=multi-kernel")
    mkdir -p "$out/tests/common"
    cp "$root"/test/e2e/common/*.hpp "$out/tests/common/"
    for spec in "${gpu_tests[@]}"; do
      read -r test source options <<<"$spec"
      mkdir -p "$out/tests/$test/gen"
      cp "$root/test/e2e/$source/$source.cpp" "$out/tests/$test/$test.cpp"
      echo "make_bundle: stencilc $options tests/$test/$test.cpp"
      # shellcheck disable=SC2086 # options: zero or more words
      "$stencilc" "$out/tests/$test/$test.cpp" -o "$out/tests/$test/gen" --emit=cuda,cpu \
        $options -- -std=c++17 -I "$out/runtime/include"
    done
    printf 'examples: %s\ntests: %s\n' "${examples[*]}" "${gpu_tests[*]%% *}" | manifest
    ;;
  benchmark)
    mkdir -p "$out/runtime"
    cp -r "$root/runtime/include" "$out/runtime/include"
    cp "$root/tools/benchmark/benchmark.cpp" "$root/tools/benchmark/cpu_benchmark.cpp" \
      "$root/tools/benchmark/step_benchmark.cpp" "$out/"
    run_stencilc benchmark.cpp gen cuda
    run_stencilc cpu_benchmark.cpp gen cpu
    # Steps twice: stencilc's plan, and every fusible pair fused.
    run_stencilc step_benchmark.cpp gen cuda
    echo "make_bundle: stencilc --step-strategy=recompute step_benchmark.cpp"
    mkdir -p "$out/gen-recompute"
    "$stencilc" "$out/step_benchmark.cpp" -o "$out/gen-recompute" --emit=cuda \
      --step-strategy=recompute -- -std=c++17 -I "$out/runtime/include"
    manifest </dev/null
    ;;
  mpi)
    mkdir -p "$out/runtime" "$out/diffusion3d-mpi" "$out/mpi-test"
    cp -r "$root/runtime/include" "$root/runtime/src" "$out/runtime/"
    cp "$root/dsl-examples/diffusion3d-mpi/diffusion3d_mpi.cpp" "$out/diffusion3d-mpi/"
    cp "$root/test/mpi/mpi_test.cpp" "$root/test/mpi/mpi_stencils.hpp" "$out/mpi-test/"
    read -r -a mpi_include <<<"$(mpicxx --showme:incdirs 2>/dev/null | tr ' ' '\n' | sed 's/^/-I/' | tr '\n' ' ')"
    # The dynamical core: its headers and the examples' common harness.
    mkdir -p "$out/dycore" "$out/common"
    cp "$root"/dsl-examples/dycore/*.cpp "$root"/dsl-examples/dycore/*.hpp "$out/dycore/"
    cp "$root"/dsl-examples/common/*.hpp "$out/common/"
    for source in diffusion3d-mpi/diffusion3d_mpi.cpp mpi-test/mpi_test.cpp dycore/dycore.cpp; do
      run_stencilc "$source" "$(dirname "$source")/gen" cuda,cpu -DDYCORE_WITH_MPI=1 "${mpi_include[@]}"
    done
    cp "$root/tools/scaling_gpu_run.sh" "$root/tools/dycore_mpi_gpu_run.sh" "$out/"
    manifest runtime test/mpi dsl-examples/diffusion3d-mpi dsl-examples/dycore </dev/null
    ;;
  dycore)
    mkdir -p "$out/runtime" "$out/dycore" "$out/common"
    cp -r "$root/runtime/include" "$root/runtime/src" "$out/runtime/"
    cp "$root"/dsl-examples/dycore/*.cpp "$root"/dsl-examples/dycore/*.hpp "$out/dycore/"
    cp "$root"/dsl-examples/common/*.hpp "$out/common/"
    read -r -a mpi_include <<<"$(mpicxx --showme:incdirs 2>/dev/null | tr ' ' '\n' | sed 's/^/-I/' | tr '\n' ' ')"
    flags=(-DDYCORE_WITH_MPI=1 "${mpi_include[@]}")
    run_stencilc dycore/dycore.cpp gen cuda,cpu "${flags[@]}"
    for strategy in recompute staged; do
      echo "make_bundle: stencilc --step-strategy=$strategy dycore/dycore.cpp"
      mkdir -p "$out/gen-$strategy"
      "$stencilc" "$out/dycore/dycore.cpp" -o "$out/gen-$strategy" --emit=cuda,cpu \
        "--step-strategy=$strategy" -- -std=c++17 -I "$out/runtime/include" "${flags[@]}"
    done
    for strategy in auto recompute staged; do
      "$stencilc" "$out/dycore/dycore.cpp" --emit=plan -o - "--step-strategy=$strategy" \
        -- -std=c++17 -I "$out/runtime/include" "${flags[@]}" | sed -n '/^step /,$p' >"$out/plan-$strategy.txt"
    done
    "$stencilc" "$out/dycore/dycore.cpp" --emit=ir -o - -- -std=c++17 -I "$out/runtime/include" \
      "${flags[@]}" | python3 "$root/tools/step_traffic.py" rungeKuttaStage >"$out/step_traffic.txt"
    cp "$root/tools/dycore_gpu_profile.sh" "$root/tools/dycore_mpi_gpu_run.sh" "$out/"
    manifest runtime dsl-examples/dycore </dev/null
    ;;
  differential)
    # The generator writes the programs, the harness, include/ and the MANIFEST.
    python3 "$root/test/differential/run_differential.py" --stencilc "$stencilc" \
      --runtime-include "$root/runtime/include" --programs "${4:-25}" --stencils "${5:-12}" \
      --seed "${6:-1}" --jobs "${STENCILC_JOBS:-2}" --bundle "$out"
    commit_line | sed 's/^commit: /commit /' >>"$out/MANIFEST"
    ;;
  steps)
    # Likewise: the programs per strategy, the harness, include/, the MANIFEST.
    python3 "$root/test/differential/gen_steps.py" --bundle "$out" --stencilc "$stencilc" \
      --runtime-include "$root/runtime/include" --programs "${4:-8}" --steps 6 --seed "${5:-1}" \
      --jobs "${STENCILC_JOBS:-2}"
    commit_line | sed 's/^commit: /commit /' >>"$out/MANIFEST"
    ;;
  temporal)
    an5d=${4:-$root/../shared/peers/an5d}
    if [[ ! -f $an5d/run.sh ]]; then
      echo "make_bundle: no AN5D kernels at $an5d (give their folder as the fourth argument)" >&2
      exit 1
    fi
    mkdir -p "$out/runtime" "$out/tests/common" "$out/tests/temporal"
    cp -r "$root/runtime/include" "$out/runtime/include"
    cp "$root"/test/e2e/common/*.hpp "$out/tests/common/"
    cp "$root/test/e2e/temporal/temporal.cpp" "$root/test/e2e/temporal/divide_stencil.hpp" \
      "$root/test/e2e/temporal/integer_stencils.hpp" \
      "$out/tests/temporal/"
    cp "$root/tools/benchmark/temporal_benchmark.cpp" "$root/tools/benchmark/an5d_stencils.hpp" \
      "$root/tools/split_cuda.py" "$out/"
    cp -r "$an5d" "$out/an5d"
    run_stencilc tests/temporal/temporal.cpp tests/temporal/gen cuda,cpu
    run_stencilc temporal_benchmark.cpp gen cuda,cpu
    manifest runtime test/e2e/temporal tools/benchmark/temporal_benchmark.cpp \
      tools/benchmark/an5d_stencils.hpp </dev/null
    ;;
esac
# The runtime's tuning cache reads its JSON with nlohmann-json, which the GPU
# machine lacks: its headers go beside the runtime's (after stencilc ran, so
# that stencilc read the installed ones as system headers).
json_hpp=$(echo '#include <nlohmann/json.hpp>' | "${CXX:-c++}" -std=c++17 -x c++ -fsyntax-only -H - 2>&1 |
  sed -n 's/^\. //p' | head -n 1)
if [[ ! -f $json_hpp ]]; then
  echo "make_bundle: nlohmann/json.hpp not found (install nlohmann-json3-dev)" >&2
  exit 1
fi
if [[ $mode == differential || $mode == steps ]]; then
  cp -r "$(dirname "$json_hpp")" "$out/include/"
else
  cp -r "$(dirname "$json_hpp")" "$out/runtime/include/"
fi
cp "$root/tools/$runner" "$root/tools/gpu_common.sh" "$out/"
if [[ $mode != differential && $mode != steps ]]; then
  cp "$root/tools/copy_bandwidth.cu" "$out/"
fi
echo "make_bundle: wrote $out ($(du -sh "$out" | cut -f1))"
