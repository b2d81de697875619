#!/usr/bin/env bash
# mpi_gpu_bundle.sh - prepares the many-GPU runs for a machine without
# Clang 16: runs the built stencilc on the diffusion3d-mpi example and the
# MPI test and collects, in one folder, the sources, the generated CUDA and
# OpenMP code, the runtime (headers and src/) and mpi_gpu_run.sh.
#
#   tools/mpi_gpu_bundle.sh [BUILD_DIR] [OUT_DIR]
#     BUILD_DIR  a configured and built tree (default: <repo>/build-mpi)
#     OUT_DIR    the bundle (default: BUILD_DIR/mpi-gpu-bundle, git-ignored), replaced
# Then, on a GPU machine with two or more GPUs (the bundle copied there):
#   bash <bundle>/mpi_gpu_run.sh <bundle>
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-mpi}
out=${2:-$build/mpi-gpu-bundle}
stencilc="$build/compiler/tools/stencilc/stencilc"
if [[ ! -x $stencilc ]]; then
  echo "mpi_gpu_bundle: no stencilc at $stencilc: build it first (cmake --build $build --target stencilc)" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out/runtime" "$out/diffusion3d-mpi/gen" "$out/mpi-test/gen"
cp -r "$root/runtime/include" "$root/runtime/src" "$out/runtime/"
cp "$root/tools/mpi_gpu_run.sh" "$root/tools/copy_bandwidth.cu" "$out/"
cp "$root/dsl-examples/diffusion3d-mpi/diffusion3d_mpi.cpp" "$out/diffusion3d-mpi/"
cp "$root/test/mpi/mpi_test.cpp" "$root/test/mpi/mpi_stencils.hpp" "$out/mpi-test/"
mpi_include=$(mpicxx --showme:incdirs 2>/dev/null | tr ' ' '\n' | sed 's/^/-I/' | tr '\n' ' ')
for src in diffusion3d-mpi/diffusion3d_mpi.cpp mpi-test/mpi_test.cpp; do
  echo "mpi_gpu_bundle: stencilc $src"
  # shellcheck disable=SC2086
  "$stencilc" "$out/$src" -o "$out/$(dirname "$src")/gen" --emit=cuda,cpu \
    -- -std=c++17 -I "$out/runtime/include" $mpi_include
done
{
  echo "made by: tools/mpi_gpu_bundle.sh"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet -- runtime test/mpi dsl-examples/diffusion3d-mpi 2>/dev/null || echo ' (with local changes)')"
  echo "stencilc: $("$stencilc" --version 2>&1 | head -n 1)"
} >"$out/MANIFEST"
echo "mpi_gpu_bundle: wrote $out ($(du -sh "$out" | cut -f1))"
