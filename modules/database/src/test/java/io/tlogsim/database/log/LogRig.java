package io.tlogsim.database.log;

import io.tlogsim.database.data.DataConfig;
import io.tlogsim.database.data.DataFiles;
import io.tlogsim.database.log.policy.FlushPolicy;
import io.tlogsim.database.logspace.LinearLogSpace;
import io.tlogsim.database.logspace.LogSpace;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.FactBatch;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.Topology;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.DeviceProtocol;
import java.util.ArrayList;
import java.util.List;

/**
 * A log manager between a driver that sends a fixed plan of session requests (and records the replies) and a disk
 * that records every request and completes it after a fixed latency, in parallel (no queue): what each flush policy
 * acknowledges when, and what is durable when, can be read off exactly.
 */
final class LogRig {
  static final long HOP = 1_000; // 1 us each way between the sessions and the log manager
  static final long LINK = 1_000; // 1 us from the log manager to the disk
  static final long DISK = 100_000; // 100 us per write
  /** Plan times are counted from here (a first request cannot arrive sooner than one hop after time 0). */
  static final long BASE = 10_000;

  /** One request of the plan: at {@code time} (arrival at the log manager), an event of {@code kind}. */
  record Send(long time, int kind, long a, long b, long c, long d) {}

  record Reply(long time, int kind, int session) implements CborSerializable {}

  record Request(long time, int kind, long tag, long bytes, long offset, int file) implements CborSerializable {}

  /** The plan's builder: commits, records, flushes and checkpoints at given arrival times (us). */
  static final class Plan {
    final List<Send> sends = new ArrayList<>();

    /** A commit that is its transaction's only record. */
    Plan commit(double atUs, int session, boolean waits) {
      return commit(atUs, session, waits, true);
    }

    Plan commit(double atUs, int session, boolean waits, boolean begins) {
      long flags = (begins ? LogProtocol.FLAG_BEGIN : 0) | (waits ? LogProtocol.FLAG_WAITS : 0);
      sends.add(new Send(VirtualTime.micros(atUs), LogProtocol.COMMIT, LogProtocol.recordsA(session, flags), 100, 0,
          0));
      return this;
    }

    /** Records that begin a transaction. */
    Plan records(double atUs, int session, int bytes, long count, long firstRow) {
      sends.add(new Send(VirtualTime.micros(atUs), LogProtocol.RECORDS,
          LogProtocol.recordsA(session, LogProtocol.FLAG_BEGIN), bytes, firstRow, count));
      return this;
    }

    /** A statement's records that its session waits for ({@link LogProtocol#FLAG_REPLY}); not a transaction's first. */
    Plan statement(double atUs, int session, int bytes, long count) {
      sends.add(new Send(VirtualTime.micros(atUs), LogProtocol.RECORDS,
          LogProtocol.recordsA(session, LogProtocol.FLAG_REPLY), bytes, -1, count));
      return this;
    }

    Plan flush(double atUs, int session) {
      sends.add(new Send(VirtualTime.micros(atUs), LogProtocol.FLUSH, session, 0, 0, 0));
      return this;
    }

    Plan checkpoint(double atUs, int session) {
      sends.add(new Send(VirtualTime.micros(atUs), LogProtocol.CHECKPOINT, session, 0, 0, 0));
      return this;
    }

    Plan close(double atUs, int session) {
      sends.add(new Send(VirtualTime.micros(atUs), LogProtocol.CLOSE, session, 0, 0, 0));
      return this;
    }
  }

  /** Sends the plan at start (stamped with its arrival times), records replies. */
  static final class Driver implements SimComponent {
    private final List<Send> plan;
    private final int link;
    private List<Reply> replies = new ArrayList<>();

    Driver(List<Send> plan, int link) {
      this.plan = plan;
      this.link = link;
    }

    @Override
    public void start(Context ctx) {
      for (Send s : plan) ctx.send(link, BASE + s.time(), s.kind(), s.a(), s.b(), s.c(), s.d());
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      replies.add(new Reply(ev.time() - BASE, ev.kind(), (int) ev.a()));
    }

    @Override
    public long inputDelay(int port) {
      return VirtualTime.NEVER;
    }

    @Override
    public Object snapshot() {
      return new Replies(replies.toArray(new Reply[0]));
    }

    @Override
    public void restore(Object snapshot) {
      replies = new ArrayList<>(List.of(((Replies) snapshot).replies()));
    }

    @Override
    public Object results() {
      return List.copyOf(replies);
    }
  }

  record Replies(Reply[] replies) implements CborSerializable {}

  /** Completes every request {@code latency} after it arrives, whatever else is in flight; records them all. */
  static final class Disk implements SimComponent {
    private final long latency;
    private List<Request> requests = new ArrayList<>();

    Disk(long latency) {
      this.latency = latency;
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      requests.add(new Request(ev.time() - BASE, ev.kind(), ev.a(), ev.b(), ev.c(), (int) ev.d()));
      ctx.send(ctx.replyLink(), ev.time() + latency, DeviceProtocol.DONE, ev.a(), ev.b(), ev.kind(), ev.d());
    }

    @Override
    public long inputDelay(int port) {
      return latency;
    }

    @Override
    public Object snapshot() {
      return new Requests(requests.toArray(new Request[0]));
    }

    @Override
    public void restore(Object snapshot) {
      requests = new ArrayList<>(List.of(((Requests) snapshot).requests()));
    }

    @Override
    public Object results() {
      return List.copyOf(requests);
    }
  }

  record Requests(Request[] requests) implements CborSerializable {}

  /** What a run of the rig shows. */
  record Run(List<Reply> replies, List<Request> writes, LogStats log, List<RecordedFact> facts) {
    /** When the write holding everything up to {@code lsn} completed (from the hardening facts), or -1. */
    long hardenedAt(long lsn) {
      for (RecordedFact f : facts) {
        if (f.fact() instanceof LogHardened h && h.lsn() >= lsn) return f.time();
      }
      return -1;
    }

    List<Reply> acks() {
      return replies.stream().filter(r -> r.kind() == LogProtocol.ACK).toList();
    }

    /** Log writes (data-page writes left out), in arrival order at the disk. */
    List<Request> logWrites() {
      return writes.stream().filter(w -> w.tag() < LogManager.DATA_TAGS).toList();
    }

    /** The most log writes the disk had at once. */
    int maxLogWritesInFlight() {
      int max = 0;
      List<Request> w = logWrites();
      for (Request r : w) {
        int n = 0;
        for (Request o : w) if (o.time() <= r.time() && o.time() + DISK > r.time()) n++;
        max = Math.max(max, n);
      }
      return max;
    }
  }

  /** The rig's log settings: 512 B pages, 60 KB blocks, as many buffers and writes in flight as given. */
  static LogConfig config(int logBuffers, int maxWrites, long maxBytes) {
    return LogConfig.builder().pageBytes(512).maxBlockPages(120).logBuffers(logBuffers).maxOutstandingWrites(maxWrites)
        .maxOutstandingBytes(maxBytes).flushClosesPage(true).checkpointRecordBytes(200).replyNanos(HOP)
        .deviceLinkNanos(LINK).build();
  }

  static Run run(Plan plan, FlushPolicy policy, LogConfig cfg, DataConfig data, double untilMs) {
    return run(plan, policy, cfg, data, new LinearLogSpace(2, "log", 0, 0), untilMs);
  }

  static Run run(Plan plan, FlushPolicy policy, LogConfig cfg, DataConfig data, LogSpace space, double untilMs) {
    Topology.Builder tb = Topology.builder();
    int driver = tb.component("driver", LogProtocol.REPLIES, LogProtocol.REQUESTS);
    int lm = tb.component("log-manager", List.of(LogProtocol.REQUESTS, DeviceProtocol.COMPLETIONS),
        List.of(LogProtocol.REPLIES, DeviceProtocol.REQUESTS));
    int disk = tb.component("disk", DeviceProtocol.REQUESTS, DeviceProtocol.COMPLETIONS);
    int toLm = tb.link(driver, lm, LogProtocol.SESSIONS_PORT, HOP);
    int toDriver = tb.link(lm, driver, LogProtocol.REPLIES_PORT, HOP);
    int toDisk = tb.link(lm, disk, DeviceProtocol.REQUESTS_PORT, LINK);
    tb.link(disk, lm, LogProtocol.DEVICE_PORT, DISK);
    int sessions = 64;
    DataFiles files = data == null ? null : new DataFiles(data, LogManager.DATA_TAGS);
    boolean flushes = plan.sends.stream().anyMatch(s -> s.kind() == LogProtocol.FLUSH);
    List<SimComponent> models = List.of(new Driver(plan.sends, toLm),
        new LogManager(cfg, policy, space, files, new int[] {toDisk},
            new int[] {toDriver}, sessions, sessions, flushes).withLazyCommits(), // a plan's commit may not wait
        new Disk(DISK));
    List<RecordedFact> facts = new ArrayList<>();
    RunOutcome out = Simulation.run(tb.build(), models,
        RunSettings.of(BASE + VirtualTime.micros(untilMs * 1000), 1, 2).withFacts((FactBatch b) -> facts.addAll(b.facts())));
    return collected(out, facts, driver, lm, disk);
  }

  /**
   * The plan run with {@code before} until every event at or before {@code atUs} is handled, checkpointed there, and
   * that state run on to the end with {@code after} (a branch that switches flush policy at T, as run --branch does:
   * the log manager restored from another policy's state).
   */
  static Run runSwitched(Plan plan, FlushPolicy before, FlushPolicy after, LogConfig cfg, double atUs,
      double untilMs) {
    Topology topo = topology();
    long end = BASE + VirtualTime.micros(untilMs * 1000);
    List<RecordedFact> facts = new ArrayList<>();
    java.util.concurrent.atomic.AtomicReference<io.tlogsim.kernel.Checkpoint> atT =
        new java.util.concurrent.atomic.AtomicReference<>();
    Simulation.run(topo, models(plan, before, cfg), RunSettings.of(end, 1, 2)
        .withFacts((FactBatch b) -> facts.addAll(b.facts()))
        .withCheckpoints(io.tlogsim.kernel.CheckpointPolicy.NEVER, atT::set)
        .stoppingAt(BASE + VirtualTime.micros(atUs), true));
    RunOutcome out = Simulation.run(topo, models(plan, after, cfg), RunSettings.of(end, 1, 2)
        .withFacts((FactBatch b) -> facts.addAll(b.facts())).resumingFrom(atT.get()));
    return collected(out, facts, 0, 1, 2);
  }

  private static Topology topology() {
    Topology.Builder tb = Topology.builder();
    int driver = tb.component("driver", LogProtocol.REPLIES, LogProtocol.REQUESTS);
    int lm = tb.component("log-manager", List.of(LogProtocol.REQUESTS, DeviceProtocol.COMPLETIONS),
        List.of(LogProtocol.REPLIES, DeviceProtocol.REQUESTS));
    int disk = tb.component("disk", DeviceProtocol.REQUESTS, DeviceProtocol.COMPLETIONS);
    tb.link(driver, lm, LogProtocol.SESSIONS_PORT, HOP);
    tb.link(lm, driver, LogProtocol.REPLIES_PORT, HOP);
    tb.link(lm, disk, DeviceProtocol.REQUESTS_PORT, LINK);
    tb.link(disk, lm, LogProtocol.DEVICE_PORT, DISK);
    return tb.build();
  }

  /** The rig's components for {@link #topology()} (links 0: to the log manager, 1: to the driver, 2: to the disk). */
  private static List<SimComponent> models(Plan plan, FlushPolicy policy, LogConfig cfg) {
    boolean flushes = plan.sends.stream().anyMatch(s -> s.kind() == LogProtocol.FLUSH);
    return List.of(new Driver(plan.sends, 0), new LogManager(cfg, policy, new LinearLogSpace(2, "log", 0, 0), null,
        new int[] {2}, new int[] {1}, 64, 64, flushes).withLazyCommits(), new Disk(DISK));
  }

  private static Run collected(RunOutcome out, List<RecordedFact> facts, int driver, int lm, int disk) {
    List<RecordedFact> shifted = new ArrayList<>();
    for (RecordedFact f : facts) shifted.add(new RecordedFact(f.time() - BASE, f.component(), f.fact()));
    shifted.sort((x, y) -> Long.compare(x.time(), y.time()));
    @SuppressWarnings("unchecked")
    List<Reply> replies = (List<Reply>) out.results().get(driver);
    @SuppressWarnings("unchecked")
    List<Request> writes = (List<Request>) out.results().get(disk);
    return new Run(replies, writes, (LogStats) out.results().get(lm), shifted);
  }
}
