#!/usr/bin/env bash
# The key material of a tlogsim cluster (docs/security.md), made with the JDK's keytool. Every node and every client
# of one cluster has the same directory; remoting is TLS with mutual authentication, so a process without these keys
# can neither join nor submit a run.
#   deploy/cluster-keys.sh new DIR            a cluster's keys: DIR/cluster.p12 (the key pair every member presents),
#                                             DIR/trust.p12 (the certificates members accept), DIR/password (theirs)
#   deploy/cluster-keys.sh trust-next DIR     rotation, step 1: a new key pair DIR/next.p12, trusted beside the old one
#   deploy/cluster-keys.sh use-next DIR       step 2: members present the new key pair (the old one: previous.p12)
#   deploy/cluster-keys.sh drop-previous DIR  step 3: the old certificate is trusted no more
#   deploy/cluster-keys.sh show DIR           the certificate in use and those trusted
# After each step of a rotation, give every node and client the new DIR and restart the nodes one at a time.
# DIR is made mode 0700, its files 0600; the password goes to keytool through a file, never on a command line.
set -euo pipefail
umask 077
usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "cluster-keys: $*" >&2; exit 2; }
keytool="${JAVA_HOME:+$JAVA_HOME/bin/}keytool"
command -v "$keytool" >/dev/null || die "keytool (from the JDK) is not on the PATH; set JAVA_HOME"

cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] || { usage; exit 0; }
[ -n "$dir" ] || die "$cmd: give the keys' directory, e.g. deploy/cluster-keys.sh $cmd data/cluster/keys"
pw="$dir/password"

# a key pair in $1 (PKCS12, EC P-256, valid two years), named after now
keypair() {
  local alias; alias="tlogsim-$(date -u +%Y%m%d-%H%M%S)"
  "$keytool" -genkeypair -alias "$alias" -keyalg EC -groupname secp256r1 -sigalg SHA256withECDSA -validity 730 \
    -dname "CN=tlogsim cluster $alias" -storetype PKCS12 -keystore "$1" -storepass:file "$pw" >/dev/null 2>&1 \
    || die "keytool could not make a key pair in $1"
  echo "$alias"
}
# trusts the certificate of key pair $1 in trust.p12
trust() {
  local alias; alias="$("$keytool" -list -storetype PKCS12 -keystore "$1" -storepass:file "$pw" | sed -n 's/^\(tlogsim-[0-9-]*\),.*/\1/p' | head -1)"
  "$keytool" -exportcert -alias "$alias" -storetype PKCS12 -keystore "$1" -storepass:file "$pw" -file "$dir/.cert" >/dev/null 2>&1
  "$keytool" -importcert -noprompt -alias "$alias" -file "$dir/.cert" -storetype PKCS12 -keystore "$dir/trust.p12" \
    -storepass:file "$pw" >/dev/null 2>&1 || die "keytool could not add $alias to $dir/trust.p12"
  rm -f "$dir/.cert"
  echo "$alias"
}
need() { [ -f "$dir/$1" ] || die "$cmd: $dir/$1 is missing${2:+; $2}"; }

case "$cmd" in
  new)
    [ ! -e "$dir/cluster.p12" ] || die "new: $dir already holds a cluster's keys (rotate them: trust-next, use-next, drop-previous)"
    mkdir -p "$dir"; chmod 700 "$dir"
    head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$pw"
    chmod 600 "$pw"
    keypair "$dir/cluster.p12" >/dev/null
    echo "cluster-keys: new key pair $(trust "$dir/cluster.p12") in $dir (cluster.p12, trust.p12, password)"
    ;;
  trust-next)
    need cluster.p12; need trust.p12
    [ ! -e "$dir/next.p12" ] || die "trust-next: $dir/next.p12 exists already (use-next is the next step)"
    keypair "$dir/next.p12" >/dev/null
    echo "cluster-keys: next key pair $(trust "$dir/next.p12") trusted beside the one in use; give every member $dir"
    echo "cluster-keys: and restart the nodes one at a time, then: deploy/cluster-keys.sh use-next $dir"
    ;;
  use-next)
    need next.p12 "run trust-next first"
    mv "$dir/cluster.p12" "$dir/previous.p12"
    mv "$dir/next.p12" "$dir/cluster.p12"
    echo "cluster-keys: members now present the next key pair; give every member $dir and restart the nodes one at a"
    echo "cluster-keys: time, then: deploy/cluster-keys.sh drop-previous $dir"
    ;;
  drop-previous)
    need previous.p12 "nothing to drop"
    old="$("$keytool" -list -storetype PKCS12 -keystore "$dir/previous.p12" -storepass:file "$pw" | sed -n 's/^\(tlogsim-[0-9-]*\),.*/\1/p' | head -1)"
    "$keytool" -delete -alias "$old" -storetype PKCS12 -keystore "$dir/trust.p12" -storepass:file "$pw" >/dev/null 2>&1 \
      || die "keytool could not remove $old from $dir/trust.p12"
    rm -f "$dir/previous.p12"
    echo "cluster-keys: $old is trusted no more; give every member $dir and restart the nodes one at a time"
    ;;
  show)
    need cluster.p12; need trust.p12
    echo "in use:  $("$keytool" -list -storetype PKCS12 -keystore "$dir/cluster.p12" -storepass:file "$pw" | sed -n 's/^\(tlogsim-[0-9-]*\),.*/\1/p')"
    echo "trusted: $("$keytool" -list -storetype PKCS12 -keystore "$dir/trust.p12" -storepass:file "$pw" | sed -n 's/^\(tlogsim-[0-9-]*\),.*/\1/p' | tr '\n' ' ')"
    ;;
  -h|--help) usage ;;
  *) die "unknown command '$cmd'; allowed: new, trust-next, use-next, drop-previous, show" ;;
esac
chmod 600 "$dir"/*.p12 "$pw" 2>/dev/null || true
