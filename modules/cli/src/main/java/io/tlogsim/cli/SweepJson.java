package io.tlogsim.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.analysis.Stats;
import io.tlogsim.analysis.sweep.Experiment;
import io.tlogsim.analysis.sweep.Sweep;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code sweep --json}: the sweep's points with their statistics per metric (what points.csv holds) as JSON. */
final class SweepJson {
  private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private SweepJson() {}

  static String of(Experiment e, Path dir, List<Sweep.Row> rows, int newRuns) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("experiment", e.name());
    m.put("dir", dir.toAbsolutePath().toString());
    m.put("runs", rows.size());
    m.put("newRuns", newRuns);
    List<String> axes = e.axes().stream().map(Experiment.Axis::key).toList();
    m.put("axes", axes);
    m.put("metrics", e.metrics());
    List<Map<String, Object>> points = new ArrayList<>();
    Map<Integer, List<Stats>> stats = Sweep.stats(e, rows);
    for (Experiment.Point p : e.points()) {
      List<Stats> st = stats.get(p.index());
      if (st == null) continue;
      Map<String, Object> pt = new LinkedHashMap<>();
      pt.put("point", p.index());
      Map<String, Object> values = new LinkedHashMap<>();
      for (int k = 0; k < axes.size() && k < p.values().size(); k++) values.put(axes.get(k), p.values().get(k));
      pt.put("values", values);
      Map<String, Object> metrics = new LinkedHashMap<>();
      for (int k = 0; k < e.metrics().size(); k++) {
        Stats s = st.get(k);
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("n", s.n());
        v.put("mean", finite(s.mean()));
        v.put("stddev", finite(s.stddev()));
        v.put("ci95Low", finite(s.ci95Low()));
        v.put("ci95High", finite(s.ci95High()));
        metrics.put(e.metrics().get(k), v);
      }
      pt.put("metrics", metrics);
      points.add(pt);
    }
    m.put("points", points);
    List<Map<String, Object>> precision = new ArrayList<>();
    for (Sweep.Precision pr : Sweep.precision(e, rows)) {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("metric", pr.metric());
      v.put("widestRelativeCi95", finite(pr.widest()));
      v.put("point", pr.point());
      precision.add(v);
    }
    m.put("precision", precision);
    try {
      return JSON.writeValueAsString(m);
    } catch (JsonProcessingException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** JSON has no NaN or infinity: null. */
  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }
}
