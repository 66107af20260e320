package io.tlogsim.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.tlogsim.storage.DeviceProfiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Host profiles written by {@code tlogsim calibrate-host}: a HOCON file whose {@code profile} block holds the host
 * costs of the commit path (hostWakeCpuUs ... hostFlushCpuUs) and whose {@code measured} block records what was
 * measured. A scenario of the commit-path family names one as {@code host = "profile:NAME"} (also with --set): NAME is
 * a file {@code <data>/hosts/NAME.conf} ($TLOGSIM_DATA, else ./data) or a path to a .conf file, as device profiles
 * ({@link DeviceProfiles}). The loader sets {@code host} to {@code profile} and takes the profile's settings, so a run
 * stores plain numbers and replays and resumes without the file.
 */
public final class HostProfiles {
  private HostProfiles() {}

  public static final String KEY = "host";
  public static final String PREFIX = "profile:";

  /** Where a host profile NAME lives: {@code <data>/hosts/NAME.conf}. */
  public static Path fileOf(Path dataDir, String name) {
    return dataDir.resolve("hosts").resolve(name + ".conf");
  }

  /** The settings of the host profile {@code ref} (a name or a path); bad input naming {@code host} if unreadable. */
  public static Map<String, ConfigValue> settings(String ref) {
    if (ref.isBlank()) throw BadInputException.about(KEY, "profile: needs a name or a .conf path (profile:NAME)");
    Path path = ref.endsWith(".conf") || ref.contains("/") ? Path.of(ref) : fileOf(DeviceProfiles.dataDir(), ref);
    if (!Files.isRegularFile(path)) {
      throw BadInputException.about(KEY, "host profile '" + ref + "' not found (" + path.toAbsolutePath()
          + "); tlogsim calibrate-host --name " + ref + " writes one");
    }
    Config c;
    try {
      c = ConfigFactory.parseFile(path.toFile(), ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF)
          .setAllowMissing(false)).resolve();
    } catch (ConfigException e) {
      throw BadInputException.about(KEY, "host profile " + path + " is malformed: "
          + e.getMessage().replace('\n', ' '));
    }
    if (!c.hasPath("profile") || c.getValue("profile").valueType() != ConfigValueType.OBJECT) {
      throw BadInputException.about(KEY, path + " is not a host profile (no 'profile { ... }' block)");
    }
    Map<String, ConfigValue> out = new LinkedHashMap<>();
    for (Map.Entry<String, ConfigValue> e : c.getObject("profile").entrySet()) {
      if (!e.getKey().startsWith("host")) {
        throw BadInputException.about(KEY, path + ": profile." + e.getKey() + " is not a host setting (host...Us)");
      }
      out.put(e.getKey(), e.getValue());
    }
    return out;
  }
}
