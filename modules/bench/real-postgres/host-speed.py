#!/usr/bin/env python3
"""The host's CPU speed over time, for judging a model against a real engine on a virtual machine.

Why: on the VM kind this is measured on, the same fixed work takes twice the CPU time for tens of seconds at a time
(another tenant's load on the host: the guest reports no steal time, /proc/stat's steal column stays 0), so a CPU
time measured in one phase (pg-commit's cpuPerTxnUs, synchronous_commit=off) and a throughput measured in the other
(the synchronous_commit=on curve) disagree by up to 2x, whatever the model. The probe makes that visible and lets the
scripts measure in the host's full-speed phase.

  host-speed.py probe FILE --cpus 0,1 [--parent PID]
      one pinned process per core: every 100 ms, the thread CPU time of a fixed piece of work (about 2 ms), appended
      to FILE as "epoch_seconds core microseconds"; runs until killed or until PID (the script that started it) exits
  host-speed.py wait FILE --cpus SET [--max S]
      waits (at most S s, default 120) until the last 3 s on SET's cores ran at full speed; prints the seconds waited
      and whether full speed was reached ("12 yes", "120 no")
  host-speed.py after FILE --cpus SET
      sleeps 3 s, then prints the share of those 3 s's samples on SET's cores that ran slow ("-" when unknown)
  host-speed.py over FILE --cpus SET --from T0 --to T1
      prints "slowdown slow_share samples" over [T0, T1]: the median of the samples against full speed and the share
      of slow ones ("- - N" when unknown). For the record only: during a measurement the probe shares the cores with
      it, and this kernel charges interrupts to the thread they interrupt (no IRQ time accounting), so a run with many
      wake-ups (one client, tens of thousands a second) reads slow at the host's full speed.

A core's full speed is the 5th percentile of its samples so far, known once it has 60 s of them; a sample more than
1.35 times that is slow (the slow phase is about 1.9x; another thread busy on the other core adds about 12%, measured
2026-12-05). A window runs at full speed when at most a quarter of its samples are slow. The scripts judge a figure
by the idle windows right before it (wait) and right after it (after), never by samples taken during it: a phase lasts
tens of seconds, and the figure's own load does not colour them. A sample measures thread CPU time, so being preempted
by the guest's other threads does not count; time the host takes from the guest's core does (the guest cannot tell it
from its own work). Its cost: about 2% of each core.
"""
import argparse
import os
import statistics
import sys
import time

WORK = 100_000     # loop iterations of one sample: about 2 ms of CPU on this machine kind
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


def probe(cpus, path, parent):
    children = []
    for core in cpus:
        pid = os.fork()
        if pid == 0:
            os.sched_setaffinity(0, {core})
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
    """Per core, (time, us) of every complete line; nothing when the file is not there (yet)."""
    by_core = {}
    try:
        text = open(path).read()
    except FileNotFoundError:
        return by_core
    for line in text.split("\n")[:-1]:  # the last piece is a line being written, or empty
        try:
            t, core, us = line.split()
            by_core.setdefault(int(core), []).append((float(t), float(us)))
        except ValueError:
            continue
    return by_core


def ratios(path, cpus, t0, t1):
    """Each sample in [t0, t1] on the cores cpus against its core's full speed; None while a core's is not known."""
    out = []
    by_core = samples(path)
    for core in cpus:
        rows = by_core.get(core, [])
        upto = sorted(us for t, us in rows if t <= t1)
        if not rows or t1 - rows[0][0] < HISTORY or not upto:
            return None
        full = upto[len(upto) // 20]
        out.extend(us / full for t, us in rows if t0 <= t <= t1)
    return out


def slow_share(r):
    return sum(1 for x in r if x > SLOW) / len(r)


def over(path, cpus, t0, t1):
    r = ratios(path, cpus, t0, t1)
    if not r or len(r) < 5:
        print(f"- - {len(r or [])}")
    else:
        print(f"{statistics.median(r):.3f} {slow_share(r):.3f} {len(r)}")


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


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", choices=["probe", "wait", "after", "over"])
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
    else:
        if a.t0 is None or a.t1 is None:
            p.error("over needs --from and --to")
        over(a.file, cpus, a.t0, a.t1)


if __name__ == "__main__":
    sys.exit(main())
