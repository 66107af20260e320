#!/usr/bin/env bash
# What the journal costs: GCM-1 runs alternating --journal none and h2 (and, with --every, h2 with checkpoints that
# often), each in a fresh JVM as users run them; prints each run's simulated commits per wall second (the simulation's
# own wall time, run.wallSeconds), the process's whole wall time, the checkpoints the journal got, and the journal's
# size per run. Ratios read against runs of the same invocation: the machine's load moves absolute figures.
#
#   modules/bench/journal-cost.sh [--scenario gcm1-100k] [--reps 3] [--every 250ms] [--trace summary|full]
#
# Results go to $TLOGSIM_DATA/bench/journal-<time>/ (default ./data): one directory per run and journal.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
scenario=gcm1-100k
reps=3
every=""
trace=summary
while [ $# -gt 0 ]; do
  case "$1" in
    --scenario) scenario="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --every) every="$2"; shift 2 ;;
    --trace) trace="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "journal-cost: unknown option '$1'; allowed: --scenario, --reps, --every, --trace" >&2; exit 2 ;;
  esac
done
out="${TLOGSIM_DATA:-$root/data}/bench/journal-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
"$root/tlogsim" --version >/dev/null # builds the jar once, outside the timings

variants=(none h2)
[ -n "$every" ] && variants+=("h2-every-$every")
{
  echo "| run | journal | commits/wall s | run.wallSeconds | process wall s | checkpoints | journal bytes added |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
} >"$out/journal.md"
for i in $(seq 1 "$reps"); do
  for v in "${variants[@]}"; do
    data="$out/data-$v"
    opts="-Xss2m -XX:+UseParallelGC -Dtlogsim.journal.trace=$trace"
    journal=h2
    case "$v" in
      none) journal=none ;;
      h2-every-*) opts="$opts -Dtlogsim.journal.checkpoint-every=$every" ;;
    esac
    before=$(stat -c %s "$data/journal/tlogsim.mv.db" 2>/dev/null || echo 0)
    start=$(date +%s.%N)
    TLOGSIM_JAVA_OPTS="$opts" TLOGSIM_DATA="$data" "$root/tlogsim" run "$scenario" --journal "$journal" \
      --out "$out/$v-$i" >"$out/$v-$i.log"
    end=$(date +%s.%N)
    after=$(stat -c %s "$data/journal/tlogsim.mv.db" 2>/dev/null || echo 0)
    # "journal      <id> in the h2 journal, 3 checkpoints (tlogsim runs)", maybe wrapped onto a second line
    checkpoints=$(python3 -c 'import re,sys; m=re.search(r"^journal .*?([\d,]+) checkpoints?", open(sys.argv[1]).read(), re.M|re.S); print(m.group(1) if m else "-")' "$out/$v-$i.log")
    python3 - "$out/$v-$i/summary.json" "$v" "$i" "$start" "$end" "$before" "$after" "${checkpoints:--}" \
      >>"$out/journal.md" <<'P'
import json, sys
s = json.load(open(sys.argv[1])); r = s["run"]
v, i, start, end, before, after, cps = sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), sys.argv[8]
print(f"| {i} | {v} | {r['commitsPerWallSecond']:,.0f} | {r['wallSeconds']:.3f} | {end - start:.2f} | {cps} | {after - before:,} |")
P
  done
done
cat "$out/journal.md"
echo "results: $out"
