package io.tlogsim.database.log.policy;

/**
 * What a session asked for about the durability of its commits (REFERENCE.md 2): nothing (the database's setting),
 * durable (Informix SET LOG; synchronous_commit = on; COMMIT_WAIT = WAIT) or lazy (Informix SET BUFFERED LOG;
 * COMMIT WITH (DELAYED_DURABILITY = ON); synchronous_commit = off; COMMIT_WAIT = NOWAIT). Each flush policy decides
 * what the request means under its database setting.
 */
public final class SessionMode {
  private SessionMode() {}

  public static final int DEFAULT = 0;
  public static final int DURABLE = 1;
  public static final int LAZY = 2;

  public static String name(int mode) {
    return switch (mode) {
      case DEFAULT -> "default";
      case DURABLE -> "durable";
      case LAZY -> "lazy";
      default -> "mode " + mode;
    };
  }
}
