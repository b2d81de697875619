#!/usr/bin/env bash
# check_scaling_model.sh STENCILC SOURCE_DIR WORK: tools/scaling_model.py on
# the dycore's IR and plan (made by STENCILC) and each four-GPU log of
# docs/performance.md: every measured multi-GPU run within 10% of the model;
# and with a link a hundredth as fast the same log must fail it.
set -euo pipefail
stencilc=$1 src=$2 work=$3
mkdir -p "$work"
flags=(-- -std=c++17 -I "$src/runtime/include" -I "$src/dsl-examples/dycore")
"$stencilc" "$src/dsl-examples/dycore/dycore.cpp" --emit=ir -o - "${flags[@]}" >"$work/ir.json"
"$stencilc" "$src/dsl-examples/dycore/dycore.cpp" --emit=plan -o - "${flags[@]}" >"$work/plan.txt"
for log in "$src"/docs/performance-h200x4-dycore-mpi.txt "$src"/docs/performance-h200x4-scaling-dycore.txt; do
  python3 "$src/tools/scaling_model.py" "$work/ir.json" "$work/plan.txt" "$log"
  if python3 "$src/tools/scaling_model.py" "$work/ir.json" "$work/plan.txt" "$log" \
    --link-gbs 3.83 >"$work/slow.txt"; then
    echo "FAIL: a link a hundredth as fast still matched $log"
    exit 1
  fi
  grep "worst error" "$work/slow.txt"
done
echo "scaling model: PASS"
