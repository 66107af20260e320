#!/usr/bin/env bash
# The secrets of a tlogsim cluster on Kubernetes (docs/security.md), made once, before the manifests are applied:
#   tlogsim-cluster-keys  the cluster's keys (deploy/cluster-keys.sh new): mounted into every node and submitting pod
#   tlogsim-postgres      the journal's PostgreSQL password: postgres.yaml's server and the nodes take it from here
#   deploy/kubernetes/secrets.sh [NAMESPACE]
# Both go to kubectl as files, never on a command line. Key rotation: deploy/cluster-keys.sh trust-next / use-next /
# drop-previous on a copy of the keys, `kubectl create secret ... --dry-run=client -o yaml | kubectl apply -f -` with
# the new directory, then `kubectl rollout restart statefulset/tlogsim` after each step (one pod at a time).
set -euo pipefail
umask 077
here="$(cd "$(dirname "$0")" && pwd)"
ns=(${1:+--namespace "$1"})
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$here/../cluster-keys.sh" new "$work/keys"
kubectl "${ns[@]}" create secret generic tlogsim-cluster-keys --from-file="$work/keys"
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/password"
kubectl "${ns[@]}" create secret generic tlogsim-postgres --from-file=password="$work/password"
echo "secrets: tlogsim-cluster-keys and tlogsim-postgres created; now kubectl apply -f deploy/kubernetes/"
