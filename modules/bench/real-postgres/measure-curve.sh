#!/usr/bin/env bash
# THE TEST of the commit path against a real engine (issue 22): the synchronous_commit=on TPS of pgbench -n with a
# one-row INSERT at 1, 2, 4, 8, 16, 32 and 64 clients on a real PostgreSQL 15 of our own (server.sh), for every core
# set given (default: both cores, then core 0 alone; server and pgbench pinned with taskset -c), each point --repeat
# times (median and spread, load average before and after each).
#
# With --inputs DIR (what measure-inputs.sh wrote), the predictions from those inputs alone are made FIRST, for each
# core set, and written down (predictions.tsv) before the curve is measured: today's pg-commit (`tlogsim run pg-commit`
# with the key=value lines of readme-cpus-<set>.set, README's recipe, and of inputs-cpus-<set>.set, the CPU-time
# recipe, plus any --set given here) and, with --prototype, the host-cost design's prototype (design-prototype.py with
# inputs-cpus-<set>.set and DIR/host.conf; and, where the inputs have the CPU per transaction at every client count,
# design-cpu-by-clients, which takes it). The table then shows measured, predicted and the errors. The curve is never
# an input: nothing here feeds it back into a model. A roundTripUs below 0 (README's recipe on a host where one client
# is faster than saturation) is refused by pg-commit; that prediction then uses 0 and says so.
#
# With --model, the engine's own predictions too, pg-commit with inputs-cpus-<set>.set and
# host=profile:DIR/host-cpus-<set>.conf (calibrate-host under that set's affinity; DIR/host.conf for inputs measured
# before profiles by core set; the host costs of waiting charged on the cores: docs/commit-path.md, "Host costs"):
#   model-c1-sleep-fsync-cores  JUDGED since 2026-12-06 after j17 (predictions.tsv says so: "# judged column:
#                   model-c1-sleep-fsync-cores"): model-c1-sleep with fsyncUs the mean of pg_test_fsync from each core
#                   of the set alone (fsync-cores-cpus-<set>.set, measure-inputs.sh --fsync-cores; a set of one core:
#                   its own pg_test_fsync): what calibrate-postgres writes (docs/commit-path-host-costs.md 10.2);
#   model-c1-sleep  judged from 2026-12-06 03:00 UTC until j17: the inputs' cpuPerTxnUsOneClient (a CPU per
#                   transaction that follows the clients) and the engine's own sleep (sessionSleepCpuUs from
#                   sleep-cpus-<set>.set), fsyncUs of pg_test_fsync on the whole set;
#   model           one CPU figure for every client count (cpuPerTxnUsOneClient=0), the host profile's sleep: the
#                   judged column until 2026-12-06, beside it now;
#   model-c1        with cpuPerTxnUsOneClient, the host profile's sleep; model-sleep: one CPU figure, the engine's sleep;
# --model needs sleep-cpus-<set>.set and fsync-cores-cpus-<set>.set in the inputs (measure-inputs.sh without
# --no-sleep, with --fsync-cores); without them measure-curve.sh stops before measuring (exit 1). Directories written
# before 2026-12-06 have no such line and judged model; the oldest (columns model and model-one-cpu) had the CPU per
# transaction following the clients as model. today-cputime (not judged) takes cpuPerTxnUsOneClient from the inputs too.
#
#   modules/bench/real-postgres/measure-curve.sh [--cpus 0,1] [--cpus 0] [--seconds 20] [--repeat 3]
#                                                [--inputs DIR [--set key=value]... [--prototype] [--model]
#                                                 [--predict-only]]
#                                                [--wait-quiet PCT [--wait-max S]]
#                                                [--out DIR]
# --wait-quiet: as measure-inputs.sh's. --predict-only: the predictions (predictions.tsv) and nothing measured.
# The host's speed is probed while measuring (host-speed.py, DIR/host-speed.txt; a caller's REAL_PG_SPEED=FILE probe
# instead, REAL_PG_SPEED=off none): each figure waits for full speed and is measured again (REAL_PG_SPEED_TRIES, default
# 3) when it did not get full speed within 120 s or the 3 s right after it were not at full speed (every try not at
# full speed in raw-slow.tsv; server.sh rp_curve).
#
# Writes DIR (default ./data/real-postgres-results/curve-<time>): predictions.tsv, <predictor>-cpus-<set>/ (each
# prediction's run), raw.tsv (every pgbench run) and curve.md (the table, and a second one of what the server did at
# each point: transactions per WAL flush, a flush's time in the backends, the cores' busy share and context switches
# per transaction, beside the model's commits per WAL write; for finding which mechanism a prediction misses, never
# an input). Needs jq for reading summary.json.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/server.sh"
root="$rp_root"
cpusets=()
seconds=20
repeat=3
inputs=""
sets=()
quiet=101
quiet_wait=0
prototype=false
model=false
predict_only=false
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cpus) cpusets+=("$2"); shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --inputs) inputs="$2"; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    --prototype) prototype=true; shift ;;
    --model) model=true; shift ;;
    --predict-only) predict_only=true; shift ;;
    --out) out="$2"; shift 2 ;;
    --wait-quiet) quiet="$2"; shift 2 ;;
    --wait-max) quiet_wait="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^set -e/ {exit} NR > 1' "$0"; exit 0 ;;
    *) echo "measure-curve: unknown option '$1'; allowed: --cpus, --seconds, --repeat, --inputs, --set, --prototype, --model," \
      "--predict-only, --wait-quiet, --wait-max, --out" >&2
      exit 2 ;;
  esac
done
[ ${#cpusets[@]} -gt 0 ] || cpusets=("0,1" "0")
if $predict_only && [ -z "$inputs" ]; then echo "measure-curve: --predict-only needs --inputs DIR" >&2; exit 2; fi
[ "$quiet" -lt 101 ] && [ "$quiet_wait" = 0 ] && quiet_wait=600
for n in "$seconds" "$repeat"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "measure-curve: --seconds, --repeat: a whole number > 0, got '$n'" >&2; exit 2; }
done
if [ -n "$inputs" ]; then
  command -v jq >/dev/null || { echo "measure-curve: --inputs needs jq (apt-get install jq)" >&2; exit 2; }
  for cpus in "${cpusets[@]}"; do
    [ -f "$inputs/inputs-cpus-$cpus.set" ] ||
      { echo "measure-curve: --inputs: $inputs/inputs-cpus-$cpus.set not found (measure-inputs.sh --cpus $cpus writes it)" >&2; exit 2; }
  done
  if { $prototype || $model; } && [ ! -f "$inputs/host.conf" ]; then
    echo "measure-curve: --prototype, --model: $inputs/host.conf not found (measure-inputs.sh writes it unless --no-host)" >&2; exit 2
  fi
fi
counts=(1 2 4 8 16 32 64)
out="${out:-$root/data/real-postgres-results/curve-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
[ "$(id -u)" = 0 ] && chmod 777 "$out"
# the host's speed, probed from now (the predictions take a while): the curve is measured at full speed (server.sh)
$predict_only || rp_speed_start "$out/host-speed.txt"

# the predictions first, from the inputs alone: today's pg-commit with README's recipe (readme-cpus-*.set) and with
# the CPU-time recipe (inputs-cpus-*.set), and, with --prototype, the host-cost design's prototype
declare -A predicted notes
predictors=()
# tlogsim run pg-commit with the key=value lines of $2 for core set $1; column $3; more --set arguments after it
predict_pg_commit() {
  local cpus="$1" file="$2" col="$3" args=() note="" k v
  shift 3
  # a key set here or by the user (--set) replaces the file's, and the user's replaces this function's: tlogsim
  # refuses a key set twice
  local given=" $* ${sets[*]} " a
  local own=()
  for a in "$@"; do
    [ "$a" = --set ] && continue
    [[ " ${sets[*]} " == *" ${a%%=*}="* ]] || own+=(--set "$a")
  done
  while IFS='=' read -r k v; do
    [[ -z "$k" || "$k" == \#* || "$k" == *.* ]] && continue # cpuPerTxnUs.N: not a setting of today's pg-commit
    [[ "$given" == *" $k="* ]] && continue
    if [ "$k" = roundTripUs ] && awk -v r="$v" 'BEGIN {exit !(r < 0)}'; then
      note="$col: roundTripUs $v < 0 is refused by pg-commit: predicted with 0"
      v=0
    fi
    args+=(--set "$k=$v")
  done <"$file"
  args+=("${own[@]}")
  [ -n "$note" ] && rp_say "cores $cpus: $note" && notes[$cpus]="${notes[$cpus]:-}${notes[$cpus]:+; }$note"
  rp_say "cores $cpus, $col: tlogsim run pg-commit ${args[*]} ${sets[*]}"
  "$root/tlogsim" run pg-commit --journal none --out "$out/$col-cpus-$cpus" "${args[@]}" "${sets[@]}" \
    >"$out/$col-cpus-$cpus.txt" 2>&1 || { cat "$out/$col-cpus-$cpus.txt" >&2; exit 1; }
  for c in "${counts[@]}"; do
    predicted[$col,$cpus,$c]="$(jq -r --argjson c "$c" '.sweep[] | select(.clients == $c and .synchronousCommit) | .tps' \
      "$out/$col-cpus-$cpus/summary.json")"
  done
}
if [ -n "$inputs" ]; then
  [ -f "$inputs/readme-cpus-${cpusets[0]}.set" ] && predictors+=(today-readme)
  predictors+=(today-cputime)
  $model && predictors+=(model)
  # beside it, not judged: the same with the CPU per transaction following the clients (cpuPerTxnUsOneClient, never
  # better than one figure in three judged runs: docs/commit-path-host-costs.md 7)
  $model && predictors+=(model-c1)
  # the engine's own sleep (sessionSleepCpuUs from the inputs' sleep-cpus-<set>.set; refuted in j4, whose inputs were
  # measured at half the host's speed): model-sleep beside, and model-c1-sleep, with both (judged from 2026-12-06
  # 03:00 UTC until j17; registered before j12, the best column in j12 and j13: docs/commit-path-host-costs.md 10.2),
  # and with fsyncUs the mean of pg_test_fsync from each core of the set alone: model-c1-sleep-fsync-cores, JUDGED
  # since 2026-12-06 after j17 (a hypothesis registered after j15, the better column in j16 and j17: 10.2)
  every_input=true
  for cpus in "${cpusets[@]}"; do
    [ -f "$inputs/sleep-cpus-$cpus.set" ] && [ -f "$inputs/fsync-cores-cpus-$cpus.set" ] || every_input=false
  done
  if $model && $every_input; then
    predictors+=(model-sleep model-c1-sleep model-c1-sleep-fsync-cores)
  elif $model; then
    rp_die "--model: the inputs $inputs lack sleep-cpus-<set>.set or fsync-cores-cpus-<set>.set for a core set" \
      "(measured with --no-sleep, or without --fsync-cores?): the judged column model-c1-sleep-fsync-cores cannot be" \
      "predicted"
  fi
  $prototype && predictors+=(design)
  $prototype && grep -q '^cpuPerTxnUs\.1=' "$inputs/inputs-cpus-${cpusets[0]}.set" && predictors+=(design-cpu-by-clients)
  for cpus in "${cpusets[@]}"; do
    [ -f "$inputs/readme-cpus-$cpus.set" ] && predict_pg_commit "$cpus" "$inputs/readme-cpus-$cpus.set" today-readme
    predict_pg_commit "$cpus" "$inputs/inputs-cpus-$cpus.set" today-cputime
    # the profile calibrate-host measured under this set's affinity (an earlier run's inputs have one, host.conf)
    profile="$inputs/host-cpus-$cpus.conf"
    [ -f "$profile" ] || profile="$inputs/host.conf"
    $model && predict_pg_commit "$cpus" "$inputs/inputs-cpus-$cpus.set" model --set "host=profile:$profile" \
      --set cpuPerTxnUsOneClient=0
    $model && predict_pg_commit "$cpus" "$inputs/inputs-cpus-$cpus.set" model-c1 --set "host=profile:$profile"
    if [[ " ${predictors[*]} " == *" model-sleep "* ]]; then
      sleep_cpu="$(grep '^sessionSleepCpuUs=' "$inputs/sleep-cpus-$cpus.set")"
      predict_pg_commit "$cpus" "$inputs/inputs-cpus-$cpus.set" model-sleep --set "host=profile:$profile" \
        --set cpuPerTxnUsOneClient=0 --set "$sleep_cpu"
      predict_pg_commit "$cpus" "$inputs/inputs-cpus-$cpus.set" model-c1-sleep --set "host=profile:$profile" \
        --set "$sleep_cpu"
      # the judged column (a set of one core has no other core to flush from: its own pg_test_fsync)
      predict_pg_commit "$cpus" "$inputs/inputs-cpus-$cpus.set" model-c1-sleep-fsync-cores \
        --set "host=profile:$profile" --set "$sleep_cpu" --set "$(grep '^fsyncUs=' "$inputs/fsync-cores-cpus-$cpus.set")"
    fi
    if $prototype; then
      rp_say "cores $cpus, design: design-prototype.py --inputs $inputs/inputs-cpus-$cpus.set --host $inputs/host.conf"
      python3 "$here/design-prototype.py" --inputs "$inputs/inputs-cpus-$cpus.set" --host "$inputs/host.conf" \
        --seconds 2 >"$out/design-cpus-$cpus.tsv"
      for c in "${counts[@]}"; do
        predicted[design,$cpus,$c]="$(awk -v c="$c" '$1 == c {print $2}' "$out/design-cpus-$cpus.tsv")"
      done
      if [[ " ${predictors[*]} " == *" design-cpu-by-clients "* ]]; then
        python3 "$here/design-prototype.py" --inputs "$inputs/inputs-cpus-$cpus.set" --host "$inputs/host.conf" \
          --cpu-by-clients --seconds 2 >"$out/design-cpu-by-clients-cpus-$cpus.tsv"
        for c in "${counts[@]}"; do
          predicted[design-cpu-by-clients,$cpus,$c]="$(awk -v c="$c" '$1 == c {print $2}' \
            "$out/design-cpu-by-clients-cpus-$cpus.tsv")"
        done
      fi
    fi
  done
  { echo "# predictions made $(date -u +%Y-%m-%dT%H:%M:%SZ), before the curve was measured"
    $model && echo "# judged column: model-c1-sleep-fsync-cores"
    for col in "${predictors[@]}"; do for cpus in "${cpusets[@]}"; do for c in "${counts[@]}"; do
      echo -e "$col\t$cpus\t$c\t${predicted[$col,$cpus,$c]}"; done; done; done; } >"$out/predictions.tsv"
fi
if $predict_only; then
  cat "$out/predictions.tsv"
  echo "results: $out (predictions only; nothing measured)" >&2
  exit 0
fi

rp_setup
echo -e "cpus\trep\tclients\tsync\ttps\tlatency_ms\ttransactions\tserver_cpu_s\tpgbench_cpu_s\tload_before\tload_after\tothers_busy_pct\twal_syncs\twal_sync_ms\tcores_busy_pct\tctxt_per_txn\thost_slowdown_during\tslow_share_during\ttry\tfull_speed_wait_s\tfull_speed_before\tslow_share_after" >"$out/raw.tsv"
rp_curve on "$out/raw.tsv"

stats() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) {print "- - -"; exit}
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR]}'; }
pick() { awk -F'\t' -v cpus="$1" -v c="$2" 'NR > 1 && $1 == cpus && $3 == c {print '"$3"'}' "$out/raw.tsv" | stats; }
{
  echo "# synchronous_commit=on curve measured on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}'), pgbench -n -f insert.sql -T $seconds, $repeat repetitions; raw.tsv has every run with its load average."
  [ -n "$inputs" ] && echo "Predictions (predictions.tsv, made before the measurement) from $inputs: ${predictors[*]} ${sets[*]}."
  echo
  head="| cores (taskset) | clients | TPS median | TPS min-max | load min-max | others busy % min-max |"
  rule="| --- | --- | --- | --- | --- | --- |"
  for col in "${predictors[@]}"; do head="$head $col TPS | error |"; rule="$rule --- | --- |"; done
  echo "$head"
  echo "$rule"
  for cpus in "${cpusets[@]}"; do
    for c in "${counts[@]}"; do
      read -r t t_lo t_hi < <(pick "$cpus" "$c" '$5')
      read -r _ l_lo _ < <(pick "$cpus" "$c" '$10')
      read -r _ _ l_hi < <(pick "$cpus" "$c" '$11')
      read -r _ b_lo b_hi < <(pick "$cpus" "$c" '$12')
      row="$(printf "| %s | %d | %.0f | %.0f-%.0f | %s-%s | %s-%s |" "$cpus" "$c" "$t" "$t_lo" "$t_hi" "$l_lo" "$l_hi" "$b_lo" "$b_hi")"
      for col in "${predictors[@]}"; do
        p="${predicted[$col,$cpus,$c]:-}"
        if [ -n "$p" ]; then
          row="$row $(awk -v p="$p" -v t="$t" 'BEGIN {printf "%.0f | %+.1f%% |", p, (p / t - 1) * 100}')"
        else
          row="$row - | - |"
        fi
      done
      echo "$row"
    done
    [ -n "${notes[$cpus]:-}" ] && echo && echo "cores $cpus: ${notes[$cpus]}" && echo
  done
  # what the mechanism did (medians over the repetitions), beside the model's commits per WAL write: for reading
  # where a prediction goes wrong, never an input (the curve is the test)
  echo
  echo "What the server did (medians): transactions per WAL flush (pg_stat_wal wal_sync), a flush's time in the"
  echo "backends (wal_sync_time / wal_sync, track_wal_io_timing), the set's cores busy, context switches per transaction."
  echo
  echo "| cores (taskset) | clients | commits per flush | flush ms | cores busy % | context switches per txn | model: commits per WAL write |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  for cpus in "${cpusets[@]}"; do
    for c in "${counts[@]}"; do
      read -r k _ _ < <(pick "$cpus" "$c" '($13 > 0 ? $7 / $13 : 0)')
      read -r f _ _ < <(pick "$cpus" "$c" '($13 > 0 ? $14 / $13 : 0)')
      read -r u _ _ < <(pick "$cpus" "$c" '$15')
      read -r x _ _ < <(pick "$cpus" "$c" '$16')
      m="-"
      if [ -f "$out/model-cpus-$cpus/summary.json" ]; then
        m="$(jq -r --argjson c "$c" '.sweep[] | select(.clients == $c and .synchronousCommit) | .commitsPerWalWrite' \
          "$out/model-cpus-$cpus/summary.json")"
      fi
      printf "| %s | %d | %.2f | %.3f | %.0f | %.2f | %s |\n" "$cpus" "$c" "$k" "$f" "$u" "$x" "$m"
    done
  done
} >"$out/curve.md"
cat "$out/curve.md"
echo "results: $out" >&2
