#!/usr/bin/env bash
# demo.sh - from a fresh machine to a checked diffusion run: bootstrap,
# configure and build stencilc and the diffusion3d example, show what stencilc
# generates for it, then run it on the GPU when there is one (else with the
# generated OpenMP code), checked against the host reference.
#
# Environment:
#   STENCILC_BUILD_DIR  build directory (default: <repo>/build)
#   DEMO_ARGS           arguments for diffusion3d (default: --check)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}

"$root/tools/bootstrap.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
# Only what the demo needs: stencilc and the example (stencilc runs as a build step).
cmake --build "$build" --target stencilc diffusion3d

stencilc="$build/compiler/tools/stencilc/stencilc"
example="$root/dsl-examples/diffusion3d/diffusion3d.cpp"
out="$build/demo"
mkdir -p "$out"
echo
echo "== stencilc $(realpath --relative-to="$root" "$example") -o $(realpath --relative-to="$root" "$out") --emit=all"
"$stencilc" "$example" -o "$out" --emit=all -- -I "$root/runtime/include"
ls -l "$out"
echo
echo "== the generated CUDA kernel (first lines; all of it: $out/diffusion3d.stencil.cu)"
sed -n '1,40p' "$out/diffusion3d.stencil.cu"
echo "..."
echo
echo "== diffusion3d ${DEMO_ARGS:---check}"
# shellcheck disable=SC2086 # DEMO_ARGS is a list of arguments
"$build/dsl-examples/diffusion3d/diffusion3d" ${DEMO_ARGS:---check}
