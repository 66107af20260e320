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
import io.tlogsim.scenario.Params;
import java.util.List;
import java.util.function.Supplier;

/** The flush policies a scenario names ({@code flushPolicy}), built from the parameters of each engine's preset. */
public final class Policies {
  private Policies() {}

  public static final List<String> NAMES = List.of("per-commit", "buffered", "delayed-durability", "group-commit",
      "postgresql", "mysql", "db2", "oracle");

  /** A maker of the policy the parameters name (each run needs a fresh one: a policy has state). */
  public static Supplier<FlushPolicy> of(Params p) {
    String name = p.getString("flushPolicy");
    return switch (name) {
      case "per-commit" -> PerCommit::new;
      case "buffered" -> BufferedLog::new;
      case "delayed-durability" -> {
        DelayedDurability.Setting s = DelayedDurability.Setting.valueOf(p.getString("delayedDurability"));
        yield () -> new DelayedDurability(s);
      }
      case "group-commit" -> {
        long delay = VirtualTime.micros(p.getDouble("groupCommitDelayUs"));
        int count = p.getInt("groupCommitCount");
        yield () -> new GroupCommit(delay, count);
      }
      case "postgresql" -> {
        boolean sync = p.getBoolean("synchronousCommit");
        long delay = VirtualTime.micros(p.getDouble("commitDelayUs"));
        int siblings = p.getInt("commitSiblings");
        long walWriter = VirtualTime.micros(p.getDouble("walWriterDelayMs") * 1000);
        yield () -> new PostgresCommit(sync, delay, siblings, walWriter);
      }
      case "mysql" -> {
        int trx = p.getInt("innodbFlushLogAtTrxCommit");
        long delay = VirtualTime.micros(p.getDouble("binlogGroupCommitSyncDelayUs"));
        int count = p.getInt("binlogGroupCommitSyncNoDelayCount");
        yield () -> new MysqlCommit(trx, delay, count);
      }
      case "db2" -> {
        int mincommit = p.getInt("db2Mincommit");
        yield () -> new Db2MinCommit(mincommit);
      }
      case "oracle" -> {
        String logging = p.getString("oracleCommitLogging");
        String wait = p.getString("oracleCommitWait");
        long batch = VirtualTime.micros(p.getDouble("oracleBatchDelayUs"));
        yield () -> new OracleCommit(logging, wait, batch);
      }
      default -> throw new IllegalArgumentException("flush policy " + name);
    };
  }
}
