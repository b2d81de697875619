#!/usr/bin/env bash
# measure_compile_time.sh - how long stencilc takes per example file: the
# median wall-clock and CPU (user + sys) time of RUNS runs, all outputs
# (--emit=all) written to a temporary directory.
#
#   tools/measure_compile_time.sh [BUILD_DIR]      (default: <repo>/build)
# Environment: RUNS (default 11).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
stencilc="$build/compiler/tools/stencilc/stencilc"
runs=${RUNS:-11}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[[ -x /usr/bin/time ]] || { echo "measure_compile_time: needs GNU time (apt-get install time)" >&2; exit 1; }
[[ -x $stencilc ]] || { echo "measure_compile_time: no stencilc at $stencilc" >&2; exit 1; }
echo "stencilc: $("$stencilc" --version | head -n 1); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
# The MPI example includes <mpi.h>: give stencilc the MPI compiler's include
# directories, as its CMake build does.
# shellcheck disable=SC2207 # the flags are separate words
mpi_flags=($(mpicxx --showme:incdirs 2>/dev/null | tr ' ' '\n' | sed 's/^/-I/'))
printf '%-44s %10s %10s\n' "file" "wall [s]" "cpu [s]"
for file in "$root"/dsl-examples/*/*.cpp; do
  walls=() cpus=()
  for ((r = 0; r < runs; ++r)); do
    if ! /usr/bin/time -o "$out/time" -f '%e %U %S' "$stencilc" "$file" --emit=all -o "$out" \
      -- -I "$root/runtime/include" "${mpi_flags[@]}" >"$out/log" 2>&1; then
      cat "$out/log" >&2
      echo "measure_compile_time: stencilc failed on $file" >&2
      exit 1
    fi
    read -r wall cpu < <(awk '{ print $1, $2 + $3 }' "$out/time")
    walls+=("$wall") cpus+=("$cpu")
  done
  median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  printf '%-44s %10s %10s\n' "${file#"$root"/}" "$(median "${walls[@]}")" "$(median "${cpus[@]}")"
done
