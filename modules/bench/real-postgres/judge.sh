#!/usr/bin/env bash
# The judgement of issue 22 in one command: does pg-commit predict a real PostgreSQL from the inputs alone?
# For each core set (--cpus, default both cores, then core 0 alone: taskset -c), one after the other:
#   1. measure-inputs.sh --cpus SET: pg-commit's inputs on this machine (pg_test_fsync, synchronous_commit=off at every
#      client count with the CPU it used, nproc, tlogsim calibrate-host), pg_test_fsync and calibrate-host pinned to
#      the core set as the server is;
#   2. measure-curve.sh --cpus SET --inputs ... --model: the predictions written FIRST (predictions.tsv: pg-commit with
#      those inputs and host=profile:<inputs>/host-cpus-<set>.conf), then the synchronous_commit=on curve at 1, 2, 4,
#      ... 64 clients;
# then 3. the table: prediction vs measured and the error per client count, and the verdict (every point within 30%).
# Each set's inputs are measured right before its own curve (this VM drifts within minutes). Nothing measured in
# step 2 goes back into a model. The machine must be quiet: judge.sh refuses to start while the 1-minute load average
# is at or above --max-load (default 3) unless --anyway, holds --lock (default /work/locks/bench when it exists) for
# the whole run, waits for quiet before every figure (--wait-quiet, per cent of the cores others keep busy, default
# 10) and records the load beside every figure (raw.tsv of each step).
#
#   modules/bench/real-postgres/judge.sh [--cpus 0,1] [--cpus 0] [--seconds 20] [--repeat 3] [--wait-quiet 10]
#                                        [--max-load 3] [--anyway] [--lock FILE] [--out DIR]
#
# Writes DIR (default ./data/real-postgres-results/judge-<time>): inputs-SET/ (measure-inputs.sh's), curve-SET/
# (measure-curve.sh's: predictions.tsv, raw.tsv, curve.md) for each core set, and judgement.md (the table below).
# Exit 0 when every point is within 30%, 1 when one is not, 2 on bad usage or a busy machine, 3 when a measurement
# failed (no verdict).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
given=("$@")
seconds=20
repeat=3
quiet=10
max_load=3
anyway=false
lock=""
[ -d /work/locks ] && lock=/work/locks/bench
out=""
cpusets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cpus) cpusets+=("$2"); shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --wait-quiet) quiet="$2"; shift 2 ;;
    --max-load) max_load="$2"; shift 2 ;;
    --anyway) anyway=true; shift ;;
    --lock) lock="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "judge: unknown option '$1'; allowed: --cpus, --seconds, --repeat, --wait-quiet, --max-load, --anyway, --lock," \
      "--out" >&2; exit 2 ;;
  esac
done
for n in "$seconds" "$repeat" "$quiet"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "judge: --seconds, --repeat, --wait-quiet: a whole number, got '$n'" >&2; exit 2; }
done
[ ${#cpusets[@]} -gt 0 ] || cpusets=("0,1" "0")
mapfile -t cpusets < <(printf '%s\n' "${cpusets[@]}" | awk '!seen[$0]++') # each set once
for cpus in "${cpusets[@]}"; do
  [[ "$cpus" =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "judge: --cpus: a list of core numbers (0,1), got '$cpus'" >&2; exit 2; }
done
command -v jq >/dev/null || { echo "judge: needs jq (apt-get install jq)" >&2; exit 2; }
load="$(cut -d' ' -f1 /proc/loadavg)"
if ! $anyway && awk -v l="$load" -v m="$max_load" 'BEGIN {exit !(l >= m)}'; then
  echo "judge: load average $load >= $max_load: the machine is too busy for a judged run (--anyway runs it regardless," \
    "with the load recorded)" >&2
  exit 2
fi
out="${out:-$root/data/real-postgres-results/judge-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
# the whole run under one lock (the steps' own per-figure locking is then off: it would wait for this one)
if [ -n "$lock" ] && [ -z "${JUDGE_LOCKED:-}" ]; then
  echo "judge: waiting for $lock ..." >&2
  JUDGE_LOCKED=1 exec flock "$lock" "$0" "${given[@]}" --out "$out"
fi
unset REAL_PG_LOCK
started="$(date -u +%Y-%m-%dT%H:%M:%SZ) (load $(cut -d' ' -f1-3 /proc/loadavg))"

# one core set after the other, its inputs right before its curve: this VM's figures drift within minutes (the same
# 64-client run gave 77 and 157 us per transaction 10 minutes apart), so inputs taken for both sets before both curves
# were on average twice as old as the curve they predicted
for cpus in "${cpusets[@]}"; do
  # a measurement that fails is not a verdict on the model: exit 3, not 1
  "$here/measure-inputs.sh" --cpus "$cpus" --seconds "$seconds" --repeat "$repeat" --off-curve --wait-quiet "$quiet" \
    --out "$out/inputs-$cpus" || { echo "judge: measure-inputs.sh failed on cores $cpus: no verdict" >&2; exit 3; }
  "$here/measure-curve.sh" --cpus "$cpus" --inputs "$out/inputs-$cpus" --model --seconds "$seconds" --repeat "$repeat" \
    --wait-quiet "$quiet" --out "$out/curve-$cpus" >/dev/null ||
    { echo "judge: measure-curve.sh failed on cores $cpus: no verdict" >&2; exit 3; }
done

# prediction vs measured: the model's column of predictions.tsv against the curve's medians (raw.tsv)
python3 - "$out" "$started" "${cpusets[@]}" <<'PY' | tee "$out/judgement.md"
import csv, statistics, sys
out, started, sets = sys.argv[1], sys.argv[2], sys.argv[3:]
def rows(step, name):
    for cpus in sets:
        yield from csv.DictReader(open(f"{out}/{step}-{cpus}/{name}"), delimiter="\t")
pred, beside = {}, {}  # the judged model; beside it, not judged, the same with one CPU figure for every count
for cpus in sets:
    for line in open(f"{out}/curve-{cpus}/predictions.tsv"):
        if line.startswith("#"): continue
        col, cs, c, p = line.rstrip("\n").split("\t")
        v = float(p) if p and p != "null" else None
        if col == "model": pred[(cs, int(c))] = v
        if col == "model-one-cpu": beside[(cs, int(c))] = v
runs = {}
loads = {}
for r in rows("curve", "raw.tsv"):
    k = (r["cpus"], int(r["clients"]))
    runs.setdefault(k, []).append(float(r["tps"]))
    loads.setdefault(k, []).extend([float(r["load_before"]), float(r["load_after"])])
print(f"# issue 22, judged: pg-commit with host costs against PostgreSQL, synchronous_commit=on")
print(f"\nstarted {started}; per core set, inputs {out}/inputs-SET then curve {out}/curve-SET (predictions made before"
      " the curve)\n")
print("judged column: model (beside it, not judged: model-one-cpu, cpuPerTxnUs at every client count)\n")
print("| cores (taskset) | clients | measured TPS (median, min-max) | predicted TPS | error | load min-max |"
      " model-one-cpu TPS | error |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
worst, misses = 0.0, 0
for (cpus, c) in sorted(runs, key=lambda k: (-len(k[0]), k[0], k[1])):
    t = statistics.median(runs[(cpus, c)])
    p = pred.get((cpus, c))
    err = (p / t - 1) * 100 if p else float("nan")
    if not p or abs(err) > 30: misses += 1  # no prediction (or 0) is a miss
    worst = max(worst, abs(err)) if p else worst
    print(f"| {cpus} | {c} | {t:,.0f} ({min(runs[(cpus, c)]):,.0f}-{max(runs[(cpus, c)]):,.0f}) | "
          + (f"{p:,.0f} | {err:+.1f}% |" if p else "- | - |") + f" {min(loads[(cpus, c)])}-{max(loads[(cpus, c)])} |"
          + (f" {beside[(cpus, c)]:,.0f} | {(beside[(cpus, c)] / t - 1) * 100:+.1f}% |" if beside.get((cpus, c))
             else " - | - |"))
print(f"\nverdict: {'every point within 30%' if misses == 0 else f'{misses} point(s) outside 30%'}"
      f" (worst {worst:.1f}%)")
# how steady the inputs were: a prediction is only as good as its inputs, and on a shared or throttled VM the
# repetitions of one input can differ by more than the 30% the verdict allows
unsteady = []
fs = {}
for r in rows("inputs", "fsync.tsv"):
    fs.setdefault(r.get("cpus", "-"), []).append(float(r["fdatasync_us"]))
for cpus, v in fs.items():
    if min(v) > 0 and max(v) / min(v) > 1.3:
        unsteady.append(f"fsyncUs on cores {cpus}: {min(v):.0f}-{max(v):.0f} us")
cpu = {}
for r in rows("inputs", "raw.tsv"):
    if r["clients"] in ("1", "64") and int(r["transactions"] or 0) > 0:  # cpuPerTxnUsOneClient and cpuPerTxnUs
        cpu.setdefault((r["cpus"], r["clients"]), []).append((float(r["server_cpu_s"]) + float(r["pgbench_cpu_s"]))
                                             / int(r["transactions"]) * 1e6)
for (cpus, c), v in cpu.items():
    if min(v) > 0 and max(v) / min(v) > 1.3:
        unsteady.append(f"CPU per transaction ({c} client{'s' if c != '1' else ''}, off) on cores {cpus}:"
                        f" {min(v):.1f}-{max(v):.1f} us")
if unsteady:
    print("\ninputs unsteady (their repetitions differ by more than 30%; the medians were used, and the verdict says as"
          " much about this machine's drift as about the model): " + "; ".join(unsteady))
sys.exit(1 if misses else 0)
PY
