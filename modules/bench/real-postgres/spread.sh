#!/usr/bin/env bash
# Diagnosis of the test's own spread (issue 22), never an input and never the judged curve: N pairs of pgbench runs at
# 64 clients on one server (server.sh), synchronous_commit=on then off, back to back, each with the server's CPU per
# transaction, a flush's time in the backends (pg_stat_wal), the host's steal ticks (/proc/stat) and, with PERF=1, a
# perf profile (software cpu-clock, every core) of each on run. Nothing here feeds a model.
#
#   modules/bench/real-postgres/spread.sh CPUS N SECONDS OUT      e.g. spread.sh 0,1 8 8 /tmp/spread-01
#
# Writes OUT/spread.tsv (one row per run: rp_pgbench's fields, then steal_ticks, server_us_per_txn, flush_ms),
# OUT/host-speed.txt (the probe) and, with PERF=1, OUT/perf-I.data.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/server.sh"
[ $# -eq 4 ] || { echo "spread: usage: spread.sh CPUS N SECONDS OUT" >&2; exit 2; }
cpus="$1"; n="$2"; seconds="$3"; out="$4"
for v in "$n" "$seconds"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "spread: N, SECONDS: a whole number > 0, got '$v'" >&2; exit 2; }
done
mkdir -p "$out"
[ "$(id -u)" = 0 ] && chmod 777 "$out"
rp_setup
rp_speed_start "$out/host-speed.txt"
rp_start "$cpus"
steal() { awk '/^cpu / {print $9}' /proc/stat; }
head="i\tsync\tstart\ttps\tlat_ms\ttxn\tserver_cpu_s\tpgbench_cpu_s\tload0\tload1\twal_sync\twal_sync_ms\tcores_busy"
echo -e "$head\tctxt_per_txn\tslowdown\tslow_share\tsteal_ticks\tserver_us_per_txn\tflush_ms" >"$out/spread.tsv"
perfpid=""
for i in $(seq 1 "$n"); do
  for sync in on off; do
    s0="$(steal)"
    t="$(date +%s)"
    if [ "${PERF:-0}" = 1 ] && [ "$sync" = on ]; then
      perf record -F 499 -a -g -o "$out/perf-$i.data" -- sleep "$((seconds + 2))" >/dev/null 2>&1 &
      perfpid=$!
    fi
    line="$(rp_pgbench "$cpus" 64 "$seconds" "$sync")"
    if [ -n "$perfpid" ]; then wait "$perfpid" || true; perfpid=""; fi
    s1="$(steal)"
    read -r _ _ txn server_s _ _ _ syncs sync_ms _ <<<"$line"
    us="$(awk -v c="$server_s" -v n="$txn" 'BEGIN {printf "%.1f", c / n * 1e6}')"
    fl="$(awk -v w="$syncs" -v ms="$sync_ms" 'BEGIN {printf "%.3f", (w > 0 ? ms / w : 0)}')"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$sync" "$t" "$(tr ' ' '\t' <<<"$line")" "$((s1 - s0))" "$us" "$fl" \
      | tee -a "$out/spread.tsv"
  done
done
rp_stop
