package io.tlogsim.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import io.tlogsim.storage.DeviceConfigException;
import io.tlogsim.storage.DeviceProfiles;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Reads scenarios: built-in ones (config/scenarios/NAME.conf, on the classpath as scenarios/NAME.conf) or a file
 * the user names; overlays {@code --set key=value}; validates everything before anything runs.
 *
 * <p>A scenario file holds {@code kind}, {@code description}, optionally {@code seed} and {@code reference} (the
 * published figures it reproduces: {@code source} and {@code figures}, summary path to number), and values for the
 * kind's parameters. Values not given come from the kind's defaults in application.conf ({@code tlogsim.kinds.KIND}).
 */
public final class ScenarioLoader {
  private static final String BUILTIN_DIR = "scenarios";
  private static final List<String> RESERVED = List.of("kind", "description", "seed", "reference");

  private final Map<String, ScenarioKind> kinds = new TreeMap<>();
  private final Config defaults;

  public ScenarioLoader(List<ScenarioKind> kinds) {
    this(kinds, ConfigFactory.load());
  }

  public ScenarioLoader(List<ScenarioKind> kinds, Config appConfig) {
    for (ScenarioKind k : kinds) this.kinds.put(k.name(), k);
    this.defaults = appConfig;
  }

  /** Built-in scenarios, name to description, in name order. */
  public Map<String, String> builtins() {
    Map<String, String> out = new TreeMap<>();
    for (String name : builtinNames()) {
      Config c = parse(name, readBuiltin(name), null);
      out.put(name, c.hasPath("description") ? c.getString("description") : "");
    }
    return out;
  }

  /**
   * Loads a built-in scenario by name, or a file when the argument ends in .conf, has a '/', or names an existing
   * file that is not also a built-in name. Every error names the file and line it comes from.
   */
  public Scenario load(String nameOrFile, Map<String, String> overrides) {
    if (nameOrFile.isBlank()) {
      throw new BadInputException("the scenario must not be empty; built-in scenarios: "
          + String.join(", ", builtinNames()) + " (or give a path to a .conf file)");
    }
    Path path = Path.of(nameOrFile);
    boolean builtin = builtinNames().contains(nameOrFile);
    boolean isFile = nameOrFile.endsWith(".conf") || nameOrFile.contains("/")
        || (!builtin && (Files.isRegularFile(path) || Files.isDirectory(path)));
    if (isFile) {
      if (Files.isDirectory(path)) {
        throw new BadInputException("scenario " + nameOrFile + " is a directory; give a .conf file (or a built-in"
            + " scenario: " + String.join(", ", builtinNames()) + ")");
      }
      if (!Files.isRegularFile(path)) throw new BadInputException("scenario file " + nameOrFile + " does not exist");
      Config file;
      try {
        file = parse(nameOrFile, Files.readString(path), path.toAbsolutePath().getParent());
      } catch (IOException e) {
        throw new BadInputException("scenario file " + nameOrFile + " cannot be read: " + e.getMessage());
      }
      String name = path.getFileName().toString().replaceFirst("\\.conf$", "");
      return build(name, nameOrFile, path.toAbsolutePath().normalize().toString(), file, overrides);
    }
    if (!builtin) {
      throw new BadInputException("unknown scenario '" + nameOrFile + "'; built-in scenarios: "
          + String.join(", ", builtinNames()) + " (or give a path to a .conf file)");
    }
    String where = BUILTIN_DIR + "/" + nameOrFile + ".conf";
    return build(nameOrFile, where, "built-in:" + nameOrFile, parse(where, readBuiltin(nameOrFile), null), overrides);
  }

  /**
   * A scenario from a file's text read elsewhere (what a cluster node receives): {@code name} and {@code source} as
   * {@link #load} gave them.
   */
  public Scenario loadText(String name, String source, String text, Map<String, String> overrides) {
    return build(name, source, source, parse(source, text, null), overrides);
  }

  /** A kind by name, or bad input naming the kinds there are. */
  public ScenarioKind kind(String name) {
    ScenarioKind kind = kinds.get(name);
    if (kind != null) return kind;
    String hint = builtinNames().contains(name) ? " ('" + name + "' is a scenario; see tlogsim run " + name
        + " --dry-run)" : "";
    throw new BadInputException("unknown kind '" + name + "'; kinds: " + String.join(", ", kinds.keySet()) + hint);
  }

  public List<String> kindNames() {
    return List.copyOf(kinds.keySet());
  }

  /** A parameter as {@code tlogsim params} shows it: its spec, its default and where that default is set. */
  public record ParamDefault(ParamSpec spec, Object value, String origin, String comment) {}

  /**
   * Every parameter of a kind with its default from application.conf, else from the kind's code (a registration's),
   * null where there is none.
   */
  public List<ParamDefault> defaults(ScenarioKind kind) {
    String path = "tlogsim.kinds." + kind.name();
    Config c = defaults.hasPath(path) ? defaults.getConfig(path) : ConfigFactory.empty();
    Map<String, ScenarioKind.Default> declared = kind.defaults();
    List<ParamDefault> out = new ArrayList<>();
    for (ParamSpec spec : kind.params()) {
      if (!c.hasPath(spec.key())) {
        ScenarioKind.Default d = declared.get(spec.key());
        out.add(d == null ? new ParamDefault(spec, null, "", "") : new ParamDefault(spec,
            convert(spec, ConfigValueFactory.fromAnyRef(d.value(), d.origin()), d.origin()), d.origin(), d.source()));
        continue;
      }
      ConfigValue v = c.getValue(spec.key());
      out.add(new ParamDefault(spec, convert(spec, v, location(v.origin(), null)), location(v.origin(), null),
          String.join(" ", v.origin().comments()).strip()));
    }
    return out;
  }

  private Scenario build(String name, String where, String source, Config file, Map<String, String> overrides) {
    if (!file.hasPath("kind")) {
      throw new BadInputException(where + ": no 'kind'; allowed kinds: " + String.join(", ", kinds.keySet()));
    }
    String kindName = string(file, "kind", where);
    ScenarioKind kind = kinds.get(kindName);
    if (kind == null) {
      throw new BadInputException(location(file.getValue("kind").origin(), where) + ": kind '" + kindName
          + "' is unknown; allowed kinds: " + String.join(", ", kinds.keySet()));
    }
    Map<String, ParamSpec> specs = new LinkedHashMap<>();
    for (ParamSpec p : kind.params()) specs.put(p.key(), p);
    String allowedKeys = String.join(", ", specs.keySet());

    // What each key's value is and where it comes from: the kind's defaults (those its code declares, then
    // application.conf's), then the file, then --set.
    Map<String, ConfigValue> given = new LinkedHashMap<>();
    Map<String, String> origins = new LinkedHashMap<>();
    for (Map.Entry<String, ScenarioKind.Default> e : kind.defaults().entrySet()) {
      given.put(e.getKey(), ConfigValueFactory.fromAnyRef(e.getValue().value(), e.getValue().origin()));
      origins.put(e.getKey(), "default, " + e.getValue().origin());
    }
    String defaultsPath = "tlogsim.kinds." + kind.name();
    if (defaults.hasPath(defaultsPath)) {
      for (Map.Entry<String, ConfigValue> e : defaults.getConfig(defaultsPath).root().entrySet()) {
        given.put(e.getKey(), e.getValue());
        origins.put(e.getKey(), "default, " + location(e.getValue().origin(), null));
      }
    }
    for (Map.Entry<String, ConfigValue> e : file.root().entrySet()) { // top-level keys; nested values are wrong types
      String key = e.getKey();
      if (RESERVED.contains(key)) continue;
      if (!specs.containsKey(key)) {
        String named = ScenarioParser.fromInclude(e.getValue().origin()) ? "(in an included file)" : "'" + key + "'";
        throw new BadInputException(location(e.getValue().origin(), where) + ": unknown key " + named + " for kind "
            + kind.name() + "; allowed: " + allowedKeys);
      }
      given.put(key, e.getValue());
      origins.put(key, "scenario, " + location(e.getValue().origin(), where));
    }
    long seed = 42L;
    String seedOrigin = "default";
    if (file.hasPath("seed")) {
      seed = seedOf(file, where);
      seedOrigin = "scenario, " + location(file.getValue("seed").origin(), where);
    }
    Map<String, ConfigValue> withoutOverrides = new LinkedHashMap<>(given);
    for (Map.Entry<String, String> o : overrides.entrySet()) {
      String key = o.getKey();
      if (key.isBlank()) throw new BadInputException("--set: the key must not be empty (e.g. --set sessions=1000)");
      if (key.equals("seed")) {
        seed = parseSeed(o.getValue(), "--set seed");
        seedOrigin = "--set";
        continue;
      }
      if (!specs.containsKey(key)) {
        throw new BadInputException("--set " + key + ": unknown key for kind " + kind.name() + "; allowed: "
            + allowedKeys + ", seed");
      }
      given.put(key, ConfigValueFactory.fromAnyRef(o.getValue().trim(), "--set " + key));
      origins.put(key, "--set");
    }
    expandDeviceProfiles(specs, given, origins, kind.name());
    expandHostProfile(specs, given, origins, kind.name());
    Map<String, Object> values = new LinkedHashMap<>();
    Map<String, String> paramOrigins = new LinkedHashMap<>();
    for (ParamSpec spec : specs.values()) {
      ConfigValue v = given.get(spec.key());
      if (v == null) {
        throw new BadInputException(where + ": no value for '" + spec.key() + "' (" + spec.allowedText()
            + ") and no default in application.conf at " + defaultsPath);
      }
      values.put(spec.key(), convert(spec, v, location(v.origin(), where)));
      paramOrigins.put(spec.key(), origins.get(spec.key()));
    }
    Params params = new Params(values);
    try {
      kind.validate(params);
    } catch (BadInputException e) { // a check across keys: say where the refused key's value was set
      ConfigValue v = e.key() == null ? null : given.get(e.key());
      if (v == null || v.origin() == null || v.origin().description().startsWith("--set")) throw e;
      throw new BadInputException(location(v.origin(), where) + ": " + e.getMessage());
    }
    String description = file.hasPath("description") ? string(file, "description", where) : "";
    // the words were written for the scenario as built: after --set they say which values changed
    description = SetDescription.of(description, changedKeys(specs, withoutOverrides, values), overrides, params,
        specs);
    // Published figures hold for the model as published: kept while --set leaves every resolved value as it was.
    Reference reference = null;
    Scenario.DroppedReference dropped = null;
    if (file.hasPath("reference")) {
      Reference published = reference(file, where, specs, defaults);
      List<String> changed = changedKeys(specs, withoutOverrides, values);
      if (changed.isEmpty()) {
        reference = published;
      } else {
        dropped = new Scenario.DroppedReference(published.source(), changed);
      }
    }
    return new Scenario(name, kind, description, seed, params, reference, source, paramOrigins, seedOrigin,
        new LinkedHashMap<>(overrides), dropped);
  }

  /**
   * A device key given as {@code profile:NAME} (a file from calibrate-device): the key becomes {@code profile} and the
   * profile's settings are taken, except those --set gives.
   */
  private static void expandDeviceProfiles(Map<String, ParamSpec> specs, Map<String, ConfigValue> given,
      Map<String, String> origins, String kind) {
    for (ParamSpec spec : specs.values()) {
      if (spec.type() != ParamSpec.Type.CHOICE || !spec.allowed().contains("profile")) continue;
      if (spec.key().equals(HostProfiles.KEY)) continue; // a host profile, not a device's
      ConfigValue v = given.get(spec.key());
      if (v == null || !(v.unwrapped() instanceof String s) || !s.startsWith(DeviceProfiles.PREFIX)) continue;
      String ref = s.substring(DeviceProfiles.PREFIX.length()).trim();
      Map<String, ConfigValue> settings;
      try {
        settings = DeviceProfiles.settings(spec.key(), ref);
      } catch (DeviceConfigException e) {
        throw new BadInputException(e.getMessage());
      }
      given.put(spec.key(), ConfigValueFactory.fromAnyRef("profile", v.origin().description()));
      origins.put(spec.key(), origins.get(spec.key()) + " (" + s + ")");
      for (Map.Entry<String, ConfigValue> e : settings.entrySet()) {
        if (!specs.containsKey(e.getKey())) {
          throw new BadInputException(spec.key() + ": profile " + ref + ": kind " + kind + " has no setting "
              + e.getKey());
        }
        if ("--set".equals(origins.get(e.getKey()))) continue;
        given.put(e.getKey(), e.getValue());
        origins.put(e.getKey(), "device profile " + ref);
      }
    }
  }

  /**
   * {@code host = profile:NAME} (a file from calibrate-host): the key becomes {@code profile} and the profile's host
   * costs are taken, except those --set gives; the run stores the numbers (replay and resume need no file).
   */
  private static void expandHostProfile(Map<String, ParamSpec> specs, Map<String, ConfigValue> given,
      Map<String, String> origins, String kind) {
    if (!specs.containsKey(HostProfiles.KEY)) return;
    ConfigValue v = given.get(HostProfiles.KEY);
    if (v == null || !(v.unwrapped() instanceof String s) || !s.startsWith(HostProfiles.PREFIX)) return;
    String ref = s.substring(HostProfiles.PREFIX.length()).trim();
    Map<String, ConfigValue> settings = HostProfiles.settings(ref);
    given.put(HostProfiles.KEY, ConfigValueFactory.fromAnyRef("profile", v.origin().description()));
    origins.put(HostProfiles.KEY, origins.get(HostProfiles.KEY) + " (" + s + ")");
    for (Map.Entry<String, ConfigValue> e : settings.entrySet()) {
      if (!specs.containsKey(e.getKey())) {
        throw BadInputException.about(HostProfiles.KEY, "profile " + ref + ": kind " + kind + " has no setting "
            + e.getKey());
      }
      if ("--set".equals(origins.get(e.getKey()))) continue;
      given.put(e.getKey(), e.getValue());
      origins.put(e.getKey(), "host profile " + ref);
    }
  }

  /** The keys whose resolved value differs from what the scenario gives without --set. */
  private static List<String> changedKeys(Map<String, ParamSpec> specs, Map<String, ConfigValue> withoutOverrides,
      Map<String, Object> resolved) {
    List<String> changed = new ArrayList<>();
    for (ParamSpec spec : specs.values()) {
      ConfigValue v = withoutOverrides.get(spec.key());
      Object before;
      try {
        before = v == null ? null : convert(spec, v, "");
      } catch (BadInputException e) {
        before = null; // the scenario alone has no valid value here: --set gave one, so it changed
      }
      if (!resolved.get(spec.key()).equals(before)) changed.add(spec.key());
    }
    return changed;
  }

  /**
   * "path:line" of a value: the file the user named (or {@code where}), else the resource it came from
   * (application.conf), else its description ("--set key").
   */
  static String location(ConfigOrigin origin, String where) {
    if (origin == null) return where == null ? "" : where;
    int line = origin.lineNumber();
    String file = where != null && origin.filename() == null && origin.resource() == null && origin.url() == null
        && !origin.description().startsWith("--set") ? where
        : origin.resource() != null ? origin.resource()
        : origin.filename() != null ? origin.filename()
        : origin.description().replaceFirst(": \\d+$", "");
    return line > 0 ? file + ":" + line : file;
  }

  /**
   * The {@code reference} block. A figure is a bare number (the short form: predicted, within 10%, or the block's
   * {@code tolerance}) or an object {@code { value, tolerance | absoluteTolerance, basis, fitted }}; a calibrated
   * figure names the keys fitted to it (the kind's parameters, a part of one such as {@code script[0].recordBytes},
   * or a path of application.conf).
   */
  private static Reference reference(Config file, String whereFile, Map<String, ParamSpec> specs, Config app) {
    String where = location(file.getValue("reference").origin(), whereFile) + ": reference";
    try {
      String source = file.getString("reference.source");
      double defaultTolerance = Reference.DEFAULT_TOLERANCE;
      if (file.hasPath("reference.tolerance")) {
        defaultTolerance = toleranceValue(file.getValue("reference.tolerance"), "reference.tolerance", whereFile);
      }
      Map<String, Double> figures = new LinkedHashMap<>();
      Map<String, String> basis = new LinkedHashMap<>();
      Map<String, List<String>> fitted = new LinkedHashMap<>();
      Map<String, Double> tolerance = new LinkedHashMap<>();
      Map<String, Double> absolute = new LinkedHashMap<>();
      // in the file's order (a config object's own order is a hash's)
      List<Map.Entry<String, ConfigValue>> entries = new ArrayList<>(file.getObject("reference.figures").entrySet());
      entries.sort(java.util.Comparator.comparingInt((Map.Entry<String, ConfigValue> e) ->
          e.getValue().origin() == null ? 0 : e.getValue().origin().lineNumber()).thenComparing(Map.Entry::getKey));
      for (Map.Entry<String, ConfigValue> e : entries) {
        String path = e.getKey();
        ConfigValue v = e.getValue();
        String at = location(v.origin(), whereFile) + ": reference.figures: '" + path + "'";
        if (v.valueType() == ConfigValueType.NUMBER) {
          figures.put(path, ((Number) v.unwrapped()).doubleValue());
          basis.put(path, Reference.PREDICTED);
          tolerance.put(path, defaultTolerance);
          continue;
        }
        if (v.valueType() != ConfigValueType.OBJECT) {
          throw new BadInputException(at + " must be a number or { value = N, tolerance = 0.1, basis = predicted }"
              + ", got " + v.unwrapped());
        }
        com.typesafe.config.ConfigObject o = (com.typesafe.config.ConfigObject) v;
        for (String k : o.keySet()) {
          if (!List.of("value", "tolerance", "absoluteTolerance", "basis", "fitted").contains(k)) {
            throw new BadInputException(location(o.get(k).origin(), whereFile) + ": reference.figures: '" + path
                + "': unknown key '" + k + "'; allowed: value, tolerance, absoluteTolerance, basis, fitted");
          }
        }
        ConfigValue value = o.get("value");
        if (value == null || value.valueType() != ConfigValueType.NUMBER) {
          throw new BadInputException(at + ": value must be a number (the published figure), got "
              + (value == null ? "nothing" : value.unwrapped()));
        }
        figures.put(path, ((Number) value.unwrapped()).doubleValue());
        if (o.containsKey("tolerance") && o.containsKey("absoluteTolerance")) {
          throw new BadInputException(at + ": give tolerance (a fraction of the value) or absoluteTolerance (in the"
              + " figure's unit), not both");
        }
        if (o.containsKey("absoluteTolerance")) {
          absolute.put(path, toleranceValue(o.get("absoluteTolerance"), "reference.figures: '" + path
              + "': absoluteTolerance", whereFile));
        } else {
          tolerance.put(path, o.containsKey("tolerance") ? toleranceValue(o.get("tolerance"), "reference.figures: '"
              + path + "': tolerance", whereFile) : defaultTolerance);
        }
        ConfigValue b = o.get("basis");
        if (b == null) {
          throw new BadInputException(at + ": no basis; allowed: calibrated (a constant was fitted to this figure:"
              + " name it in fitted = [...]), predicted (nothing was)");
        }
        String bs = String.valueOf(b.unwrapped());
        if (!bs.equals(Reference.CALIBRATED) && !bs.equals(Reference.PREDICTED)) {
          throw new BadInputException(location(b.origin(), whereFile) + ": reference.figures: '" + path
              + "': basis '" + bs + "' is unknown; allowed: calibrated, predicted");
        }
        basis.put(path, bs);
        ConfigValue f = o.get("fitted");
        if (bs.equals(Reference.PREDICTED)) {
          if (f != null) {
            throw new BadInputException(location(f.origin(), whereFile) + ": reference.figures: '" + path
                + "': fitted is for a calibrated figure; a predicted one has nothing fitted to it");
          }
          continue;
        }
        if (f == null || f.valueType() != ConfigValueType.LIST || ((List<?>) f.unwrapped()).isEmpty()) {
          throw new BadInputException((f == null ? at : location(f.origin(), whereFile) + ": reference.figures: '"
              + path + "'") + ": a calibrated figure needs fitted = [\"key\", ...], the constants fitted to it");
        }
        List<String> keys = new ArrayList<>();
        for (ConfigValue k : (com.typesafe.config.ConfigList) f) {
          String key = String.valueOf(k.unwrapped());
          if (!isConstant(key, specs, app)) {
            throw new BadInputException(location(k.origin(), whereFile) + ": reference.figures: '" + path
                + "': fitted key '" + key + "' is neither a parameter of this kind (tlogsim params KIND) nor a"
                + " path of application.conf");
          }
          keys.add(key);
        }
        fitted.put(path, keys);
      }
      return new Reference(source, figures, basis, fitted, tolerance, absolute);
    } catch (ConfigException e) {
      throw new BadInputException(where + " must hold source = \"...\" and figures { \"summary.path\" = number }"
          + " (" + e.getMessage().replace('\n', ' ') + ")");
    }
  }

  private static double toleranceValue(ConfigValue v, String what, String whereFile) {
    if (v.valueType() != ConfigValueType.NUMBER || ((Number) v.unwrapped()).doubleValue() < 0
        || !Double.isFinite(((Number) v.unwrapped()).doubleValue())) {
      throw new BadInputException(location(v.origin(), whereFile) + ": " + what + " must be a number >= 0 (a"
          + " fraction: 0.1 is 10%), got " + v.unwrapped());
    }
    return ((Number) v.unwrapped()).doubleValue();
  }

  /** A parameter of the kind, a part of one ({@code script[1].recordBytes}), or a path of application.conf. */
  private static boolean isConstant(String key, Map<String, ParamSpec> specs, Config app) {
    if (key.isBlank()) return false;
    String base = key.split("[.\\[]", 2)[0];
    if (specs.containsKey(key) || specs.containsKey(base)) return true;
    try {
      return key.startsWith("tlogsim.") && app.hasPath(key);
    } catch (ConfigException e) {
      return false;
    }
  }


  /**
   * Converts and range-checks one value; the error names where the value was set (file:line, when it comes from a
   * file), the key, what was given and what is allowed.
   */
  static Object convert(ParamSpec spec, ConfigValue v, String location) {
    Object raw = v.unwrapped();
    String shown = ScenarioParser.fromInclude(v.origin()) ? "the included file's value (not shown)"
        : raw instanceof String s ? "'" + s + "'" : String.valueOf(raw);
    String at = location.isEmpty() || location.startsWith("--set") ? "" : location + ": ";
    String wrong = at + spec.key() + ": must be " + spec.allowedText() + ", got " + shown;
    switch (spec.type()) {
      case INT, LONG -> {
        Number num = withUnit(spec, v, raw, at);
        if (num == null) throw new BadInputException(wrong);
        double d = num.doubleValue();
        if (d != Math.rint(d) || d < spec.min() || d > spec.max()) throw new BadInputException(wrong);
        return spec.type() == ParamSpec.Type.INT ? (Object) num.intValue() : (Object) num.longValue();
      }
      case DOUBLE -> {
        Number num = withUnit(spec, v, raw, at);
        if (num == null) throw new BadInputException(wrong);
        double d = num.doubleValue();
        if (Double.isNaN(d) || d < spec.min() || d > spec.max()) throw new BadInputException(wrong);
        return d;
      }
      case BOOLEAN -> {
        if (v.valueType() == ConfigValueType.BOOLEAN) return raw;
        if (raw instanceof String s && (s.equals("true") || s.equals("false"))) return Boolean.parseBoolean(s);
        throw new BadInputException(wrong);
      }
      case CHOICE -> {
        String s = String.valueOf(raw);
        if (!spec.allowed().contains(s)) throw new BadInputException(wrong);
        return s;
      }
      case SCRIPT -> {
        return ScriptParser.parse(spec.key(), v, "");  // names the file and line of each step itself
      }
      default -> throw new IllegalStateException();
    }
  }

  /** A number, or a number with a unit converted to the parameter's ({@link Units}: 4k, 10GB, 100ms); else null. */
  private static Number withUnit(ParamSpec spec, ConfigValue v, Object raw, String at) {
    Number num = number(v, raw);
    if (num != null || !(raw instanceof String s)) return num;
    try {
      return Units.convert(spec, s);
    } catch (BadInputException e) {
      throw new BadInputException(at + e.getMessage());
    }
  }

  private static Number number(ConfigValue v, Object raw) {
    if (v.valueType() == ConfigValueType.NUMBER) return (Number) raw;
    if (raw instanceof String s) {
      try {
        return s.contains(".") || s.contains("e") || s.contains("E") ? (Number) Double.parseDouble(s) : (Number) Long.parseLong(s);
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  private static long seedOf(Config file, String where) {
    ConfigValue v = file.getValue("seed");
    return parseSeed(String.valueOf(v.unwrapped()), location(v.origin(), where) + ": seed");
  }

  static long parseSeed(String s, String what) {
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      throw new BadInputException(what + ": must be an integer (64-bit), got '" + s + "'");
    }
  }

  private static String string(Config c, String key, String where) {
    try {
      return c.getString(key);
    } catch (ConfigException e) {
      throw new BadInputException(location(c.getValue(key).origin(), where) + ": '" + key + "' must be a string");
    }
  }

  /**
   * Parses a scenario; a syntax error names the file and line ("broken.conf:2: malformed: ..."); includes, the
   * environment and nesting as {@link ScenarioParser} allows them ({@code dir}: where includes may come from).
   */
  private static Config parse(String where, String text, Path dir) {
    return ScenarioParser.parse(where, text, dir);
  }

  private static String readBuiltin(String name) {
    try (InputStream in = ScenarioLoader.class.getClassLoader().getResourceAsStream(BUILTIN_DIR + "/" + name + ".conf")) {
      if (in == null) throw new BadInputException("unknown scenario '" + name + "'");
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BadInputException("built-in scenario " + name + " cannot be read: " + e.getMessage());
    }
  }

  /** Names of the .conf files in the classpath folder scenarios/, from a directory or a jar. */
  static List<String> builtinNames() {
    URL url = ScenarioLoader.class.getClassLoader().getResource(BUILTIN_DIR);
    if (url == null) return List.of();
    try {
      URI uri = url.toURI();
      if (uri.getScheme().equals("jar")) {
        FileSystem fs;
        try {
          fs = FileSystems.getFileSystem(uri);
        } catch (FileSystemNotFoundException e) {
          fs = FileSystems.newFileSystem(uri, Map.of());
        }
        return list(fs.getPath(BUILTIN_DIR));
      }
      return list(Path.of(uri));
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException("cannot list built-in scenarios: " + e.getMessage(), e);
    }
  }

  private static List<String> list(Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".conf"))
          .map(f -> f.substring(0, f.length() - 5)).sorted().forEach(names::add);
    }
    return names;
  }
}
