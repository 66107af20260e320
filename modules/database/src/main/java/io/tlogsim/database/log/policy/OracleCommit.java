package io.tlogsim.database.log.policy;

import java.util.List;

/**
 * Oracle's COMMIT_LOGGING and COMMIT_WAIT (REFERENCE.md 2). IMMEDIATE posts the log writer at every commit; BATCH
 * leaves the redo in the buffer for the log writer to write in a batch, here {@code batchDelayNanos} after the first
 * commit of the batch (or when the block is full). WAIT returns once the redo is hardened, NOWAIT at once, FORCE_WAIT
 * waits even when a session asked for NOWAIT (session mode lazy); a session's WAIT (mode durable) is honoured under
 * NOWAIT.
 */
public final class OracleCommit implements FlushPolicy {
  public static final List<String> LOGGING = List.of("IMMEDIATE", "BATCH");
  public static final List<String> WAIT = List.of("WAIT", "NOWAIT", "FORCE_WAIT");

  private final boolean batch;
  private final String wait;
  private final GroupCommit batcher;

  public OracleCommit(String commitLogging, String commitWait, long batchDelayNanos) {
    if (!LOGGING.contains(commitLogging) || !WAIT.contains(commitWait)) {
      throw new IllegalArgumentException("COMMIT_LOGGING " + commitLogging + ", COMMIT_WAIT " + commitWait);
    }
    this.batch = commitLogging.equals("BATCH");
    this.wait = commitWait;
    this.batcher = new GroupCommit("oracle", batchDelayNanos, 0);
  }

  @Override
  public String name() {
    return "oracle";
  }

  @Override
  public String settings() {
    return "oracle " + (batch ? "BATCH " : "IMMEDIATE ") + wait + " " + batcher.settings();
  }

  @Override
  public boolean waits(int sessionMode) {
    return switch (wait) {
      case "FORCE_WAIT" -> true;
      case "NOWAIT" -> sessionMode == SessionMode.DURABLE;
      default -> sessionMode != SessionMode.LAZY;
    };
  }

  @Override
  public void onCommit(FlushControl log, boolean waits) {
    if (batch) batcher.join(log);
    else log.flushTo(log.appendLsn());
  }

  @Override
  public void onTimer(FlushControl log, long code) {
    batcher.onTimer(log, code);
  }

  @Override
  public Object snapshot() {
    return batcher.snapshot();
  }

  @Override
  public void restore(Object snapshot) {
    batcher.restore(snapshot);
  }
}
