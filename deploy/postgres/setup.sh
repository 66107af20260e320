#!/usr/bin/env bash
# A local PostgreSQL for tlogsim's journal (--journal postgres), from Debian's packages:
#   installs postgresql if it is missing (apt-get; needs root), creates and starts a cluster listening on localhost
#   only, creates the user and database tlogsim (the user may create databases, which the tests use for throwaway
#   ones) and applies schema.sql (tlogsim would do that on first use anyway). Safe to run again: what exists is kept.
# The user's password: $TLOGSIM_JDBC_PASSWORD if set, else the one stored before, else a new random one. It is stored
# in a password file of libpq's format, mode 0600, where tlogsim (and psql) find it: $PGPASSFILE if set, else
# ~/.config/tlogsim/pgpass of the user who runs this (under sudo: $SUDO_USER's). It never goes on a command line: SQL
# reaches psql on its standard input, and psql reads the password from that file (docs/security.md).
# Then: ./tlogsim run gcm1 --journal postgres  (URL: jdbc:postgresql://127.0.0.1:5432/tlogsim, or TLOGSIM_JDBC_URL)
# Another server or cluster for a try: TLOGSIM_PG_PORT (default 5432), TLOGSIM_PG_CLUSTER (default main).
set -euo pipefail
umask 077
here="$(cd "$(dirname "$0")" && pwd)"
db=tlogsim
user=tlogsim
port="${TLOGSIM_PG_PORT:-5432}"
cluster="${TLOGSIM_PG_CLUSTER:-main}"

say() { echo "postgres-setup: $*"; }
die() { echo "postgres-setup: $*" >&2; exit 1; }

# whose password file: the user who ran sudo, if any, so that tlogsim run as that user finds it
owner="${SUDO_USER:-$(id -un)}"
home="$(getent passwd "$owner" | cut -d: -f6)"
[ -n "$home" ] || home="$HOME"
if [ -n "${PGPASSFILE:-}" ]; then
  pgpass="$PGPASSFILE"
else
  config="${XDG_CONFIG_HOME:-$home/.config}"
  [ "$owner" = "$(id -un)" ] || config="$home/.config"
  pgpass="$config/tlogsim/pgpass"
fi

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || die "PostgreSQL is not installed and installing it needs root (apt-get install postgresql)"
  say "installing postgresql (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi

version="$(ls /usr/lib/postgresql | sort -V | tail -1)"
if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -qx "$version $cluster"; then
  say "creating cluster $version/$cluster on port $port"
  pg_createcluster --port "$port" "$version" "$cluster" -- --auth-local=peer --auth-host=scram-sha-256 >/dev/null
fi
status="$(pg_lsclusters -h | awk -v v="$version" -v c="$cluster" '$1 == v && $2 == c {print $4}')"
if [ "$status" != online ]; then
  say "starting cluster $version/$cluster"
  pg_ctlcluster "$version" "$cluster" start
fi
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 1
done
pg_isready -q -h 127.0.0.1 -p "$port" || die "PostgreSQL $version did not accept connections on 127.0.0.1:$port within 30 s"

# The password: given, else stored before (for this port and user), else new; no built-in one.
stored() { [ -f "$pgpass" ] && awk -F: -v p="$port" -v u="$user" '$1 == "127.0.0.1" && $2 == p && $4 == u {print $5; exit}' "$pgpass"; }
password="${TLOGSIM_JDBC_PASSWORD:-$(stored || true)}"
if [ -z "$password" ]; then
  password="$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  say "generated a password for user $user"
fi
[[ "$password" != *"'"* && "$password" != *:* && "$password" != *\\* ]] || die "the password must not hold ' : or \\"
if [ "$owner" != "$(id -un)" ]; then runuser -u "$owner" -- mkdir -p "$(dirname "$pgpass")"; else mkdir -p "$(dirname "$pgpass")"; fi
chmod 700 "$(dirname "$pgpass")"
tmp="$(mktemp "$pgpass.XXXXXX")"
{ [ -f "$pgpass" ] && grep -v -E "^(127\.0\.0\.1|localhost):$port:[^:]*:$user:" "$pgpass" || true
  echo "127.0.0.1:$port:*:$user:$password"
  echo "localhost:$port:*:$user:$password"; } >"$tmp"
chmod 600 "$tmp"
mv "$tmp" "$pgpass"
if [ "$owner" != "$(id -un)" ]; then chown "$owner" "$pgpass"; fi
say "password of $user stored in $pgpass (mode 0600)"

# SQL on standard input, never on the command line (where ps shows it to every user).
as_postgres() { runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$port" "$@"; }
if [ "$(as_postgres -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$user'")" != 1 ]; then
  say "creating user $user"
  as_postgres <<SQL
CREATE ROLE $user LOGIN CREATEDB PASSWORD '$password';
SQL
else
  # the stored (or given) password, also over one that an earlier setup built in
  as_postgres <<SQL
ALTER ROLE $user PASSWORD '$password';
SQL
fi
if [ "$(as_postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
  say "creating database $db"
  as_postgres -c "CREATE DATABASE $db OWNER $user"
fi
PGPASSFILE="$pgpass" PGOPTIONS="-c client_min_messages=warning" \
  psql -X -q -v ON_ERROR_STOP=1 -1 -h 127.0.0.1 -p "$port" -U "$user" -d "$db" -w -f "$here/schema.sql"
say "ready: jdbc:postgresql://127.0.0.1:$port/$db (user $user; password in $pgpass)"
