#!/usr/bin/env bash
# One run on a cluster whose nodes are on a real (emulated) network: each node JVM in a network namespace of its own,
# joined by veth pairs to a bridge, with `tc netem` delaying every packet a node sends (one way between two nodes:
# --delay-ms). Prints the wall seconds on 1 node and on N, the run's critical-path crossings per window
# (summary.json run.criticalPathCrossingsPerWindow) and what the protocol's crossings alone cost at that latency, for
# docs/performance.md's "Clusters". By hand, as root (it creates namespaces, a bridge and qdiscs; all removed at the
# end); not in CI.
#
#   sudo modules/bench/cluster-netem.sh [--nodes 3] [--delay-ms 0.1] [--scenario gcm1-100k] [--set key=value]...
#                                       [--out DIR]
#
# Writes DIR (default ./data/bench/netem-<time>): one.json and cluster.json (summary.json of each run), node-*.log,
# ping.txt (the measured round trip between two nodes) and netem.md (docs/performance.md's section "Clusters on a
# network", pasted there by hand; performance-page.sh keeps it). Exit 0 when both runs ended with
# the same digest, 1 otherwise, 2 on bad usage.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
nodes=3; delay=0.1; scenario=gcm1-100k; sets=(); out=""; net=10.77.0
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes|--delay-ms|--scenario|--set|--out|--net)
      [ $# -ge 2 ] || { echo "cluster-netem: $1 needs a value" >&2; exit 2; } ;;
  esac
  case "$1" in
    --nodes) nodes="$2"; shift 2 ;;
    --delay-ms) delay="$2"; shift 2 ;;
    --scenario) scenario="$2"; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --net) net="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "cluster-netem: unknown option '$1'; allowed: --nodes, --delay-ms, --scenario, --set, --out, --net" >&2
       exit 2 ;;
  esac
done
[[ "$nodes" =~ ^[1-9][0-9]?$ ]] && [ "$nodes" -le 50 ] || { echo "cluster-netem: --nodes: 1 to 50, got '$nodes'" >&2; exit 2; }
[[ "$delay" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "cluster-netem: --delay-ms: a number of ms >= 0, got '$delay'" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "cluster-netem: needs root (network namespaces, a bridge, tc qdiscs)" >&2; exit 2; }
[[ "$net" =~ ^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || { echo "cluster-netem: --net: the first three octets of a /24, got '$net'" >&2; exit 2; }
for c in ip tc jq python3 flock; do
  command -v $c >/dev/null || { echo "cluster-netem: needs $c (apt-get install iproute2 jq python3 util-linux)" >&2; exit 2; }
done
# one at a time (it owns the names below), and only on names and a subnet nobody else uses
exec 9>/run/tlogsim-cluster-netem.lock
flock -n 9 || { echo "cluster-netem: another cluster-netem.sh is running" >&2; exit 2; }
if ip -4 route | grep -q "^$net\."; then
  echo "cluster-netem: $net.0/24 is routed on this machine already (ip route); choose another with --net" >&2; exit 2
fi
if ip netns list | grep -q '^tlsim[0-9]' || ip link show tlsimbr0 >/dev/null 2>&1; then
  echo "cluster-netem: tlsim* namespaces or the tlsimbr0 bridge exist (an earlier run's?): remove them first" \
    "(ip netns del tlsimN; ip link del tlsimbr0)" >&2
  exit 2
fi
out="${out:-$root/data/bench/netem-$(date +%Y%m%d-%H%M%S)}"
bridge=tlsimbr0 pids=()
cleanup() { # what this run made (the names were checked free above)
  local live=()
  for p in "${pids[@]:-}"; do [ -n "$p" ] && kill -TERM "$p" 2>/dev/null && live+=("$p"); done
  for _ in $(seq 1 40); do # each node leaves the cluster, as local-cluster.sh stop lets them
    [ ${#live[@]} -gt 0 ] && kill -0 "${live[@]}" 2>/dev/null || break
    sleep 0.5
  done
  for p in "${live[@]:-}"; do [ -n "$p" ] && { kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; } || true; done
  for i in $(seq 0 $((nodes - 1))); do ip netns del "tlsim$i" 2>/dev/null || true; ip link del "tlsimv$i" 2>/dev/null || true; done
  ip link del "$bridge" 2>/dev/null || true
  ip link del tlsimprobe 2>/dev/null || true
}
trap cleanup EXIT
if [ "$delay" != 0 ]; then # this kernel may lack sch_netem (a minimal VM kernel): say so before making anything
  ip link add tlsimprobe type dummy 2>/dev/null || true
  if ! tc qdisc add dev tlsimprobe root netem delay 1ms 2>/dev/null; then
    echo "cluster-netem: this kernel has no netem qdisc (tc: 'Specified qdisc kind is unknown'; CONFIG_NET_SCH_NETEM," \
      "module sch_netem): no delay can be emulated here; --delay-ms 0 runs the namespaces without one" >&2
    exit 2
  fi
  ip link del tlsimprobe 2>/dev/null || true
fi
mkdir -p "$out"
"$root/tlogsim" --version >/dev/null # builds the jar once
keys="$out/keys"
"$root/deploy/cluster-keys.sh" new "$keys" >/dev/null
ip link add "$bridge" type bridge
ip addr add "$net.254/24" dev "$bridge"
ip link set "$bridge" up
for i in $(seq 0 $((nodes - 1))); do
  ns="tlsim$i"
  ip netns add "$ns"
  ip link add "tlsimv$i" type veth peer name eth0 netns "$ns"
  ip link set "tlsimv$i" master "$bridge" up
  ip -n "$ns" addr add "$net.$((i + 1))/24" dev eth0
  ip -n "$ns" link set lo up
  ip -n "$ns" link set eth0 up
  # every packet a node sends waits --delay-ms: one way between two nodes (the client, on the bridge, answers at once)
  [ "$delay" = 0 ] || ip netns exec "$ns" tc qdisc add dev eth0 root netem delay "${delay}ms"
done
if [ "$nodes" -ge 2 ] && command -v ping >/dev/null; then # the delay as the network gives it
  ip netns exec tlsim0 ping -c 5 -i 0.2 "$net.2" >"$out/ping.txt" 2>&1 || true
fi
for i in $(seq 0 $((nodes - 1))); do
  ip netns exec "tlsim$i" "$root/tlogsim" node --host "$net.$((i + 1))" --port 25520 --seed "$net.1:25520" \
    --journal none --keys "$keys" >"$out/node-$i.log" 2>&1 &
  pids+=($!)
  deadline=$((SECONDS + 180))
  until grep -q "tlogsim node up at" "$out/node-$i.log" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || { echo "cluster-netem: node $i did not come up; see $out/node-$i.log" >&2; exit 1; }
    sleep 0.5
  done
done
echo "cluster-netem: $nodes nodes up on $net.0/24, ${delay} ms one way; running $scenario on one node, then on them" >&2
"$root/tlogsim" run "$scenario" "${sets[@]}" --journal none -q --json >"$out/one.json"
TLOGSIM_CLUSTER_KEYS="$keys" "$root/tlogsim" run "$scenario" "${sets[@]}" --cluster "$net.1:25520" -q --json \
  >"$out/cluster.json"
one_wall=$(jq .run.wallSeconds "$out/one.json"); n_wall=$(jq .run.wallSeconds "$out/cluster.json")
windows=$(jq .run.windows "$out/cluster.json"); crossings=$(jq .run.criticalPathCrossingsPerWindow "$out/cluster.json")
rtt=$(sed -n 's/.*min\/avg\/max\/mdev = [0-9.]*\/\([0-9.]*\)\/.*/\1/p' "$out/ping.txt" 2>/dev/null || true)
same=$([ "$(jq -r .digest "$out/one.json")" = "$(jq -r .digest "$out/cluster.json")" ] && echo yes || echo NO)
{
  echo "## Clusters on a network"
  echo
  echo "$scenario on $nodes nodes in network namespaces, netem ${delay} ms one way (ping round trip ${rtt:-not measured: no ping} ms),"
  echo "$(hostname), $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1 /proc/loadavg), $(nproc) cores:"
  echo "\`sudo modules/bench/cluster-netem.sh --nodes $nodes --delay-ms $delay --scenario $scenario ${sets[*]:-}\`"
  echo
  echo "| nodes | run.wallSeconds | x 1 node | windows | critical-path crossings/window | crossings x latency | cross-node messages/window | same digest |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  echo "| 1 | $one_wall | 1.00 | $(jq .run.windows "$out/one.json") | 0 | 0 | 0 | - |"
  echo "| $nodes | $n_wall | $(python3 -c "print(f'{$n_wall/$one_wall:.2f}')") | $windows | $crossings |" \
    "$(python3 -c "print(f'{$windows*$crossings*$delay/1000:.2f} s')") | $(jq .run.crossNodeMessagesPerWindow "$out/cluster.json") | $same |"
} | tee "$out/netem.md"
[ "$same" = yes ]
