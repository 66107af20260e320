#!/usr/bin/env python3
"""The host's CPU speed over time, for judging a model against a real engine on a virtual machine.

Why: on the VM kind this is measured on, the same fixed work takes twice the CPU time for tens of seconds at a time
(another tenant's load on the host: the guest reports no steal time, /proc/stat's steal column stays 0), so a CPU
time measured in one phase (pg-commit's cpuPerTxnUs, synchronous_commit=off) and a throughput measured in the other
(the synchronous_commit=on curve) disagree by up to 2x, whatever the model. The probe makes that visible and lets the
scripts measure in the host's full-speed phase.

  host-speed.py probe FILE --cpus 0,1 [--parent PID]
      one pinned process per core: every 100 ms, the thread CPU time of two fixed pieces of work, appended to FILE as
      "epoch_seconds core cpu_us memory_us": a loop of additions (the core's speed) and a chain of dependent loads from
      a table larger than the last-level cache (the memory's latency); runs until killed or until PID (the script
      that started it) exits
  host-speed.py wait FILE --cpus SET [--max S]
      waits (at most S s, default 120) until the last 3 s on SET's cores ran at full speed; prints the seconds waited
      and whether full speed was reached ("12 yes", "120 no")
  host-speed.py after FILE --cpus SET
      sleeps 3 s, then prints the share of those 3 s's samples on SET's cores that ran slow ("-" when unknown)
  host-speed.py summary FILE --cpus SET
      for the record of a whole run: per core the share of its samples slow in the arithmetic and in the memory, and
      the phases in which the memory was slow on every core of SET at once (seconds whose median memory sample on
      each core was slow, gaps of a second bridged)
  host-speed.py over FILE --cpus SET --from T0 --to T1
      prints "slowdown slow_share samples memory_slowdown" over [T0, T1]: the median of the additions' samples against
      full speed, the share of slow samples, their number, and the median of the memory samples against full speed
      ("- - N -" when unknown; the last "-" for a file of a probe before the memory samples). During a measurement the
      probe shares the cores with it, and this kernel charges interrupts to the thread they interrupt (no IRQ time
      accounting), so a run with many wake-ups (one client, tens of thousands a second) makes many samples slow at the
      host's full speed: its slow share says little, its median slowdown (pooled over SET's cores) stays low, and
      server.sh uses only that (rp_during_slow); the memory's median then holds the run's own traffic.

A core's full speed is the 5th percentile of its samples so far, known once it has 60 s of them; a sample more than
1.35 times that is slow (the slow phase is about 1.9x; another thread busy on the other core adds about 12%, measured
2026-12-05). The memory is slow apart from the cores: a chain of loads from 64 MB can take twice as long on both
cores at once while the additions keep their speed (twice in 5 minutes, about 10 s and 30 s, then none that long for
an hour: a neighbour taking the host's memory bandwidth or cache; measured 2026-12-05 with a C twin of this probe), and
PostgreSQL's transactions, which miss the caches, would slow with it; a memory sample more than MEM_SLOW times its full
speed is slow too. A window runs at full speed when at most a quarter of its samples are slow. The scripts judge a
figure by the idle windows right before it (wait) and right after it (after), which its own load does not colour, and a
pgbench run also by its median slowdown during it (over, above). summary counts every sample, those taken while a
figure ran too (its own load among them). A sample measures thread CPU time, so being preempted
by the guest's other threads does not count; time the host takes from the guest's core does (the guest cannot tell it
from its own work). Its cost: about 5% of each core and 64 MB of memory (the table, shared by the cores' processes).
"""
import argparse
import os
from array import array
import statistics
import sys
import time

WORK = 100_000     # loop iterations of one sample: about 2 ms of CPU on this machine kind
MEM_BYTES = 64 << 20  # the memory sample's table: larger than this machine kind's last-level cache (AMD EPYC)
MEM_STEPS = 8_000  # dependent loads of one memory sample: about 3 ms, two thirds of it waiting for memory
MEM_SLOW = 1.5     # a memory sample this many times its core's full speed is slow (the memory's slow phase is 2x)
PERIOD = 0.1       # seconds between samples
SLOW = 1.35        # a sample this many times its core's full speed is slow (see above)
SLOW_SHARE = 0.25  # a window with more slow samples than this did not run at full speed
HISTORY = 60.0     # seconds of a core's samples before its full speed is known
WINDOW = 3.0       # seconds of the idle windows before and after a figure


def cpus_of(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def chain():
    """The memory sample's table: entry i holds the next entry's index, (a i + c) mod n, a full-period LCG (c odd,
    a = 1 mod 4) and so one cycle through every entry; each load's place is known only when the one before is done."""
    n = MEM_BYTES // 4
    return array("I", ((1103515245 * i + 12345) & (n - 1) for i in range(n)))


def probe(cpus, path, parent):
    nxt = chain()  # before the fork: one table, shared
    assert MEM_BYTES // 4 & (MEM_BYTES // 4 - 1) == 0, "the LCG's mask needs a power of two"
    children = []
    for k, core in enumerate(cpus):
        pid = os.fork()
        if pid == 0:
            os.sched_setaffinity(0, {core})
            p = k * (len(nxt) // len(cpus))  # the cores walk apart
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            while True:
                if parent:
                    try:
                        os.kill(parent, 0)
                    except ProcessLookupError:
                        os._exit(0)  # the script that started it is gone (even killed): so is the probe
                c0 = time.thread_time_ns()
                s = 0
                for j in range(WORK):
                    s += j
                c1 = time.thread_time_ns()
                for _ in range(MEM_STEPS):  # on from where the last sample stopped: lines not in the caches
                    p = nxt[p]
                c2 = time.thread_time_ns()
                os.write(fd, f"{time.time():.3f} {core} {(c1 - c0) / 1000:.1f} {(c2 - c1) / 1000:.1f}\n".encode())
                time.sleep(PERIOD)
        children.append(pid)
    try:
        for pid in children:
            os.waitpid(pid, 0)
    finally:
        for pid in children:
            try:
                os.kill(pid, 15)
            except ProcessLookupError:
                pass


def samples(path):
    """Per core, (time, cpu_us, memory_us) of every complete line (memory_us None in a file of a probe before the
    memory samples); nothing when the file is not there (yet)."""
    by_core = {}
    try:
        text = open(path).read()
    except FileNotFoundError:
        return by_core
    for line in text.split("\n")[:-1]:  # the last piece is a line being written, or empty
        f = line.split()
        try:
            mem = float(f[3]) if len(f) == 4 else None
            by_core.setdefault(int(f[1]), []).append((float(f[0]), float(f[2]), mem))
        except (ValueError, IndexError):
            continue
    return by_core


def full_speed(values):
    return sorted(values)[len(values) // 20]


def ratios(path, cpus, t0, t1):
    """Each sample in [t0, t1] on the cores cpus against its core's full speed, as (cpu, memory or None); None while a
    core's full speed is not known."""
    out = []
    by_core = samples(path)
    for core in cpus:
        rows = by_core.get(core, [])
        upto = [r for r in rows if r[0] <= t1]
        if not rows or t1 - rows[0][0] < HISTORY or not upto:
            return None
        cpu = full_speed([r[1] for r in upto])
        mems = [r[2] for r in upto if r[2] is not None]
        mem = full_speed(mems) if mems else None
        out.extend((c / cpu, m / mem if m is not None and mem else None) for t, c, m in rows if t0 <= t <= t1)
    return out


def slow(sample):
    cpu, mem = sample
    return cpu > SLOW or (mem is not None and mem > MEM_SLOW)


def slow_share(r):
    return sum(1 for x in r if slow(x)) / len(r)


def over(path, cpus, t0, t1):
    r = ratios(path, cpus, t0, t1)
    if not r or len(r) < 5:
        print(f"- - {len(r or [])} -")
    else:
        mem = [m for c, m in r if m is not None]
        memory = f"{statistics.median(mem):.3f}" if mem else "-"
        print(f"{statistics.median(c for c, m in r):.3f} {slow_share(r):.3f} {len(r)} {memory}")


def wait(path, cpus, most):
    start = time.time()
    while True:
        now = time.time()
        r = ratios(path, cpus, now - WINDOW, now)
        if r and len(r) >= 5 and slow_share(r) <= SLOW_SHARE:
            print(f"{now - start:.0f} yes")
            return
        if now - start >= most:
            print(f"{now - start:.0f} no")
            return
        time.sleep(1)


def after(path, cpus):
    t0 = time.time()
    time.sleep(WINDOW)
    r = ratios(path, cpus, t0, time.time())
    print(f"{slow_share(r):.3f}" if r and len(r) >= 5 else "-")


def summary(path, cpus):
    by_core = samples(path)
    if not all(by_core.get(c) for c in cpus):
        print("no samples of cores " + ",".join(map(str, cpus)))
        return
    seconds = {}  # second -> cores whose memory was slow in it
    memory_probed = False
    for core in cpus:
        rows = by_core[core]
        cpu = full_speed([r[1] for r in rows])
        mems = [r[2] for r in rows if r[2] is not None]
        mem = full_speed(mems) if mems else None
        cpu_slow = sum(1 for r in rows if r[1] / cpu > SLOW) / len(rows)
        if not mem:
            print(f"core {core}: {len(rows)} samples, {100 * cpu_slow:.1f}% slow in the arithmetic (no memory samples:"
                  f" a probe before them)")
            continue
        memory_probed = True
        mem_slow = sum(1 for m in mems if m / mem > MEM_SLOW) / len(mems)
        print(f"core {core}: {len(rows)} samples, {100 * cpu_slow:.1f}% slow in the arithmetic, {100 * mem_slow:.1f}%"
              f" in the memory (full speed {cpu:.0f} and {mem:.0f} us)")
        per_second = {}
        for t, c, m in rows:
            if m is not None:
                per_second.setdefault(int(t), []).append(m / mem)
        for sec, r in per_second.items():
            if statistics.median(r) > MEM_SLOW:
                seconds.setdefault(sec, set()).add(core)
    if not memory_probed:
        return
    both = sorted(sec for sec, cores in seconds.items() if cores >= set(cpus))
    phases = []
    for sec in both:
        if phases and sec - phases[-1][1] <= 2:
            phases[-1][1] = sec
        else:
            phases.append([sec, sec])
    lengths = [b - a + 1 for a, b in phases]
    print(f"memory slow on every core at once: {len(phases)} phase(s), {sum(lengths)} s in all"
          + (f" (longest {max(lengths)} s, from " + time.strftime("%H:%M:%S", time.gmtime(
              phases[lengths.index(max(lengths))][0])) + " UTC)" if phases else ""))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", choices=["probe", "wait", "after", "over", "summary"])
    p.add_argument("file")
    p.add_argument("--cpus", required=True)
    p.add_argument("--parent", type=int, default=0)
    p.add_argument("--from", dest="t0", type=float)
    p.add_argument("--to", dest="t1", type=float)
    p.add_argument("--max", type=float, default=120)
    a = p.parse_args()
    cpus = cpus_of(a.cpus)
    if a.what == "probe":
        probe(cpus, a.file, a.parent)
    elif a.what == "wait":
        wait(a.file, cpus, a.max)
    elif a.what == "after":
        after(a.file, cpus)
    elif a.what == "summary":
        summary(a.file, cpus)
    else:
        if a.t0 is None or a.t1 is None:
            p.error("over needs --from and --to")
        over(a.file, cpus, a.t0, a.t1)


if __name__ == "__main__":
    sys.exit(main())
