#!/usr/bin/env bash
# make_gpu_bundle.sh - prepares the GPU check for a machine without Clang 16:
# runs the built stencilc on every dsl-example and collects, in one folder,
# the sources, the generated code, the runtime headers and gpu_check.sh.
#
#   tools/make_gpu_bundle.sh [BUILD_DIR] [OUT_DIR]
#     BUILD_DIR  a configured and built tree (default: <repo>/build)
#     OUT_DIR    the bundle (default: <repo>/gpu-bundle), replaced if present
#
# Layout of the bundle:
#   <example>/<example>.cpp                   the DSL program (main and stencils)
#   <example>/gen/<example>.stencil.{cu,cpp}  stencilc's CUDA and OpenMP code
#   common/                                   the examples' shared harness
#   runtime/include/                          the runtime headers
#   gpu_check.sh, copy_bandwidth.cu, MANIFEST the check, the copy ceiling, what made the bundle
# On the GPU machine: bash gpu-bundle/gpu_check.sh gpu-bundle
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
out=${2:-$root/gpu-bundle}
stencilc="$build/compiler/tools/stencilc/stencilc"
examples=(diffusion3d heat2d varcoef3d)

if [[ ! -x $stencilc ]]; then
  echo "make_gpu_bundle: no stencilc at $stencilc: build it first (cmake --build $build --target stencilc)" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out/runtime"
cp -r "$root/runtime/include" "$out/runtime/include"
cp -r "$root/dsl-examples/common" "$out/common"
cp "$root/tools/gpu_check.sh" "$out/gpu_check.sh"
cp "$root/tools/copy_bandwidth.cu" "$out/copy_bandwidth.cu"
for example in "${examples[@]}"; do
  mkdir -p "$out/$example/gen"
  cp "$root/dsl-examples/$example/$example.cpp" "$out/$example/"
  echo "make_gpu_bundle: stencilc $example.cpp"
  "$stencilc" "$out/$example/$example.cpp" -o "$out/$example/gen" --emit=cuda,cpu \
    -- -std=c++17 -I "$out/runtime/include"
done
{
  echo "made by: tools/make_gpu_bundle.sh"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (with local changes)')"
  echo "stencilc: $("$stencilc" --version 2>&1 | head -n 1)"
  echo "examples: ${examples[*]}"
} >"$out/MANIFEST"
echo "make_gpu_bundle: wrote $out ($(du -sh "$out" | cut -f1))"
