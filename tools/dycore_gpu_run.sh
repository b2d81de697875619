#!/usr/bin/env bash
# dycore_gpu_run.sh - the dycore's time step on one GPU, from a bundle made by
# `tools/make_bundle.sh dycore`:
#
#   bash dycore_gpu_run.sh BUNDLE [OUT_DIR]
#
# 1. prints the machine; builds the dycore three times: with stencilc's plan
#    of its stage (gen/), with every group it may fuse fused by recalculation
#    (gen-recompute/, --step-strategy=recompute) and staged on chip
#    (gen-staged/, --step-strategy=staged); measures the device-to-device
#    copy ceiling;
# 2. --check against the host reference on the GPU at two sizes (one not a
#    multiple of any block), every build, as planned and call by call, and
#    on two ranks sharing the GPU (the staged build split along x and y; the
#    plan's build measuring each fused group's ways, STENCIL_STEP_PLAN=timed);
# 3. at SIZE (default 512,512,64): the time of a step as planned and call by
#    call (STENCIL_STEP_PLAN=multi-kernel), then each round of a stage timed
#    alone (--rounds), in every build; with each fused group's ways measured
#    (STENCIL_STEP_PLAN=timed), and again with the choices from the cache;
# 4. the report: the plan against call by call; against the step's
#    compulsory traffic (step_traffic.txt: every input read once and every
#    output written once per stage) at the copy bandwidth of this run; and
#    for each group the planner may fuse, recomputed and staged against its
#    stencils alone, beside the cost model's prediction (plan-recompute.txt)
#    and choice (the plan's build).
# Everything goes to stdout and OUT_DIR/dycore_gpu_run.log.
# Environment: CUDA_ARCH (default sm_90), NVCC, SIZE, STEPS (timed steps,
# default 20).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=gpu_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu_common.sh"

gpu_start_runner dycore_gpu_run "${1:?usage: dycore_gpu_run.sh BUNDLE [OUT_DIR]}" "${2:-}"
size=${SIZE:-512,512,64}
steps=${STEPS:-20}

echo "== machine"
gpu_machine
gpu_mpi_toolchain

echo "== build"
gpu_build_dycore gen:dycore gen-recompute:dycore-recompute gen-staged:dycore-staged
gpu_copy_bandwidth "$work/copy.txt"

mpirun=(mpirun --bind-to none -x STENCIL_STEP_PLAN -x OMP_NUM_THREADS -x STENCIL_TUNING_CACHE)
# Measured choices go to a cache of this run's own.
export STENCIL_TUNING_CACHE="$work/tuning.json"
[[ $(id -u) == 0 ]] && mpirun+=(--allow-run-as-root)
export OMP_NUM_THREADS=4
run() { # run RANKS LOG PROGRAM ARGS...: prints and keeps its output in $work/LOG
  local ranks=$1 log=$2
  shift 2
  echo "-- np $ranks${STENCIL_STEP_PLAN:+ STENCIL_STEP_PLAN=$STENCIL_STEP_PLAN}: $(basename "$1") ${*:2}"
  timeout 300 "${mpirun[@]}" -np "$ranks" "$@" 2>&1 | grep -v '^\s*$' | tee "$work/$log"
  grep -q "FAIL" "$work/$log" && gpu_fail
}

echo "== --check on the GPU against the host reference"
for build in dycore dycore-recompute dycore-staged; do
  for plan in "" multi-kernel; do
    export STENCIL_STEP_PLAN=$plan
    run 1 check.log "$work/$build" --backend=cuda --check
    run 1 check.log "$work/$build" --backend=cuda --check --size=67,45,19 --steps=5
  done
done
export STENCIL_STEP_PLAN=
run 2 check.log "$work/dycore" --backend=cuda --check --procs=2,1,1
run 2 check.log "$work/dycore-staged" --backend=cuda --check --procs=2,1,1
run 2 check.log "$work/dycore-staged" --backend=cuda --check --procs=1,2,1 --size=67,45,19 --steps=5
# Every way of each fused group (planned, its alternative, apart) in turn.
export STENCIL_STEP_PLAN=timed
run 2 check.log "$work/dycore" --backend=cuda --check --procs=2,1,1 --steps=12

echo "== a step at $size: as planned, call by call, and each round alone"
export STENCIL_STEP_PLAN=
run 1 plan.log "$work/dycore" --backend=cuda --size="$size" --steps="$steps" --rounds
run 1 fused.log "$work/dycore-recompute" --backend=cuda --size="$size" --steps="$steps" --rounds
run 1 staged.log "$work/dycore-staged" --backend=cuda --size="$size" --steps="$steps" --rounds
export STENCIL_STEP_PLAN=multi-kernel
run 1 multi.log "$work/dycore" --backend=cuda --size="$size" --steps="$steps" --rounds
# Each fused group measured against its calls alone in the first steps
# (three runs each way), then the faster kept: over more steps, so that the
# measuring steps weigh little.
export STENCIL_STEP_PLAN=timed
run 1 timed.log "$work/dycore" --backend=cuda --size="$size" --steps=$((steps * 3))
# Again: the choices come from the tuning cache, nothing is measured.
run 1 cached.log "$work/dycore" --backend=cuda --size="$size" --steps="$steps"
export STENCIL_STEP_PLAN=

echo "== report"
gbs=$(gpu_copy_gbs <"$work/copy.txt")
step_ms() { sed -n 's/^time per step: \([0-9.]*\) ms.*/\1/p' "$work/$1" | head -n 1; }
plan=$(step_ms plan.log) multi=$(step_ms multi.log) fused=$(step_ms fused.log)
timed=$(step_ms timed.log) staged=$(step_ms staged.log) cached=$(step_ms cached.log)
bytes=$(sed -n 's/^bytes per point: //p' "$bundle/step_traffic.txt")
stored=$(sed -n 's/^bytes per point with the scratch arrays stored: //p' "$bundle/step_traffic.txt")
awk -v plan="$plan" -v multi="$multi" -v fused="$fused" -v staged="$staged" -v timed="$timed" -v cached="$cached" -v gbs="$gbs" -v bytes="$bytes" -v stored="$stored" \
  -v size="$size" 'BEGIN {
  split(size, n, ","); points = n[1] * n[2] * n[3]
  if (plan == "" || multi == "" || gbs == "" || bytes == "") { print "report: numbers missing"; exit }
  compulsory = 3 * bytes * points / (gbs * 1e9) * 1e3   # ms per step: three stages
  printf "step (ms): plan %.4f, call by call %.4f, every group recomputed %s, every group staged %s\n", plan, multi, fused, staged
  printf "plan vs call by call: %.3fx faster\n", multi / plan
  if (fused != "") printf "every group recomputed vs call by call: %.3fx faster; vs compulsory below\n", multi / fused
  if (staged != "") printf "every group staged vs call by call: %.3fx faster\n", multi / staged
  if (timed != "") printf "plan with measured groups (STENCIL_STEP_PLAN=timed): %.4f ms, %.3fx faster than call by call\n", timed, multi / timed
  if (cached != "") printf "plan with the choices kept in the tuning cache: %.4f ms, %.3fx faster than call by call, %.2fx the compulsory traffic\n", cached, multi / cached, cached / (3 * bytes * points / (gbs * 1e9) * 1e3)
  printf "compulsory traffic: %d bytes per point per stage x 3 stages x %d points at %.1f GB/s = %.4f ms\n", bytes, points, gbs, compulsory
  printf "plan vs compulsory: %.2fx; call by call vs compulsory: %.2fx\n", plan / compulsory, multi / compulsory
  if (staged != "") printf "every group staged vs compulsory: %.2fx; recomputed: %.2fx\n", staged / compulsory, fused / compulsory
  if (stored != "") {
    # The same with the scratch arrays counted as outputs (a step that does
    # not mark them must write them).
    with = 3 * stored * points / (gbs * 1e9) * 1e3
    printf "compulsory with the scratch arrays stored: %d bytes per point per stage = %.4f ms\n", stored, with
    printf "against it: plan %.2fx, call by call %.2fx%s\n", plan / with, multi / with, cached != "" ? sprintf(", kept choices %.2fx", cached / with) : ""
  }
}'
# Per group the planner may fuse: its round recomputed (every-group build)
# and staged (staged build) against the sum of its stencils' rounds (call by
# call); the model's prediction, from the staged build's plan (cost, then
# recompute and multi-kernel costs), and what the plan's own build chose.
awk '
  { file = FILENAME == ARGV[1] ? 1 : FILENAME == ARGV[2] ? 2 : FILENAME == ARGV[3] ? 3 : FILENAME == ARGV[4] ? 4 : 5 }
  function members(line) { sub(/^round: [0-9.]+ ms [a-z]+\(/, "", line); sub(/\) \([0-9]+ runs\)$/, "", line); return line }
  file == 1 && /^round: / { t = $2; sub(/^round: [0-9.]+ ms /, ""); sub(/ \([0-9]+ runs\)$/, ""); alone[$0] = t }
  file == 2 && /^round: [0-9.]+ ms (recompute|together)\(/ {
    name = members($0); fusedt[name] = $2; order[++groups] = name
    kind[name] = $4; sub(/\(.*/, "", kind[name]) }
  file == 3 && /^round: [0-9.]+ ms staged\(/ { stagedt[members($0)] = $2 }
  file == 4 && /^  (staged|recompute|together): / {
    line = $0; costs = ""
    if (match(line, /cost [0-9.e+]+, recompute [0-9.e+]+, multi-kernel [0-9.e+]+/)) {
      split(substr(line, RSTART, RLENGTH), c, /[ ,]+/); staged_c = c[2] + 0; fused_c = c[4] + 0; multi_c = c[6] + 0 }
    else if (match(line, /cost [0-9.e+]+, multi-kernel [0-9.e+]+/)) {
      split(substr(line, RSTART, RLENGTH), c, /[ ,]+/); fused_c = c[2] + 0; staged_c = -1; multi_c = c[4] + 0 }
    fusedway = line ~ /^  together:/ ? "together" : "recompute"
    sub(/^  (staged|recompute|together): /, "", line); sub(/ \(cost.*/, "", line)
    gsub(/[0-9]+ /, "", line); gsub(/ /, ", ", line)
    best = fusedway; best_c = fused_c
    if (staged_c >= 0 && staged_c < fused_c) { best = "staged"; best_c = staged_c }
    model[line] = best_c < multi_c ? best : "alone" }
  file == 5 && /^stage: / { chosen = $0 }
  END {
    right = 0
    for (g = 1; g <= groups; g++) {
      name = order[g]; n = split(name, m, /, /); sum = 0; missing = 0
      for (i = 1; i <= n; i++) { if (m[i] in alone) sum += alone[m[i]]; else missing = 1 }
      if (missing) { printf "group %s: a stencil alone was not timed\n", name; continue }
      best = "alone"; best_t = sum
      if (fusedt[name] != "" && fusedt[name] + 0 < best_t) { best = kind[name]; best_t = fusedt[name] + 0 }
      if (stagedt[name] != "" && stagedt[name] + 0 < best_t) { best = "staged"; best_t = stagedt[name] + 0 }
      picked = index(chosen, kind[name] "(" name ")") ? kind[name] : index(chosen, "staged(" name ")") ? "staged" : "alone"
      predicted = (name in model) ? model[name] : "?"
      right += (predicted == best)
      printf "group (%s): alone %.4f ms, %s %s ms, staged %s ms: fastest %s (%.3fx over alone); model: %s; plan: %s; model %s\n",
        name, sum, kind[name], fusedt[name], stagedt[name] == "" ? "-" : stagedt[name], best, sum / best_t, predicted, picked,
        predicted == best ? "right" : "wrong"
    }
    if (groups) printf "cost model right for %d of %d fusible groups (of alone, fused, staged)\n", right, groups
  }' "$work/multi.log" "$work/fused.log" "$work/staged.log" "$bundle/plan-staged.txt" "$work/plan.log"
# Per group of fused groups the plan runs together in one kernel: its round
# against its parts' rounds in the every-group build (a kernel each), beside
# the model's costs of the two (plan-auto.txt: cost, then apart).
awk '
  FNR == 1 { file++ }
  file == 1 && /^round: [0-9.]+ ms recompute\(/ { t = $2; sub(/^round: [0-9.]+ ms /, ""); sub(/ \([0-9]+ runs\)$/, ""); part[$0] = t }
  file == 2 && /^  together: [0-9]+ parts in one kernel/ {
    match($0, /cost [0-9.e+]+, apart [0-9.e+]+/); split(substr($0, RSTART, RLENGTH), c, /[ ,]+/)
    model[++models] = c[2] + 0 < c[4] + 0 ? "together" : "apart" }
  file == 3 && /^round: [0-9.]+ ms together\(recompute\(/ {
    t = $2; label = $0; sub(/^round: [0-9.]+ ms together\(/, "", label); sub(/\) \([0-9]+ runs\)$/, "", label)
    n = 0; sum = 0; missing = 0; rest = label
    while (match(rest, /recompute\([^)]*\)/)) {
      p = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH); n++
      if (p in part) sum += part[p]; else missing = 1 }
    g++
    if (missing) { printf "together (%d parts): a part was not timed alone\n", n; next }
    best = t + 0 < sum ? "together" : "apart"
    printf "together (%d fused groups): %.4f ms, apart (a kernel each) %.4f ms: fastest %s (%.3fx); model: %s; model %s\n",
      n, t, sum, best, sum / t, model[g], model[g] == best ? "right" : "wrong" }
' "$work/fused.log" "$bundle/plan-auto.txt" "$work/plan.log"
gpu_copy_bandwidth
echo "== done ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
gpu_exit
