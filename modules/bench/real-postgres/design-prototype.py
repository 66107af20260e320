#!/usr/bin/env python3
"""A prototype of the host-cost design (docs/commit-path-host-costs.md), for pg-commit's PostgreSQL commit path.

NOT the product: a small event simulation of the mechanism the design note specifies, so that the note can say what
the model will predict from the inputs alone before part 2 builds it into the engine (SessionPool, HostCpu,
PostgresCommit). Part 2's engine must give these figures from the same inputs (within a few per cent: this prototype
has no hops between components and no WAL writer). With every host cost 0 it is today's pg-commit.

The mechanism (PostgreSQL 15, src/backend/access/transam/xlog.c XLogFlush, src/backend/storage/lmgr/lwlock.c):
  a client thinks roundTripUs (no CPU), its backend runs cpuPerTxnUs on a core (first come first served), inserts its
  commit record and calls XLogFlush: if WALWriteLock is free it takes it and flushes everything inserted so far (the
  write's CPU on its core, then the device, then the fdatasync's CPU on its core), releases the lock and wakes every
  waiter one by one on its core, most recent waiter first (LW_WAIT_UNTIL_FREE waiters are pushed at the head of the
  queue); if the lock is held it sleeps on it. A waiter woken while another core is idle goes there: the wake call
  costs hostWakeCpuUs, it runs hostIdleWakeUs later and spends hostSleepCpuUs (its sleep and resume). Otherwise it is
  queued where it last ran (the call costs hostSameCoreWakeCpuUs if that is the waker's core, hostWakeCpuUs if not),
  waits for a core and spends hostSameCoreSleepCpuUs on the waker's, hostSleepCpuUs on another. Then its commit is
  flushed (done), or the lock is free (it leads the next flush), or it sleeps again.

  design-prototype.py --inputs FILE.set [--host host.conf] [--cpu-by-clients] [--seconds 2] [--clients 1,2,4,...]

prints clients, TPS with synchronous_commit on and off.
"""
import argparse
import heapq
import math
import re
import sys


def read_set(path):
    v = {}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('#') or '=' not in line:
            continue
        k, x = line.split('=', 1)
        v[k.strip()] = float(x)
    return v


def read_host(path):
    """The profile { ... } block of a host profile (calibrate-host)."""
    text = open(path).read()
    block = re.search(r'^profile \{(.*?)^\}', text, re.S | re.M).group(1)
    v = {}
    for m in re.finditer(r'^\s*(host\w+)\s*=\s*([0-9.eE+-]+)', block, re.M):
        v[m.group(1)] = float(m.group(2))
    return v


class Cpu:
    """C cores, first come first served, no preemption (HostCpu), each core known by its index."""

    def __init__(self, cores):
        self.free = [0.0] * cores
        self.busy = 0.0

    def run(self, now, cost, cost_on=None):
        """Runs on the core that frees first (the lowest index among equals); cost_on(core) when the cost depends on
        the core. Returns (end, core)."""
        k = min(range(len(self.free)), key=lambda c: (max(now, self.free[c]), c))
        return self.run_on(k, now, cost_on(k) if cost_on else cost), k

    def run_on(self, k, now, cost):
        start = max(now, self.free[k])
        self.free[k] = start + cost
        self.busy += cost
        return start + cost

    def idle_other(self, now, but, taken):
        """An idle core other than `but` and those in `taken`, or None."""
        for c in range(len(self.free)):
            if c != but and c not in taken and self.free[c] <= now:
                return c
        return None


def simulate(clients, sync, p, h, seconds, by_clients=False):
    cores = int(p['cores'])
    cpu = Cpu(cores)
    think = max(0.0, p['roundTripUs'])
    # the CPU per transaction measured at this client count with synchronous_commit=off, where the inputs have it
    txn = p.get(f'cpuPerTxnUs.{clients}', p['cpuPerTxnUs']) if by_clients else p['cpuPerTxnUs']
    w_x, s_x = h.get('hostWakeCpuUs', 0), h.get('hostSleepCpuUs', 0)
    w_s, s_s = h.get('hostSameCoreWakeCpuUs', w_x), h.get('hostSameCoreSleepCpuUs', s_x)
    idle_wake = h.get('hostIdleWakeUs', 0)
    write_cpu, flush_cpu = h.get('hostWriteCpuUs', 0), h.get('hostFlushCpuUs', 0)
    rec_bytes = p.get('insertRecordBytes', 100) + p.get('commitRecordBytes', 40)
    # pg_test_fsync's wall time holds the write's and the fdatasync's CPU: the device gets the rest
    device = max(1.0, p['fsyncUs'] - write_cpu - flush_cpu)
    end = seconds * 1e6
    ev = []
    seq = [0]

    def at(t, kind, s, x=None):
        seq[0] += 1
        heapq.heappush(ev, (t, seq[0], kind, s, x))

    inserted = 0  # commit records inserted (LSN order)
    flushed = 0  # commit records flushed
    lsn = [0] * clients
    last = [0] * clients  # the core each session last ran on
    lock = None  # session holding WALWriteLock
    queue = []  # waiters, most recent first
    pending_bytes = 0
    commits = 0
    stats = {'wakes': 0, 'idle': 0, 'remote': 0}

    def lead(s, now):
        nonlocal lock, pending_bytes
        lock = s
        target = inserted
        pages = max(1, math.ceil(pending_bytes / 8192))
        pending_bytes = 0
        t, last[s] = cpu.run(now, write_cpu * pages)
        at(t + device, 'flushed', s, target)

    for s in range(clients):
        at(think, 'ready', s)
    while ev:
        now, _, kind, s, x = heapq.heappop(ev)
        if now > end:
            break
        if kind == 'ready':  # the client's statement reaches its backend: the INSERT and COMMIT on a core
            t, last[s] = cpu.run(now, txn)
            at(t, 'commit', s)
        elif kind == 'commit':
            inserted += 1
            pending_bytes += rec_bytes
            lsn[s] = inserted
            if not sync:
                commits += 1
                at(now + think, 'ready', s)
            elif lock is None:
                lead(s, now)
            else:
                queue.insert(0, s)
        elif kind == 'flushed':  # the device is done: the fdatasync's CPU, then release and wake one by one
            flushed = max(flushed, x)
            lock = None
            # the chain on the leader's core: its fdatasync's CPU, then a wake call per sleeper, newest first; a
            # sleeper goes to a core that is idle when the call reaches it (a wake across cores, after the idle
            # wake), else it waits for a core (the waker's, or another when that one frees first)
            t0, k = cpu.run(now, 0)
            last[s] = k
            t = max(now, cpu.free[k]) + flush_cpu
            taken = set()
            plan = []
            for w in queue:
                c = cpu.idle_other(t + w_x, k, taken)
                if c is not None:  # to an idle core: across cores
                    t += w_x
                    taken.add(c)
                    plan.append((t, w, c))
                else:  # queued where it last ran: an interrupt to another core, or none on this one
                    t += w_s if last[w] == k else w_x
                    plan.append((t, w, None))
            cpu.run_on(k, now, t - max(now, cpu.free[k]))
            for when, w, c in plan:
                at(when, 'woken', w, (k, c))
            stats['wakes'] += len(queue)
            queue = []
            commits += 1
            at(t + think, 'ready', s)
        elif kind == 'woken':
            waker, c = x
            if c is not None:  # on an idle core, after the idle wake
                stats['idle'] += 1
                at(now + idle_wake, 'resume', s, c)
            else:
                end_at, last[s] = cpu.run(now, 0, lambda core: s_s if core == waker else s_x)
                stats['remote'] += last[s] != waker
                at(end_at, 'resumed', s)
        elif kind == 'resume':
            last[s] = x
            at(cpu.run_on(x, now, s_x), 'resumed', s)
        elif kind == 'resumed':
            if lsn[s] <= flushed:
                commits += 1
                at(now + think, 'ready', s)
            elif lock is None:
                lead(s, now)
            else:
                queue.insert(0, s)
    return commits / seconds, cpu.busy / (end * cores), stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--inputs', required=True, help="pg-commit's inputs: key=value lines (measure-inputs.sh's .set)")
    ap.add_argument('--host', help="a host profile (calibrate-host); none: every host cost 0 (today's model)")
    ap.add_argument('--set', action='append', default=[], help='key=value over the inputs or the host profile')
    ap.add_argument('--seconds', type=float, default=2)
    ap.add_argument('--clients', default='1,2,4,8,16,32,64')
    ap.add_argument('--cpu-by-clients', action='store_true',
                    help='take cpuPerTxnUs.N (the CPU per transaction measured at N clients, off) for N clients')
    a = ap.parse_args()
    p = read_set(a.inputs)
    h = read_host(a.host) if a.host else {}
    for kv in a.set:
        k, v = kv.split('=', 1)
        (h if k.startswith('host') else p)[k] = float(v)
    print('# inputs: ' + ', '.join(f'{k}={v:g}' for k, v in p.items()))
    print('# host costs: ' + (', '.join(f'{k}={v:g}' for k, v in h.items()) or 'none'))
    print('clients\ton_tps\ton_cpu_busy\twakes_per_commit\tidle_core_wakes\toff_tps\toff_cpu_busy')
    for n in [int(x) for x in a.clients.split(',')]:
        on, on_cpu, st = simulate(n, True, p, h, a.seconds, a.cpu_by_clients)
        off, off_cpu, _ = simulate(n, False, p, h, a.seconds, a.cpu_by_clients)
        per = st['wakes'] / max(1, on * a.seconds)
        print(f'{n}\t{on:.0f}\t{on_cpu:.2f}\t{per:.2f}\t{st["idle"]}\t{off:.0f}\t{off_cpu:.2f}')


if __name__ == '__main__':
    sys.exit(main())
