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
 */
public record Reference(String source, Map<String, Double> figures) {

  public Reference {
    figures = new LinkedHashMap<>(figures);
  }

  /** The summary with {@code reference} and {@code referenceSource} added. */
  public Map<String, Object> addTo(Map<String, Object> summary) {
    Map<String, Object> out = new LinkedHashMap<>(summary);
    Map<String, Object> ref = new LinkedHashMap<>();
    figures.forEach((k, v) -> ref.put(k, v == Math.rint(v) && Math.abs(v) < 1e15 ? (Object) v.longValue() : v));
    out.put("reference", ref);
    out.put("referenceSource", source);
    return out;
  }

  /** One line per figure: the path, the published and the simulated value, and their difference. */
  public List<String> lines(Map<String, Object> summary) {
    List<String> lines = new ArrayList<>(Text.paragraph("reference", source));
    figures.forEach((path, published) -> {
      Object sim = SummaryPaths.get(summary, path);
      String simulated = sim instanceof Number n
          ? String.format(Locale.ROOT, "simulated %s (%+.2f%%)", fmt(n.doubleValue()),
              published == 0 ? 0 : (n.doubleValue() - published) / published * 100)
          : "simulated: no such figure in the summary";
      lines.add(String.format(Locale.ROOT, "  %-26s published %s, %s", path, fmt(published), simulated));
    });
    return lines;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%,d", (long) v)
        : String.format(Locale.ROOT, "%,.3f", v);
  }
}
