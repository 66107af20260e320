package io.tlogsim.scenario;

import java.util.List;
import java.util.Map;

/** Values of summary.json by path: {@code commits.latencyUs.p99}, {@code backups[0].seconds}. */
public final class SummaryPaths {
  private SummaryPaths() {}

  /** The value at {@code path}, or null where there is none. */
  public static Object get(Map<String, ?> summary, String path) {
    Object cur = summary;
    for (String part : path.split("\\.")) {
      int bracket = part.indexOf('[');
      String key = bracket < 0 ? part : part.substring(0, bracket);
      if (!(cur instanceof Map<?, ?> m)) return null;
      cur = m.get(key);
      while (bracket >= 0) {
        int close = part.indexOf(']', bracket);
        if (close < 0 || !(cur instanceof List<?> list)) return null;
        int idx;
        try {
          idx = Integer.parseInt(part.substring(bracket + 1, close));
        } catch (NumberFormatException e) {
          return null;
        }
        if (idx < 0 || idx >= list.size()) return null;
        cur = list.get(idx);
        bracket = part.indexOf('[', close);
      }
    }
    return cur;
  }

  /** The number at {@code path}, or NaN. */
  public static double number(Map<String, ?> summary, String path) {
    return get(summary, path) instanceof Number n ? n.doubleValue() : Double.NaN;
  }
}
