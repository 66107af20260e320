package io.tlogsim.scenario;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.tlogsim.database.log.policy.SessionMode;
import io.tlogsim.database.script.Script;
import io.tlogsim.database.script.Step;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a session's {@link Script} from a scenario's HOCON (the steps and their keys: see {@link Script}), checking every
 * key and naming the file and line of what it refuses.
 */
public final class ScriptParser {
  private ScriptParser() {}

  public static final int MAX_STEPS = 1000;

  private static final List<String> LOOP_KEYS =
      List.of("rows", "seconds", "commitEvery", "thinkUs", "think", "access", "recordBytes", "compensationBytes",
          "name");

  /**
   * Reads and checks a script; {@code key} is the parameter it is the value of, {@code where} what to name in errors
   * when its origin has no file (a value from --set). A string is read as HOCON (what {@code --set script=[...]}
   * gives).
   */
  public static Script parse(String key, ConfigValue value, String where) {
    ConfigValue v = value;
    if (v.valueType() == ConfigValueType.STRING) {
      try {
        v = ConfigFactory.parseString("s = " + v.unwrapped()).getValue("s");
      } catch (ConfigException e) {
        throw new BadInputException(key + ": must be a list of steps such as [{ step = insert, rows = 10 }], got '"
            + value.unwrapped() + "' (" + e.getMessage().replace('\n', ' ') + ")");
      }
    }
    String at = location(value.origin(), where);
    if (v.valueType() != ConfigValueType.LIST) {
      throw new BadInputException(at + key + ": must be a list of steps such as [{ step = insert, rows = 10 }]");
    }
    List<Step> steps = new ArrayList<>();
    ConfigList items = (ConfigList) v;
    if (items.isEmpty()) throw new BadInputException(at + key + ": must have at least one step");
    if (items.size() > MAX_STEPS) throw new BadInputException(at + key + ": at most " + MAX_STEPS + " steps");
    for (int i = 0; i < items.size(); i++) steps.add(step(key + "[" + i + "]", items.get(i), where));
    return new Script(steps);
  }

  private static Step step(String what, ConfigValue v, String where) {
    String at = location(v.origin(), where);
    if (v.valueType() != ConfigValueType.OBJECT) {
      throw new BadInputException(at + what + ": must be an object such as { step = insert, rows = 10 }");
    }
    ConfigObject o = (ConfigObject) v;
    ConfigValue stepValue = o.get("step");
    if (stepValue == null || stepValue.valueType() != ConfigValueType.STRING) {
      throw new BadInputException(at + what + ": needs step = one of " + typeWords());
    }
    Step.Type type = Step.Type.of((String) stepValue.unwrapped());
    if (type == null) {
      throw new BadInputException(at + what + ".step: must be one of " + typeWords() + ", got '"
          + stepValue.unwrapped() + "'");
    }
    Reader r = new Reader(what + " (" + type.word + ")", o, where);
    Map<String, Object> given = new LinkedHashMap<>();
    given.put("step", type.word);
    for (Map.Entry<String, ConfigValue> e : o.entrySet()) {
      if (!e.getKey().equals("step")) given.put(e.getKey(), e.getValue().unwrapped());
    }
    String name = r.string("name", type.word);
    return switch (type) {
      case COMMIT_LOOP -> {
        r.only(List.of("thinkMeanUs", "seconds", "name"));
        yield new Step(type, name, 0, r.decimal("seconds", 0, 0, 1e7), 1, r.required("thinkMeanUs", 0.001, 1e9),
            true, false, 0, false, given);
      }
      case INSERT, UPDATE, DELETE -> {
        r.only(LOOP_KEYS);
        boolean hasRows = o.containsKey("rows"), hasSeconds = o.containsKey("seconds");
        if (hasRows == hasSeconds) {
          throw new BadInputException(r.at() + ": give rows (how many statements) or seconds (how long), one of them");
        }
        long rows = hasRows ? r.integer("rows", 0, 1, 1_000_000_000_000L) : 0;
        double seconds = hasSeconds ? r.required("seconds", 1e-6, 1e7) : 0;
        yield new Step(type, name, rows, seconds, (int) r.integer("commitEvery", 1, 1, 1_000_000_000),
            r.decimal("thinkUs", 0, 0, 1e10), r.choice("think", "fixed", List.of("fixed", "exponential"))
                .equals("exponential"),
            r.choice("access", "sequential", List.of("sequential", "random")).equals("random"), 0, false, given,
            (int) r.integer("recordBytes", 0, 1, 1_048_576), (int) r.integer("compensationBytes", 0, 1, 1_048_576), 0);
      }
      case LARGE_UPDATE, LARGE_INSERT -> {
        r.only(List.of("rows", "rollback", "access", "recordBytes", "compensationBytes", "splitBytes", "growBytes",
            "statements", "commit", "name"));
        if (!o.containsKey("rows")) throw new BadInputException(r.at() + ": needs rows (an integer from 1)");
        r.integer("growBytes", 0, 0, 1_048_576); // read back from given by Step.growBytes()
        yield new Step(type, name, r.integer("rows", 0, 1, 1_000_000_000_000L), 0,
            (int) r.integer("statements", 1, 1, 1_000_000), 0, false,
            r.choice("access", "sequential", List.of("sequential", "random")).equals("random"),
            r.bool("commit", true) ? Step.COMMIT : Step.LEFT_OPEN, r.bool("rollback", false), given,
            (int) r.integer("recordBytes", 0, 1, 1_048_576), (int) r.integer("compensationBytes", 0, 1, 1_048_576),
            (int) r.integer("splitBytes", 0, 1, 1_048_576));
      }
      case GROW_LOG -> { // ALTER DATABASE ... MODIFY FILE (SIZE = current + mb), times times
        r.only(List.of("file", "mb", "times", "name"));
        r.integer("file", 2, 2, 32_767);
        r.decimal("mb", 0, 0.5, 16_777_216);
        r.integer("times", 1, 1, 1_000_000);
        yield admin(type, name, given);
      }
      case ADD_LOG_FILE -> {
        r.only(List.of("file", "sizeMB", "growthMB", "growthPercent", "maxSizeMB", "device", "name"));
        r.string("file", "log");
        r.required("sizeMB", 0.5, 16_777_216);
        r.decimal("growthMB", 0, 0, 16_777_216);
        r.decimal("growthPercent", 0, 0, 1000);
        r.decimal("maxSizeMB", 0, 0, 16_777_216);
        r.integer("device", 1, 1, 8);
        yield admin(type, name, given);
      }
      case REMOVE_FILE -> {
        r.only(List.of("file", "name"));
        if (!o.containsKey("file")) throw new BadInputException(r.at() + ": needs file (a file id from 2)");
        r.integer("file", 0, 2, 32_767);
        yield admin(type, name, given);
      }
      case SHRINK_FILE -> {
        r.only(List.of("file", "targetMB", "name"));
        r.integer("file", 2, 2, 32_767);
        r.decimal("targetMB", 0, 0, 16_777_216);
        yield admin(type, name, given);
      }
      case SQLPERF -> {
        r.only(List.of("name"));
        yield admin(type, name, given);
      }
      case THINK -> {
        r.only(List.of("us", "distribution", "name"));
        yield new Step(type, name, 0, 0, 1, r.required("us", 0, 1e12), r.choice("distribution", "fixed",
            List.of("fixed", "exponential")).equals("exponential"), false, 0, false, given);
      }
      case SET_LOG -> {
        r.only(List.of("mode", "name"));
        String mode = r.choice("mode", null, List.of("unbuffered", "buffered", "default"));
        int m = switch (mode) {
          case "unbuffered" -> SessionMode.DURABLE;
          case "buffered" -> SessionMode.LAZY;
          default -> SessionMode.DEFAULT;
        };
        yield new Step(type, name, 0, 0, 1, 0, false, false, m, false, given);
      }
      case DELAYED_DURABILITY -> {
        r.only(List.of("on", "name"));
        if (!o.containsKey("on")) throw new BadInputException(r.at() + ": needs on = true or false");
        yield new Step(type, name, 0, 0, 1, 0, false, false,
            r.bool("on", false) ? SessionMode.LAZY : SessionMode.DEFAULT, false, given);
      }
      case ADD_DATA_FILE, REMOVE_DATA_FILE -> {
        r.only(List.of("files", "name"));
        if (!o.containsKey("files")) throw new BadInputException(r.at() + ": needs files (an integer from 1)");
        yield new Step(type, name, r.integer("files", 0, 1, 1_000_000), 0, 1, 0, false, false, 0, false, given);
      }
      case BACKUP_DATABASE -> {
        r.only(List.of("differential", "name"));
        yield new Step(type, name, 0, 0, 1, 0, false, false,
            r.bool("differential", false) ? Step.DIFFERENTIAL : Step.FULL, false, given);
      }
      case RESTORE_DATABASE, RESTORE_LOG -> {
        r.only(List.of("recovery", "name"));
        boolean recovery = r.bool("recovery", type == Step.Type.RESTORE_LOG);
        yield new Step(type, name, 0, 0, 1, 0, false, false, recovery ? Step.WITH_RECOVERY : Step.NORECOVERY, false,
            given);
      }
      case CHECKPOINT, FLUSH_LOG, BACKUP_LOG, CRASH -> {
        r.only(List.of("name"));
        yield new Step(type, name, 0, 0, 1, 0, false, false, 0, false, given);
      }
    };
  }

  private static Step admin(Step.Type type, String name, Map<String, Object> given) {
    return new Step(type, name, 0, 0, 1, 0, false, false, 0, false, given);
  }

  private static String typeWords() {
    List<String> w = new ArrayList<>();
    for (Step.Type t : Step.Type.values()) w.add(t.word);
    return String.join(", ", w);
  }

  /**
   * "file:line: " of a value, as the scenario loader names places, or {@code where} when the value has no file of its
   * own (a script given with --set is named by the key alone).
   */
  static String location(ConfigOrigin origin, String where) {
    if (origin == null || origin.description().startsWith("--set") || origin.description().startsWith("String")) {
      return where == null || where.isEmpty() ? "" : where + ": ";
    }
    return ScenarioLoader.location(origin, null) + ": ";
  }

  /** Reads the keys of one step, naming the step and the line in every error. */
  private static final class Reader {
    private final String what;
    private final ConfigObject o;
    private final String where;

    Reader(String what, ConfigObject o, String where) {
      this.what = what;
      this.o = o;
      this.where = where;
    }

    String at() {
      return location(o.origin(), where) + what;
    }

    private String at(String key) {
      return location(o.get(key).origin(), where) + what + "." + key;
    }

    void only(List<String> allowed) {
      for (String k : o.keySet()) {
        if (!k.equals("step") && !allowed.contains(k)) {
          throw new BadInputException(location(o.get(k).origin(), where) + what + ": unknown key '" + k
              + "'; allowed: " + String.join(", ", allowed));
        }
      }
    }

    double required(String key, double min, double max) {
      if (!o.containsKey(key)) throw new BadInputException(at() + ": needs " + key + " (a number from " + fmt(min)
          + " to " + fmt(max) + ")");
      return decimal(key, 0, min, max);
    }

    double decimal(String key, double dflt, double min, double max) {
      ConfigValue v = o.get(key);
      if (v == null) return dflt;
      if (v.valueType() != ConfigValueType.NUMBER) {
        throw new BadInputException(at(key) + ": must be a number from " + fmt(min) + " to " + fmt(max) + ", got "
            + shown(v));
      }
      double d = ((Number) v.unwrapped()).doubleValue();
      if (!(d >= min && d <= max)) {
        throw new BadInputException(at(key) + ": must be a number from " + fmt(min) + " to " + fmt(max) + ", got "
            + shown(v));
      }
      return d;
    }

    long integer(String key, long dflt, long min, long max) {
      ConfigValue v = o.get(key);
      if (v == null) return dflt;
      double d = v.valueType() == ConfigValueType.NUMBER ? ((Number) v.unwrapped()).doubleValue() : Double.NaN;
      if (!(d == Math.rint(d) && d >= min && d <= max)) {
        throw new BadInputException(at(key) + ": must be an integer from " + min + " to " + max + ", got " + shown(v));
      }
      return (long) d;
    }

    boolean bool(String key, boolean dflt) {
      ConfigValue v = o.get(key);
      if (v == null) return dflt;
      if (v.valueType() != ConfigValueType.BOOLEAN) {
        throw new BadInputException(at(key) + ": must be true or false, got " + shown(v));
      }
      return (Boolean) v.unwrapped();
    }

    String choice(String key, String dflt, List<String> allowed) {
      ConfigValue v = o.get(key);
      if (v == null) {
        if (dflt == null) throw new BadInputException(at() + ": needs " + key + " = one of " + String.join(", ", allowed));
        return dflt;
      }
      String s = String.valueOf(v.unwrapped());
      if (!allowed.contains(s)) {
        throw new BadInputException(at(key) + ": must be one of " + String.join(", ", allowed) + ", got " + shown(v));
      }
      return s;
    }

    String string(String key, String dflt) {
      ConfigValue v = o.get(key);
      if (v == null) return dflt;
      if (v.valueType() != ConfigValueType.STRING || ((String) v.unwrapped()).isBlank()) {
        throw new BadInputException(at(key) + ": must be a non-empty string, got " + shown(v));
      }
      return (String) v.unwrapped();
    }

    private static String shown(ConfigValue v) {
      Object raw = v.unwrapped();
      return raw instanceof String s ? "'" + s + "'" : String.valueOf(raw);
    }

    private static String fmt(double d) {
      return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
    }
  }
}
