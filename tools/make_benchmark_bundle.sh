#!/usr/bin/env bash
# make_benchmark_bundle.sh - prepares the single-GPU benchmark for a GPU
# machine without Clang 16: runs the built stencilc on
# tools/benchmark/benchmark.cpp and collects, in one folder, the program,
# its generated CUDA code, the CPU benchmark (tools/benchmark/cpu_benchmark.cpp)
# with its generated OpenMP code, the runtime headers (with nlohmann-json's,
# which the runtime's tuning cache needs), the copy-bandwidth probe and
# tools/benchmark.sh.
#
#   tools/make_benchmark_bundle.sh [BUILD_DIR] [OUT_DIR]
#     BUILD_DIR  a configured and built tree (default: <repo>/build)
#     OUT_DIR    the bundle (default: BUILD_DIR/bench-bundle, git-ignored with
#                the build tree), replaced if present
#
# On the GPU machine: bash <bundle>/benchmark.sh <bundle>   (writes to $OUT
# when set, else <bundle>/out). Then here: tools/plot_benchmark.py <csv> <png>.
# Default engine against the tuned best, and the CPU benchmark, in a few
# minutes: SKIP_VERIFY=1 SKIP_CACHE_DEMO=1 bash <bundle>/benchmark.sh <bundle>.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
out=${2:-$build/bench-bundle}
stencilc="$build/compiler/tools/stencilc/stencilc"

if [[ ! -x $stencilc ]]; then
  echo "make_benchmark_bundle: no stencilc at $stencilc: build it first (cmake --build $build --target stencilc)" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out/runtime" "$out/gen"
cp -r "$root/runtime/include" "$out/runtime/include"
cp "$root/tools/benchmark/benchmark.cpp" "$out/benchmark.cpp"
cp "$root/tools/benchmark/cpu_benchmark.cpp" "$out/cpu_benchmark.cpp"
cp "$root/tools/benchmark.sh" "$out/benchmark.sh"
cp "$root/tools/copy_bandwidth.cu" "$out/copy_bandwidth.cu"
echo "make_benchmark_bundle: stencilc benchmark.cpp"
"$stencilc" "$out/benchmark.cpp" -o "$out/gen" --emit=cuda -- -std=c++17 -I "$out/runtime/include"
echo "make_benchmark_bundle: stencilc cpu_benchmark.cpp"
"$stencilc" "$out/cpu_benchmark.cpp" -o "$out/gen" --emit=cpu -- -std=c++17 -I "$out/runtime/include"
# The runtime's tuning cache reads its JSON with nlohmann-json, which the GPU
# machine lacks: its headers go beside the runtime's (after stencilc ran, so
# that stencilc read the installed ones as system headers).
json_hpp=$(echo '#include <nlohmann/json.hpp>' | "${CXX:-c++}" -std=c++17 -x c++ -fsyntax-only -H - 2>&1 |
  sed -n 's/^\. //p' | head -n 1)
if [[ ! -f $json_hpp ]]; then
  echo "make_benchmark_bundle: nlohmann/json.hpp not found (install nlohmann-json3-dev)" >&2
  exit 1
fi
cp -r "$(dirname "$json_hpp")" "$out/runtime/include/"
{
  echo "made by: tools/make_benchmark_bundle.sh"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (with local changes)')"
  echo "stencilc: $("$stencilc" --version 2>&1 | head -n 1)"
} >"$out/MANIFEST"
echo "make_benchmark_bundle: wrote $out ($(du -sh "$out" | cut -f1))"
