#!/usr/bin/env bash
# THE TEST of the commit path against a real engine (issue 22): the synchronous_commit=on TPS of pgbench -n with a
# one-row INSERT at 1, 2, 4, 8, 16, 32 and 64 clients on a real PostgreSQL 15 of our own (server.sh), for every core
# set given (default: both cores, then core 0 alone; server and pgbench pinned with taskset -c), each point --repeat
# times (median and spread, load average before and after each).
#
# With --inputs DIR (what measure-inputs.sh wrote), pg-commit's prediction from those inputs alone is run FIRST, for
# each core set (`tlogsim run pg-commit` with the set's key=value lines, plus any --set given here), and written down
# before the curve is measured; the table then shows measured, predicted and the error. The curve is never an input:
# nothing here feeds it back into a model. A roundTripUs below 0 (README's recipe on a host where one client is faster
# than saturation) is refused by pg-commit; the prediction then uses 0 and says so.
#
#   modules/bench/real-postgres/measure-curve.sh [--cpus 0,1] [--cpus 0] [--seconds 20] [--repeat 3]
#                                                [--inputs DIR [--set key=value]...] [--out DIR]
#
# Writes DIR (default ./data/real-postgres-results/curve-<time>): raw.tsv, prediction-cpus-<set>/ (the run) and
# curve.md. Needs jq for reading summary.json (apt-get install jq).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/server.sh"
root="$rp_root"
cpusets=()
seconds=20
repeat=3
inputs=""
sets=()
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cpus) cpusets+=("$2"); shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --inputs) inputs="$2"; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "measure-curve: unknown option '$1'; allowed: --cpus, --seconds, --repeat, --inputs, --set, --out" >&2
      exit 2 ;;
  esac
done
[ ${#cpusets[@]} -gt 0 ] || cpusets=("0,1" "0")
for n in "$seconds" "$repeat"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "measure-curve: --seconds, --repeat: a whole number > 0, got '$n'" >&2; exit 2; }
done
if [ -n "$inputs" ]; then
  command -v jq >/dev/null || { echo "measure-curve: --inputs needs jq (apt-get install jq)" >&2; exit 2; }
  for cpus in "${cpusets[@]}"; do
    [ -f "$inputs/inputs-cpus-$cpus.set" ] ||
      { echo "measure-curve: --inputs: $inputs/inputs-cpus-$cpus.set not found (measure-inputs.sh --cpus $cpus writes it)" >&2; exit 2; }
  done
fi
counts=(1 2 4 8 16 32 64)
out="${out:-$root/data/real-postgres-results/curve-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
[ "$(id -u)" = 0 ] && chmod 777 "$out"

# the predictions first, from the inputs alone
declare -A predicted notes
if [ -n "$inputs" ]; then
  for cpus in "${cpusets[@]}"; do
    args=()
    note=""
    while IFS='=' read -r k v; do
      [[ -z "$k" || "$k" == \#* ]] && continue
      if [ "$k" = roundTripUs ] && awk -v r="$v" 'BEGIN {exit !(r < 0)}'; then
        note="roundTripUs $v < 0 refused by pg-commit: predicted with 0"
        v=0
      fi
      args+=(--set "$k=$v")
    done <"$inputs/inputs-cpus-$cpus.set"
    [ -n "$note" ] && rp_say "cores $cpus: $note"
    notes[$cpus]="$note"
    rp_say "cores $cpus: tlogsim run pg-commit ${args[*]} ${sets[*]}"
    "$root/tlogsim" run pg-commit --journal none --out "$out/prediction-cpus-$cpus" "${args[@]}" "${sets[@]}" \
      >"$out/prediction-cpus-$cpus.txt" 2>&1 || { cat "$out/prediction-cpus-$cpus.txt" >&2; exit 1; }
    for c in "${counts[@]}"; do
      predicted[$cpus,$c]="$(jq -r --argjson c "$c" '.sweep[] | select(.clients == $c and .synchronousCommit) | .tps' \
        "$out/prediction-cpus-$cpus/summary.json")"
    done
  done
fi

rp_setup
echo -e "cpus\trep\tclients\tsync\ttps\tlatency_ms\ttransactions\tserver_cpu_s\tpgbench_cpu_s\tload_before\tload_after" >"$out/raw.tsv"
for cpus in "${cpusets[@]}"; do
  rp_start "$cpus"
  for r in $(seq 1 "$repeat"); do
    for c in "${counts[@]}"; do
      line="$(rp_pgbench "$cpus" "$c" "$seconds" on)"
      echo -e "$cpus\t$r\t$c\ton\t${line// /	}" | tee -a "$out/raw.tsv" >&2
    done
  done
done
rp_stop

stats() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) {print "- - -"; exit}
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR]}'; }
pick() { awk -F'\t' -v cpus="$1" -v c="$2" 'NR > 1 && $1 == cpus && $3 == c {print '"$3"'}' "$out/raw.tsv" | stats; }
{
  echo "# synchronous_commit=on curve measured on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}'), pgbench -n -f insert.sql -T $seconds, $repeat repetitions; raw.tsv has every run with its load average."
  [ -n "$inputs" ] && echo "Prediction: tlogsim run pg-commit with $inputs/inputs-cpus-<set>.set ${sets[*]}, made before the measurement."
  echo
  echo "| cores (taskset) | clients | TPS median | TPS min-max | load min-max | predicted TPS | error |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  for cpus in "${cpusets[@]}"; do
    for c in "${counts[@]}"; do
      read -r t t_lo t_hi < <(pick "$cpus" "$c" '$5')
      read -r _ l_lo _ < <(pick "$cpus" "$c" '$10')
      read -r _ _ l_hi < <(pick "$cpus" "$c" '$11')
      p="${predicted[$cpus,$c]:-}"
      if [ -n "$p" ]; then
        e="$(awk -v p="$p" -v t="$t" 'BEGIN {printf "%+.1f%%", (p / t - 1) * 100}')"
        p="$(printf "%.0f" "$p")"
      else
        p="-"; e="-"
      fi
      printf "| %s | %d | %.0f | %.0f-%.0f | %s-%s | %s | %s |\n" "$cpus" "$c" "$t" "$t_lo" "$t_hi" "$l_lo" "$l_hi" "$p" "$e"
    done
    [ -n "${notes[$cpus]:-}" ] && echo "| $cpus | note: ${notes[$cpus]} | | | | | |"
  done
} >"$out/curve.md"
cat "$out/curve.md"
echo "results: $out" >&2
