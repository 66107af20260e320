#!/usr/bin/env bash
# pg-commit's inputs, measured on this machine as a user would (README, "pg-commit: the inputs"), against a real
# PostgreSQL 15 of our own (server.sh: Debian's packages, a Unix socket in ./data/real-postgres, port 5544):
#   fsyncUs      pg_test_fsync -f <file beside pg_wal>: usecs/op of fdatasync, "one 8kB write"
#   cpuPerTxnUs  cores x 10^6 / TPS of pgbench -n -f insert.sql -c 64 (saturation), synchronous_commit=off
#   roundTripUs  10^6 / TPS of the same with -c 1, minus cpuPerTxnUs (README's recipe; negative when one client is
#                faster than saturation, reported as it comes)
#   cores        nproc under the same taskset
# for every core set given (default: both cores, then core 0 alone; server and pgbench pinned with taskset -c), each
# pgbench figure --repeat times (median and spread), with the load average before and after every figure and the CPU
# seconds the server and pgbench used (/proc, time(1)): CPU per transaction measured, not inferred from TPS.
# Then `tlogsim calibrate-host` on the WAL's directory (unless --no-host). --off-curve also measures
# synchronous_commit=off at 1, 2, 4, ... 64 clients (an input of the same kind; never the synchronous_commit=on curve,
# which is measure-curve.sh's and is the test).
#
#   modules/bench/real-postgres/measure-inputs.sh [--cpus 0,1] [--cpus 0] [--seconds 30] [--repeat 3] [--fsync-seconds 5]
#                                                 [--off-curve] [--no-host] [--out DIR]
#
# Writes DIR (default ./data/real-postgres-results/inputs-<time>): raw.tsv (every pgbench run), fsync.tsv,
# inputs.md (the table), inputs-cpus-<set>.set (key=value lines for `tlogsim run pg-commit --set`; measure-curve.sh
# --inputs DIR reads them) and host.conf (calibrate-host's profile).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/server.sh"
root="$rp_root"
cpusets=()
seconds=30
repeat=3
fsync_seconds=5
off_curve=false
host=true
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cpus) cpusets+=("$2"); shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --fsync-seconds) fsync_seconds="$2"; shift 2 ;;
    --off-curve) off_curve=true; shift ;;
    --no-host) host=false; shift ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "measure-inputs: unknown option '$1'; allowed: --cpus, --seconds, --repeat, --fsync-seconds, --off-curve," \
      "--no-host, --out" >&2; exit 2 ;;
  esac
done
[ ${#cpusets[@]} -gt 0 ] || cpusets=("0,1" "0")
for n in "$seconds" "$repeat" "$fsync_seconds"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "measure-inputs: --seconds, --repeat, --fsync-seconds: a whole number > 0, got '$n'" >&2; exit 2; }
done
out="${out:-$root/data/real-postgres-results/inputs-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
[ "$(id -u)" = 0 ] && chmod 777 "$out"

rp_setup
rp_start "${cpusets[0]}"
echo -e "cpus\trep\tclients\tsync\ttps\tlatency_ms\ttransactions\tserver_cpu_s\tpgbench_cpu_s\tload_before\tload_after" >"$out/raw.tsv"
echo -e "rep\tfdatasync_us\tload_before\tload_after" >"$out/fsync.tsv"
for r in $(seq 1 "$repeat"); do
  l0="$(rp_load)"
  f="$(rp_fsync_us "$fsync_seconds")"
  echo -e "$r\t$f\t$l0\t$(rp_load)" | tee -a "$out/fsync.tsv" >&2
done

counts=(1 64)
$off_curve && counts=(1 2 4 8 16 32 64)
for cpus in "${cpusets[@]}"; do
  rp_start "$cpus"
  for r in $(seq 1 "$repeat"); do
    for c in "${counts[@]}"; do
      line="$(rp_pgbench "$cpus" "$c" "$seconds" off)"
      echo -e "$cpus\t$r\t$c\toff\t${line// /	}" | tee -a "$out/raw.tsv" >&2
    done
  done
done
rp_stop

if $host; then
  if "$root/tlogsim" calibrate-host --help >/dev/null 2>&1; then
    rp_say "tlogsim calibrate-host on $rp_data/pg_wal"
    "$root/tlogsim" calibrate-host --out "$out/host.conf" --force --path "$rp_data/pg_wal" >"$out/host.txt" 2>&1 ||
      rp_say "calibrate-host failed: $(tail -1 "$out/host.txt")"
  else
    rp_say "this tlogsim has no calibrate-host; skipped"
  fi
fi

# median and spread (min, max) of a column of numbers on stdin
stats() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) {print "- - -"; exit}
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR]}'; }
pick() { # cpus clients awk-expression over the raw columns -> median min max
  awk -F'\t' -v cpus="$1" -v c="$2" 'NR > 1 && $1 == cpus && $3 == c {print '"$3"'}' "$out/raw.tsv" | stats
}
read -r fs fs_lo fs_hi < <(awk -F'\t' 'NR > 1 {print $2}' "$out/fsync.tsv" | stats)
{
  echo "# pg-commit's inputs measured on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}'), pgbench -n -f insert.sql (INSERT INTO t VALUES (1)), -T $seconds, synchronous_commit=off, $repeat repetitions; load average before/after each figure in raw.tsv."
  echo
  echo "fdatasync (pg_test_fsync -s $fsync_seconds, one 8kB write): median $fs us, spread $fs_lo-$fs_hi us"
  echo
  echo "| cores (taskset) | clients | TPS median | TPS min-max | CPU us/txn (measured) median | min-max | load min-max |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  for cpus in "${cpusets[@]}"; do
    for c in "${counts[@]}"; do
      read -r t t_lo t_hi < <(pick "$cpus" "$c" '$5')
      read -r u u_lo u_hi < <(pick "$cpus" "$c" '($8 + $9) / $7 * 1e6')
      read -r _ l_lo _ < <(pick "$cpus" "$c" '$10')
      read -r _ _ l_hi < <(pick "$cpus" "$c" '$11')
      printf "| %s | %d | %.0f | %.0f-%.0f | %.1f | %.1f-%.1f | %s-%s |\n" "$cpus" "$c" "$t" "$t_lo" "$t_hi" "$u" "$u_lo" \
        "$u_hi" "$l_lo" "$l_hi"
    done
  done
  echo
  echo "| cores (taskset) | nproc | fsyncUs | cpuPerTxnUs = cores x 10^6 / TPS(64) | roundTripUs = 10^6 / TPS(1) - cpuPerTxnUs | measured CPU us/txn at 1 / at 64 |"
  echo "| --- | --- | --- | --- | --- | --- |"
  for cpus in "${cpusets[@]}"; do
    cores="$(taskset -c "$cpus" nproc)"
    read -r t1 _ _ < <(pick "$cpus" 1 '$5')
    read -r t64 _ _ < <(pick "$cpus" 64 '$5')
    read -r u1 _ _ < <(pick "$cpus" 1 '($8 + $9) / $7 * 1e6')
    read -r u64 _ _ < <(pick "$cpus" 64 '($8 + $9) / $7 * 1e6')
    cpu="$(awk -v k="$cores" -v t="$t64" 'BEGIN {printf "%.3f", k * 1e6 / t}')"
    rt="$(awk -v c="$cpu" -v t="$t1" 'BEGIN {printf "%.3f", 1e6 / t - c}')"
    printf "| %s | %d | %s | %s | %s | %.1f / %.1f |\n" "$cpus" "$cores" "$fs" "$cpu" "$rt" "$u1" "$u64"
    {
      echo "# measure-inputs.sh $(date -u +%Y-%m-%dT%H:%M:%SZ), cores $cpus (README's recipe; medians of $repeat)"
      echo "fsyncUs=$fs"
      echo "cpuPerTxnUs=$cpu"
      echo "roundTripUs=$rt"
      echo "cores=$cores"
      echo "# measured CPU (server + pgbench) per transaction: at 1 client $u1 us, at 64 clients $u64 us"
      echo "# TPS with synchronous_commit=off: 1 client $t1, 64 clients $t64"
    } >"$out/inputs-cpus-$cpus.set"
    awk -v r="$rt" 'BEGIN {exit !(r < 0)}' && rp_say "cores $cpus: roundTripUs = $rt < 0: one client is faster than 64 (README's recipe breaks here)"
  done
  if [ -f "$out/host.conf" ]; then echo; echo "calibrate-host: host.conf (its figures: host.txt)"; fi
} >"$out/inputs.md"
cat "$out/inputs.md"
echo "results: $out" >&2
