#!/usr/bin/env bash
# GCM-1 speed of tlogsim beside its peers (../shared/peers, BENCH.md), in the same run, as ratios.
#
#   modules/bench/compare-peers.sh [--sizes "1000 100000"] [--seconds 2] [--threads 2] [--no-simgrid] [--million]
#
# For each N: PlainLoop (one thread, one heap), the same loop in C++ (plainloop.cpp, near one core's limit), SimGrid
# S4U (if libsimgrid-dev is installed; --no-simgrid skips it: at N=100,000 it takes ~30 s and ~6 GB), and `tlogsim
# bench gcm1` twice: as bench runs by default (after one warm-up run of the same benchmark in its JVM, so compiled
# code) and cold (--jit-warmup 0: the JIT's compilation inside the measured run, as PlainLoop's is in its run);
# prints simulated commits per wall second and tlogsim's ratios. --million adds tlogsim alone at N=1,000,000 with
# -Xmx4g and its peak RSS.
# Results (a Markdown table and the summaries) go to $TLOGSIM_DATA/bench/peers-<time>/ (default ./data).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
peers="${PEERS_DIR:-$root/../shared/peers}"
sizes="1000 100000"
seconds=2
threads=2
simgrid=1
million=0
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --no-simgrid) simgrid=0; shift ;;
    --million) million=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "compare-peers: unknown option '$1'; allowed: --sizes, --seconds, --threads, --no-simgrid, --million" >&2; exit 2 ;;
  esac
done
[ -f "$peers/PlainLoop.java" ] || { echo "compare-peers: no PlainLoop.java in $peers (set PEERS_DIR)" >&2; exit 2; }

data="${TLOGSIM_DATA:-$root/data}"
out="$data/bench/peers-$(date +%Y%m%d-%H%M%S)"
work="$out/build"
mkdir -p "$work"

echo "building peers and tlogsim ..." >&2
javac -d "$work/plain" "$peers/PlainLoop.java"
cpp=1  # the C++ loop: "-" in its columns when g++ or plainloop.cpp is missing
g++ -O2 -std=c++17 "$peers/plainloop.cpp" -o "$work/plainloop_c" 2>"$work/plainloop-build.log" || {
  echo "C++ loop not built (g++ and $peers/plainloop.cpp needed); see $work/plainloop-build.log" >&2; cpp=0; }
if [ "$simgrid" = 1 ]; then
  if ! g++ -O2 -std=c++17 "$peers/gcm_simgrid.cpp" -lsimgrid -o "$work/gcm_simgrid" 2>"$work/simgrid-build.log"; then
    echo "SimGrid peer not built (apt-get install libsimgrid-dev); see $work/simgrid-build.log" >&2
    simgrid=0
  fi
fi
"$root/tlogsim" --version >/dev/null

field() { # field NAME "k=v k=v ..." -> v
  tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"
}
json() { # json FILE dotted.path
  python3 -c 'import json,sys
v=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v=v[k]
print(v)' "$1" "$2"
}
ratio() { [ "$2" = - ] && { echo -; return; }; python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{a/b:.2f}' if b>0 else '-')" "$1" "$2"; }
fmt() { [ "$1" = - ] && { echo -; return; }; python3 -c "import sys; print(f'{float(sys.argv[1]):,.0f}')" "$1"; }

table="$out/peers.md"
{
  echo "GCM-1, $seconds simulated s, tlogsim on $threads threads, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "| N | tlogsim commits | tlogsim latency us | tlogsim commits/wall s | tlogsim cold | C++ loop | PlainLoop | SimGrid | x C++ | x PlainLoop | cold x C++ | cold x PlainLoop | x SimGrid | messages/event |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} >"$table"

for n in $sizes; do
  echo "N=$n: PlainLoop ..." >&2
  p=$(java -cp "$work/plain" PlainLoop "$n" "$seconds")
  pr=$(field simCommitsPerWallSec "$p")
  echo "N=$n: C++ loop ..." >&2
  cr="-"; [ "$cpp" = 1 ] && cr=$(field simCommitsPerWallSec "$("$work/plainloop_c" "$n" "$seconds")")
  sr="-"
  if [ "$simgrid" = 1 ]; then
    echo "N=$n: SimGrid ..." >&2
    s=$("$work/gcm_simgrid" "$n" "$seconds" --cfg=contexts/guard-size:0 2>/dev/null | tail -1)
    sr=$(field simCommitsPerWallSec "$s")
  fi
  echo "N=$n: tlogsim ..." >&2
  "$root/tlogsim" bench gcm1 --sessions "$n" --seconds "$seconds" --threads "$threads" --out "$out/tlogsim-$n" >"$out/tlogsim-$n.txt"
  sum="$out/tlogsim-$n/summary.json"
  tr=$(json "$sum" run.commitsPerWallSecond)
  echo "N=$n: tlogsim cold (--jit-warmup 0) ..." >&2
  "$root/tlogsim" bench gcm1 --sessions "$n" --seconds "$seconds" --threads "$threads" --jit-warmup 0 \
    --out "$out/tlogsim-cold-$n" >"$out/tlogsim-cold-$n.txt"
  tc=$(json "$out/tlogsim-cold-$n/summary.json" run.commitsPerWallSecond)
  xs="-"; [ "$sr" != "-" ] && xs=$(ratio "$tr" "$sr")
  srf="-"; [ "$sr" != "-" ] && srf=$(fmt "$sr")
  echo "| $(fmt "$n") | $(fmt "$(json "$sum" commits.count)") | $(json "$sum" commits.latencyUs.mean) | $(fmt "$tr") | $(fmt "$tc") | $(fmt "$cr") | $(fmt "$pr") | $srf | $(ratio "$tr" "$cr") | $(ratio "$tr" "$pr") | $(ratio "$tc" "$cr") | $(ratio "$tc" "$pr") | $xs | $(json "$sum" run.messagesPerEvent) |" >>"$table"
done

if [ "$million" = 1 ]; then
  echo "N=1000000: tlogsim with -Xmx4g ..." >&2
  rss="-"
  if [ -x /usr/bin/time ]; then
    TLOGSIM_JAVA_OPTS="-Xmx4g" /usr/bin/time -f "%M" -o "$out/rss-1m.txt" "$root/tlogsim" bench gcm1 --sessions 1000000 \
      --seconds "$seconds" --threads "$threads" --out "$out/tlogsim-1000000" >"$out/tlogsim-1000000.txt"
    rss="$(( $(tail -1 "$out/rss-1m.txt") / 1024 )) MB peak RSS"
  else
    TLOGSIM_JAVA_OPTS="-Xmx4g" "$root/tlogsim" bench gcm1 --sessions 1000000 --seconds "$seconds" --threads "$threads" \
      --out "$out/tlogsim-1000000" >"$out/tlogsim-1000000.txt"
  fi
  sum="$out/tlogsim-1000000/summary.json"
  { echo; echo "N=1,000,000 with -Xmx4g: $(fmt "$(json "$sum" commits.count)") commits, $(fmt "$(json "$sum" run.commitsPerWallSecond)") commits/wall s, $(json "$sum" run.messagesPerEvent) messages/event, $rss"; } >>"$table"
fi
cat "$table"
echo "(written to $table)" >&2
