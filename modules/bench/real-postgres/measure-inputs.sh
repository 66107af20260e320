#!/usr/bin/env bash
# pg-commit's inputs, measured on this machine as a user would (README, "pg-commit: the inputs"), against a real
# PostgreSQL 15 of our own (server.sh: Debian's packages, a Unix socket in ./data/real-postgres, port 5544):
#   fsyncUs      pg_test_fsync -f <file beside pg_wal>: usecs/op of fdatasync, "one 8kB write", pinned to the core set
#                (taskset -c: the server's flushes are issued from its cores; server.sh rp_fsync_us says why)
#   cpuPerTxnUs  cores x 10^6 / TPS of pgbench -n -f insert.sql -c 64 (saturation), synchronous_commit=off
#   roundTripUs  10^6 / TPS of the same with -c 1, minus cpuPerTxnUs (README's recipe; negative when one client is
#                faster than saturation, reported as it comes)
#   cores        nproc under the same taskset
#   sessionSleepCpuUs  (unless --no-sleep; the judged model's since 2026-12-06, measured as calibrate-postgres does:
#                docs/commit-path-host-costs.md 4.7, 10.2) the CPU one sleep costs a backend: synchronous_commit=off,
#                64 clients, CPU per transaction of INSERT + SELECT pg_sleep(0.001) less that of INSERT + SELECT
#                pg_sleep(0), median over the repetitions (sleep-0.tsv, sleep-0.001.tsv, sleep-cpus-<set>.set)
# for every core set given (default: both cores, then core 0 alone; server and pgbench pinned with taskset -c), each
# pgbench figure --repeat times (median and spread), with the load average before and after every figure and the CPU
# seconds the server and pgbench used (/proc, time(1)): CPU per transaction measured, not inferred from TPS.
# With --fsync-cores, last (after calibrate-host), pg_test_fsync also from each core of a set alone (fsync-cores.tsv,
# fsync-cores-cpus-<set>.set: their mean; a set of one core: its own figure): the judged model's fsyncUs since
# 2026-12-06 after j17 (docs/commit-path-host-costs.md 10.2; judge.sh passes it, measure-curve.sh --model needs it).
# Then `tlogsim calibrate-host` on the WAL's directory under each core set's affinity (unless --no-host). --off-curve
# also measures synchronous_commit=off at 1, 2, 4, ... 64 clients (an input of the same kind; never the
# synchronous_commit=on curve, which is measure-curve.sh's and is the test).
#
#   modules/bench/real-postgres/measure-inputs.sh [--cpus 0,1] [--cpus 0] [--seconds 30] [--repeat 3] [--fsync-seconds 5]
#                                                 [--off-curve] [--no-host] [--no-sleep] [--fsync-cores] [--wait-quiet PCT
#                                                 [--wait-max S]] [--out DIR]
#
# --wait-quiet: before each figure, wait (at most --wait-max s, default 600) until other work keeps under PCT per cent
# of the cores busy; the share seen is recorded beside the figure either way (raw.tsv: others_busy_pct).
# The host's speed is probed while measuring (host-speed.py, DIR/host-speed.txt; a caller's REAL_PG_SPEED=FILE probe
# instead, REAL_PG_SPEED=off none): each figure waits for full speed and is measured again (REAL_PG_SPEED_TRIES, default
# 3) when it did not get full speed within 120 s or the 3 s right after it were not at full speed (every try not at
# full speed in raw-slow.tsv, fsync-slow.tsv, sleep-*-slow.tsv, host-cpus-SET-slow.txt; server.sh rp_curve).
#
# Writes DIR (default ./data/real-postgres-results/inputs-<time>): raw.tsv (every pgbench run), fsync.tsv,
# inputs.md (the tables), readme-cpus-<set>.set (README's recipe) and inputs-cpus-<set>.set (the CPU-time recipe of
# docs/commit-path-host-costs.md section 7), key=value lines for `tlogsim run pg-commit --set` that measure-curve.sh
# --inputs DIR reads, and host-cpus-<set>.conf (calibrate-host's profile under that set's affinity; host.conf is the
# first set's). --from DIR sums up an earlier run's figures again.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/server.sh"
root="$rp_root"
cpusets=()
seconds=30
repeat=3
fsync_seconds=5
off_curve=false
sleep=true
host=true
fsync_cores=false
quiet=101
quiet_wait=0
from=""
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cpus) cpusets+=("$2"); shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --fsync-seconds) fsync_seconds="$2"; shift 2 ;;
    --off-curve) off_curve=true; shift ;;
    --no-host) host=false; shift ;;
    --no-sleep) sleep=false; shift ;;
    --fsync-cores) fsync_cores=true; shift ;;
    --out) out="$2"; shift 2 ;;
    --from) from="$2"; shift 2 ;;
    --wait-quiet) quiet="$2"; shift 2 ;;
    --wait-max) quiet_wait="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^set -e/ {exit} NR > 1' "$0"; exit 0 ;;
    *) echo "measure-inputs: unknown option '$1'; allowed: --cpus, --seconds, --repeat, --fsync-seconds, --off-curve," \
      "--no-host, --no-sleep, --fsync-cores, --wait-quiet, --wait-max, --from, --out" >&2; exit 2 ;;
  esac
done
[ ${#cpusets[@]} -gt 0 ] || cpusets=("0,1" "0")
[ "$quiet" -lt 101 ] && [ "$quiet_wait" = 0 ] && quiet_wait=600
for n in "$seconds" "$repeat" "$fsync_seconds"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "measure-inputs: --seconds, --repeat, --fsync-seconds: a whole number > 0, got '$n'" >&2; exit 2; }
done
counts=(1 64)
$off_curve && counts=(1 2 4 8 16 32 64)
if [ -n "$from" ]; then
  # the figures of an earlier run, summed up again (the core sets and client counts it measured)
  out="$from"
  [ -f "$out/raw.tsv" ] && [ -f "$out/fsync.tsv" ] || { echo "measure-inputs: --from: $out has no raw.tsv and fsync.tsv" >&2; exit 2; }
  mapfile -t cpusets < <(awk -F'\t' 'NR > 1 && !seen[$1]++ {print $1}' "$out/raw.tsv")
  mapfile -t counts < <(awk -F'\t' 'NR > 1 && !seen[$3]++ {print $3}' "$out/raw.tsv" | sort -n)
  repeat="$(awk -F'\t' 'NR > 1 && $2 > r {r = $2} END {print r}' "$out/raw.tsv")"
  PGBIN="$(rp_bin)"
else
  out="${out:-$root/data/real-postgres-results/inputs-$(date +%Y%m%d-%H%M%S)}"
  mkdir -p "$out"
  [ "$(id -u)" = 0 ] && chmod 777 "$out"

  rp_speed_start "$out/host-speed.txt"
  rm -f "$out"/sleep-*.tsv "$out"/sleep-cpus-*.set "$out"/host-cpus-*-slow.txt "$out"/fsync-cores* # an earlier run's, in a reused --out
  rp_setup
  rp_start "${cpusets[0]}"
  echo -e "cpus\trep\tclients\tsync\ttps\tlatency_ms\ttransactions\tserver_cpu_s\tpgbench_cpu_s\tload_before\tload_after\tothers_busy_pct\twal_syncs\twal_sync_ms\tcores_busy_pct\tctxt_per_txn\thost_slowdown_during\tslow_share_during\ttry\tfull_speed_wait_s\tfull_speed_before\tslow_share_after" >"$out/raw.tsv"
  echo -e "cpus\trep\tfdatasync_us\tload_before\tload_after\tothers_busy_pct\ttry\tfull_speed_wait_s\tfull_speed_before\tslow_share_after" >"$out/fsync.tsv"
  head -1 "$out/fsync.tsv" >"$out/fsync-slow.tsv"
  rp_speed_tries
  # pg_test_fsync pinned to $1, repetition $2: its fsync.tsv row (tries not at full speed into $3)
  fsync_figure() {
    local pin="$1" r="$2" slow="$3" try busy l0 waited f after row
    # at the host's full speed, as every figure (server.sh rp_curve)
    for try in $(seq 1 "$rp_tries"); do
      busy="$(rp_wait_quiet "$quiet" "$quiet_wait")"
      l0="$(rp_load)"
      rp_lock
      waited="$(rp_speed_wait "$pin")"
      f="$(rp_fsync_us "$fsync_seconds" "$pin")"
      after="$(rp_speed_after "$pin")"
      rp_unlock
      row="$pin\t$r\t$f\t$l0\t$(rp_load)\t$busy\t$try\t${waited// /	}\t$after"
      if rp_speed_full "$waited" "$after"; then break; fi
      echo -e "$row" >>"$slow"
      [ "$try" = "$rp_tries" ] && break # the last try is kept (and counted as slow)
      rp_say "cores $pin: the host was not at full speed around pg_test_fsync: measured again"
    done
    echo -e "$row"
  }
  for cpus in "${cpusets[@]}"; do
    for r in $(seq 1 "$repeat"); do
      fsync_figure "$cpus" "$r" "$out/fsync-slow.tsv" | tee -a "$out/fsync.tsv" >&2
    done
  done

  rp_curve off "$out/raw.tsv"

  if $sleep; then
    # the CPU of one sleep of a backend, in the engine (sessionSleepCpuUs): at 64 clients (saturation, as cpuPerTxnUs)
    # with synchronous_commit=off, a transaction of INSERT then SELECT pg_sleep(0.001) against INSERT then SELECT
    # pg_sleep(0) (the same statements, no sleep); pg_sleep(0.001) waits once in WaitLatch (one epoll_wait with a
    # timer, strace: 2026-12-05), so the CPU per transaction differs by one sleep, its resume and the refill of the
    # backend's caches after the others ran (docs/commit-path-host-costs.md 4.7). At full speed, as every figure.
    plain_sql="$rp_sql"
    plain_counts=("${counts[@]}")
    counts=(64)
    for z in 0 0.001; do
      rp_as tee "$REAL_PG_DIR/sleep-$z.sql" >/dev/null <<<"INSERT INTO t VALUES (1);
SELECT pg_sleep($z);"
      head -1 "$out/raw.tsv" >"$out/sleep-$z.tsv"
      rp_sql="$REAL_PG_DIR/sleep-$z.sql"
      rp_curve off "$out/sleep-$z.tsv"
    done
    rp_sql="$plain_sql"
    counts=("${plain_counts[@]}")
  fi

  if $host; then
    if "$root/tlogsim" calibrate-host --help >/dev/null 2>&1; then
      # under each core set's affinity, as the server runs: on one core nothing crosses cores, and the flush's
      # figures are those seen from the set's cores
      for cpus in "${cpusets[@]}"; do
        # its figures are CPU times too: measured at the host's full speed, as the pgbench figures (server.sh); a try
        # around which the host was not at full speed is kept in host-cpus-SET-slow.txt
        for try in $(seq 1 "$rp_tries"); do
          busy="$(rp_wait_quiet "$quiet" "$quiet_wait")"
          rp_lock
          waited="$(rp_speed_wait "$cpus")"
          rp_say "tlogsim calibrate-host on $rp_data/pg_wal, cores $cpus (others keep $busy% of the cores busy, load $(rp_load))"
          taskset -c "$cpus" "$root/tlogsim" calibrate-host --out "$out/host-cpus-$cpus.conf" --force \
            --path "$rp_data/pg_wal" --seconds 30 >"$out/host-cpus-$cpus.txt" 2>&1 ||
            rp_say "calibrate-host failed: $(tail -1 "$out/host-cpus-$cpus.txt")"
          after="$(rp_speed_after "$cpus")"
          rp_unlock
          echo "# others busy before: $busy%, load after: $(rp_load); try $try; host at full speed before it: ${waited#* }" \
            "(waited ${waited%% *} s), slow share of the 3 s after: $after (host-speed.py)" >>"$out/host-cpus-$cpus.txt"
          if rp_speed_full "$waited" "$after"; then break; fi
          cat "$out/host-cpus-$cpus.txt" "$out/host-cpus-$cpus.conf" >>"$out/host-cpus-$cpus-slow.txt" 2>/dev/null || true
          [ "$try" = "$rp_tries" ] && break # the last try is kept (and counted as slow)
          rp_say "cores $cpus: the host was not at full speed around calibrate-host: measured again"
        done
      done
      if [ -f "$out/host-cpus-${cpusets[0]}.conf" ]; then cp "$out/host-cpus-${cpusets[0]}.conf" "$out/host.conf"; fi
    else
      rp_say "this tlogsim has no calibrate-host; skipped"
    fi
  fi

  if $fsync_cores; then
    # pg_test_fsync from each core of a set alone (the judged model's fsyncUs since j17: fsync-cores-cpus-SET.set
    # below), last, so the closest to the curve (about 80 s a core at -s 5)
    echo -e "set\t$(head -1 "$out/fsync.tsv")" >"$out/fsync-cores.tsv"
    head -1 "$out/fsync.tsv" >"$out/fsync-cores-slow.tsv"
    for cpus in "${cpusets[@]}"; do
      [[ "$cpus" == *,* ]] || continue # one core: its own figure above
      for r in $(seq 1 "$repeat"); do
        for core in ${cpus//,/ }; do
          fsync_figure "$core" "$r" "$out/fsync-cores-slow.tsv" | sed "s/^/$cpus\t/" | tee -a "$out/fsync-cores.tsv" >&2
        done
      done
    done
  fi
fi

# a figure without a transaction gives no input (its CPU per transaction would be infinite): say so, not "inf"
empty="$(awk -F'\t' 'NR > 1 && ($7 == "" || $7 == 0) {printf "%s%s clients on cores %s", n++ ? ", " : "", $3, $1}' \
  "$out/raw.tsv")"
if [ -n "$empty" ]; then
  echo "measure-inputs: pgbench made no transaction at $empty in --seconds $seconds (64 connections take a while on" \
    "a busy machine): give a longer --seconds" >&2
  exit 1
fi

# median and spread (min, max) of a column of numbers on stdin
stats() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) {print "- - -"; exit}
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR]}'; }
pick() { # cpus clients awk-expression over the raw columns -> median min max
  awk -F'\t' -v cpus="$1" -v c="$2" 'NR > 1 && $1 == cpus && $3 == c {print '"$3"'}' "$out/raw.tsv" | stats
}
# fdatasync of core set $1 -> median min max (an earlier run's fsync.tsv, before pinning, has no cpus column)
fsync_of() {
  awk -F'\t' -v cpus="$1" 'NR == 1 {old = $1 == "rep"; next} old {print $2} !old && $1 == cpus {print $3}' \
    "$out/fsync.tsv" | stats
}
{
  echo "# pg-commit's inputs measured on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}'), pgbench -n -f insert.sql (INSERT INTO t VALUES (1)), -T $seconds, synchronous_commit=off, $repeat repetitions; load average before/after each figure in raw.tsv."
  echo
  for cpus in "${cpusets[@]}"; do
    read -r fs fs_lo fs_hi < <(fsync_of "$cpus")
    echo "fdatasync (pg_test_fsync -s $fsync_seconds, one 8kB write), cores $cpus: median $fs us, spread $fs_lo-$fs_hi us"
  done
  echo
  echo "| cores (taskset) | clients | TPS median | TPS min-max | CPU us/txn (measured) median | min-max | load min-max | others busy % min-max |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  for cpus in "${cpusets[@]}"; do
    for c in "${counts[@]}"; do
      read -r t t_lo t_hi < <(pick "$cpus" "$c" '$5')
      read -r u u_lo u_hi < <(pick "$cpus" "$c" '($8 + $9) / $7 * 1e6')
      read -r _ l_lo _ < <(pick "$cpus" "$c" '$10')
      read -r _ _ l_hi < <(pick "$cpus" "$c" '$11')
      read -r _ b_lo b_hi < <(pick "$cpus" "$c" '$12')
      printf "| %s | %d | %.0f | %.0f-%.0f | %.1f | %.1f-%.1f | %s-%s | %s-%s |\n" "$cpus" "$c" "$t" "$t_lo" "$t_hi" "$u" \
        "$u_lo" "$u_hi" "$l_lo" "$l_hi" "$b_lo" "$b_hi"
    done
  done
  echo
  echo "README's recipe (readme-cpus-<set>.set): cpuPerTxnUs = cores x 10^6 / TPS(64), roundTripUs = 10^6 / TPS(1) - cpuPerTxnUs."
  echo "CPU-time recipe (inputs-cpus-<set>.set, docs/commit-path-host-costs.md section 7): cpuPerTxnUs = the CPU (server + pgbench) per"
  echo "transaction at 64 clients, cpuPerTxnUsOneClient = the same at 1 client, roundTripUs = 10^6 / TPS(1) less that run's CPU per"
  echo "transaction (medians over the repetitions)."
  echo
  echo "| cores (taskset) | nproc | fsyncUs | README cpuPerTxnUs | README roundTripUs | CPU-time cpuPerTxnUs | CPU-time roundTripUs |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  for cpus in "${cpusets[@]}"; do
    cores="$(taskset -c "$cpus" nproc)"
    read -r fs _ _ < <(fsync_of "$cpus")
    read -r t1 _ _ < <(pick "$cpus" 1 '$5')
    read -r t64 _ _ < <(pick "$cpus" 64 '$5')
    read -r u1 _ _ < <(pick "$cpus" 1 '($8 + $9) / $7 * 1e6')
    read -r u64 _ _ < <(pick "$cpus" 64 '($8 + $9) / $7 * 1e6')
    read -r rt1 _ _ < <(pick "$cpus" 1 '1e6 / $5 - ($8 + $9) / $7 * 1e6')
    cpu="$(awk -v k="$cores" -v t="$t64" 'BEGIN {printf "%.3f", k * 1e6 / t}')"
    rt="$(awk -v c="$cpu" -v t="$t1" 'BEGIN {printf "%.3f", 1e6 / t - c}')"
    mcpu="$(awk -v u="$u64" 'BEGIN {printf "%.3f", u}')"
    mrt="$(awk -v r="$rt1" 'BEGIN {printf "%.3f", r < 0 ? 0 : r}')"
    printf "| %s | %d | %s | %s | %s | %s | %s |\n" "$cpus" "$cores" "$fs" "$cpu" "$rt" "$mcpu" "$mrt"
    {
      echo "# measure-inputs.sh, cores $cpus, README's recipe (medians of $repeat)"
      echo "fsyncUs=$fs"
      echo "cpuPerTxnUs=$cpu"
      echo "roundTripUs=$rt"
      echo "cores=$cores"
      echo "# TPS with synchronous_commit=off: 1 client $t1, 64 clients $t64"
    } >"$out/readme-cpus-$cpus.set"
    {
      echo "# measure-inputs.sh, cores $cpus, CPU-time recipe (medians of $repeat)"
      echo "fsyncUs=$fs"
      echo "cpuPerTxnUs=$mcpu"
      echo "cpuPerTxnUsOneClient=$(awk -v u="$u1" 'BEGIN {printf "%.3f", u}')"
      echo "cpuPerTxnUsClients=64"
      echo "roundTripUs=$mrt"
      echo "cores=$cores"
      echo "# measured CPU (server + pgbench) per transaction: at 1 client $u1 us, at 64 clients $u64 us"
      echo "# TPS with synchronous_commit=off: 1 client $t1, 64 clients $t64"
      if [ ${#counts[@]} -gt 2 ]; then
        echo "# the CPU per transaction at each client count measured (synchronous_commit=off), for a model whose CPU"
        echo "# per transaction follows the clients (docs/commit-path-host-costs.md section 7)"
        for c in "${counts[@]}"; do
          read -r u _ _ < <(pick "$cpus" "$c" '($8 + $9) / $7 * 1e6')
          printf "cpuPerTxnUs.%d=%.3f\n" "$c" "$u"
        done
      fi
    } >"$out/inputs-cpus-$cpus.set"
    # the judged model's fsyncUs since 2026-12-06 after j17 (registered after j15: docs/commit-path-host-costs.md 10.2):
    # a server on several cores issues its flushes from each of them, while pg_test_fsync on the set settles on the
    # core whose flushes complete cheapest; fsyncUs = the mean over the set's cores of pg_test_fsync from each alone
    if [ -f "$out/fsync-cores.tsv" ] && [[ "$cpus" != *,* ]]; then
      # one core: no other core to flush from, its own figure (so that the column is predicted for every set)
      {
        echo "# measure-inputs.sh, cores $cpus: one core, its own pg_test_fsync (docs/commit-path-host-costs.md 10.2)"
        echo "fsyncUs=$fs"
      } >"$out/fsync-cores-cpus-$cpus.set"
    elif [ -f "$out/fsync-cores.tsv" ]; then
      per_core="$(for core in ${cpus//,/ }; do
        awk -F'\t' -v s="$cpus" -v c="$core" 'NR > 1 && $1 == s && $2 == c {print $4}' "$out/fsync-cores.tsv" | stats |
          awk -v c="$core" '{print c, $1}'; done)"
      # only where every core has a figure (a missing one would lower the mean)
      if awk '$2 !~ /^[0-9.]+$/ {bad = 1} END {exit bad || NR == 0}' <<<"$per_core"; then
        {
          echo "# measure-inputs.sh, cores $cpus: pg_test_fsync from each core alone (median of $repeat:" \
            "$(awk '{printf "%score %s %s us", (NR > 1 ? ", " : ""), $1, $2}' <<<"$per_core")), their mean" \
            "(docs/commit-path-host-costs.md 10.2)"
          echo "fsyncUs=$(awk '{t += $2; n++} END {printf "%.1f", t / n}' <<<"$per_core")"
        } >"$out/fsync-cores-cpus-$cpus.set"
      fi
    fi
    if [ -f "$out/sleep-0.001.tsv" ]; then
      # sessionSleepCpuUs: the median over the repetitions of (with one sleep) - (without), CPU per transaction
      read -r d d_lo d_hi < <(awk -F'\t' -v cpus="$cpus" 'FNR > 1 && $1 == cpus && $7 > 0 {
          u[FILENAME ~ /sleep-0\.001/, $2] = ($8 + $9) / $7 * 1e6}
        END {for (k in u) {split(k, a, SUBSEP); if (a[1] == 1 && ((0, a[2]) in u)) print u[k] - u[0, a[2]]}}' \
        "$out/sleep-0.tsv" "$out/sleep-0.001.tsv" | stats)
      if [ "$d" != - ]; then
        {
          echo "# measure-inputs.sh, cores $cpus: the CPU of one sleep of a backend (median of the differences, $d_lo-$d_hi us)"
          echo "sessionSleepCpuUs=$(awk -v d="$d" 'BEGIN {printf "%.3f", d < 0 ? 0 : d}')"
        } >"$out/sleep-cpus-$cpus.set"
      fi
    fi
    awk -v r="$rt" 'BEGIN {exit !(r < 0)}' && rp_say "cores $cpus: README's roundTripUs = $rt < 0: one client is faster than 64 (the recipe breaks here)"
  done
  for cpus in "${cpusets[@]}"; do
    if [ -f "$out/fsync-cores-cpus-$cpus.set" ]; then
      echo
      echo "fsyncUs from each core alone, their mean (the judged model's), cores $cpus:" \
        "$(grep '^fsyncUs=' "$out/fsync-cores-cpus-$cpus.set" | cut -d= -f2) us ($(head -1 "$out/fsync-cores-cpus-$cpus.set" |
          sed 's/.*alone (//; s/), their mean.*//; s/^# .*one core, .*/one core: its own pg_test_fsync/'))"
    fi
    if [ -f "$out/sleep-cpus-$cpus.set" ]; then
      echo
      echo "sessionSleepCpuUs (the judged model's), cores $cpus:" \
        "$(grep -v '^#' "$out/sleep-cpus-$cpus.set" | cut -d= -f2) us" \
        "($(head -1 "$out/sleep-cpus-$cpus.set" | sed 's/.*(//; s/)//'))"
    fi
  done
  echo
  for cpus in "${cpusets[@]}"; do
    if [ -f "$out/host-cpus-$cpus.conf" ]; then
      echo "calibrate-host, cores $cpus: host-cpus-$cpus.conf (its figures: host-cpus-$cpus.txt)"
    fi
  done
  if [ -f "$out/host.conf" ]; then echo "host.conf: the first core set's profile (or an earlier run's one profile)"; fi
} >"$out/inputs.md"
cat "$out/inputs.md"
echo "results: $out" >&2
