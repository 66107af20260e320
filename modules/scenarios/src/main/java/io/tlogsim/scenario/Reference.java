package io.tlogsim.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Published figures a scenario reproduces: summary paths (e.g. {@code commits.count}, {@code backups[0].seconds})
 * to the published value, and where they were published. They are printed beside the simulated figures and put
 * in summary.json under {@code reference}; the model never sees them.
 *
 * <p>Each figure has a basis: {@link #CALIBRATED} when a constant was chosen so that this figure comes out (the
 * constants are {@code fitted}), {@link #PREDICTED} when nothing was fitted to it. Only a predicted figure within
 * its tolerance validates the model; a calibrated one shows that the calibration still holds. Each figure has a
 * tolerance: relative (a fraction of the published value) or, where {@code absoluteTolerance} is given, absolute in
 * the figure's own unit (percentage points for a percentage).
 *
 * @param basis path to {@code calibrated} or {@code predicted}; a path it does not name is predicted
 * @param fitted path to the config keys fitted to it (calibrated paths only)
 * @param tolerance path to the relative tolerance; a path it does not name gets {@link #DEFAULT_TOLERANCE}
 * @param absoluteTolerance path to an absolute tolerance (then the relative one does not apply)
 */
public record Reference(String source, Map<String, Double> figures, Map<String, String> basis,
    Map<String, List<String>> fitted, Map<String, Double> tolerance, Map<String, Double> absoluteTolerance) {

  public static final String CALIBRATED = "calibrated";
  public static final String PREDICTED = "predicted";
  /** A published figure given as a bare number: 10% (the short form; docs/reference.md). */
  public static final double DEFAULT_TOLERANCE = 0.10;

  public Reference {
    figures = new LinkedHashMap<>(figures);
    // runs stored before figures had a basis come back from the journal without these: predicted, 10%
    basis = basis == null ? new LinkedHashMap<>() : new LinkedHashMap<>(basis);
    fitted = fitted == null ? new LinkedHashMap<>() : new LinkedHashMap<>(fitted);
    tolerance = tolerance == null ? new LinkedHashMap<>() : new LinkedHashMap<>(tolerance);
    absoluteTolerance = absoluteTolerance == null ? new LinkedHashMap<>() : new LinkedHashMap<>(absoluteTolerance);
  }

  /** Figures in the short form: each predicted, within 10%. */
  public Reference(String source, Map<String, Double> figures) {
    this(source, figures, null, null, null, null);
  }

  public String basisOf(String path) {
    return basis.getOrDefault(path, PREDICTED);
  }

  public List<String> fittedOf(String path) {
    return fitted.getOrDefault(path, List.of());
  }

  public boolean absolute(String path) {
    return absoluteTolerance.containsKey(path);
  }

  /** The tolerance of a figure: a fraction of the published value, or (when {@link #absolute}) in its unit. */
  public double toleranceOf(String path) {
    return absolute(path) ? absoluteTolerance.get(path) : tolerance.getOrDefault(path, DEFAULT_TOLERANCE);
  }

  /**
   * The simulated figure's error: relative to the published one ((simulated - published) / |published|), or the
   * difference in the figure's unit when its tolerance is absolute. NaN when the relative error has no meaning
   * (published 0 and simulated not).
   */
  public double errorOf(String path, double simulated) {
    double published = figures.get(path);
    if (absolute(path)) return simulated - published;
    if (published == 0) return simulated == 0 ? 0 : Double.NaN;
    return (simulated - published) / Math.abs(published);
  }

  /** One published figure beside its simulated one (simulated null: the summary has no such figure). */
  public record Row(String scenario, String path, double published, Double simulated, Double error,
      double tolerance, boolean absolute, String basis, List<String> fitted) {

    public boolean within() {
      return error != null && !error.isNaN() && Math.abs(error) <= tolerance + 1e-12;
    }
  }

  /** Every figure of this reference beside what {@code summary} simulated, in the file's order. */
  public List<Row> rows(String scenario, Map<String, Object> summary) {
    List<Row> rows = new ArrayList<>();
    figures.forEach((path, published) -> {
      Object sim = SummaryPaths.get(summary, path);
      Double simulated = sim instanceof Number n ? n.doubleValue() : null;
      Double error = simulated == null ? null : errorOf(path, simulated);
      rows.add(new Row(scenario, path, published, simulated, error, toleranceOf(path), absolute(path),
          basisOf(path), fittedOf(path)));
    });
    return rows;
  }

  /**
   * The summary with {@code reference}, {@code referenceBasis} (every path), {@code referenceFitted} (the calibrated
   * paths, when there are any) and {@code referenceSource} added.
   */
  public Map<String, Object> addTo(Map<String, Object> summary) {
    Map<String, Object> out = new LinkedHashMap<>(summary);
    Map<String, Object> ref = new LinkedHashMap<>();
    Map<String, Object> bases = new LinkedHashMap<>();
    Map<String, Object> fits = new LinkedHashMap<>();
    figures.forEach((k, v) -> {
      ref.put(k, v == Math.rint(v) && Math.abs(v) < 1e15 ? (Object) v.longValue() : v);
      bases.put(k, basisOf(k));
      if (CALIBRATED.equals(basisOf(k))) fits.put(k, List.copyOf(fittedOf(k)));
    });
    out.put("reference", ref);
    out.put("referenceBasis", bases);
    if (!fits.isEmpty()) out.put("referenceFitted", fits);
    out.put("referenceSource", source);
    return out;
  }

  /**
   * One line per figure: the path, the published and the simulated value, and their difference; "(calibrated)"
   * beside a figure a constant was fitted to, so that nobody takes its agreement for a validation.
   */
  public List<String> lines(Map<String, Object> summary) {
    List<String> lines = new ArrayList<>(Text.paragraph("reference", source));
    figures.forEach((path, published) -> {
      Object sim = SummaryPaths.get(summary, path);
      String simulated = sim instanceof Number n
          ? String.format(Locale.ROOT, "simulated %s (%+.2f%%)", fmt(n.doubleValue()),
              published == 0 ? 0 : (n.doubleValue() - published) / published * 100)
          : "simulated: no such figure in the summary";
      lines.add(String.format(Locale.ROOT, "  %-26s published %s, %s%s", path, fmt(published), simulated,
          CALIBRATED.equals(basisOf(path)) ? " (calibrated)" : ""));
    });
    return lines;
  }

  static String fmt(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%,d", (long) v)
        : String.format(Locale.ROOT, "%,.3f", v);
  }
}
