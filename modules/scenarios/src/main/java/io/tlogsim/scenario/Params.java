package io.tlogsim.scenario;

import io.tlogsim.database.script.Script;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A scenario's parameters after validation: every key of its kind, each with a value of the declared type. */
public final class Params {
  private final Map<String, Object> values;

  public Params(Map<String, Object> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  public Map<String, Object> asMap() {
    return values;
  }

  /**
   * Keys and values in the order given, for settings made in code that end up in summary.json: Map.of's order changes
   * from one JVM to the next, and a replay or another cluster node must write the same bytes.
   */
  public static Map<String, Object> ordered(Object... keyValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) m.put((String) keyValues[i], keyValues[i + 1]);
    return m;
  }

  private Object get(String key) {
    Object v = values.get(key);
    if (v == null) throw new IllegalArgumentException("no parameter " + key);
    return v;
  }

  public int getInt(String key) {
    return ((Number) get(key)).intValue();
  }

  public long getLong(String key) {
    return ((Number) get(key)).longValue();
  }

  public double getDouble(String key) {
    return ((Number) get(key)).doubleValue();
  }

  public boolean getBoolean(String key) {
    return (Boolean) get(key);
  }

  public String getString(String key) {
    return (String) get(key);
  }

  public Script getScript(String key) {
    return (Script) get(key);
  }
}
