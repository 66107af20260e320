package io.tlogsim.analysis.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart as inline SVG, self-contained (no script, no network): axes with round ticks (a log scale where asked),
 * one polyline per series with its points, optional error bars (e.g. 95% confidence intervals), a legend. Enough for
 * tlogsim's reports; it draws what it is given and nothing else.
 */
public final class SvgChart {
  private static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
      "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

  /** One line: points (x, y) and, optionally, a low and high bound per point. */
  public record Series(String name, double[] x, double[] y, double[] low, double[] high) {
    public Series {
      if (x.length != y.length) throw new IllegalArgumentException(name + ": " + x.length + " x for " + y.length + " y");
      if ((low == null) != (high == null) || (low != null && (low.length != y.length || high.length != y.length))) {
        throw new IllegalArgumentException(name + ": bounds must come in pairs, one per point");
      }
    }
  }

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private boolean logX;
  private boolean logY;
  private final List<Series> series = new ArrayList<>();

  public SvgChart(String title, String xLabel, String yLabel) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
  }

  public SvgChart logX(boolean on) {
    logX = on;
    return this;
  }

  private boolean layered;

  /**
   * Lines that often coincide (latency percentiles of intervals with few commits): the first drawn widest, each
   * later one narrower on top of it, so that every line stays visible where they overlap.
   */
  public SvgChart layered() {
    layered = true;
    return this;
  }

  public SvgChart logY(boolean on) {
    logY = on;
    return this;
  }

  public SvgChart add(Series s) {
    series.add(s);
    return this;
  }

  public SvgChart add(String name, double[] x, double[] y) {
    return add(new Series(name, x, y, null, null));
  }

  public boolean isEmpty() {
    return series.stream().allMatch(s -> s.x().length == 0);
  }

  /** The chart as an {@code <svg>} element of the given size in pixels. */
  public String render(int width, int height) {
    int left = 72, right = 16, top = 34, bottom = 48 + 16 * ((series.size() + 2) / 3);
    double pw = width - left - right, ph = height - top - bottom;
    double[] xr = range(true), yr = range(false);
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\""
        + " height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width,
        height));
    b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">%s</text>%n",
        left, esc(title)));
    b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\""
        + " stroke=\"#999\"/>%n", left, top, pw, ph));
    if (isEmpty()) {
      b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#666\">no data"
          + "</text>%n</svg>%n", left + pw / 2, top + ph / 2));
      return b.toString();
    }
    for (double t : ticks(xr, logX)) {
      double px = left + pw * frac(t, xr, logX);
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
          + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>%n", px, top, px, top + ph, px, top + ph + 14,
          label(t)));
    }
    for (double t : ticks(yr, logY)) {
      double py = top + ph * (1 - frac(t, yr, logY));
      b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
          + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left, py, left + pw, py, left - 4, py + 4,
          label(t)));
    }
    b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>%n",
        left + pw / 2, top + ph + 32, esc(xLabel + (logX ? " (log scale)" : ""))));
    b.append(String.format(Locale.ROOT, "<text transform=\"translate(14,%.1f) rotate(-90)\" text-anchor=\"middle\">"
        + "%s</text>%n", top + ph / 2, esc(yLabel + (logY ? " (log scale)" : ""))));
    for (int k = 0; k < series.size(); k++) {
      Series s = series.get(k);
      String color = PALETTE[k % PALETTE.length];
      StringBuilder pts = new StringBuilder();
      for (int i = 0; i < s.x().length; i++) {
        if (!plottable(s.x()[i], logX) || !plottable(s.y()[i], logY)) continue;
        double px = left + pw * frac(s.x()[i], xr, logX), py = top + ph * (1 - frac(s.y()[i], yr, logY));
        pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
        b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>%s: %s, %s"
            + "</title></circle>%n", px, py, color, esc(s.name()), label(s.x()[i]), label(s.y()[i])));
        if (s.low() != null && plottable(s.low()[i], logY) && plottable(s.high()[i], logY)) {
          double lo = top + ph * (1 - frac(s.low()[i], yr, logY)), hi = top + ph * (1 - frac(s.high()[i], yr, logY));
          b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
              px, lo, px, hi, color));
        }
      }
      double lineWidth = layered ? Math.min(6, 1.5 + 1.5 * (series.size() - 1 - k)) : 1.5;
      b.append(String.format(Locale.ROOT, "<polyline class=\"series\" data-name=\"%s\" fill=\"none\" stroke=\"%s\""
          + " stroke-width=\"%.1f\" points=\"%s\"/>%n", esc(s.name()), color, lineWidth, pts.toString().strip()));
      int col = k % 3, row = k / 3;
      double lx = left + col * pw / 3, ly = top + ph + 46 + row * 16;
      b.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"3\" fill=\"%s\"/>"
          + "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\">%s</text>%n", lx, ly - 4, color, lx + 14, ly,
          esc(s.name())));
    }
    b.append("</svg>\n");
    return b.toString();
  }

  private static boolean plottable(double v, boolean log) {
    return Double.isFinite(v) && (!log || v > 0);
  }

  private double[] range(boolean x) {
    double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
    boolean log = x ? logX : logY;
    for (Series s : series) {
      double[][] cols = x ? new double[][] {s.x()} : s.low() == null ? new double[][] {s.y()}
          : new double[][] {s.y(), s.low(), s.high()};
      for (double[] col : cols) {
        for (double v : col) {
          if (!plottable(v, log)) continue;
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    if (lo > hi) return log ? new double[] {1, 10} : new double[] {0, 1}; // nothing to plot (e.g. only zeros)
    if (!log && !x && lo > 0) lo = 0; // values from zero, so that heights compare
    if (lo == hi) {
      if (log) return new double[] {lo / 2, hi * 2};
      return new double[] {lo - (lo == 0 ? 1 : Math.abs(lo) * 0.1), hi + (hi == 0 ? 1 : Math.abs(hi) * 0.1)};
    }
    return new double[] {lo, hi};
  }

  private static double frac(double v, double[] r, boolean log) {
    if (log) return (Math.log10(v) - Math.log10(r[0])) / (Math.log10(r[1]) - Math.log10(r[0]));
    return (v - r[0]) / (r[1] - r[0]);
  }

  /** Round ticks inside the range: powers of ten on a log scale, 1-2-5 steps otherwise. */
  static List<Double> ticks(double[] r, boolean log) {
    List<Double> out = new ArrayList<>();
    if (log && r[0] > 0) {
      for (double t = Math.pow(10, Math.ceil(Math.log10(r[0]) - 1e-9)); t <= r[1] * (1 + 1e-9); t *= 10) out.add(t);
      if (out.size() >= 2) return out;
      out.clear();
    }
    double span = r[1] - r[0], raw = span / 5, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
    for (double t = Math.ceil(r[0] / step - 1e-9) * step; t <= r[1] + step * 1e-9; t += step) {
      out.add(Math.abs(t) < step * 1e-9 ? 0 : t);
    }
    return out;
  }

  /** 1.5k, 2M, 0.25, 120: short tick labels. */
  static String label(double v) {
    double a = Math.abs(v);
    if (a >= 1e9) return trim(v / 1e9) + "G";
    if (a >= 1e6) return trim(v / 1e6) + "M";
    if (a >= 1e4) return trim(v / 1e3) + "k";
    return trim(v);
  }

  private static String trim(double v) {
    if (v == Math.rint(v)) return String.valueOf((long) v);
    String s = String.format(Locale.ROOT, "%.3g", v);
    return s.contains(".") && !s.contains("e") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
