#!/usr/bin/env bash
# A tlogsim cluster of separate JVMs on this machine (127.0.0.1), for clustered runs and their tests.
#
#   deploy/local-cluster.sh start N [--base-port P] [--journal auto|postgres|none]
#        N nodes on ports P, P+1, ... (default 25520); the first is the seed; prints the contact point for
#        `tlogsim run ... --cluster`. Journal: the nodes' shared PostgreSQL journal (deploy/postgres/setup.sh starts
#        one; TLOGSIM_JDBC_URL), where runs are recorded and from whose checkpoints a run goes on when its
#        coordinator's node is lost; auto (default): postgres when one answers on 127.0.0.1:5432, else none.
#   deploy/local-cluster.sh status                     the nodes and whether they are alive
#   deploy/local-cluster.sh stop                       SIGTERM (each node leaves the cluster), then kill -9 stragglers
#
# Remoting is TLS with the cluster's keys (docs/security.md): made on first use in $TLOGSIM_DATA/cluster/keys (default
# ./data/cluster/keys, mode 0700) by deploy/cluster-keys.sh and given to every node; `tlogsim run --cluster` finds them
# there (or where TLOGSIM_CLUSTER_KEYS says). A process without them can neither join nor submit.
# Logs and pids go to $TLOGSIM_DATA/cluster (default ./data/cluster). JVM options: TLOGSIM_JAVA_OPTS.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state="${TLOGSIM_DATA:-$root/data}/cluster"
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "local-cluster: $*" >&2; exit 2; }

start() {
  local n="${1:-}" base=25520 journal=auto
  shift || true
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "start: N must be a positive integer, got '${n}'"
  while [ $# -gt 0 ]; do
    case "$1" in
      --base-port) base="${2:-}"; shift 2 ;;
      --journal) journal="${2:-}"; shift 2 ;;
      *) die "start: unknown option '$1'; allowed: --base-port P, --journal auto|postgres|none" ;;
    esac
  done
  case "$journal" in
    auto) if command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432; then journal=postgres; else journal=none; fi ;;
    postgres|none) ;;
    *) die "--journal: must be auto, postgres or none, got '$journal'" ;;
  esac
  [[ "$base" =~ ^[0-9]+$ ]] && [ "$base" -ge 1024 ] && [ $((base + n)) -le 65535 ] || die "--base-port: must be 1024..$((65535 - n))"
  if [ -s "$state/pids" ] && kill -0 $(cat "$state/pids") 2>/dev/null; then
    die "a cluster is running already (deploy/local-cluster.sh stop first)"
  fi
  for i in $(seq 0 $((n - 1))); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$((base + i))") 2>/dev/null; then die "port $((base + i)) is in use"; fi
  done
  (umask 077 && mkdir -p "$state")
  chmod 700 "$state"
  rm -f "$state/pids" "$state"/node-*.log
  if [ ! -f "$state/keys/cluster.p12" ]; then "$root/deploy/cluster-keys.sh" new "$state/keys" >/dev/null; fi
  "$root/tlogsim" --version >/dev/null # builds the jar once, before the nodes start
  for i in $(seq 0 $((n - 1))); do
    local port=$((base + i))
    nohup "$root/tlogsim" node --port "$port" --seed "127.0.0.1:$base" --journal "$journal" --keys "$state/keys" \
      >"$state/node-$port.log" 2>&1 &
    echo $! >>"$state/pids"
    echo "$port" >>"$state/ports"
  done
  local deadline=$((SECONDS + 180))
  for i in $(seq 0 $((n - 1))); do
    local port=$((base + i))
    until grep -q "tlogsim node up at" "$state/node-$port.log" 2>/dev/null; do
      if [ $SECONDS -ge $deadline ]; then
        echo "local-cluster: node 127.0.0.1:$port did not come up; see $state/node-$port.log" >&2
        stop >/dev/null; exit 1
      fi
      sleep 0.5
    done
  done
  echo "cluster of $n node$([ "$n" = 1 ] || echo s) up; contact point: 127.0.0.1:$base; runs journaled: $journal"
  echo "run on it:   ./tlogsim run gcm1-100k --cluster 127.0.0.1:$base"
  echo "keys:        $state/keys (TLS; a client finds them under its data directory or in TLOGSIM_CLUSTER_KEYS)"
  echo "logs:        $state/node-*.log"
}

status() {
  [ -s "$state/pids" ] || { echo "no cluster started from here"; return 0; }
  paste "$state/pids" "$state/ports" 2>/dev/null | while read -r pid port; do
    if kill -0 "$pid" 2>/dev/null; then echo "127.0.0.1:$port  pid $pid  alive"; else echo "127.0.0.1:$port  pid $pid  gone"; fi
  done
}

stop() {
  [ -s "$state/pids" ] || { echo "no cluster started from here"; return 0; }
  local pids; pids=$(cat "$state/pids")
  kill -TERM $pids 2>/dev/null || true
  for _ in $(seq 1 40); do
    kill -0 $pids 2>/dev/null || break
    sleep 0.5
  done
  kill -9 $pids 2>/dev/null || true
  rm -f "$state/pids" "$state/ports"
  echo "cluster stopped"
}

case "${1:-}" in
  start) shift; rm -f "$state/ports"; start "$@" ;;
  stop) stop ;;
  status) status ;;
  -h|--help|"") usage ;;
  *) die "unknown command '$1'; allowed: start N, status, stop" ;;
esac
