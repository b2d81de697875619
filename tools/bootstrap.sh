#!/usr/bin/env bash
# bootstrap.sh - installs the Debian 12 packages stencilc needs to build and test.
#
# Idempotent: when every package is installed already it only says so (no apt).
# Runs as root, or through sudo otherwise; never asks questions.
# CUDA is not installed here: it is optional (/usr/local/cuda on the build
# machines); without nvcc the CUDA backend is simply not compiled.
set -euo pipefail

packages=(
  # the compiler: Clang 16 LibTooling, LLVM 16, and the tools lit tests use
  libclang-16-dev clang-16 llvm-16-dev llvm-16-tools
  # libraries of the compiler and the runtime
  libfmt-dev nlohmann-json3-dev libgtest-dev libopenmpi-dev openmpi-bin
  # the build and the test driver (lit is a python script)
  cmake ninja-build g++ make python3
  # the runtime API reference (docs/Doxyfile, ctest docs.doxygen)
  doxygen
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "bootstrap: all ${#packages[@]} packages are installed"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "bootstrap: need root (or sudo) to install: ${missing[*]}" >&2
  exit 1
fi

echo "bootstrap: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "bootstrap: done"
