#!/usr/bin/env python3
"""The host's CPU speed over time, for judging a model against a real engine on a virtual machine.

Why: on the VM kind this is measured on, the same fixed work takes twice the CPU time for tens of seconds at a time
(another tenant's load on the host: the guest reports no steal time, /proc/stat's steal column stays 0), so a CPU
time measured in one phase (pg-commit's cpuPerTxnUs, synchronous_commit=off) and a throughput measured in the other
(the synchronous_commit=on curve) disagree by up to 2x, whatever the model. The probe makes that visible and lets the
scripts measure in the host's full-speed phase.

  host-speed.py probe FILE --cpus 0,1            one pinned process per core: every 100 ms, the thread CPU time of a
                                                 fixed piece of work (about 2 ms), appended to FILE as
                                                 "epoch_seconds core microseconds"; runs until killed
  host-speed.py over FILE --cpus SET --from T0 --to T1
                                                 prints "slowdown slow_share samples" over [T0, T1] on SET's cores:
                                                 each sample against its core's full speed (the 5th percentile of its
                                                 samples so far), the median of those ratios, and the share above
                                                 --slow (1.35); "- - N" with too few samples
  host-speed.py wait FILE --cpus SET --max S     waits (at most S s) until the last 3 s on SET's cores ran at full
                                                 speed (median ratio at most --slow); prints the seconds waited

A sample measures thread CPU time, so being preempted by other threads of the guest does not count; time the host
takes from the guest's core does (the guest cannot tell it from its own work). Its cost: about 2% of each core.
"""
import argparse
import os
import statistics
import sys
import time

WORK = 100_000  # loop iterations of one sample: about 2 ms of CPU on this machine kind
PERIOD = 0.1   # seconds between samples
SLOW = 1.35    # a sample this many times its core's full-speed figure is a slow one: the slow phase is about 1.9x,
               # and another guest thread busy on the other core adds about 12% (measured 2026-12-05)
MIN_SAMPLES = 50


def cpus_of(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def probe(cpus, path):
    children = []
    for core in cpus:
        pid = os.fork()
        if pid == 0:
            os.sched_setaffinity(0, {core})
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            while True:
                c0 = time.thread_time_ns()
                s = 0
                for j in range(WORK):
                    s += j
                us = (time.thread_time_ns() - c0) / 1000
                os.write(fd, f"{time.time():.3f} {core} {us:.1f}\n".encode())
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
    by_core = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3:
                continue  # a line being written
            by_core.setdefault(int(parts[1]), []).append((float(parts[0]), float(parts[2])))
    return by_core


def ratios(path, cpus, t0, t1):
    """Each sample in [t0, t1] on the cores cpus against its core's full speed so far (up to t1)."""
    out = []
    for core, rows in samples(path).items():
        if core not in cpus:
            continue
        upto = sorted(us for t, us in rows if t <= t1)
        if len(upto) < MIN_SAMPLES:
            continue
        full = upto[len(upto) // 20]
        out.extend(us / full for t, us in rows if t0 <= t <= t1)
    return out


def over(path, cpus, t0, t1, slow):
    r = ratios(path, cpus, t0, t1)
    if len(r) < 5:
        print(f"- - {len(r)}")
    else:
        print(f"{statistics.median(r):.3f} {sum(1 for x in r if x > slow) / len(r):.3f} {len(r)}")


def wait(path, cpus, most, slow):
    start = time.time()
    while True:
        now = time.time()
        r = ratios(path, cpus, now - 3, now)
        if (len(r) >= 5 and statistics.median(r) <= slow) or now - start >= most:
            print(f"{now - start:.0f}")
            return
        time.sleep(1)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", choices=["probe", "over", "wait"])
    p.add_argument("file")
    p.add_argument("--cpus", required=True)
    p.add_argument("--from", dest="t0", type=float)
    p.add_argument("--to", dest="t1", type=float)
    p.add_argument("--max", type=float, default=120)
    p.add_argument("--slow", type=float, default=SLOW)
    a = p.parse_args()
    cpus = cpus_of(a.cpus)
    if a.what == "probe":
        probe(cpus, a.file)
    elif a.what == "over":
        if a.t0 is None or a.t1 is None:
            p.error("over needs --from and --to")
        over(a.file, cpus, a.t0, a.t1, a.slow)
    else:
        wait(a.file, cpus, a.max, a.slow)


if __name__ == "__main__":
    sys.exit(main())
