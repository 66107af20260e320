#!/usr/bin/env bash
# Where a GCM-1 event's time goes: JFR profiles of `tlogsim bench gcm1` at each N, printed as a Markdown section
# (the shares of the run threads' samples by part of the simulator, and the top frames), for docs/performance.md's
# "Profile" (performance-page.sh keeps that section as it is: paste this script's output there by hand).
#
#   modules/bench/profile-gcm1.sh [--jar JAR --commit HASH] [--sizes "1000 100000"] [--seconds 20] [--threads 2]
#                                 [--top 10]
#
# --jar profiles another build (e.g. an older commit's jar); --commit names the commit it was built from.
# JFR's "profile" settings with Java samples every 1 ms instead of 10 (ten times the samples of a 20 s run). The
# shares are of samples of running Java code on the run's threads: time a thread waits for work is not in them (see
# run.threadBusy), nor GC. Run it under the benchmark lock: flock /work/locks/bench modules/bench/profile-gcm1.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jar="$root/modules/cli/target/tlogsim.jar"; commit=""; sizes="1000 100000"; seconds=20; threads=2; top=10
while [ $# -gt 0 ]; do
  case "$1" in
    --jar) jar="$2"; shift 2 ;;
    --commit) commit="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --top) top="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "profile-gcm1: unknown option '$1'; allowed: --jar, --commit, --sizes, --seconds, --threads, --top" >&2; exit 2 ;;
  esac
done
[ -f "$jar" ] || { echo "profile-gcm1: no jar $jar (mvn -B -q -DskipTests install)" >&2; exit 2; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
jdk="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
sed -E '/<event name="jdk.ExecutionSample">/,/<\/event>/ s|(<setting name="period"[^>]*>)[^<]*|\11 ms|' \
  "$jdk/lib/jfr/profile.jfc" >"$work/profile-1ms.jfc"
# One cold run (--jit-warmup 0 where the jar knows it), as the profiles before bench warmed the JIT: a warm-up run's
# samples would land on the same run threads.
cold=(); java -jar "$jar" bench --help 2>/dev/null | grep -q -- --jit-warmup && cold=(--jit-warmup 0)
echo "## Profile"
echo
echo "\`modules/bench/profile-gcm1.sh --sizes \"$sizes\" --seconds $seconds --threads $threads\` on $(hostname -s),"
echo "$(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1 /proc/loadavg), $(nproc) cores, commit"
echo "${commit:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}; each N: one run of"
echo "\`java -XX:StartFlightRecording=filename=X.jfr,settings=<profile, Java samples every 1 ms> -jar tlogsim.jar bench gcm1"
echo "--sessions N --seconds $seconds --threads $threads${cold[*]:+ ${cold[*]}}\`, the run's threads' samples only (not the JVM's"
echo "start nor the report)."
for n in $sizes; do
  java -Xss2m -XX:+UseParallelGC -Xmx4g -XX:StartFlightRecording=filename="$work/$n.jfr",settings="$work/profile-1ms.jfc" \
    -jar "$jar" bench gcm1 --sessions "$n" --seconds "$seconds" --threads "$threads" --seed 42 "${cold[@]}" --quiet \
    --out "$work/out-$n" --force >/dev/null 2>"$work/$n.err"
  jfr print --stack-depth 64 --events jdk.ExecutionSample "$work/$n.jfr" >"$work/$n.txt"
  python3 - "$work/out-$n/summary.json" "$n" <<'P'
import json, sys
s = json.load(open(sys.argv[1])); r = s["run"]
print(f"\n### N = {int(sys.argv[2]):,}\n")
print(f"{s['commits']['count']:,} commits, digest {s['digest']}, run.wallSeconds {r['wallSeconds']}, "
      f"{r['events']:,} events in {r['windows']:,} windows, {r['commitsPerWallSecond']:,.0f} commits/wall s"
      + (f", run.threadBusy {r['threadBusy']}" if 'threadBusy' in r else "") + "\n")
P
  python3 "$root/modules/bench/profile-agg.py" "$work/$n.txt" "$top" --markdown
done
