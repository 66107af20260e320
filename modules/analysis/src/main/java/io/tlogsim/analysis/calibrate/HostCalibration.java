package io.tlogsim.analysis.calibrate;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Measures what waiting and waking cost on this host, the way a database backend waits (docs/commit-path.md,
 * "calibrate-host"; docs/commit-path-host-costs.md says where the model charges each):
 *
 * <ul>
 *   <li>a thread woken by another, futex-style (LockSupport park/unpark: HotSpot's parker is a futex-backed condition,
 *       as PostgreSQL's semaphores are futexes): on the waker's core, on another core in a ping-pong, and on another
 *       core that has been idle for {@value #IDLE_GAP_US} us (a backend waiting for a flush), and on another core where
 *       a third thread computes without pause (does the woken thread preempt it?); the one-way latency from
 *       the wake call to the woken thread running, the CPU of the wake call (the waker's), and the CPU one wait costs
 *       the waiting thread (its sleep and its resume: thread CPU time per round trip less its own wake call);
 *   <li>the same through a pipe and through a Unix-domain socket (how a local client talks to its backend);
 *   <li>a context switch: two threads on one core yielding to each other, counted by the kernel's switch counters;
 *   <li>the CPU time of writing 8 kB and of the fdatasync that follows (ThreadMXBean CPU time around
 *       FileChannel.write and FileChannel.force(false)) on a file in the given directory, and the fdatasync's wall time.
 * </ul>
 *
 * Each figure has its samples' spread (p10, p50, p90, mean). Same core and another core need threads on chosen cores:
 * where taskset exists every thread pins itself ({@link Pinning}); where it does not, the threads run wherever the
 * scheduler puts them and the result says so. Bounded in wall time; the file is deleted at the end.
 */
public final class HostCalibration {
  /** How long the woken thread's core has been idle in the idle-core measurement. */
  public static final int IDLE_GAP_US = 200;
  static final String FILE = "tlogsim-calibrate-host.tmp";
  private static final int BATCH = 64; // round trips per CPU-time sample of the woken thread
  private static final int CALL_EVERY = 8; // the waker's wake call is timed on every 8th round trip
  private static final int WARMUP = 200; // first samples of each measurement, left out (JIT, caches)
  private static final int MAX_SAMPLES = 1 << 20;
  private static final int PAGE = 8192;

  /** One measured figure: how many samples, their spread and mean, in us; {@code what} says what was measured. */
  public record Figure(String name, String what, long count, double p10Us, double p50Us, double p90Us, double meanUs) {}

  /**
   * Everything measured: the figures in order, how threads were placed ({@code pinning}: "taskset" or why not),
   * the cores used, notes on what could not be measured here, the directory of the flush, and the wall time spent.
   */
  public record Result(List<Figure> figures, String pinning, List<Integer> cpus, List<String> notes, Path dir,
      double seconds) {
    /** The figure named {@code name}, or null when it was not measured here. */
    public Figure figure(String name) {
      return figures.stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
    }
  }

  private final Path dir;
  private final double seconds;
  private final Consumer<String> progress;
  private final ThreadMXBean bean = ManagementFactory.getThreadMXBean();

  public HostCalibration(Path dir, double seconds, Consumer<String> progress) {
    if (seconds < 1) throw new IllegalArgumentException("--seconds: at least 1");
    this.dir = dir;
    this.seconds = seconds;
    this.progress = progress;
  }

  public Result run() throws IOException {
    long start = System.nanoTime();
    if (!bean.isCurrentThreadCpuTimeSupported()) throw new IOException("this JVM cannot measure a thread's CPU time");
    if (!bean.isThreadCpuTimeEnabled()) bean.setThreadCpuTimeEnabled(true);
    Pinning pin = Pinning.detect();
    List<String> notes = new ArrayList<>();
    if (!pin.available()) notes.add(pin.missing());
    List<Integer> cpus = pin.cpus();
    boolean pinned = pin.available();
    boolean twoCores = !pinned || cpus.size() >= 2;
    int a = pinned ? cpus.get(0) : -1;
    int b = pinned && cpus.size() >= 2 ? cpus.get(1) : -1;
    if (pinned && cpus.size() < 2) notes.add("one core allowed (" + cpus + "): nothing measured across cores");
    double slice = seconds * 0.09;
    double clock = clockCost();
    List<Figure> figures = new ArrayList<>();

    // futex-style: on one core, across cores in a ping-pong, across cores to a core idle for a while
    if (pinned) {
      String where = "both on core " + a;
      PingPong same = pingPong(new FutexLink(), pin, a, a, 0, slice);
      figures.add(same.latency("futexWakeSameCore", "park/unpark: from the wake call to the woken thread running, "
          + where));
      figures.add(same.contextSwitchCheck());
      Figure call = same.wakeCall("futexSameCoreWakeCallCpu", "park/unpark: CPU time of the wake call on the waker's"
          + " core, " + where, clock);
      figures.add(call);
      figures.add(same.sleepCpu("futexSameCoreSleepCpu", "park/unpark: CPU one wait costs the waiting thread (its"
          + " sleep and its resume: its thread CPU per round trip less futexSameCoreWakeCallCpu), " + where,
          call.p50Us()));
    }
    if (twoCores) {
      String where = pinned ? "on cores " + a + " and " + b : "unpinned";
      PingPong cross = pingPong(new FutexLink(), pin, a, b, 0, slice);
      figures.add(cross.latency("futexWakeCrossCore", "park/unpark ping-pong: from the wake call to the woken thread"
          + " running, " + where));
      Figure call = cross.wakeCall("futexWakeCallCpu", "park/unpark: CPU time of the wake call on the waker's core"
          + " (futex wake of a sleeping thread on another core), " + where, clock);
      figures.add(call);
      figures.add(cross.sleepCpu("futexSleepCpu", "park/unpark: CPU one wait costs the waiting thread on its own"
          + " core (its sleep and its resume: its thread CPU per round trip less futexWakeCallCpu), " + where,
          call.p50Us()));
      PingPong idle = pingPong(new FutexLink(), pin, a, b, IDLE_GAP_US * 1000L, slice);
      figures.add(idle.latencyB("futexWakeIdleCore", "park/unpark: from the wake call to the woken thread running on"
          + " a core idle for " + IDLE_GAP_US + " us, " + where));
      if (pinned) {
        // whether a woken thread preempts the one running on its core or waits for it (the session pool's cores are
        // first come first served: docs/commit-path-host-costs.md 4.2): a few us if it preempts, up to a time slice if
        // it waits
        PingPong busy = withHog(pin, b, () -> pingPong(new FutexLink(), pin, a, b, 0, slice));
        figures.add(busy.latencyB("futexWakeBusyCore", "park/unpark: from the wake call to the woken thread running on"
            + " a core where another thread computes without pause, " + where));
        Figure busyCall = busy.wakeCall("futexWakeBusyCoreCallCpu", "park/unpark: CPU time of the wake call on the"
            + " waker's core when the woken thread's core is busy (another thread computes there without pause), "
            + where, clock);
        figures.add(busyCall);
        figures.add(busy.sleepCpu("futexBusyCoreSleepCpu", "park/unpark: CPU one wait costs the waiting thread woken"
            + " from another core onto a busy core (its thread CPU per round trip less futexWakeBusyCoreCallCpu), "
            + where, busyCall.p50Us()));
      }
    }
    progress.accept(line(figures));

    // a pipe and a Unix-domain socket: how a local client and its backend wake each other
    for (String kind : List.of("pipe", "socket")) {
      if (pinned) {
        try (Link l = link(kind)) {
          figures.add(pingPong(l, pin, a, a, 0, slice).latency(kind + "WakeSameCore", kind + ": from the write to"
              + " the reader running, both on core " + a));
        }
      }
      if (twoCores) {
        try (Link l = link(kind)) {
          figures.add(pingPong(l, pin, a, b, 0, slice).latency(kind + "WakeCrossCore", kind + ": from the write to"
              + " the reader running, " + (pinned ? "on cores " + a + " and " + b : "unpinned")));
        }
      }
      progress.accept(line(figures));
    }

    // a context switch
    if (pinned) {
      // on a busy core the two threads get few turns in a short round: measure again with longer rounds
      Figure cs = null;
      for (int k = 0; k < 3 && cs == null; k++) cs = contextSwitch(pin, a, slice * (1 << (2 * k)));
      if (cs != null) {
        figures.add(cs);
      } else {
        notes.add("two threads yielding on one core did not switch: no context-switch figure");
      }
    } else {
      notes.add("threads not pinned: no context-switch figure (two yielding threads may be on two cores)");
    }
    progress.accept(line(figures));

    // the CPU of a flush
    figures.addAll(flush(seconds * 0.2));
    progress.accept(line(figures));
    return new Result(List.copyOf(figures), pinned ? "taskset" : pin.missing(), cpus, List.copyOf(notes), dir,
        (System.nanoTime() - start) / 1e9);
  }

  private static String line(List<Figure> figures) {
    Figure f = figures.get(figures.size() - 1);
    return String.format(Locale.ROOT, "%s: p50 %.2f us (p10 %.2f, p90 %.2f), %,d samples", f.name(), f.p50Us(),
        f.p10Us(), f.p90Us(), f.count());
  }

  // ---- ping-pong between two threads over a link

  /** One thread wakes another: {@code send(from)} wakes side 1 - from; {@code await(side)} sleeps until woken. */
  interface Link extends AutoCloseable {
    void bind(Thread side0, Thread side1);

    void send(int from) throws IOException;

    void await(int side) throws IOException;

    @Override
    default void close() throws IOException {}
  }

  /** park/unpark on a volatile turn: HotSpot's Parker is a mutex and condition variable, i.e. futexes. */
  static final class FutexLink implements Link {
    private volatile int turn = -1;
    private Thread[] threads;

    @Override
    public void bind(Thread side0, Thread side1) {
      threads = new Thread[] {side0, side1};
    }

    @Override
    public void send(int from) {
      turn = 1 - from;
      LockSupport.unpark(threads[1 - from]);
    }

    @Override
    public void await(int side) {
      while (turn != side) LockSupport.park(this);
    }
  }

  /** One byte each way through two pipes (java.nio's Pipe is pipe(2) on Linux), blocking reads. */
  static final class PipeLink implements Link {
    private final Pipe[] pipes = {Pipe.open(), Pipe.open()}; // pipes[k] carries k -> 1 - k
    private final ByteBuffer[] out = {ByteBuffer.allocateDirect(1), ByteBuffer.allocateDirect(1)};
    private final ByteBuffer[] in = {ByteBuffer.allocateDirect(1), ByteBuffer.allocateDirect(1)};

    PipeLink() throws IOException {}

    @Override
    public void bind(Thread side0, Thread side1) {}

    @Override
    public void send(int from) throws IOException {
      ByteBuffer b = out[from].clear();
      while (b.hasRemaining()) pipes[from].sink().write(b);
    }

    @Override
    public void await(int side) throws IOException {
      ByteBuffer b = in[side].clear();
      while (b.hasRemaining()) {
        if (pipes[1 - side].source().read(b) < 0) throw new IOException("pipe closed");
      }
    }

    @Override
    public void close() throws IOException {
      for (Pipe p : pipes) {
        p.sink().close();
        p.source().close();
      }
    }
  }

  /** One byte each way over a connected Unix-domain stream socket (what a local libpq client uses). */
  static final class SocketLink implements Link {
    private final Path file;
    private final SocketChannel[] ends = new SocketChannel[2];
    private final ByteBuffer[] out = {ByteBuffer.allocateDirect(1), ByteBuffer.allocateDirect(1)};
    private final ByteBuffer[] in = {ByteBuffer.allocateDirect(1), ByteBuffer.allocateDirect(1)};

    SocketLink() throws IOException {
      Path tmp = Files.createTempDirectory("tlogsim-host");
      file = tmp.resolve("s");
      try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
        UnixDomainSocketAddress at = UnixDomainSocketAddress.of(file);
        server.bind(at);
        ends[0] = SocketChannel.open(at);
        ends[1] = server.accept();
      } finally {
        Files.deleteIfExists(file);
        Files.deleteIfExists(tmp);
      }
    }

    @Override
    public void bind(Thread side0, Thread side1) {}

    @Override
    public void send(int from) throws IOException {
      ByteBuffer b = out[from].clear();
      while (b.hasRemaining()) ends[from].write(b);
    }

    @Override
    public void await(int side) throws IOException {
      ByteBuffer b = in[side].clear();
      while (b.hasRemaining()) {
        if (ends[side].read(b) < 0) throw new IOException("socket closed");
      }
    }

    @Override
    public void close() throws IOException {
      for (SocketChannel c : ends) {
        if (c != null) c.close();
      }
    }
  }

  private static Link link(String kind) throws IOException {
    return kind.equals("pipe") ? new PipeLink() : new SocketLink();
  }

  /** A growable array of samples in ns. */
  static final class Samples {
    private long[] v = new long[1024];
    private int n;

    void add(long x) {
      if (n == v.length) {
        if (n >= MAX_SAMPLES) return;
        v = Arrays.copyOf(v, n * 2);
      }
      v[n++] = x;
    }

    int size() {
      return n;
    }

    /** The figure of these samples (the first {@code skip} left out), less {@code minusNanos} each, at least 1 ns. */
    Figure figure(String name, String what, int skip, double minusNanos) {
      int from = Math.min(skip, Math.max(0, n - 10));
      double[] s = new double[n - from];
      for (int i = from; i < n; i++) s[i - from] = Math.max(1, v[i] - minusNanos);
      Arrays.sort(s);
      if (s.length == 0) return new Figure(name, what, 0, 0, 0, 0, 0);
      double mean = Arrays.stream(s).average().orElse(0);
      return new Figure(name, what, s.length, at(s, 0.10) / 1e3, at(s, 0.50) / 1e3, at(s, 0.90) / 1e3, mean / 1e3);
    }

    private static double at(double[] sorted, double q) {
      return sorted[(int) Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
    }
  }

  /** What one ping-pong measured. */
  final class PingPong {
    final Samples latA = new Samples(); // B -> A wake latencies
    final Samples latB = new Samples(); // A -> B wake latencies
    final Samples callA = new Samples(); // CPU time of A's wake calls (clock reads included)
    final Samples cpuB = new Samples(); // B's thread CPU per round trip, per batch
    long switchesA;
    long switchesB;
    long roundTrips;
    long wallNanos;

    Figure latency(String name, String what) {
      Samples both = new Samples();
      for (int i = 0; i < latA.size(); i++) both.add(latA.v[i]);
      for (int i = 0; i < latB.size(); i++) both.add(latB.v[i]);
      return both.figure(name, what, 2 * WARMUP, 0);
    }

    Figure latencyB(String name, String what) {
      return latB.figure(name, what, WARMUP, 0);
    }

    /** The wake call's CPU time, less what reading the CPU clock costs ({@code clockNanos}). */
    Figure wakeCall(String name, String what, double clockNanos) {
      return callA.figure(name, what, WARMUP / CALL_EVERY, clockNanos);
    }

    /** B's CPU per round trip (one wake call and one wait) less the wake call: one wait. */
    Figure sleepCpu(String name, String what, double wakeCallUs) {
      return cpuB.figure(name, what, 4, wakeCallUs * 1e3);
    }

    /**
     * Context switches the kernel counted per round trip of the same-core ping-pong (two are expected: one each way),
     * as a figure of one sample: it shows that each wake there was a switch.
     */
    Figure contextSwitchCheck() {
      double perTrip = roundTrips == 0 ? 0 : (switchesA + switchesB) / (double) roundTrips;
      return new Figure("futexSameCoreSwitchesPerRoundTrip", "context switches the kernel counted per round trip of"
          + " the same-core park/unpark ping-pong (2 expected: one each way; a count, not us)", roundTrips, perTrip,
          perTrip, perTrip, perTrip);
    }
  }

  /** What the two threads of a ping-pong share: the volatile fields order everything else between them. */
  private static final class Shared {
    volatile long sentAt;
    volatile boolean stop;
    final AtomicReference<IOException> failure = new AtomicReference<>();
  }

  /**
   * Thread A (side 0, on core {@code cpuA}) wakes thread B (side 1, on {@code cpuB}) and sleeps until B wakes it back,
   * for about {@code seconds}; with {@code gapNanos}, A spins that long before each wake, so B's core is idle that long.
   * A negative core: the thread is not pinned.
   */
  PingPong pingPong(Link link, Pinning pin, int cpuA, int cpuB, long gapNanos, double seconds) throws IOException {
    PingPong r = new PingPong();
    CyclicBarrier ready = new CyclicBarrier(2);
    Shared sh = new Shared();
    Thread[] t = new Thread[2];
    t[0] = new Thread(() -> {
      try {
        if (cpuA >= 0) pin.pinSelf(cpuA);
        ready.await();
        long s0 = Pinning.contextSwitches();
        long begin = System.nanoTime();
        long deadline = begin + (long) (seconds * 1e9);
        long trips = 0;
        while (true) {
          if (gapNanos > 0) {
            long until = System.nanoTime() + gapNanos;
            while (System.nanoTime() < until) Thread.onSpinWait();
          }
          if (System.nanoTime() >= deadline || r.latB.size() >= MAX_SAMPLES) {
            sh.stop = true;
            link.send(0);
            break;
          }
          boolean timed = trips % CALL_EVERY == 0;
          long c0 = timed ? bean.getCurrentThreadCpuTime() : 0;
          sh.sentAt = System.nanoTime();
          link.send(0);
          // CPU time, not wall: on one core the woken thread may run before the call returns (wake-up preemption)
          if (timed) r.callA.add(bean.getCurrentThreadCpuTime() - c0);
          link.await(0);
          long now = System.nanoTime();
          if (sh.stop) break; // B failed
          r.latA.add(now - sh.sentAt);
          trips++;
        }
        r.roundTrips = trips;
        r.wallNanos = System.nanoTime() - begin;
        r.switchesA = Pinning.contextSwitches() - s0;
      } catch (IOException e) {
        fail(sh, e, ready, link, 0);
      } catch (InterruptedException | BrokenBarrierException e) {
        // the other thread failed before the start: its failure is reported
      }
    }, "tlogsim-host-a");
    t[1] = new Thread(() -> {
      try {
        if (cpuB >= 0) pin.pinSelf(cpuB);
        ready.await();
        long s0 = Pinning.contextSwitches();
        long cpu0 = bean.getCurrentThreadCpuTime();
        long trips = 0;
        while (true) {
          link.await(1);
          long now = System.nanoTime();
          if (sh.stop) break;
          r.latB.add(now - sh.sentAt);
          sh.sentAt = System.nanoTime();
          link.send(1);
          trips++;
          if (gapNanos == 0 && trips % BATCH == 0) {
            long cpu1 = bean.getCurrentThreadCpuTime();
            r.cpuB.add((cpu1 - cpu0) / BATCH);
            cpu0 = cpu1;
          }
        }
        r.switchesB = Pinning.contextSwitches() - s0;
      } catch (IOException e) {
        fail(sh, e, ready, link, 1);
      } catch (InterruptedException | BrokenBarrierException e) {
        // the other thread failed before the start: its failure is reported
      }
    }, "tlogsim-host-b");
    link.bind(t[0], t[1]);
    for (Thread th : t) {
      th.setDaemon(true);
      th.start();
    }
    join(t, seconds, ready);
    if (sh.failure.get() != null) throw sh.failure.get();
    return r;
  }

  /** What a measurement gives (one that may fail on I/O). */
  private interface Measurement<T> {
    T run() throws IOException;
  }

  /** Runs {@code m} while a thread pinned to core {@code cpu} computes without pause (never sleeps). */
  private static <T> T withHog(Pinning pin, int cpu, Measurement<T> m) throws IOException {
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch pinned = new CountDownLatch(1);
    Thread hog = new Thread(() -> {
      try {
        pin.pinSelf(cpu);
      } catch (IOException e) {
        return; // not pinned: it would not load that core; the figure is then of a core shared as the scheduler likes
      } finally {
        pinned.countDown();
      }
      long x = 0;
      while (!stop.get()) x += System.nanoTime() & 1; // work the JIT cannot drop, no sleep, no spin-wait hint
      if (x == 42) System.out.print(""); // keeps x alive
    }, "tlogsim-host-hog");
    hog.setDaemon(true);
    hog.start();
    try {
      pinned.await(10, TimeUnit.SECONDS);
      return m.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while a thread was pinned");
    } finally {
      stop.set(true);
      try {
        hog.join(1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A thread failed: record why, release the other from the start barrier or from its wait. */
  private static void fail(Shared sh, IOException e, CyclicBarrier ready, Link link, int side) {
    sh.failure.compareAndSet(null, e);
    sh.stop = true;
    ready.reset();
    try {
      link.send(side);
    } catch (IOException ignored) {
      // the peer is gone already
    }
  }

  private static void join(Thread[] threads, double seconds, CyclicBarrier ready) throws IOException {
    long deadline = System.nanoTime() + (long) ((seconds + 30) * 1e9);
    for (Thread th : threads) {
      try {
        long left = deadline - System.nanoTime();
        if (left > 0) th.join(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted");
      }
      if (th.isAlive()) {
        ready.reset();
        for (Thread t : threads) t.interrupt();
        throw new IOException(th.getName() + " did not finish within " + (seconds + 30) + " s");
      }
    }
  }

  // ---- a context switch

  /**
   * Two threads on core {@code cpu} yield to each other in rounds; the kernel counts their switches
   * (/proc/thread-self/status). One sample per round: its wall time over its switches. Null if they did not switch.
   */
  private Figure contextSwitch(Pinning pin, int cpu, double seconds) throws IOException {
    int rounds = 20;
    Samples perSwitch = new Samples();
    long total = 0;
    for (int k = 0; k < rounds; k++) {
      long[] switches = new long[2];
      Shared sh = new Shared();
      CyclicBarrier ready = new CyclicBarrier(3);
      Thread[] t = new Thread[2];
      for (int s = 0; s < 2; s++) {
        int side = s;
        t[s] = new Thread(() -> {
          try {
            pin.pinSelf(cpu);
            ready.await();
            long s0 = Pinning.contextSwitches();
            while (!sh.stop) Thread.yield();
            switches[side] = Pinning.contextSwitches() - s0;
          } catch (IOException e) {
            sh.failure.compareAndSet(null, e);
            ready.reset();
          } catch (InterruptedException | BrokenBarrierException e) {
            // the other thread failed before the start: its failure is reported
          }
        }, "tlogsim-host-y" + s);
        t[s].setDaemon(true);
        t[s].start();
      }
      long begin = System.nanoTime();
      try {
        ready.await();
        begin = System.nanoTime();
        Thread.sleep(Math.max(1, (long) (seconds * 1000 / rounds)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted");
      } catch (BrokenBarrierException e) {
        // a thread failed to pin itself: reported below
      }
      sh.stop = true;
      join(t, seconds, ready);
      long wall = System.nanoTime() - begin;
      if (sh.failure.get() != null) throw sh.failure.get();
      long n = switches[0] + switches[1];
      if (n < 100) continue;
      total += n;
      perSwitch.add(wall / n);
    }
    if (perSwitch.size() < rounds / 2) return null;
    Figure f = perSwitch.figure("contextSwitch", "two threads on core " + cpu + " yielding to each other: wall time"
        + " per switch the kernel counted (one sample per round of " + rounds + ")", 0, 0);
    return new Figure(f.name(), f.what() + "; " + total + " switches in all", f.count(), f.p10Us(), f.p50Us(),
        f.p90Us(), f.meanUs());
  }

  // ---- the CPU of a flush

  /**
   * 8 kB written at the next offset of a file written beforehand (as a WAL segment is), then fdatasync
   * (FileChannel.force(false)); the thread's CPU time around each, less what reading the CPU clock costs, and the
   * fdatasync's wall time.
   */
  private List<Figure> flush(double seconds) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(FILE);
    long fileBytes = 8L << 20;
    Samples write = new Samples();
    Samples sync = new Samples();
    Samples wall = new Samples();
    try {
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE)) {
        ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
        for (long at = 0; at < fileBytes; at += zeros.capacity()) {
          zeros.clear();
          while (zeros.hasRemaining()) ch.write(zeros, at + zeros.position());
        }
        ch.force(true);
      }
      double clock = clockCost();
      ByteBuffer buf = ByteBuffer.allocateDirect(PAGE);
      for (int i = 0; i < PAGE; i++) buf.put(i, (byte) (i * 31));
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long at = 0;
        int n = 0;
        while (n < 50 || (System.nanoTime() < deadline && n < 200_000)) {
          if (at + PAGE > fileBytes) at = 0;
          buf.clear();
          long c0 = bean.getCurrentThreadCpuTime();
          while (buf.hasRemaining()) ch.write(buf, at + buf.position());
          long c1 = bean.getCurrentThreadCpuTime();
          long w0 = System.nanoTime();
          ch.force(false);
          long w1 = System.nanoTime();
          long c2 = bean.getCurrentThreadCpuTime();
          write.add(c1 - c0);
          sync.add(c2 - c1);
          wall.add(w1 - w0);
          at += PAGE;
          n++;
        }
      }
      String where = " on " + dir.toAbsolutePath();
      return List.of(
          write.figure("walWriteCpu", "CPU time of writing 8 kB at the next offset of a file written beforehand" + where,
              10, clock),
          sync.figure("fdatasyncCpu", "CPU time of the fdatasync after each 8 kB write (submitting the flush, being"
              + " woken when it completes)" + where, 10, clock),
          wall.figure("fdatasyncWall", "wall time of that fdatasync (the device's; the commit path takes it from the"
              + " log device or pg_test_fsync)" + where, 10, 0));
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** What reading this thread's CPU clock costs, as the clock itself sees it (median of back-to-back reads). */
  private double clockCost() {
    long[] d = new long[2001];
    for (int i = 0; i < d.length; i++) {
      long c0 = bean.getCurrentThreadCpuTime();
      d[i] = bean.getCurrentThreadCpuTime() - c0;
    }
    Arrays.sort(d);
    return d[d.length / 2];
  }
}
