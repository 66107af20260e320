package io.tlogsim.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.journal.RunState;
import io.tlogsim.journal.RunStatus;
import io.tlogsim.journal.RunStore;
import io.tlogsim.journal.RunsTable;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code tlogsim runs} prints: the journal's table (run, scenario, seed, status, start, simulated seconds,
 * digest) with the run's kind, its --set overrides and its description beside, or (--json) every run as an object.
 */
final class RunsListing {
  private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
  /** Overrides and descriptions longer than this are cut in the table (--json has them whole). */
  static final int CELL = 40;

  private RunsListing() {}

  static List<String> table(List<RunStore.Listed> runs) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"RUN", "SCENARIO", "KIND", "SEED", "STATUS", "STARTED", "SIMULATED S", "DIGEST",
        "OVERRIDES", "DESCRIPTION"});
    for (RunStore.Listed l : runs) {
      String[] base = RunsTable.row(l); // run, scenario, seed, status, started, simulated, digest
      RunState s = l.state();
      String kind = s == null ? "?" : s.spec().kind();
      String overrides = s == null ? "" : cut(overrides(s.spec().overrides()));
      String description = s == null ? "" : cut(s.spec().description());
      rows.add(new String[] {base[0], base[1], kind, base[2], base[3], base[4], base[5], base[6],
          overrides.isEmpty() ? "-" : overrides, description});
    }
    return Columns.align(rows);
  }

  /** "sessions=2000 simulatedSeconds=0.5", in the order given. */
  static String overrides(Map<String, String> o) {
    List<String> kv = new ArrayList<>();
    o.forEach((k, v) -> kv.add(k + "=" + v));
    return String.join(" ", kv);
  }

  private static String cut(String s) {
    if (s == null) return "";
    return s.length() <= CELL ? s : s.substring(0, CELL - 3) + "...";
  }

  static String json(List<RunStore.Listed> runs) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (RunStore.Listed l : runs) out.add(object(l));
    try {
      return JSON.writeValueAsString(out);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One run as --json gives it: what the table shows, whole, and where its files are. */
  static Map<String, Object> object(RunStore.Listed l) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("runId", l.runId());
    RunState s = l.state();
    if (s == null) {
      m.put("status", "unreadable");
      m.put("reason", l.unreadable());
      return m;
    }
    RunStatus status = s.effectiveStatus();
    m.put("scenario", s.spec().scenario());
    m.put("kind", s.spec().kind());
    m.put("seed", s.spec().seed());
    m.put("status", status.label());
    m.put("startedAt", Instant.ofEpochMilli(s.first().startedAtMillis()).toString());
    Object simulated = s.summary() == null ? null : s.summary().get("simulatedSeconds");
    m.put("simulatedSeconds", simulated != null ? simulated : s.simulatedNanosReached() / 1e9);
    m.put("limitSeconds", s.spec().endTimeNanos() / 1e9);
    m.put("digest", s.summary() == null ? null : s.summary().get("digest"));
    m.put("overrides", s.spec().overrides());
    m.put("description", s.spec().description());
    m.put("checkpoints", s.checkpointSequenceNrs().size());
    m.put("outDir", s.spec().outDir());
    m.put("commandLine", s.spec().commandLine());
    if (s.reason() != null) m.put("reason", s.reason());
    return m;
  }

  /** Aligned columns, two spaces apart, the last one not padded. */
  static final class Columns {
    private Columns() {}

    static List<String> align(List<String[]> rows) {
      int n = rows.get(0).length;
      int[] width = new int[n];
      for (String[] r : rows) for (int i = 0; i < n; i++) width[i] = Math.max(width[i], r[i].length());
      List<String> out = new ArrayList<>();
      for (String[] r : rows) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
          if (i > 0) sb.append("  ");
          sb.append(i == n - 1 ? r[i] : String.format(Locale.ROOT, "%-" + width[i] + "s", r[i]));
        }
        out.add(sb.toString().stripTrailing());
      }
      return out;
    }
  }
}
