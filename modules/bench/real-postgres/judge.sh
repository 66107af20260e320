#!/usr/bin/env bash
# The judgement of issue 22 in one command: does pg-commit predict a real PostgreSQL from the inputs alone?
#   1. measure-inputs.sh: pg-commit's inputs on this machine (pg_test_fsync, synchronous_commit=off at every client
#      count with the CPU it used, nproc, tlogsim calibrate-host), on both cores and on core 0 alone (taskset -c 0),
#      pg_test_fsync and calibrate-host pinned to each core set as the server is;
#   2. measure-curve.sh --inputs ... --model: the predictions written FIRST (predictions.tsv: pg-commit with those
#      inputs and host=profile:<inputs>/host-cpus-<set>.conf), then the synchronous_commit=on curve at 1, 2, 4, ... 64
#      clients, measured once on each core set;
#   3. the table: prediction vs measured and the error per client count, and the verdict (every point within 30%).
# Nothing measured in step 2 goes back into a model. The machine must be quiet: judge.sh refuses to start while the
# 1-minute load average is at or above --max-load (default 3) unless --anyway, holds --lock (default
# /work/locks/bench when it exists) for the whole run, waits for quiet before every figure (--wait-quiet, per cent of
# the cores others keep busy, default 10) and records the load beside every figure (raw.tsv of each step).
#
#   modules/bench/real-postgres/judge.sh [--seconds 20] [--repeat 3] [--wait-quiet 10] [--max-load 3] [--anyway]
#                                        [--lock FILE] [--out DIR]
#
# Writes DIR (default ./data/real-postgres-results/judge-<time>): inputs/ (measure-inputs.sh's), curve/
# (measure-curve.sh's: predictions.tsv, raw.tsv, curve.md) and judgement.md (the table below). Exit 0 when every point
# is within 30%, 1 when one is not, 2 on bad usage or a busy machine.
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
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --wait-quiet) quiet="$2"; shift 2 ;;
    --max-load) max_load="$2"; shift 2 ;;
    --anyway) anyway=true; shift ;;
    --lock) lock="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "judge: unknown option '$1'; allowed: --seconds, --repeat, --wait-quiet, --max-load, --anyway, --lock," \
      "--out" >&2; exit 2 ;;
  esac
done
for n in "$seconds" "$repeat" "$quiet"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "judge: --seconds, --repeat, --wait-quiet: a whole number, got '$n'" >&2; exit 2; }
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

"$here/measure-inputs.sh" --seconds "$seconds" --repeat "$repeat" --off-curve --wait-quiet "$quiet" --out "$out/inputs"
"$here/measure-curve.sh" --inputs "$out/inputs" --model --seconds "$seconds" --repeat "$repeat" \
  --wait-quiet "$quiet" --out "$out/curve" >/dev/null

# prediction vs measured: the model's column of predictions.tsv against the curve's medians (raw.tsv)
python3 - "$out" "$started" <<'PY' | tee "$out/judgement.md"
import csv, statistics, sys
out, started = sys.argv[1:3]
pred = {}
for line in open(f"{out}/curve/predictions.tsv"):
    if line.startswith("#"): continue
    col, cpus, c, p = line.rstrip("\n").split("\t")
    if col == "model" and p: pred[(cpus, int(c))] = float(p)
runs = {}
loads = {}
for r in csv.DictReader(open(f"{out}/curve/raw.tsv"), delimiter="\t"):
    k = (r["cpus"], int(r["clients"]))
    runs.setdefault(k, []).append(float(r["tps"]))
    loads.setdefault(k, []).extend([float(r["load_before"]), float(r["load_after"])])
print(f"# issue 22, judged: pg-commit with host costs against PostgreSQL, synchronous_commit=on")
print(f"\nstarted {started}; inputs {out}/inputs, curve {out}/curve (predictions made before the curve)\n")
print("| cores (taskset) | clients | measured TPS (median, min-max) | predicted TPS | error | load min-max |")
print("| --- | --- | --- | --- | --- | --- |")
worst, misses = 0.0, 0
for (cpus, c) in sorted(runs, key=lambda k: (-len(k[0]), k[0], k[1])):
    t = statistics.median(runs[(cpus, c)])
    p = pred.get((cpus, c))
    err = (p / t - 1) * 100 if p else float("nan")
    if p is None or abs(err) > 30: misses += 1
    worst = max(worst, abs(err)) if p else worst
    print(f"| {cpus} | {c} | {t:,.0f} ({min(runs[(cpus, c)]):,.0f}-{max(runs[(cpus, c)]):,.0f}) | "
          + (f"{p:,.0f} | {err:+.1f}% |" if p else "- | - |") + f" {min(loads[(cpus, c)])}-{max(loads[(cpus, c)])} |")
print(f"\nverdict: {'every point within 30%' if misses == 0 else f'{misses} point(s) outside 30%'}"
      f" (worst {worst:.1f}%)")
# how steady the inputs were: a prediction is only as good as its inputs, and on a shared or throttled VM the
# repetitions of one input can differ by more than the 30% the verdict allows
unsteady = []
fs = {}
for r in csv.DictReader(open(f"{out}/inputs/fsync.tsv"), delimiter="\t"):
    fs.setdefault(r.get("cpus", "-"), []).append(float(r["fdatasync_us"]))
for cpus, v in fs.items():
    if min(v) > 0 and max(v) / min(v) > 1.3:
        unsteady.append(f"fsyncUs on cores {cpus}: {min(v):.0f}-{max(v):.0f} us")
cpu = {}
for r in csv.DictReader(open(f"{out}/inputs/raw.tsv"), delimiter="\t"):
    if r["clients"] == "64" and int(r["transactions"]) > 0:
        cpu.setdefault(r["cpus"], []).append((float(r["server_cpu_s"]) + float(r["pgbench_cpu_s"]))
                                             / int(r["transactions"]) * 1e6)
for cpus, v in cpu.items():
    if min(v) > 0 and max(v) / min(v) > 1.3:
        unsteady.append(f"cpuPerTxnUs (64 clients) on cores {cpus}: {min(v):.1f}-{max(v):.1f} us")
if unsteady:
    print("\ninputs unsteady (their repetitions differ by more than 30%; the medians were used, and the verdict says as"
          " much about this machine's drift as about the model): " + "; ".join(unsteady))
sys.exit(1 if misses else 0)
PY
