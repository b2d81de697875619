#!/bin/bash
# run.sh STENCILC FILE [STRATEGY]: stencilc --emit=cpu, g++, run (from the repo root's view).
set -e
here=$(cd "$(dirname "$0")" && pwd); rt="$here/../../../runtime/include"
out=$(mktemp -d); f=$(basename "$2" .cpp)
"$1" "$2" -o "$out" --emit=cpu ${3:+--step-strategy=$3} -- -std=c++17 -I "$rt" -I "$here/.."
g++ -std=c++17 -O2 -fopenmp -frounding-math -I "$rt" -I "$here/.." "$2" "$out/$f.stencil.cpp" -o "$out/prog"
OMP_NUM_THREADS=2 "$out/prog"
