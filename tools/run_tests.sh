#!/usr/bin/env bash
# run_tests.sh - the whole test suite from a fresh machine: bootstrap,
# configure, build, ctest. Prints ctest's summary line last; exits non-zero
# when anything fails.
#
# Environment:
#   STENCILC_BUILD_DIR  build directory (default: <repo>/build)
#   STENCILC_JOBS       parallel build jobs and tests (default: number of cores)
#   STENCILC_CMAKE_ARGS extra configure arguments, e.g. "-DSTENCILC_ENABLE_CUDA=OFF"
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}
jobs=${STENCILC_JOBS:-$(nproc)}

"$root/tools/bootstrap.sh"

# shellcheck disable=SC2086 # STENCILC_CMAKE_ARGS is a list of arguments
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${STENCILC_CMAKE_ARGS:-}
cmake --build "$build" --parallel "$jobs"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
(cd "$build" && ctest --output-on-failure --parallel "$jobs") 2>&1 | tee "$log" || status=$?
summary=$(grep -E '[0-9]+% tests passed' "$log" | tail -n 1 || true)
echo
echo "run_tests: ${summary:-no ctest summary (ctest failed to run)}"
if [[ $status -ne 0 || -z $summary ]]; then
  exit 1
fi
