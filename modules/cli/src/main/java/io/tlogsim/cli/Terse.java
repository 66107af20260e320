package io.tlogsim.cli;

import io.tlogsim.scenario.SummaryPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code run --terse}: a run's main figures on one line, separated by semicolons, as fio's --minimal prints them: easy
 * to append to a file and cut into columns. The first field is the format's version; fields are only ever added at
 * the end. An absent figure (no commits, no log) is an empty field.
 */
final class Terse {
  static final String VERSION = "tlogsim-terse-1";

  /** The fields after the version and the run id, by summary.json path, in order. */
  static final List<String> FIELDS = List.of("scenario", "kind", "seed", "simulatedSeconds", "commits.count",
      "commits.perSecond", "commits.latencyUs.min", "commits.latencyUs.mean", "commits.latencyUs.p50",
      "commits.latencyUs.p90", "commits.latencyUs.p95", "commits.latencyUs.p99", "commits.latencyUs.p999",
      "commits.latencyUs.max", "commits.lost", "log.writes", "log.bytes", "log.pagesPerWrite",
      "waits.WRITELOG.totalMs", "digest", "run.wallSeconds");

  private Terse() {}

  static String line(String runId, Map<String, Object> summary) {
    List<String> f = new ArrayList<>(List.of(VERSION, runId));
    for (String path : FIELDS) {
      Object v = SummaryPaths.get(summary, path);
      f.add(v == null ? "" : String.valueOf(v).replace(";", ","));
    }
    return String.join(";", f);
  }
}
