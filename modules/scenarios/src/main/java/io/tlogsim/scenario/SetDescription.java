package io.tlogsim.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A scenario's description once --set has changed it: its words were written for the scenario as built ("1,000
 * sessions ..., 2 s"), so the banner, summary.json and the report would say what the run is not. The title (the words
 * before the first ": ") stays, with the values --set changed after it; the built-in's own details, which the change
 * may contradict, are left out ({@code tlogsim scenarios} has them): "GCM-1 group-commit benchmark with sessions =
 * 2,000 and simulatedSeconds = 400 s (--set)".
 */
final class SetDescription {
  private SetDescription() {}

  /**
   * @param changed the keys whose resolved value --set changed, in the kind's order
   */
  static String of(String description, List<String> changed, Map<String, String> overrides, Params params,
      Map<String, ParamSpec> specs) {
    List<String> set = new ArrayList<>();
    for (String key : changed) {
      if (!overrides.containsKey(key)) continue; // derived from another key (a device profile's settings)
      ParamSpec spec = specs.get(key);
      Object v = params.asMap().get(key);
      String value = spec.type() == ParamSpec.Type.SCRIPT ? "a script of its own"
          : (v instanceof Number n ? Text.number(n.doubleValue()) : Text.plain(v))
              + (spec.unit().isEmpty() || spec.unit().equals("sessions") ? "" : " " + spec.unit());
      set.add(key + " = " + value);
    }
    if (set.isEmpty()) return description;
    String with = set.size() == 1 ? set.get(0)
        : String.join(", ", set.subList(0, set.size() - 1)) + " and " + set.get(set.size() - 1);
    if (description.isBlank()) return "with " + with + " (--set)";
    int colon = description.indexOf(": ");
    String title = colon < 0 ? description : description.substring(0, colon);
    return title + " with " + with + " (--set)";
  }
}
