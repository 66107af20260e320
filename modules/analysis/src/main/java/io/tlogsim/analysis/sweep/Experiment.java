package io.tlogsim.analysis.sweep;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.tlogsim.kernel.Rng;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioLoader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A grid of runs ({@code tlogsim sweep <experiment.conf>}): a base scenario, fixed overrides, parameters that vary
 * (value lists, or ranges on a linear or log scale), replications with independent seeds, the metrics to compare
 * (summary.json paths), and how many runs go at once. Every point is validated before anything runs.
 *
 * <pre>
 * base = gcm1                        # a built-in scenario or a .conf path (relative to this file)
 * description = "commit rate against sessions"
 * set { simulatedSeconds = 0.5 }     # the same for every run
 * vary {
 *   sessions { from = 1, to = 100000, points = 6, scale = log }
 *   recordBytes = [200, 400]
 *   policy {                         # named settings: each value sets several parameters at once
 *     per-commit { flushPolicy = per-commit }
 *     group-commit-1ms { flushPolicy = group-commit, groupCommitDelayUs = 1000 }
 *   }
 * }
 * replications = 5                   # each point, with seeds derived from `seed`
 * precision {                        # optional: more replications where a point's 95% CI is still wide
 *   width = 0.05                     # the CI's full width, relative to the mean
 *   metrics = ["commits.perSecond"]  # which metrics must meet it (default: all)
 *   maxReplications = 60             # at most this many per point
 * }
 * warmup = 0.5                       # simulated s left out of every run's statistics (kinds with warmupSeconds)
 * seed = 1
 * metrics = ["commits.perSecond", "commits.latencyUs.p99"]
 * parallel = 2                       # runs at once (default: the machine's cores)
 * threads = 1                        # kernel threads per run
 * </pre>
 */
public record Experiment(String name, String source, String text, String description, String base,
    Map<String, String> fixed, List<Axis> axes, int replications, long seed, List<String> metrics, int parallel,
    int threads, Precision precision) {

  /**
   * Replications added where a point's mean is not yet precise: until the 95% confidence interval of each of
   * {@code metrics} is narrower than {@code width} x |mean| (its full width), or a point has {@code maxReplications}.
   * {@code width} 0: none added.
   */
  public record Precision(double width, List<String> metrics, int maxReplications) {
    public static final Precision NONE = new Precision(0, List.of(), 0);

    public boolean on() {
      return width > 0;
    }
  }

  private static final List<String> KEYS = List.of("base", "description", "set", "vary", "replications", "seed",
      "metrics", "parallel", "threads", "warmup", "precision");
  /** The parameter {@code warmup} sets in every run. */
  public static final String WARMUP_KEY = "warmupSeconds";
  private static final String BUILTIN_DIR = "experiments";

  /**
   * A parameter that varies, its values in order, and whether they lie on a log scale (for charts). A named axis
   * (e.g. {@code policy}) is not a parameter itself: each of its values names the settings it stands for.
   */
  public record Axis(String key, List<String> values, boolean logScale, Map<String, Map<String, String>> settings) {
    public Axis(String key, List<String> values, boolean logScale) {
      this(key, values, logScale, Map.of());
    }

    public boolean named() {
      return !settings.isEmpty();
    }
  }

  /** One point of the grid: a value per axis. */
  public record Point(int index, List<String> values) {}

  /** Loads a built-in experiment (config/experiments/NAME.conf) or a file. */
  public static Experiment load(String nameOrFile) {
    if (nameOrFile.isBlank()) throw new BadInputException("sweep: the experiment must not be empty");
    Path path = Path.of(nameOrFile);
    String builtin = readBuiltin(nameOrFile);
    if (builtin != null && !nameOrFile.endsWith(".conf") && !nameOrFile.contains("/")) {
      return parse(nameOrFile, BUILTIN_DIR + "/" + nameOrFile + ".conf", builtin, null);
    }
    if (Files.isDirectory(path)) throw new BadInputException("experiment " + nameOrFile + " is a directory");
    if (!Files.isRegularFile(path)) {
      throw new BadInputException("experiment " + nameOrFile + " does not exist (a .conf file, or a built-in: "
          + String.join(", ", builtins()) + ")");
    }
    try {
      String name = path.getFileName().toString().replaceFirst("\\.conf$", "");
      return parse(name, path.toAbsolutePath().normalize().toString(), Files.readString(path), path.getParent());
    } catch (IOException e) {
      throw new BadInputException("experiment " + nameOrFile + " cannot be read: " + e.getMessage());
    }
  }

  public static List<String> builtins() {
    List<String> out = new ArrayList<>();
    for (String n : List.of("commit-policies")) if (readBuiltin(n) != null) out.add(n);
    return out;
  }

  private static String readBuiltin(String name) {
    try (InputStream in = Experiment.class.getClassLoader().getResourceAsStream(BUILTIN_DIR + "/" + name + ".conf")) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null;
    }
  }

  static Experiment parse(String name, String source, String text, Path dir) {
    // includes only beside it, no secret from the environment, bounded nesting: as a scenario file
    Config c = io.tlogsim.scenario.ScenarioParser.parse(source, text, dir);
    for (String key : c.root().keySet()) {
      if (!KEYS.contains(key)) {
        throw new BadInputException(where(c, key, source) + ": unknown key '" + key + "'; allowed: "
            + String.join(", ", KEYS));
      }
    }
    try {
      if (!c.hasPath("base")) throw new BadInputException(source + ": no 'base' (the scenario every run starts from)");
      String base = c.getString("base");
      if ((base.endsWith(".conf") || base.contains("/")) && dir != null && !Path.of(base).isAbsolute()) {
        base = dir.resolve(base).toString();
      }
      Map<String, String> fixed = new LinkedHashMap<>();
      if (c.hasPath("set")) {
        List<Map.Entry<String, ConfigValue>> entries = new ArrayList<>(c.getObject("set").entrySet());
        entries.sort(Map.Entry.comparingByKey());
        for (Map.Entry<String, ConfigValue> e : entries) fixed.put(e.getKey(), plain(e.getValue()));
      }
      if (c.hasPath("warmup")) {
        double warmup = c.getDouble("warmup");
        if (!(warmup >= 0)) {
          throw new BadInputException(where(c, "warmup", source) + ": warmup must be >= 0 simulated s, got " + warmup);
        }
        if (fixed.containsKey(WARMUP_KEY)) {
          throw new BadInputException(where(c, "warmup", source) + ": warmup and set." + WARMUP_KEY
              + " say the same thing: give one of them");
        }
        fixed.put(WARMUP_KEY, plain(c.getValue("warmup")));
      }
      List<Axis> axes = new ArrayList<>();
      if (c.hasPath("vary")) {
        // in the order of the file (a config object's keys come unordered): the first axis is the charts' x
        List<Map.Entry<String, ConfigValue>> entries = new ArrayList<>(c.getObject("vary").entrySet());
        entries.sort(java.util.Comparator.comparingInt((Map.Entry<String, ConfigValue> e) -> e.getValue().origin()
            .lineNumber()).thenComparing(Map.Entry::getKey));
        for (Map.Entry<String, ConfigValue> e : entries) axes.add(axis(e.getKey(), e.getValue()));
      }
      int replications = c.hasPath("replications") ? c.getInt("replications") : 1;
      if (replications < 1 || replications > 1000) {
        throw new BadInputException(where(c, "replications", source) + ": replications must be 1 to 1000, got "
            + replications);
      }
      long seed = c.hasPath("seed") ? c.getLong("seed") : 1;
      List<String> metrics = c.hasPath("metrics") ? c.getStringList("metrics")
          : List.of("commits.perSecond", "commits.latencyUs.p50", "commits.latencyUs.p99");
      if (metrics.isEmpty()) throw new BadInputException(source + ": metrics must name at least one summary path");
      int parallel = c.hasPath("parallel") ? c.getInt("parallel") : Runtime.getRuntime().availableProcessors();
      int threads = c.hasPath("threads") ? c.getInt("threads") : 1;
      if (parallel < 1 || parallel > 256) throw new BadInputException(source + ": parallel must be 1 to 256");
      if (threads < 1 || threads > 1024) throw new BadInputException(source + ": threads must be 1 to 1024");
      String description = c.hasPath("description") ? c.getString("description") : "";
      Precision precision = c.hasPath("precision") ? precision(c, source, metrics, replications) : Precision.NONE;
      Experiment e = new Experiment(name, source, text, description, base, fixed, List.copyOf(axes), replications,
          seed, List.copyOf(metrics), parallel, threads, precision);
      e.validate();
      return e;
    } catch (ConfigException e) {
      throw new BadInputException(source + ": " + e.getMessage().replace('\n', ' '));
    }
  }

  private static Precision precision(Config c, String source, List<String> metrics, int replications) {
    Config p = c.getConfig("precision");
    for (String key : p.root().keySet()) {
      if (!List.of("width", "metrics", "maxReplications").contains(key)) {
        throw new BadInputException(where(c, "precision." + key, source) + ": unknown key 'precision." + key
            + "'; allowed: width, metrics, maxReplications");
      }
    }
    double width = p.hasPath("width") ? p.getDouble("width") : 0.05;
    if (!(width > 0 && width < 10)) {
      throw new BadInputException(where(c, "precision", source) + ": precision.width must be above 0 and below 10"
          + " (a share of the mean), got " + width);
    }
    List<String> which = p.hasPath("metrics") ? p.getStringList("metrics") : metrics;
    for (String m : which) {
      if (!metrics.contains(m)) {
        throw new BadInputException(where(c, "precision", source) + ": precision.metrics: " + m
            + " is not one of metrics (" + String.join(", ", metrics) + ")");
      }
    }
    int max = p.hasPath("maxReplications") ? p.getInt("maxReplications") : Math.max(replications, 50);
    if (max < replications || max > 1000) {
      throw new BadInputException(where(c, "precision", source) + ": precision.maxReplications must be from"
          + " replications (" + replications + ") to 1000, got " + max);
    }
    if (replications < 2) {
      throw new BadInputException(where(c, "precision", source) + ": precision needs replications >= 2 to start from");
    }
    return new Precision(width, List.copyOf(which), max);
  }

  private static Axis axis(String key, ConfigValue v) {
    if (v.valueType() == ConfigValueType.LIST) {
      List<String> values = new ArrayList<>();
      for (Object o : (List<?>) v.unwrapped()) values.add(String.valueOf(o));
      if (values.isEmpty()) throw new BadInputException("vary." + key + ": give at least one value");
      return new Axis(key, values, false);
    }
    if (v.valueType() == ConfigValueType.OBJECT && !((com.typesafe.config.ConfigObject) v).containsKey("from")) {
      return namedAxis(key, (com.typesafe.config.ConfigObject) v);
    }
    if (v.valueType() == ConfigValueType.OBJECT) {
      Config r = ((com.typesafe.config.ConfigObject) v).toConfig();
      double from = r.getDouble("from"), to = r.getDouble("to");
      int points = r.hasPath("points") ? r.getInt("points") : 5;
      String scale = r.hasPath("scale") ? r.getString("scale") : "linear";
      if (!scale.equals("linear") && !scale.equals("log")) {
        throw new BadInputException("vary." + key + ".scale: must be linear or log, got " + scale);
      }
      if (points < 2 || points > 1000) throw new BadInputException("vary." + key + ".points: must be 2 to 1000");
      boolean log = scale.equals("log");
      if (log && (from <= 0 || to <= 0)) throw new BadInputException("vary." + key + ": a log scale needs from and to > 0");
      LinkedHashSet<String> values = new LinkedHashSet<>();
      boolean whole = from == Math.rint(from) && to == Math.rint(to);
      for (int i = 0; i < points; i++) {
        double f = i / (double) (points - 1);
        double x = log ? Math.exp(Math.log(from) + f * (Math.log(to) - Math.log(from))) : from + f * (to - from);
        values.add(whole ? String.valueOf(Math.round(x)) : String.format(Locale.ROOT, "%.6g", x));
      }
      return new Axis(key, List.copyOf(values), log);
    }
    return new Axis(key, List.of(plain(v)), false);
  }

  /** {@code policy { name { key = value, ... }, ... }}: the values in the order of the file. */
  private static Axis namedAxis(String key, com.typesafe.config.ConfigObject o) {
    List<Map.Entry<String, ConfigValue>> entries = new ArrayList<>(o.entrySet());
    entries.sort(java.util.Comparator.comparingInt((Map.Entry<String, ConfigValue> e) -> e.getValue().origin()
        .lineNumber()).thenComparing(Map.Entry::getKey));
    Map<String, Map<String, String>> settings = new LinkedHashMap<>();
    for (Map.Entry<String, ConfigValue> e : entries) {
      if (e.getValue().valueType() != ConfigValueType.OBJECT) {
        throw new BadInputException("vary." + key + "." + e.getKey() + ": a named value must be an object of settings"
            + " ({ flushPolicy = group-commit, ... }); a range needs from and to");
      }
      Map<String, String> set = new LinkedHashMap<>();
      List<Map.Entry<String, ConfigValue>> inner =
          new ArrayList<>(((com.typesafe.config.ConfigObject) e.getValue()).entrySet());
      inner.sort(Map.Entry.comparingByKey());
      for (Map.Entry<String, ConfigValue> kv : inner) set.put(kv.getKey(), plain(kv.getValue()));
      if (set.isEmpty()) throw new BadInputException("vary." + key + "." + e.getKey() + ": give at least one setting");
      settings.put(e.getKey(), Map.copyOf(set));
    }
    if (settings.isEmpty()) throw new BadInputException("vary." + key + ": give at least one value");
    return new Axis(key, List.copyOf(settings.keySet()), false, settings);
  }

  private static String plain(ConfigValue v) {
    return String.valueOf(v.unwrapped());
  }

  private static String where(Config c, String key, String source) {
    int line = c.hasPath(key) ? c.getValue(key).origin().lineNumber() : -1;
    return line > 0 ? source + ":" + line : source;
  }

  /** Every point of the grid, the first axis varying fastest. */
  public List<Point> points() {
    List<Point> out = new ArrayList<>();
    int total = 1;
    for (Axis a : axes) total *= a.values().size();
    for (int i = 0; i < total; i++) {
      List<String> values = new ArrayList<>();
      int rest = i;
      for (Axis a : axes) {
        values.add(a.values().get(rest % a.values().size()));
        rest /= a.values().size();
      }
      out.add(new Point(i, values));
    }
    return out;
  }

  /** The seed of replication {@code r}: independent of the others, the same at every point (common random numbers). */
  public long seedOf(int replication) {
    return Rng.seedFor(seed, replication);
  }

  /** The scenario of one run. */
  public Scenario scenario(Point p, int replication) {
    Map<String, String> o = new LinkedHashMap<>(fixed);
    for (int k = 0; k < axes.size(); k++) {
      Axis a = axes.get(k);
      if (a.named()) {
        o.putAll(a.settings().get(p.values().get(k)));
      } else {
        o.put(a.key(), p.values().get(k));
      }
    }
    ScenarioLoader loader = ScenarioKinds.loader();
    return loader.load(base, o).withSeed(seedOf(replication), "sweep replication " + replication);
  }

  /** Every point loads as a valid scenario, and the axes are parameters of its kind. */
  private void validate() {
    if (fixed.containsKey(WARMUP_KEY)) {
      Scenario plainBase = ScenarioKinds.loader().load(base, Map.of());
      if (plainBase.kind().params().stream().noneMatch(ps -> ps.key().equals(WARMUP_KEY))) {
        throw new BadInputException(source + ": warmup: kind " + plainBase.kind().name() + " of " + base
            + " has no warm-up (" + WARMUP_KEY + "); the commit-path kinds have one");
      }
    }
    Scenario first = ScenarioKinds.loader().load(base, fixed);
    List<String> keys = first.kind().params().stream().map(ParamSpec::key).toList();
    for (Axis a : axes) {
      if (a.named()) {
        for (Map<String, String> set : a.settings().values()) {
          for (String k : set.keySet()) {
            if (!keys.contains(k)) {
              throw new BadInputException("vary." + a.key() + ": " + k + " is not a parameter of kind "
                  + first.kind().name() + "; allowed: " + String.join(", ", keys));
            }
          }
        }
        continue;
      }
      if (!keys.contains(a.key())) {
        throw new BadInputException("vary." + a.key() + ": not a parameter of kind " + first.kind().name()
            + "; allowed: " + String.join(", ", keys));
      }
    }
    for (Point p : points()) scenario(p, 0);
  }

  /** Runs of the first pass (every point x replications); precision may add more. */
  public int runs() {
    return points().size() * replications;
  }
}
