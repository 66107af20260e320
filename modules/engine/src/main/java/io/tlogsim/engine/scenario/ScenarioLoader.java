package io.tlogsim.engine.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
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
      Config c = parse(name, readBuiltin(name));
      out.put(name, c.hasPath("description") ? c.getString("description") : "");
    }
    return out;
  }

  /**
   * Loads a built-in scenario by name, or a file when the argument ends in .conf, has a '/', or names an existing
   * file that is not also a built-in name.
   */
  public Scenario load(String nameOrFile, Map<String, String> overrides) {
    Config file;
    String name;
    Path path = Path.of(nameOrFile);
    boolean isFile = nameOrFile.endsWith(".conf") || nameOrFile.contains("/")
        || (!builtinNames().contains(nameOrFile) && Files.isRegularFile(path));
    if (isFile) {
      if (!Files.isRegularFile(path)) throw new BadInputException("scenario file " + nameOrFile + " does not exist");
      try {
        file = parse(nameOrFile, Files.readString(path));
      } catch (IOException e) {
        throw new BadInputException("scenario file " + nameOrFile + " cannot be read: " + e.getMessage());
      }
      name = path.getFileName().toString().replaceFirst("\\.conf$", "");
    } else {
      List<String> names = builtinNames();
      if (!names.contains(nameOrFile)) {
        throw new BadInputException("unknown scenario '" + nameOrFile + "'; built-in scenarios: "
            + String.join(", ", names) + " (or give a path to a .conf file)");
      }
      file = parse(nameOrFile, readBuiltin(nameOrFile));
      name = nameOrFile;
    }
    return build(name, file, overrides);
  }

  private Scenario build(String name, Config file, Map<String, String> overrides) {
    if (!file.hasPath("kind")) {
      throw new BadInputException("scenario " + name + ": no 'kind'; allowed kinds: " + String.join(", ", kinds.keySet()));
    }
    String kindName = string(file, "kind", name);
    ScenarioKind kind = kinds.get(kindName);
    if (kind == null) {
      throw new BadInputException("scenario " + name + ": kind '" + kindName + "' is unknown; allowed kinds: "
          + String.join(", ", kinds.keySet()));
    }
    Map<String, ParamSpec> specs = new LinkedHashMap<>();
    for (ParamSpec p : kind.params()) specs.put(p.key(), p);
    String allowedKeys = String.join(", ", specs.keySet());

    Map<String, ConfigValue> given = new LinkedHashMap<>();
    String defaultsPath = "tlogsim.kinds." + kind.name();
    if (defaults.hasPath(defaultsPath)) {
      for (Map.Entry<String, ConfigValue> e : defaults.getConfig(defaultsPath).root().entrySet()) given.put(e.getKey(), e.getValue());
    }
    for (Map.Entry<String, ConfigValue> e : file.root().entrySet()) { // top-level keys; nested values are wrong types
      String key = e.getKey();
      if (RESERVED.contains(key)) continue;
      if (!specs.containsKey(key)) {
        throw new BadInputException("scenario " + name + ": unknown key '" + key + "' for kind " + kind.name()
            + "; allowed: " + allowedKeys);
      }
      given.put(key, e.getValue());
    }
    long seed = file.hasPath("seed") ? seedOf(file, name) : 42L;
    for (Map.Entry<String, String> o : overrides.entrySet()) {
      String key = o.getKey();
      if (key.equals("seed")) {
        seed = parseSeed(o.getValue(), "--set seed");
        continue;
      }
      if (!specs.containsKey(key)) {
        throw new BadInputException("--set " + key + ": unknown key for kind " + kind.name() + "; allowed: "
            + allowedKeys + ", seed");
      }
      given.put(key, ConfigValueFactory.fromAnyRef(o.getValue().trim(), "--set " + key));
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (ParamSpec spec : specs.values()) {
      ConfigValue v = given.get(spec.key());
      if (v == null) {
        throw new BadInputException("scenario " + name + ": no value for '" + spec.key() + "' (" + spec.allowedText()
            + ") and no default in application.conf at " + defaultsPath);
      }
      values.put(spec.key(), convert(spec, v));
    }
    Params params = new Params(values);
    kind.validate(params);
    String description = file.hasPath("description") ? string(file, "description", name) : "";
    // Published figures hold for the scenario as published: not once --set has changed its model.
    boolean modelChanged = overrides.keySet().stream().anyMatch(k -> !k.equals("seed"));
    Reference reference = file.hasPath("reference") && !modelChanged ? reference(file, name) : null;
    return new Scenario(name, kind, description, seed, params, reference);
  }

  private static Reference reference(Config file, String name) {
    String where = "scenario " + name + ": reference";
    try {
      String source = file.getString("reference.source");
      Map<String, Double> figures = new LinkedHashMap<>();
      for (Map.Entry<String, ConfigValue> e : file.getObject("reference.figures").entrySet()) {
        if (e.getValue().valueType() != ConfigValueType.NUMBER) {
          throw new BadInputException(where + ".figures: '" + e.getKey() + "' must be a number, got "
              + e.getValue().unwrapped());
        }
        figures.put(e.getKey(), ((Number) e.getValue().unwrapped()).doubleValue());
      }
      return new Reference(source, figures);
    } catch (ConfigException e) {
      throw new BadInputException(where + " must hold source = \"...\" and figures { \"summary.path\" = number }"
          + " (" + e.getMessage().replace('\n', ' ') + ")");
    }
  }

  /** Converts and range-checks one value; the error names the key, what was given and what is allowed. */
  static Object convert(ParamSpec spec, ConfigValue v) {
    Object raw = v.unwrapped();
    String shown = raw instanceof String s ? "'" + s + "'" : String.valueOf(raw);
    String wrong = spec.key() + ": must be " + spec.allowedText() + ", got " + shown;
    switch (spec.type()) {
      case INT, LONG -> {
        Number num = number(v, raw);
        if (num == null) throw new BadInputException(wrong);
        double d = num.doubleValue();
        if (d != Math.rint(d) || d < spec.min() || d > spec.max()) throw new BadInputException(wrong);
        return spec.type() == ParamSpec.Type.INT ? (Object) num.intValue() : (Object) num.longValue();
      }
      case DOUBLE -> {
        Number num = number(v, raw);
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
      default -> throw new IllegalStateException();
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

  private static long seedOf(Config file, String name) {
    ConfigValue v = file.getValue("seed");
    return parseSeed(String.valueOf(v.unwrapped()), "scenario " + name + ": seed");
  }

  static long parseSeed(String s, String what) {
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      throw new BadInputException(what + ": must be an integer (64-bit), got '" + s + "'");
    }
  }

  private static String string(Config c, String key, String name) {
    try {
      return c.getString(key);
    } catch (ConfigException e) {
      throw new BadInputException("scenario " + name + ": '" + key + "' must be a string");
    }
  }

  private static Config parse(String name, String text) {
    try {
      return ConfigFactory.parseString(text, ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF)
          .setOriginDescription(name)).resolve();
    } catch (ConfigException e) {
      throw new BadInputException("scenario " + name + " is malformed: " + e.getMessage().replace('\n', ' '));
    }
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
