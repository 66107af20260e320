package io.tlogsim.storage;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Device profiles written by {@code tlogsim calibrate-device}: a HOCON file whose {@code profile} block holds the
 * settings of the {@code profile} device model (profile512Us ... profile1048576Us, profileQd8Speedup, profileFlushUs)
 * and whose {@code measured} block records what was measured. A scenario names one as
 * {@code device = "profile:NAME"} or {@code logDevice = "profile:NAME"} (also with --set): NAME is a file
 * {@code <data>/devices/NAME.conf} ($TLOGSIM_DATA, else ./data) or a path to a .conf file. The loader then sets the
 * device key to {@code profile} and takes the profile's settings, so a run stores plain numbers and replays without
 * the file.
 */
public final class DeviceProfiles {
  private DeviceProfiles() {}

  /** The synchronous write sizes a profile has a latency for (a log's 512 B to 60 KB, and 1 MiB: the sequential rate). */
  public static final List<Long> SIZES = List.of(512L, 4096L, 8192L, 16384L, 32768L, 61440L, 1048576L);
  public static final String PREFIX = "profile:";

  public static String latencyKey(long bytes) {
    return "profile" + bytes + "Us";
  }

  /** Where a profile NAME lives: {@code <data>/devices/NAME.conf}. */
  public static Path fileOf(Path dataDir, String name) {
    return dataDir.resolve("devices").resolve(name + ".conf");
  }

  /** The data directory a name resolves under: $TLOGSIM_DATA, else ./data. */
  public static Path dataDir() {
    String env = System.getenv("TLOGSIM_DATA");
    return Path.of(env == null || env.isBlank() ? "data" : env);
  }

  /**
   * The settings of the profile {@code ref} (a name or a path), each with its origin; a {@link DeviceConfigException}
   * under the scenario's {@code key} if it cannot be read.
   */
  public static Map<String, ConfigValue> settings(String key, String ref) {
    if (ref.isBlank()) throw new DeviceConfigException(key, "profile: needs a name or a .conf path (profile:NAME)");
    Path path = ref.endsWith(".conf") || ref.contains("/") ? Path.of(ref) : fileOf(dataDir(), ref);
    if (!Files.isRegularFile(path)) {
      throw new DeviceConfigException(key, "device profile '" + ref + "' not found (" + path.toAbsolutePath()
          + "); tlogsim calibrate-device --path DIR --name " + ref + " writes one");
    }
    Config c;
    try {
      c = ConfigFactory.parseFile(path.toFile(), ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF)
          .setAllowMissing(false)).resolve();
    } catch (ConfigException e) {
      throw new DeviceConfigException(key, "device profile " + path + " is malformed: "
          + e.getMessage().replace('\n', ' '));
    }
    if (!c.hasPath("profile") || c.getValue("profile").valueType() != com.typesafe.config.ConfigValueType.OBJECT) {
      throw new DeviceConfigException(key, path + " is not a device profile (no 'profile { ... }' block)");
    }
    Map<String, ConfigValue> out = new LinkedHashMap<>();
    for (Map.Entry<String, ConfigValue> e : c.getObject("profile").entrySet()) {
      if (!e.getKey().startsWith("profile")) {
        throw new DeviceConfigException(key, path + ": profile." + e.getKey() + " is not a profile setting"
            + " (profile<bytes>Us, profileQd8Speedup, profileFlushUs, profileCapacityGiB)");
      }
      out.put(e.getKey(), e.getValue());
    }
    return out;
  }
}
