package io.tlogsim.analysis.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Bar charts as inline SVG for a run's report: a histogram (a bar per recorded value, e.g. flush sizes) and a timeline
 * of phases (a bar per phase from its start for its duration). Data marks carry the classes {@code bar} and
 * {@code phase}, which the report's script and the browser test count.
 */
final class SvgBars {
  private SvgBars() {}

  /** Bars at x (their value) of height count; the bar width is the smallest gap between values. */
  static String render(String title, String xLabel, String yLabel, List<double[]> bars, int width, int height) {
    int left = 72, right = 16, top = 34, bottom = 48;
    double pw = width - left - right, ph = height - top - bottom;
    StringBuilder b = head(title, width, height, left);
    b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\""
        + " stroke=\"#999\"/>%n", left, top, pw, ph));
    if (bars.isEmpty()) {
      b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#666\">no data"
          + "</text>%n</svg>%n", left + pw / 2, top + ph / 2));
      return b.toString();
    }
    double lo = bars.get(0)[0], hi = bars.get(bars.size() - 1)[0], gap = Double.POSITIVE_INFINITY, max = 0;
    for (int i = 0; i < bars.size(); i++) {
      max = Math.max(max, bars.get(i)[1]);
      if (i > 0) gap = Math.min(gap, bars.get(i)[0] - bars.get(i - 1)[0]);
    }
    if (!Double.isFinite(gap) || gap <= 0) gap = Math.max(1, Math.abs(lo) * 0.1);
    double x0 = lo - gap / 2, x1 = hi + gap / 2;
    double[] yr = {0, max};
    for (double t : SvgChart.ticks(new double[] {x0, x1}, false)) {
      double px = left + pw * (t - x0) / (x1 - x0);
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
          + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>%n", px, top, px, top + ph, px, top + ph + 14,
          SvgChart.label(t)));
    }
    for (double t : SvgChart.ticks(yr, false)) {
      double py = top + ph * (1 - t / max);
      b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
          + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left, py, left + pw, py, left - 4, py + 4,
          SvgChart.label(t)));
    }
    double bw = Math.max(1, pw * gap / (x1 - x0) * 0.8);
    for (double[] bar : bars) {
      double cx = left + pw * (bar[0] - x0) / (x1 - x0), h = ph * bar[1] / max;
      b.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
          + " fill=\"#1f77b4\"><title>%s: %s</title></rect>%n", cx - bw / 2, top + ph - h, bw, h,
          SvgChart.label(bar[0]), SvgChart.label(bar[1])));
    }
    b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>%n",
        left + pw / 2, top + ph + 32, SvgChart.esc(xLabel)));
    b.append(String.format(Locale.ROOT, "<text transform=\"translate(14,%.1f) rotate(-90)\" text-anchor=\"middle\">"
        + "%s</text>%n</svg>%n", top + ph / 2, SvgChart.esc(yLabel)));
    return b.toString();
  }

  /** A row per phase {name, start s, seconds} on a time axis from 0 to the run's end (or the last phase's end). */
  static String timeline(String title, List<String[]> phases, double endSeconds, int width) {
    return timeline(title, phases, List.of(), endSeconds, width);
  }

  /**
   * As above, with rows of marks below the phases: {@code marks} are {row name, time (s), title}; the marks of one
   * row name share a row (the checkpoints; where a branch left its parent), each a thin line.
   */
  static String timeline(String title, List<String[]> phases, List<String[]> marks, double endSeconds, int width) {
    List<String> markRows = new ArrayList<>();
    for (String[] m : marks) if (!markRows.contains(m[0])) markRows.add(m[0]);
    int rows = phases.size() + markRows.size();
    int left = 200, right = 16, top = 34, row = 22, bottom = 36;
    int height = top + row * rows + bottom;
    double pw = width - left - right;
    double end = endSeconds;
    for (String[] p : phases) end = Math.max(end, Double.parseDouble(p[1]) + Double.parseDouble(p[2]));
    for (String[] m : marks) end = Math.max(end, Double.parseDouble(m[1]));
    if (end <= 0) end = 1;
    StringBuilder b = head(title, width, height, left);
    for (double t : SvgChart.ticks(new double[] {0, end}, false)) {
      double px = left + pw * t / end;
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
          + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", px, top, px, top + row * rows, px,
          top + row * rows + 14, SvgChart.label(t)));
    }
    for (int r = 0; r < markRows.size(); r++) {
      double y = top + row * (phases.size() + r);
      b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left - 6,
          y + row * 0.65, SvgChart.esc(markRows.get(r))));
      for (String[] m : marks) {
        if (!m[0].equals(markRows.get(r))) continue;
        double px = left + pw * Double.parseDouble(m[1]) / end;
        b.append(String.format(Locale.ROOT, "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\""
            + " stroke=\"%s\" stroke-width=\"2\"><title>%s</title></line>%n", px, y + 2, px, y + row - 2,
            m[0].startsWith("left") ? "#9467bd" : "#1f77b4", SvgChart.esc(m[2])));
      }
    }
    for (int i = 0; i < phases.size(); i++) {
      String[] p = phases.get(i);
      double start = Double.parseDouble(p[1]), len = Double.parseDouble(p[2]);
      double y = top + row * i;
      b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left - 6,
          y + row * 0.65, SvgChart.esc(p[0])));
      b.append(String.format(Locale.ROOT, "<rect class=\"phase\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\""
          + " fill=\"%s\"><title>%s: %s s from %s s</title></rect>%n", left + pw * start / end, y + 3,
          Math.max(1, pw * len / end), row - 6, fill(p[0]), SvgChart.esc(p[0]),
          SvgChart.label(len), SvgChart.label(start)));
    }
    b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">simulated s</text>%n</svg>%n",
        left + pw / 2, height - 4));
    return b.toString();
  }

  /** Grey for the warm-up, red for the crash, orange for the recovery's steps, green for the scenario's phases. */
  private static String fill(String phase) {
    if (phase.startsWith("parent's run")) return "#c5b0d5";
    if (phase.startsWith("warm-up")) return "#bbb";
    if (phase.startsWith("crash")) return "#d62728";
    if (phase.startsWith("recovery")) return "#ff7f0e";
    return "#2ca02c";
  }

  private static StringBuilder head(String title, int width, int height, int left) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\""
        + " height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width,
        height));
    b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">%s</text>%n",
        left, SvgChart.esc(title)));
    return b;
  }
}
