package io.tlogsim.kinds.commitpath;

import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a flush policy does under the settings given, in the user's words: "delayed-durability DISABLED (every commit
 * waits for its flush)" rather than the policy's bare name, which read as if the policy acknowledged early.
 */
public final class PolicyWords {
  private PolicyWords() {}

  /** The policy's name and, in parentheses, what its settings make it do. */
  public static String of(Params p) {
    Map<String, Object> v = p.asMap();
    String name = String.valueOf(v.get("flushPolicy"));
    String what = switch (name) {
      case "buffered" -> "only SET LOG sessions wait";
      case "delayed-durability" -> switch (String.valueOf(v.get("delayedDurability"))) {
        case "DISABLED" -> "DISABLED: every commit waits";
        case "ALLOWED" -> "ALLOWED: lazy commits do not wait";
        case "FORCED" -> "FORCED: no commit waits";
        default -> String.valueOf(v.get("delayedDurability"));
      };
      case "group-commit" -> groupCommit(v);
      case "postgresql" -> Boolean.TRUE.equals(v.get("synchronousCommit")) ? "synchronous_commit on"
          : "synchronous_commit off: no commit waits";
      case "mysql" -> "innodb_flush_log_at_trx_commit = " + v.get("innodbFlushLogAtTrxCommit");
      case "db2" -> "MINCOMMIT = " + v.get("db2Mincommit");
      case "oracle" -> v.get("oracleCommitLogging") + ", " + v.get("oracleCommitWait");
      default -> "";
    };
    return what.isEmpty() ? name : name + " (" + what + ")";
  }

  private static String groupCommit(Map<String, Object> v) {
    double delay = v.get("groupCommitDelayUs") instanceof Number n ? n.doubleValue() : 0;
    long count = v.get("groupCommitCount") instanceof Number n ? n.longValue() : 0;
    List<String> when = new ArrayList<>();
    if (delay > 0) when.add(Text.number(delay) + " us");
    if (count > 0) when.add(Text.plural(count, "commit"));
    if (when.isEmpty()) return "no delay, no count";
    return "after " + String.join(" or ", when);
  }

  /**
   * Settings that do nothing a user would expect, said before the run: group commit with neither a delay nor a count
   * where several writes may be in flight holds no flush back, so it gives per-commit's run. Empty when none.
   */
  public static List<String> notes(Params p) {
    Map<String, Object> v = p.asMap();
    List<String> out = new ArrayList<>();
    if ("group-commit".equals(v.get("flushPolicy")) && v.get("groupCommitDelayUs") instanceof Number d
        && d.doubleValue() == 0 && v.get("groupCommitCount") instanceof Number c && c.longValue() == 0
        && v.get("maxOutstandingWrites") instanceof Number w && w.longValue() > 1) {
      out.add("flushPolicy group-commit with groupCommitDelayUs = 0 and groupCommitCount = 0 holds no flush back: with"
          + " up to " + w.longValue() + " log writes in flight every waiting commit is flushed at once, as per-commit"
          + " does (the same run); set groupCommitDelayUs (e.g. 200) or groupCommitCount to group commits");
    }
    return out;
  }
}
