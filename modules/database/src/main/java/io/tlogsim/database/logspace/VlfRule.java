package io.tlogsim.database.logspace;

/**
 * How many virtual log files (VLFs) SQL Server cuts a log creation or growth into (REFERENCE.md section 1). The
 * growth is split into VLFs of equal size.
 */
public enum VlfRule {
  /** Until SQL Server 2014: G < 64 MB: 4; 64 MB <= G <= 1 GB: 8; G > 1 GB: 16. */
  PRE_2014("pre-2014"),
  /** SQL Server 2014+: a growth smaller than 1/8 of the current log size adds 1 VLF; otherwise as before. */
  SQL_2014("2014"),
  /** SQL Server 2022 and Azure SQL: a growth of at most 64 MB adds 1 VLF; otherwise as 2014. */
  SQL_2022("2022");

  static final long MB = 1L << 20;
  static final long GB = 1L << 30;

  private final String key;

  VlfRule(String key) {
    this.key = key;
  }

  /** The value of {@code sqlServerVersion} in scenario files. */
  public String key() {
    return key;
  }

  public static VlfRule of(String key) {
    for (VlfRule r : values()) if (r.key.equals(key)) return r;
    throw new IllegalArgumentException("unknown SQL Server version rule '" + key + "'");
  }

  /** VLFs added by creating or growing the log by {@code growth} bytes when the log is {@code logSize} bytes. */
  public int vlfs(long growth, long logSize) {
    if (growth <= 0) throw new IllegalArgumentException("growth must be > 0 bytes, got " + growth);
    if (this == SQL_2022 && growth <= 64 * MB) return 1;
    if (this != PRE_2014 && logSize > 0 && growth < logSize / 8.0) return 1;
    if (growth < 64 * MB) return 4;
    if (growth <= GB) return 8;
    return 16;
  }

  /** Whether the new bytes of a growth must be zeroed before use (SQL Server 2022 and Azure: not up to 64 MB). */
  public boolean zeroesGrowth(long growth) {
    return !(this == SQL_2022 && growth <= 64 * MB);
  }
}
