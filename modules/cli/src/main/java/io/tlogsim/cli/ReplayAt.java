package io.tlogsim.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.database.log.LogManager;
import io.tlogsim.database.log.LogStats;
import io.tlogsim.database.logspace.LogLayout;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.database.session.SessionPool;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunState;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Text;
import io.tlogsim.storage.DeviceStats;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code tlogsim replay <run-id> --at T [--show ...] [--json]}: the database of a stored run at simulated time T
 * ({@link StateAt}): DBCC LOGINFO and SQLPERF(LOGSPACE) as SQL Server shows them (the tables the log-space kinds print
 * at the end of a run, here at T), log_reuse_wait, the open transactions, the waits so far, the devices and the
 * sessions. A section the run's kind does not have is left out with a note saying so. Nothing is written.
 */
final class ReplayAt {
  /** The sections of --show, in the order they are printed. */
  static final List<String> SECTIONS = List.of("loginfo", "sqlperf", "reuse", "transactions", "waits", "devices",
      "sessions");
  private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  /** The options replay takes for this (a mixin: ReplayCommand hands over when --at is given). */
  static final class Options {
    @Option(names = "--at", paramLabel = "T", description = "Show the run's state at simulated time T (seconds, or "
        + "with a unit: 500ms, 2m) instead of rebuilding its files: its last checkpoint at or before T is simulated on "
        + "to T exactly (deterministic: the run's own state). See --show.")
    String at;

    @Option(names = "--show", split = ",", paramLabel = "SECTION[,SECTION...]", description = "With --at, which "
        + "sections (default: all): loginfo (DBCC LOGINFO), sqlperf (DBCC SQLPERF(LOGSPACE)), reuse "
        + "(log_reuse_wait), transactions (open ones: first LSN, reserved bytes), waits (so far, by type), devices "
        + "(requests, throttling and queue so far), sessions (by state). A section the run's kind does not have is "
        + "left out with a note.")
    List<String> show = new ArrayList<>();
  }

  private ReplayAt() {}

  /** What replay --at does; {@code json}: one JSON object on stdout instead of the text. */
  static int call(Options o, String runId, boolean json, boolean quiet, String out, JournalSettings js,
      PrintWriter stdout) {
    if (out != null) throw new BadInputException("--at and --out: --at writes no files (it prints the state at T)");
    for (String s : o.show) {
      if (!SECTIONS.contains(s)) {
        throw new BadInputException("--show " + s + ": unknown section; allowed with --at: " + String.join(", ",
            SECTIONS));
      }
    }
    List<String> show = o.show.isEmpty() ? SECTIONS : SECTIONS.stream().filter(o.show::contains).toList();
    long at = StateAt.parseAt("--at", o.at);
    try (Journal journal = Journal.openForReading(js)) {
      RunState state = StateAt.completed(journal, runId, "replay --at");
      StateAt.checkWithin("--at", state, at);
      StateAt.Simulated s = StateAt.simulate(journal, state, at, false);
      Map<String, Object> view = view(s, show);
      if (json) {
        stdout.println(toJson(view));
      } else if (!quiet) {
        text(s, view, show).forEach(stdout::println);
      }
    }
    stdout.flush();
    return Tlogsim.OK;
  }

  static String toJson(Object o) {
    try {
      return JSON.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the state cannot be written as JSON", e);
    }
  }

  /** The state at T as JSON reads it: a head, then each section shown, and why the others asked for are left out. */
  static Map<String, Object> view(StateAt.Simulated s, List<String> show) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("runId", s.spec().runId());
    m.put("scenario", s.spec().scenario());
    m.put("kind", s.spec().kind());
    m.put("atSeconds", s.atNanos() / 1e9);
    m.put("fromCheckpointSeconds", s.from() == null ? null : s.fromSeconds());
    m.put("digest", s.outcome().digestHex()); // of the run's events up to T
    Map<String, String> omitted = new LinkedHashMap<>();
    ManagedLogSpace.Report space = logSpace(s);
    String noVlfs = "kind " + s.spec().kind() + " has no log in VLFs (SQL Server's log space: kinds log-space, "
        + "stairway, read-path, manyfiles)";
    for (String section : show) {
      switch (section) {
        case "loginfo" -> {
          if (space == null) omitted.put(section, noVlfs);
          else m.put(section, logInfo(space));
        }
        case "sqlperf" -> {
          if (space == null) omitted.put(section, noVlfs);
          else m.put(section, sqlPerf(space, s.spec().scenario()));
        }
        case "reuse" -> {
          if (space == null) omitted.put(section, noVlfs);
          else m.put(section, Map.of("logReuseWait", space.reuseWait()));
        }
        case "transactions" -> {
          List<Map<String, Object>> open = openTransactions(s);
          if (open == null) omitted.put(section, noVlfs + "; only there are transactions kept open across records");
          else m.put(section, open);
        }
        case "waits" -> {
          Object waits = s.result().summary().get("waits");
          if (waits == null) omitted.put(section, "kind " + s.spec().kind() + " counts no waits");
          else m.put(section, waits);
        }
        case "devices" -> {
          Map<String, Object> d = devices(s);
          if (d.isEmpty()) omitted.put(section, "kind " + s.spec().kind() + " has no device models");
          else m.put(section, d);
        }
        case "sessions" -> {
          Map<String, Object> p = sessions(s);
          if (p.isEmpty()) omitted.put(section, "kind " + s.spec().kind() + " has no session pools");
          else m.put(section, p);
        }
        default -> throw new IllegalStateException(section);
      }
    }
    if (!omitted.isEmpty()) m.put("omitted", omitted);
    return m;
  }

  /** The log space of the run's (first) log manager, as it is at T; null: none in VLFs. */
  private static ManagedLogSpace.Report logSpace(StateAt.Simulated s) {
    for (Object r : s.outcome().results()) {
      if (r instanceof LogStats ls && ls.logSpace() instanceof ManagedLogSpace.Report rep) return rep;
    }
    return null;
  }

  private static List<Map<String, Object>> logInfo(ManagedLogSpace.Report r) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (LogLayout.LogInfoRow v : r.logInfo()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("RecoveryUnitId", 0);
      row.put("FileId", v.fileId());
      row.put("FileSize", v.fileSize());
      row.put("StartOffset", v.startOffset());
      row.put("FSeqNo", v.fseqNo());
      row.put("Status", v.status());
      row.put("Parity", v.fseqNo() == 0 ? 0 : 64 + 64 * (v.fseqNo() % 2)); // as LogSpaceReport's table
      row.put("CreateLSN", v.createLsn());
      rows.add(row);
    }
    return rows;
  }

  private static Map<String, Object> sqlPerf(ManagedLogSpace.Report r, String database) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("Database Name", database);
    m.put("Log Size (MB)", r.sizeBytes() / 1048576.0);
    m.put("Log Space Used (%)", r.usedPercent());
    m.put("Status", 0);
    m.put("sizeBytes", r.sizeBytes());
    m.put("usedBytes", r.usedBytes());
    m.put("vlfs", r.vlfs());
    m.put("activeVlfs", r.logInfo().stream().filter(v -> v.status() == 2).count());
    return m;
  }

  /**
   * Open transactions at T from the log space's own state (by session: the LSN of its first record, the log it
   * reserves for its rollback); null when the run has no managed log space.
   */
  private static List<Map<String, Object>> openTransactions(StateAt.Simulated s) {
    if (s.components() == null) return null;
    for (SimComponent c : s.components()) {
      if (!(c instanceof LogManager lm)) continue;
      if (!(((LogManager.State) lm.snapshot()).space() instanceof ManagedLogSpace.State space)) return null;
      List<Map<String, Object>> open = new ArrayList<>();
      for (int session = 0; session < space.txnBegin().length; session++) {
        if (space.txnBegin()[session] < 0) continue;
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("session", session);
        t.put("firstLsn", space.txnBegin()[session]);
        t.put("reservedBytes", space.txnReserved()[session]);
        open.add(t);
      }
      return open;
    }
    return null;
  }

  /** Each device's figures so far (requests, bytes, throttled time, busy time) and its queue depth in T's second. */
  private static Map<String, Object> devices(StateAt.Simulated s) {
    Map<String, Object> out = new LinkedHashMap<>();
    int second = (int) (s.atNanos() / 1_000_000_000L);
    for (Object r : s.outcome().results()) {
      if (!(r instanceof DeviceStats d)) continue;
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("model", d.model());
      m.put("reads", d.reads());
      m.put("writes", d.writes());
      m.put("bytesWritten", d.bytesWritten());
      m.put("busyMs", d.busyNanos() / 1e6);
      m.put("throttledMs", d.throttledNanos() / 1e6);
      m.put("meanLatencyUs", d.meanLatencyUs());
      if (d.series() != null && second < d.series().seconds()) {
        m.put("meanQueueDepthThisSecond", d.series().meanQueueDepth(second));
        m.put("throttledMsThisSecond", d.series().throttledNanos()[second] / 1e6);
      }
      if (!d.counters().isEmpty()) m.put("counters", d.counters());
      out.put(d.name(), m);
    }
    return out;
  }

  private static Map<String, Object> sessions(StateAt.Simulated s) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (s.components() == null) return out;
    int k = 0;
    for (SimComponent c : s.components()) {
      if (c instanceof SessionPool pool) out.put("pool-" + k++, pool.sessionsByState());
    }
    return out;
  }

  /** The text: the log's tables as SQL Server prints them, the rest as aligned lines. */
  @SuppressWarnings("unchecked")
  private static List<String> text(StateAt.Simulated s, Map<String, Object> view, List<String> show) {
    List<String> lines = new ArrayList<>(Text.lines("state at", Text.number(s.atNanos() / 1e9) + " simulated s of "
        + s.spec().runId() + " (" + s.spec().scenario() + ")", s.from() == null ? "simulated from the run's start"
        : "simulated from its checkpoint at " + Text.number(Math.round(s.fromSeconds() * 1e6) / 1e6) + " s"));
    lines.add("digest       " + s.outcome().digestHex() + " (of the run's events up to " + Text.number(
        s.atNanos() / 1e9) + " s)");
    Map<String, List<String>> tables = s.result().tables();
    for (String section : show) {
      if (!view.containsKey(section)) continue;
      lines.add("");
      switch (section) {
        case "loginfo" -> {
          lines.add("DBCC LOGINFO");
          lines.addAll(tables.getOrDefault("loginfo", List.of()));
        }
        case "sqlperf" -> { // the log-space kinds' table: its header and its row of the end, here T
          List<String> t = tables.getOrDefault("logspace", List.of());
          lines.add("DBCC SQLPERF(LOGSPACE)");
          if (!t.isEmpty()) {
            lines.add(t.get(0));
            lines.add(t.get(t.size() - 1).replaceFirst("^end ", "now "));
          }
        }
        case "reuse" -> lines.add("log_reuse_wait_desc  " + ((Map<String, Object>) view.get(section))
            .get("logReuseWait"));
        case "transactions" -> {
          List<Map<String, Object>> open = (List<Map<String, Object>>) view.get(section);
          lines.add("open transactions: " + open.size());
          if (!open.isEmpty()) lines.add(String.format(Locale.ROOT, "%8s %20s %16s", "session", "first_lsn",
              "reserved_bytes"));
          for (Map<String, Object> t : open) {
            lines.add(String.format(Locale.ROOT, "%8d %20d %16d", t.get("session"), t.get("firstLsn"),
                t.get("reservedBytes")));
          }
        }
        case "waits" -> {
          lines.add("waits so far");
          for (Map.Entry<String, Object> e : ((Map<String, Object>) view.get(section)).entrySet()) {
            Map<String, Object> w = e.getValue() instanceof Map<?, ?> mm ? (Map<String, Object>) mm : Map.of();
            lines.add(String.format(Locale.ROOT, "  %-32s %12s tasks %14s ms", e.getKey(), w.get("count"),
                w.get("totalMs")));
          }
        }
        case "devices" -> {
          lines.add("devices so far");
          for (Map.Entry<String, Object> e : ((Map<String, Object>) view.get(section)).entrySet()) {
            lines.add("  " + e.getKey() + ": " + e.getValue());
          }
        }
        case "sessions" -> {
          lines.add("sessions by state");
          for (Map.Entry<String, Object> e : ((Map<String, Object>) view.get(section)).entrySet()) {
            lines.add("  " + e.getKey() + ": " + e.getValue());
          }
        }
        default -> throw new IllegalStateException(section);
      }
    }
    Object omitted = view.get("omitted");
    if (omitted instanceof Map<?, ?> om) {
      lines.add("");
      for (Map.Entry<?, ?> e : om.entrySet()) lines.addAll(Text.paragraph("not shown", e.getKey() + ": " + e.getValue()));
    }
    return lines;
  }
}
