#!/usr/bin/env bash
# A local PostgreSQL for tlogsim's journal (--journal postgres), from Debian's packages:
#   installs postgresql if it is missing (apt-get; needs root), creates and starts a cluster listening on localhost
#   only, creates the user and database tlogsim (password: $TLOGSIM_JDBC_PASSWORD, default tlogsim; the user may
#   create databases, which the tests use for throwaway ones), and applies schema.sql (tlogsim would do that on
#   first use anyway). Safe to run again: what exists is kept.
# Then: ./tlogsim run gcm1 --journal postgres  (URL: jdbc:postgresql://127.0.0.1:5432/tlogsim, or TLOGSIM_JDBC_URL)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
db=tlogsim
user=tlogsim
password="${TLOGSIM_JDBC_PASSWORD:-tlogsim}"
port="${TLOGSIM_PG_PORT:-5432}"

say() { echo "postgres-setup: $*"; }
die() { echo "postgres-setup: $*" >&2; exit 1; }

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || die "PostgreSQL is not installed and installing it needs root (apt-get install postgresql)"
  say "installing postgresql (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi

version="$(ls /usr/lib/postgresql | sort -V | tail -1)"
if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -qx "$version main"; then
  say "creating cluster $version/main on port $port"
  pg_createcluster --port "$port" "$version" main -- --auth-local=peer --auth-host=scram-sha-256 >/dev/null
fi
status="$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}')"
if [ "$status" != online ]; then
  say "starting cluster $version/main"
  pg_ctlcluster "$version" main start
fi
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 1
done
pg_isready -q -h 127.0.0.1 -p "$port" || die "PostgreSQL $version did not accept connections on 127.0.0.1:$port within 30 s"

as_postgres() { runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$port" "$@"; }
if [ "$(as_postgres -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$user'")" != 1 ]; then
  say "creating user $user"
  as_postgres -c "CREATE ROLE $user LOGIN CREATEDB PASSWORD '$password'"
fi
if [ "$(as_postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
  say "creating database $db"
  as_postgres -c "CREATE DATABASE $db OWNER $user"
fi
PGOPTIONS="-c client_min_messages=warning" PGPASSWORD="$password" psql -X -q -v ON_ERROR_STOP=1 -1 -h 127.0.0.1 -p "$port" -U "$user" -d "$db" \
  -f "$here/schema.sql"
say "ready: jdbc:postgresql://127.0.0.1:$port/$db (user $user)"
