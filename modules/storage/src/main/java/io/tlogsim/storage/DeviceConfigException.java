package io.tlogsim.storage;

/**
 * A device setting the models refuse (a negative latency, an unknown tier, RAID 5 with two members, a stripe that is
 * not a power of two). {@code key} names the setting as the device spec calls it ("stripeBytes"); the message says
 * what is allowed and what was given. The scenario framework maps it to its bad-input error under the scenario's key.
 */
public final class DeviceConfigException extends RuntimeException {
  private final String key;
  private final String model;

  public DeviceConfigException(String key, String message) {
    this(key, message, null);
  }

  private DeviceConfigException(String key, String message, String model) {
    super(key + ": " + message);
    this.key = key;
    this.model = model;
  }

  public String key() {
    return key;
  }

  /** The device model whose setting it is ("ssd", "raid"), or null when not known. */
  public String model() {
    return model;
  }

  /** The same refusal, of a setting of {@code deviceModel} (unless it already names its model). */
  DeviceConfigException of(String deviceModel) {
    return model != null ? this : new DeviceConfigException(key, detail(), deviceModel);
  }

  /** The message without the key: "must be ..., got ...". */
  public String detail() {
    return getMessage().substring(key.length() + 2);
  }

  /** Checks {@code min <= value <= max}. */
  static void range(String key, double value, double min, double max, String unit) {
    if (!(value >= min && value <= max)) {
      throw new DeviceConfigException(key, "must be from " + fmt(min) + " to " + fmt(max) + unit + ", got "
          + fmt(value));
    }
  }

  static void positive(String key, double value, String unit) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new DeviceConfigException(key, "must be > 0" + unit + ", got " + fmt(value));
    }
  }

  static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
  }
}
