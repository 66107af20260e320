package io.tlogsim.kinds.commitpath;

import io.tlogsim.database.log.policy.BufferedLog;
import io.tlogsim.database.log.policy.Db2MinCommit;
import io.tlogsim.database.log.policy.DelayedDurability;
import io.tlogsim.database.log.policy.FlushPolicy;
import io.tlogsim.database.log.policy.GroupCommit;
import io.tlogsim.database.log.policy.MysqlCommit;
import io.tlogsim.database.log.policy.OracleCommit;
import io.tlogsim.database.log.policy.PerCommit;
import io.tlogsim.database.log.policy.PostgresCommit;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.ScenarioKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The flush policies a scenario names ({@code flushPolicy}): each registered once, with the settings it takes (a
 * parameter of every commit-path kind, its default, and where that default comes from) and how it is made from them.
 * A new policy is its class and one registration in {@link #ALL}.
 */
public final class FlushPolicies {
  private FlushPolicies() {}

  /** A setting of a policy: the parameter, its default, and the default's source (REFERENCE.md, or "assumption"). */
  public record Setting(ParamSpec spec, Object defaultValue, String source) {}

  /**
   * A policy as scenarios name it: its settings, and a maker of the policy from a scenario's parameters (a maker, as
   * each run needs a fresh policy: a policy has state).
   */
  public record Registration(String name, List<Setting> settings, Function<Params, Supplier<FlushPolicy>> maker) {
    public Registration {
      settings = List.copyOf(settings);
    }
  }

  private static Registration policy(String name, Function<Params, Supplier<FlushPolicy>> maker, Setting... settings) {
    return new Registration(name, List.of(settings), maker);
  }

  private static Setting setting(ParamSpec spec, Object defaultValue, String source) {
    return new Setting(spec, defaultValue, source);
  }

  /** Every policy, in the order {@code flushPolicy}'s allowed values are listed. */
  public static final List<Registration> ALL = List.of(
      policy("per-commit", p -> PerCommit::new),
      policy("buffered", p -> BufferedLog::new),
      policy("group-commit", p -> {
        long delay = VirtualTime.micros(p.getDouble("groupCommitDelayUs"));
        int count = p.getInt("groupCommitCount");
        return () -> new GroupCommit(delay, count);
      },
          setting(ParamSpec.decimal("groupCommitDelayUs", 0, 1e7,
              "group-commit: flush this long after the first waiting commit"), 0,
              "REFERENCE.md 2, group commit: \"when a time has elapsed\" (0: at once)"),
          setting(ParamSpec.integer("groupCommitCount", 0, 1_000_000,
              "group-commit: flush when this many commits wait (0: no count)"), 0,
              "REFERENCE.md 2, group commit: \"after a number of commits\" (0: no count)")),
      policy("delayed-durability", p -> {
        DelayedDurability.Setting s = DelayedDurability.Setting.valueOf(p.getString("delayedDurability"));
        return () -> new DelayedDurability(s);
      },
          setting(ParamSpec.choice("delayedDurability", DelayedDurability.SETTINGS,
              "delayed-durability: the database setting"), "DISABLED",
              "REFERENCE.md 2: DISABLED | ALLOWED | FORCED")),
      policy("postgresql", p -> {
        boolean sync = p.getBoolean("synchronousCommit");
        long delay = VirtualTime.micros(p.getDouble("commitDelayUs"));
        int siblings = p.getInt("commitSiblings");
        long walWriter = VirtualTime.micros(p.getDouble("walWriterDelayMs") * 1000);
        return () -> new PostgresCommit(sync, delay, siblings, walWriter);
      },
          setting(ParamSpec.bool("synchronousCommit", "postgresql: synchronous_commit on (true) or off"), true,
              "REFERENCE.md 2: PostgreSQL synchronous_commit (on)"),
          setting(ParamSpec.decimal("commitDelayUs", 0, 100_000, "postgresql: commit_delay"), 0,
              "REFERENCE.md 2: PostgreSQL commit_delay, \"0-100000 us, default 0\""),
          setting(ParamSpec.integer("commitSiblings", 0, 1_000, "postgresql: commit_siblings"), 5,
              "REFERENCE.md 2: PostgreSQL commit_siblings, \"default 5\""),
          setting(ParamSpec.decimal("walWriterDelayMs", 1, 10_000, "postgresql: wal_writer_delay"), 200,
              "REFERENCE.md 2: PostgreSQL wal_writer_delay (200 ms)")),
      policy("mysql", p -> {
        int trx = p.getInt("innodbFlushLogAtTrxCommit");
        long delay = VirtualTime.micros(p.getDouble("binlogGroupCommitSyncDelayUs"));
        int count = p.getInt("binlogGroupCommitSyncNoDelayCount");
        return () -> new MysqlCommit(trx, delay, count);
      },
          setting(ParamSpec.integer("innodbFlushLogAtTrxCommit", 0, 2, "mysql: innodb_flush_log_at_trx_commit"), 1,
              "REFERENCE.md 2: MySQL innodb_flush_log_at_trx_commit (1: flush per commit)"),
          setting(ParamSpec.decimal("binlogGroupCommitSyncDelayUs", 0, 1_000_000,
              "mysql: binlog_group_commit_sync_delay"), 0,
              "REFERENCE.md 2: MySQL binlog_group_commit_sync_delay (0-1,000,000 us)"),
          setting(ParamSpec.integer("binlogGroupCommitSyncNoDelayCount", 0, 100_000,
              "mysql: binlog_group_commit_sync_no_delay_count (0: no count)"), 0,
              "REFERENCE.md 2: MySQL binlog_group_commit_sync_no_delay_count")),
      policy("db2", p -> {
        int mincommit = p.getInt("db2Mincommit");
        return () -> new Db2MinCommit(mincommit);
      },
          setting(ParamSpec.integer("db2Mincommit", 1, 25, "db2: MINCOMMIT"), 1, "REFERENCE.md 2: DB2 MINCOMMIT (1-25)")),
      policy("oracle", p -> {
        String logging = p.getString("oracleCommitLogging");
        String wait = p.getString("oracleCommitWait");
        long batch = VirtualTime.micros(p.getDouble("oracleBatchDelayUs"));
        return () -> new OracleCommit(logging, wait, batch);
      },
          setting(ParamSpec.choice("oracleCommitLogging", OracleCommit.LOGGING, "oracle: COMMIT_LOGGING"), "IMMEDIATE",
              "REFERENCE.md 2: Oracle COMMIT_LOGGING = IMMEDIATE | BATCH"),
          setting(ParamSpec.choice("oracleCommitWait", OracleCommit.WAIT, "oracle: COMMIT_WAIT"), "WAIT",
              "REFERENCE.md 2: Oracle COMMIT_WAIT = WAIT | NOWAIT | FORCE_WAIT"),
          setting(ParamSpec.decimal("oracleBatchDelayUs", 0, 1e8,
              "oracle: how long COMMIT_LOGGING = BATCH leaves redo unwritten"), 3_000_000,
              "assumption: Oracle's log writer wakes every 3 s (Oracle's documentation)")));

  /** The policies' names, as {@code flushPolicy} allows them. */
  public static final List<String> NAMES = ALL.stream().map(Registration::name).toList();

  /** Every policy's settings as parameters, policy by policy. */
  public static List<ParamSpec> specs() {
    List<ParamSpec> out = new ArrayList<>();
    for (Registration r : ALL) for (Setting s : r.settings()) out.add(s.spec());
    return out;
  }

  /** Every policy's settings' defaults, with their sources, as a kind declares them ({@link ScenarioKind#defaults}). */
  public static Map<String, ScenarioKind.Default> defaults() {
    Map<String, ScenarioKind.Default> out = new LinkedHashMap<>();
    for (Registration r : ALL) {
      for (Setting s : r.settings()) {
        out.put(s.spec().key(), new ScenarioKind.Default(s.defaultValue(), "flush policy " + r.name(), s.source()));
      }
    }
    return out;
  }

  /** A maker of the policy the parameters name. */
  public static Supplier<FlushPolicy> of(Params p) {
    String name = p.getString("flushPolicy");
    for (Registration r : ALL) if (r.name().equals(name)) return r.maker().apply(p);
    throw new IllegalArgumentException("flush policy " + name);
  }
}
