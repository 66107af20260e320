package io.tlogsim.analysis.sweep;

import io.tlogsim.analysis.Stats;
import io.tlogsim.analysis.report.SvgChart;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A sweep's report.html, self-contained: for each metric, a chart of its mean (with 95% confidence intervals) against
 * the first varying parameter, one line per combination of the others; and the table of points.
 */
final class SweepReport {
  static final String FILE = "report.html";

  private final Experiment e;
  private final List<Sweep.Row> rows;

  SweepReport(Experiment e, List<Sweep.Row> rows) {
    this.e = e;
    this.rows = rows;
  }

  String html() {
    Map<Integer, List<Stats>> stats = Sweep.stats(e, rows);
    List<Experiment.Point> points = e.points();
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>tlogsim sweep ")
        .append(esc(e.name())).append("</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
            + "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;"
            + "text-align:right}th{background:#f4f4f4}.chart{margin:1em 0}</style></head><body>\n");
    b.append("<h1>Sweep ").append(esc(e.name())).append("</h1>\n<p>").append(esc(e.description())).append("</p>\n");
    b.append("<p>Base scenario <code>").append(esc(e.base())).append("</code>, ").append(points.size())
        .append(" points &times; ").append(e.replications()).append(" replications = ").append(rows.size())
        .append(" runs. Means with 95% confidence intervals (Student's t over the replications).</p>\n");
    if (e.precision().on()) {
      b.append("<p>Replications were added where a point's 95% confidence interval of ")
          .append(esc(String.join(", ", e.precision().metrics()))).append(" was ")
          .append(fmt(e.precision().width() * 100)).append("% of its mean or wider (at most ")
          .append(e.precision().maxReplications()).append(" per point). Widest intervals (full width):</p>\n<ul>");
      for (Sweep.Precision pr : Sweep.precision(e, rows)) {
        b.append("<li><code>").append(esc(pr.metric())).append("</code>: ")
            .append(Double.isFinite(pr.widest()) ? fmt(pr.widest() * 100) + "%" : "unbounded").append(" of the mean")
            .append(pr.point() < 0 ? "" : " (" + esc(String.join(" ", points.get(pr.point()).values())) + ")")
            .append("</li>");
      }
      b.append("</ul>\n");
    }
    // a panel per combination of the axes after the second; within it, a line per value of the second axis
    Map<String, List<Experiment.Point>> panels = new LinkedHashMap<>();
    for (Experiment.Point p : points) {
      List<String> label = new ArrayList<>();
      for (int a = 2; a < e.axes().size(); a++) label.add(e.axes().get(a).key() + "=" + p.values().get(a));
      panels.computeIfAbsent(String.join(", ", label), x -> new ArrayList<>()).add(p);
    }
    for (int k = 0; k < e.metrics().size(); k++) {
      for (Map.Entry<String, List<Experiment.Point>> panel : panels.entrySet()) {
        b.append(chart(k, stats, panel.getValue(), panel.getKey()));
      }
    }
    b.append("<h2>Points</h2>\n<table><tr><th>point</th>");
    for (Experiment.Axis a : e.axes()) b.append("<th>").append(esc(a.key())).append("</th>");
    for (String m : e.metrics()) b.append("<th>").append(esc(m)).append(" mean [95% CI]</th>");
    b.append("<th>runs</th></tr>\n");
    stats.forEach((point, perMetric) -> {
      b.append("<tr><td>").append(point).append("</td>");
      for (String v : points.get(point).values()) b.append("<td>").append(esc(v)).append("</td>");
      for (Stats s : perMetric) {
        b.append("<td>").append(fmt(s.mean()));
        if (s.n() > 1) b.append(" [").append(fmt(s.ci95Low())).append(", ").append(fmt(s.ci95High())).append("]");
        b.append("</td>");
      }
      b.append("<td>").append(perMetric.isEmpty() ? 0 : perMetric.get(0).n()).append("</td></tr>\n");
    });
    b.append("</table>\n<p>Files: <a href=\"runs.csv\">runs.csv</a> (one row per run), <a href=\"points.csv\">"
        + "points.csv</a> (per point), <a href=\"experiment.conf\">experiment.conf</a>.</p>\n</body></html>\n");
    return b.toString();
  }

  /** Metric k against the first axis, a line per combination of the other axes' values. */
  private String chart(int k, Map<Integer, List<Stats>> stats, List<Experiment.Point> points, String panel) {
    String metric = e.metrics().get(k);
    String title = panel.isEmpty() ? metric : metric + " (" + panel + ")";
    Experiment.Axis x = e.axes().isEmpty() ? null : e.axes().get(0);
    boolean numericX = x != null && x.values().stream().allMatch(v -> v.matches("-?[0-9.eE+-]+"));
    SvgChart c = new SvgChart(title, x == null ? "point" : x.key(), metric).logX(x != null && x.logScale());
    Map<String, List<Integer>> lines = new LinkedHashMap<>();
    for (Experiment.Point p : points) {
      if (!stats.containsKey(p.index())) continue;
      List<String> rest = p.values().size() > 1 ? p.values().subList(1, p.values().size()) : List.of();
      List<String> label = new ArrayList<>();
      if (e.axes().size() > 1) label.add(e.axes().get(1).key() + "=" + rest.get(0));
      lines.computeIfAbsent(label.isEmpty() ? metric : String.join(", ", label), s -> new ArrayList<>()).add(p.index());
    }
    lines.forEach((name, idx) -> {
      int n = idx.size();
      double[] xs = new double[n], ys = new double[n], lo = new double[n], hi = new double[n];
      for (int i = 0; i < n; i++) {
        Experiment.Point p = e.points().get(idx.get(i));
        xs[i] = numericX ? Double.parseDouble(p.values().get(0)) : i;
        Stats s = stats.get(p.index()).get(k);
        ys[i] = s.mean();
        lo[i] = s.n() > 1 ? s.ci95Low() : s.mean();
        hi[i] = s.n() > 1 ? s.ci95High() : s.mean();
      }
      c.add(new SvgChart.Series(name, xs, ys, lo, hi));
    });
    return "<div class=\"chart\">" + c.render(900, 380) + "</div>\n";
  }

  private static String fmt(double v) {
    if (!Double.isFinite(v)) return "-";
    return Math.abs(v) >= 1000 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.4g", v);
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
