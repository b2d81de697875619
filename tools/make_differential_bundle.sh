#!/usr/bin/env bash
# make_differential_bundle.sh - the GPU half of the random differential test,
# part one (on a build machine, which has stencilc): generates the programs,
# runs stencilc on them (--emit=cpu,cuda) and collects them, the harness, the
# runtime headers and differential_gpu.sh in one folder for a GPU machine.
#
#   tools/make_differential_bundle.sh [BUILD_DIR] [OUT_DIR] [PROGRAMS] [STENCILS] [SEED]
#     defaults: <repo>/build, BUILD_DIR/differential-bundle, 25, 12, 1
#
# On the GPU machine: bash OUT_DIR/differential_gpu.sh OUT_DIR
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
out=${2:-$build/differential-bundle}
stencilc="$build/compiler/tools/stencilc/stencilc"
if [[ ! -x $stencilc ]]; then
  echo "make_differential_bundle: no stencilc at $stencilc: build it first" >&2
  exit 1
fi
python3 "$root/test/differential/run_differential.py" --stencilc "$stencilc" \
  --runtime-include "$root/runtime/include" --programs "${3:-25}" --stencils "${4:-12}" \
  --seed "${5:-1}" --jobs "${STENCILC_JOBS:-2}" --bundle "$out"
echo "commit $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)" >>"$out/MANIFEST"
echo "make_differential_bundle: wrote $out ($(du -sh "$out" | cut -f1))"
