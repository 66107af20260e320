# A PostgreSQL server of its own for measuring against (sourced by measure-inputs.sh and measure-curve.sh).
#
# From Debian's packages (postgresql-15, postgresql-contrib for pgbench; apt-get install when missing, as root), an
# instance in a directory of its own ($REAL_PG_DIR, default ./data/real-postgres, /var/tmp/tlogsim-real-postgres as root) that listens on no TCP port at all:
# only on a Unix socket in that directory named for port $REAL_PG_PORT (default 5544), so it never meets the server of
# the default port (the journal's, deploy/postgres/setup.sh), which is left alone. Settings are initdb's defaults
# (fsync on, wal_sync_method fdatasync, synchronous_commit on, shared_buffers 128 MB): what a user who installs
# PostgreSQL and runs pgbench gets. As root, the server and its clients run as the user postgres (initdb refuses root).
#
# Functions: rp_setup, rp_start CPUS, rp_stop, rp_psql SQL, rp_pgbench CPUS CLIENTS SECONDS SYNC (see there),
# rp_load (the 1-minute load average), rp_fsync_us SECONDS CPUS -> fdatasync usecs/op of an 8 kB write on the WAL's
# disk, pg_test_fsync pinned to the server's cores.

rp_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
# As root the server runs as postgres, which cannot enter ./data (private to its owner, tlogsim's journal lives there):
# its directory is then one of its own under /var/tmp.
if [ "$(id -u)" = 0 ]; then
  REAL_PG_DIR="${REAL_PG_DIR:-/var/tmp/tlogsim-real-postgres}"
else
  REAL_PG_DIR="${REAL_PG_DIR:-$rp_root/data/real-postgres}"
fi
REAL_PG_PORT="${REAL_PG_PORT:-5544}"
rp_data="$REAL_PG_DIR/pgdata"
rp_sql="$REAL_PG_DIR/insert.sql"

rp_say() { echo "real-postgres: $*" >&2; }
rp_die() { echo "real-postgres: $*" >&2; exit 1; }

rp_bin() {
  local v
  v="$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -1)"
  [ -n "$v" ] && [ -x "/usr/lib/postgresql/$v/bin/postgres" ] || return 1
  echo "/usr/lib/postgresql/$v/bin"
}

# Run a command as the server's owner: postgres when we are root, else ourselves.
rp_as() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

rp_setup() {
  if ! rp_bin >/dev/null || [ ! -x "$(rp_bin)/pgbench" ]; then
    [ "$(id -u)" = 0 ] || rp_die "PostgreSQL 15 is not installed; as root: apt-get install postgresql-15 postgresql-contrib"
    rp_say "installing postgresql-15 and postgresql-contrib (apt-get)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 postgresql-contrib >/dev/null
  fi
  PGBIN="$(rp_bin)"
  command -v taskset >/dev/null || rp_die "taskset (util-linux) is needed to pin the server and pgbench to cores"
  mkdir -p "$REAL_PG_DIR"
  [ "$(id -u)" = 0 ] && chown postgres: "$REAL_PG_DIR"
  if [ ! -f "$rp_data/PG_VERSION" ]; then
    rp_say "initdb $rp_data"
    rp_as "$PGBIN/initdb" -D "$rp_data" -A trust -U postgres >/dev/null
    # no TCP at all: a Unix socket in our own directory, named for our port
    rp_as tee -a "$rp_data/postgresql.conf" >/dev/null <<EOF
# tlogsim real-postgres: nothing listens on TCP; the socket is in this directory
listen_addresses = ''
port = $REAL_PG_PORT
unix_socket_directories = '$REAL_PG_DIR'
max_connections = 200
EOF
  fi
  rp_as tee "$rp_sql" >/dev/null <<<"INSERT INTO t VALUES (1);"
}

rp_running() { rp_as "$PGBIN/pg_ctl" -D "$rp_data" status >/dev/null 2>&1; }

rp_stop() {
  if rp_running; then rp_as "$PGBIN/pg_ctl" -D "$rp_data" -m fast -w stop >/dev/null; fi
}

# Start (or restart) the server with every process on the cores CPUS (taskset -c CPUS: children inherit it).
rp_start() {
  local cpus="$1"
  rp_stop
  # 9>&-: rp_lock's descriptor is not the server's (it would hold the lock while it runs)
  rp_as taskset -c "$cpus" "$PGBIN/pg_ctl" -D "$rp_data" -l "$REAL_PG_DIR/server.log" -w start >/dev/null 9>&- ||
    rp_die "the server did not start (see $REAL_PG_DIR/server.log)"
  rp_psql "SET client_min_messages = warning; CREATE TABLE IF NOT EXISTS t (x int)" >/dev/null
}

rp_psql() {
  rp_as "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$REAL_PG_DIR" -p "$REAL_PG_PORT" -U postgres -d postgres -tAc "$1"
}

rp_load() { cut -d' ' -f1 /proc/loadavg; }

# With REAL_PG_LOCK=FILE (here: /work/locks/bench), each figure is measured holding flock FILE, so that benchmarks of
# others sharing the machine do not run during it (nor it during theirs).
# Every figure starts here (holding the lock when there is one): what others left dirty is written back first (sync),
# so that their writeback does not fall into the figure (since 2026-12-06: a pg_test_fsync measured 864 us, against 85
# and 86 just before, while a build's files were being written: docs/commit-path-host-costs.md 10.2). It does not stop
# another writer.
rp_lock() {
  if [ -n "${REAL_PG_LOCK:-}" ]; then exec 9>>"$REAL_PG_LOCK"; flock 9; fi
  sync
}
rp_unlock() { [ -z "${REAL_PG_LOCK:-}" ] && return 0; flock -u 9; }

# The host's speed (host-speed.py says why: on this VM kind the same work takes twice the CPU for tens of seconds at a
# time, and the guest sees no steal). With REAL_PG_SPEED=FILE a probe writes there (judge.sh starts one for its whole
# run); rp_speed_start starts one for this script when none runs (REAL_PG_SPEED=off: none). Each figure then waits for
# full speed (rp_speed_wait, the 3 s before it, at most 120 s) and is measured again when it did not get it or the
# 3 s right after it were not at full speed (rp_speed_after), at most REAL_PG_SPEED_TRIES tries (default 3): inputs
# and curve are measured at the host's full speed, judged by the idle windows around a figure and, for a pgbench run,
# by the median of the probe's samples during it (rp_during_slow), never by the figure's result (host-speed.py). Every
# try not at full speed goes to the step's *-slow file, the one kept too.
rp_speed_start() {
  local file="$1"
  rp_speed_tries # REAL_PG_SPEED_TRIES checked before anything is measured
  [ -n "${REAL_PG_SPEED:-}" ] && return 0
  command -v python3 >/dev/null || { rp_say "no python3: the host's speed is not probed"; export REAL_PG_SPEED=off; return 0; }
  export REAL_PG_SPEED="$file"
  setsid python3 "$rp_root/modules/bench/real-postgres/host-speed.py" probe "$file" --parent $$ \
    --cpus "0-$(( $(nproc --all) - 1 ))" </dev/null >/dev/null 2>"${file%.txt}.err" &
  rp_speed_pid=$!
  trap 'kill -- -$rp_speed_pid 2>/dev/null || true' EXIT
}
rp_speed_on() { [ -n "${REAL_PG_SPEED:-}" ] && [ "$REAL_PG_SPEED" != off ]; }
# sets rp_tries: how many times a figure may be measured (REAL_PG_SPEED_TRIES; 1 when speed is not probed)
rp_speed_tries() {
  local t="${REAL_PG_SPEED_TRIES:-3}"
  [[ "$t" =~ ^[1-9][0-9]*$ ]] || { rp_say "REAL_PG_SPEED_TRIES: a whole number > 0, got '$t'"; exit 2; }
  if rp_speed_on; then rp_tries="$t"; else rp_tries=1; fi
}
rp_speed_py() { python3 "$rp_root/modules/bench/real-postgres/host-speed.py" "$1" "$REAL_PG_SPEED" "${@:2}"; }
# "slowdown slow_share samples memory_slowdown" on the cores CPUS between epoch seconds T0 and T1, for the record
# ("- - 0": unknown; host-speed.py over)
rp_speed_over() { { rp_speed_on && rp_speed_py over --cpus "$1" --from "$2" --to "$3"; } || echo "- - 0"; }
# waits (at most 120 s) until the 3 s before now ran at full speed on the cores CPUS: "SECONDS_WAITED yes|no|-"
rp_speed_wait() { { rp_speed_on && rp_speed_py wait --cpus "$1" --max 120; } || echo "0 -"; }
# sleeps 3 s; the share of them the cores CPUS ran slow ("-": unknown)
rp_speed_after() { { rp_speed_on && rp_speed_py after --cpus "$1"; } || echo -; }
# A pgbench run whose probe samples during it have a median slowdown above this did not run at full speed, whatever
# the windows around it say (a slow phase can start and end within a run: j10's one-core 64-client input, 1.77). The
# median, not the slow share: this kernel charges interrupts to the thread they interrupt, which at one client makes
# up to 45% of the samples slow; the median was at most 1.29 in 196 of j8-j10's 204 probed pgbench runs and 1.77-1.98
# in the other 8, all in slow phases (host-speed.py). It pools the set's cores: one core of two slow throughout reads
# about 1.45 and passes (the windows around the run then catch a phase that outlasts it)
rp_during_slow=1.5
# When no try of a figure was at full speed: the try of core set CPUS, repetition R, clients C in SLOW (a raw-slow.tsv)
# with the least sign of a slow host around it (not at full speed before it counts 1, a median slowdown during it
# above rp_during_slow 1, plus the slow share after it; the earliest on a tie), chosen by the probe alone, never by
# its result
rp_speed_least_slow() {
  awk -F'\t' -v cpus="$2" -v r="$3" -v c="$4" -v most="$rp_during_slow" '
    NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
    $1 == cpus && $2 == r && $3 == c {
      d = $col["host_slowdown_during"]
      s = ($col["full_speed_before"] == "no") + (d != "-" && d + 0 > most) \
        + ($col["slow_share_after"] == "-" ? 0 : $col["slow_share_after"])
      if (!seen++ || s < best) {best = s; row = $0}}
    END {print row}' "$1"
}
# true when a figure with "WAITED BEFORE" (rp_speed_wait), AFTER (rp_speed_after) and, for a pgbench run, DURING (the
# probe's median slowdown during it, rp_speed_over's first field) counts as measured at full speed (or speed is not
# probed)
rp_speed_full() {
  local before="${1#* }" after="$2" during="${3:--}"
  [ "$before" != no ] && { [ "$after" = - ] || awk -v s="$after" 'BEGIN {exit !(s <= 0.25)}'; } &&
    { [ "$during" = - ] || awk -v d="$during" -v most="$rp_during_slow" 'BEGIN {exit !(d <= most)}'; }
}

# The share of all cores busy (anyone's work) over the next 2 s, in per cent.
rp_busy() {
  local a b
  a=($(head -1 /proc/stat))
  sleep 2
  b=($(head -1 /proc/stat))
  awk -v u="$(( b[1] + b[2] + b[3] + b[6] + b[7] + b[8] - a[1] - a[2] - a[3] - a[6] - a[7] - a[8] ))" \
    -v i="$(( b[4] + b[5] - a[4] - a[5] ))" 'BEGIN {printf "%.0f", (u + i > 0 ? 100 * u / (u + i) : 0)}'
}

# Waits (at most $2 s) until the other work on this machine keeps less than $1 per cent of its cores busy; prints the
# last share seen. A shared machine's builds make every figure noisy: this waits for a lull, and the share is recorded.
rp_wait_quiet() {
  local max="$1" wait="$2" waited=0 b
  while true; do
    b="$(rp_busy)"
    if [ "$b" -lt "$max" ] || [ "$waited" -ge "$wait" ]; then echo "$b"; return; fi
    sleep 8
    waited=$(( waited + 10 ))
  done
}

# CPU ticks (1/CLK_TCK s) the server has used: the postmaster's and its live children's own, and what the exited
# ones (backends of earlier connections, reaped by the postmaster) left in its cutime and cstime.
rp_server_ticks() {
  local pm
  pm="$(head -1 "$rp_data/postmaster.pid")"
  { cat "/proc/$pm/stat"; for c in $(ps --ppid "$pm" -o pid= 2>/dev/null); do cat "/proc/$c/stat" 2>/dev/null; done; } |
    sed 's/^.*) //' | awk -v pm="$pm" 'NR == 1 {t += $14 + $15} {t += $12 + $13} END {print t}'
}

# Waits until the postmaster has no more children than $1 (the backends of a finished pgbench have exited).
rp_settle() {
  local pm want="$1"
  pm="$(head -1 "$rp_data/postmaster.pid")"
  for _ in $(seq 1 100); do
    [ "$(ps --ppid "$pm" -o pid= | wc -l)" -le "$want" ] && return 0
    sleep 0.1
  done
}

# Busy and idle ticks of the cores CPUS (a taskset list such as 0,1 or 0-3) from /proc/stat: "busy idle".
rp_cores_ticks() {
  local want=() part
  for part in ${1//,/ }; do
    if [[ "$part" == *-* ]]; then want+=($(seq "${part%-*}" "${part#*-}")); else want+=("$part"); fi
  done
  awk -v want=" ${want[*]} " '$1 ~ /^cpu[0-9]+$/ && index(want, " " substr($1, 4) " ") {
    b += $2 + $3 + $4 + $7 + $8 + $9; i += $5 + $6} END {printf "%.0f %.0f\n", b, i}' /proc/stat
}

# pgbench -n with the one-row INSERT, CLIENTS clients for SECONDS s, pgbench pinned to CPUS as the server is;
# synchronous_commit SYNC (on|off) for its sessions (PGOPTIONS, as a user sets it). The table is emptied and a
# checkpoint taken first, so every measurement starts alike. Prints
#   tps latency_ms transactions server_cpu_s pgbench_cpu_s load_before load_after wal_syncs wal_sync_ms
#   cores_busy_pct ctxt_per_txn
# (CPU: user + system seconds of the server's processes and of pgbench over the run, from /proc and time(1)). The last
# four say what the mechanism did, for reading a judged curve beside the model's own counts, never as model inputs:
# the WAL flushes and their time in the backends (pg_stat_wal, reset before the run; with synchronous_commit on,
# track_wal_io_timing is on for pgbench's sessions, so the WAL writer's few flushes count untimed; off, the run that
# measures inputs, it stays as the user has it and the time is 0), how busy the set's cores were and the machine's
# context switches per transaction (/proc/stat). A server without pg_stat_wal's wal_sync (PostgreSQL 14, 18) gives 0 0.
# Then the host's slowdown over the run and the share of it the host ran slow (rp_speed_over; "- -" unprobed).
rp_pgbench() {
  local cpus="$1" clients="$2" seconds="$3" sync="$4" ncpu threads out aux t0 t1 l0 l1 tck tfile c0 c1 x0 x1 wal timing
  local s0 speed
  ncpu="$(taskset -c "$cpus" nproc)"
  threads=$(( clients < ncpu ? clients : ncpu ))
  rp_psql "TRUNCATE t; CHECKPOINT" >/dev/null
  rp_psql "SELECT pg_stat_reset_shared('wal')" >/dev/null 2>&1 || true
  aux="$(ps --ppid "$(head -1 "$rp_data/postmaster.pid")" -o pid= | wc -l)"
  tfile="$(mktemp)"
  chmod 666 "$tfile"
  l0="$(rp_load)"
  t0="$(rp_server_ticks)"
  c0="$(rp_cores_ticks "$cpus")"
  x0="$(awk '$1 == "ctxt" {print $2}' /proc/stat)"
  timing=""
  [ "$sync" = on ] && timing=" -c track_wal_io_timing=on"
  s0="$(date +%s.%N)"
  out="$(rp_as env PGOPTIONS="-c synchronous_commit=$sync$timing" /usr/bin/time -f "%U %S" \
    -o "$tfile" taskset -c "$cpus" "$PGBIN/pgbench" -n -f "$rp_sql" -c "$clients" -j "$threads" -T "$seconds" \
    -h "$REAL_PG_DIR" -p "$REAL_PG_PORT" -U postgres postgres 2>&1)" || rp_die "pgbench failed: $out"
  c1="$(rp_cores_ticks "$cpus")"
  speed="$(rp_speed_over "$cpus" "$s0" "$(date +%s.%N)")"
  x1="$(awk '$1 == "ctxt" {print $2}' /proc/stat)"
  rp_settle "$aux"
  t1="$(rp_server_ticks)"
  l1="$(rp_load)"
  wal="$(rp_psql "SELECT wal_sync, round(wal_sync_time::numeric, 1) FROM pg_stat_wal" 2>/dev/null | tr '|' ' ')" ||
    wal="0 0"
  [ -n "$wal" ] || wal="0 0"
  tck="$(getconf CLK_TCK)"
  awk -v t0="$t0" -v t1="$t1" -v tck="$tck" -v l0="$l0" -v l1="$l1" -v tf="$tfile" -v c0="$c0" -v c1="$c1" \
    -v x0="$x0" -v x1="$x1" -v wal="$wal" -v speed="$speed" '
    /^latency average/ {lat = $4} /^tps = / {tps = $3} /actually processed/ {n = $NF}
    END {getline tl < tf; split(tl, c, " "); split(c0, a, " "); split(c1, b, " "); split(wal, w, " ")
      bt = b[1] - a[1]; it = b[2] - a[2]
      split(speed, s, " ")
      printf "%s %s %s %.2f %.2f %s %s %s %s %.0f %.2f %s %s\n", tps, lat, n, (t1 - t0) / tck, c[1] + c[2], l0, l1,
        w[1], w[2], (bt + it > 0 ? 100 * bt / (bt + it) : 0), (n > 0 ? (x1 - x0) / n : 0), s[1], s[2]}' <<<"$out"
  rm -f "$tfile"
}

# The curve: pgbench at synchronous_commit SYNC for every core set in the caller's array cpusets, repeat times, at
# every client count of its array counts (seconds s each, after rp_wait_quiet quiet quiet_wait), one row each
# appended to RAW (the header of both scripts' raw.tsv) and shown on stderr.
rp_curve() {
  local sync="$1" raw="$2" cpus r c busy line main diag try tries waited after during row
  rp_speed_tries
  tries="$rp_tries"
  head -1 "$raw" >"${raw%.tsv}-slow.tsv" # this run's tries only
  for cpus in "${cpusets[@]}"; do
    rp_start "$cpus"
    for r in $(seq 1 "$repeat"); do
      for c in "${counts[@]}"; do
        for try in $(seq 1 "$tries"); do
          busy="$(rp_wait_quiet "$quiet" "$quiet_wait")"
          rp_lock
          waited="$(rp_speed_wait "$cpus")"
          line="$(rp_pgbench "$cpus" "$c" "$seconds" "$sync")"
          after="$(rp_speed_after "$cpus")"
          rp_unlock
          # the first seven fields, the others' share before it, then the mechanism's diagnostics and the host's
          # speed during the run (rp_pgbench: its median slowdown counts, rp_during_slow), the try, the seconds waited
          # for full speed before it, whether it was reached, and the slow share of the 3 s after it
          main="$(cut -d' ' -f1-7 <<<"$line")"
          diag="$(cut -d' ' -f8- <<<"$line")"
          row="$cpus\t$r\t$c\t$sync\t${main// /	}\t$busy\t${diag// /	}\t$try\t${waited// /	}\t$after"
          during="$(awk '{print $(NF-1)}' <<<"$line")" # rp_pgbench's host_slowdown_during
          if rp_speed_full "$waited" "$after" "$during"; then break; fi
          echo -e "$row" >>"${raw%.tsv}-slow.tsv"
          [ "$try" = "$tries" ] && row="$(rp_speed_least_slow "${raw%.tsv}-slow.tsv" "$cpus" "$r" "$c")" && break
          rp_say "cores $cpus, $c clients: the host was not at full speed around the run (before: ${waited#* }," \
            "median slowdown during: $during, slow share after: $after; host-speed.py): measured again"
        done
        echo -e "$row" | tee -a "$raw" >&2
      done
    done
  done
  rp_stop
}

# pg_test_fsync on the WAL's disk (a file beside pg_wal), on the cores CPUS the server runs on (taskset -c): usecs/op
# of fdatasync in "one 8kB write". Pinned because the flush a backend waits for is issued from the server's cores: a
# disk whose interrupt is serviced on a core outside them completes each flush through a wake across cores (on a VM
# with virtio-blk's queue on core 1, a flush seen from core 0 alone takes about twice the unpinned one).
rp_fsync_us() {
  local seconds="$1" cpus="$2" file="$rp_data/pg_test_fsync.tmp" out
  out="$(rp_as taskset -c "$cpus" "$PGBIN/pg_test_fsync" -f "$file" -s "$seconds" 2>&1)"
  rp_as rm -f "$file"
  awk '/one 8kB write/ {s = 1} s && $1 == "fdatasync" {print $(NF-1); exit}' <<<"$out"
}
