package io.tlogsim.database.session;

import io.tlogsim.database.script.Step;

/**
 * What a pool's sessions cost and log: the host's cores, CPU per statement, row and commit, and the size of each log
 * record (the row-size model of a scenario kind). Times in ns, sizes in bytes.
 *
 * @param cores cores of the host (0: as many as needed)
 * @param hopNanos delay of a request from a session to the log manager
 * @param tableRows rows of the table the statements touch (0: no data file, rows are not tracked)
 * @param chunkRows a large statement's records go to the log manager in chunks of this many
 * @param warmupNanos commits acknowledged before this simulated time are left out of the commit statistics
 * @param arrivalGapNanos at a fixed arrival rate (pgbench -R): the mean time between a session's transaction starts,
 *     drawn from an exponential (a Poisson process); 0: the script's think times
 */
public record Workload(int cores, long hopNanos, long cpuStatementNanos, long cpuInsertRowNanos,
    long cpuUpdateRowNanos, long cpuDeleteRowNanos, long cpuCommitNanos, int insertRecordBytes, int updateRecordBytes,
    int deleteRecordBytes, int commitRecordBytes, int compensationRecordBytes, long tableRows, int chunkRows,
    long warmupNanos, double arrivalGapNanos) {

  /** A workload with its sessions' think times (no fixed arrival rate). */
  public Workload(int cores, long hopNanos, long cpuStatementNanos, long cpuInsertRowNanos, long cpuUpdateRowNanos,
      long cpuDeleteRowNanos, long cpuCommitNanos, int insertRecordBytes, int updateRecordBytes, int deleteRecordBytes,
      int commitRecordBytes, int compensationRecordBytes, long tableRows, int chunkRows, long warmupNanos) {
    this(cores, hopNanos, cpuStatementNanos, cpuInsertRowNanos, cpuUpdateRowNanos, cpuDeleteRowNanos, cpuCommitNanos,
        insertRecordBytes, updateRecordBytes, deleteRecordBytes, commitRecordBytes, compensationRecordBytes, tableRows,
        chunkRows, warmupNanos, 0);
  }

  /** A workload whose every commit counts (no warm-up). */
  public Workload(int cores, long hopNanos, long cpuStatementNanos, long cpuInsertRowNanos, long cpuUpdateRowNanos,
      long cpuDeleteRowNanos, long cpuCommitNanos, int insertRecordBytes, int updateRecordBytes, int deleteRecordBytes,
      int commitRecordBytes, int compensationRecordBytes, long tableRows, int chunkRows) {
    this(cores, hopNanos, cpuStatementNanos, cpuInsertRowNanos, cpuUpdateRowNanos, cpuDeleteRowNanos, cpuCommitNanos,
        insertRecordBytes, updateRecordBytes, deleteRecordBytes, commitRecordBytes, compensationRecordBytes, tableRows,
        chunkRows, 0);
  }

  public Workload {
    if (hopNanos <= 0) throw new IllegalArgumentException("a session's hop must be > 0 ns");
    if (cpuStatementNanos < 0 || cpuInsertRowNanos < 0 || cpuUpdateRowNanos < 0 || cpuDeleteRowNanos < 0
        || cpuCommitNanos < 0) {
      throw new IllegalArgumentException("CPU costs must be >= 0");
    }
    if (warmupNanos < 0) throw new IllegalArgumentException("warm-up must be >= 0 ns");
    if (!(arrivalGapNanos >= 0)) throw new IllegalArgumentException("the arrival gap must be >= 0 ns");
  }

  /** The same workload with a warm-up of {@code nanos} left out of the commit statistics. */
  public Workload withWarmup(long nanos) {
    return new Workload(cores, hopNanos, cpuStatementNanos, cpuInsertRowNanos, cpuUpdateRowNanos, cpuDeleteRowNanos,
        cpuCommitNanos, insertRecordBytes, updateRecordBytes, deleteRecordBytes, commitRecordBytes,
        compensationRecordBytes, tableRows, chunkRows, nanos, arrivalGapNanos);
  }

  /** The same workload with a session's transactions starting every {@code gapNanos} on average (Poisson). */
  public Workload withArrivalGap(double gapNanos) {
    return new Workload(cores, hopNanos, cpuStatementNanos, cpuInsertRowNanos, cpuUpdateRowNanos, cpuDeleteRowNanos,
        cpuCommitNanos, insertRecordBytes, updateRecordBytes, deleteRecordBytes, commitRecordBytes,
        compensationRecordBytes, tableRows, chunkRows, warmupNanos, gapNanos);
  }

  /** GCM-1's sessions (BENCH.md): no CPU, a commit record of {@code recordBytes} alone. */
  public static Workload commitsOnly(long hopNanos, int recordBytes) {
    return new Workload(0, hopNanos, 0, 0, 0, 0, 0, recordBytes, recordBytes, recordBytes, recordBytes, recordBytes,
        0, 1);
  }

  public long cpuRowNanos(Step.Type type) {
    return switch (type) {
      case INSERT -> cpuInsertRowNanos;
      case DELETE -> cpuDeleteRowNanos;
      default -> cpuUpdateRowNanos;
    };
  }

  public int recordBytes(Step.Type type) {
    return switch (type) {
      case INSERT -> insertRecordBytes;
      case DELETE -> deleteRecordBytes;
      default -> updateRecordBytes;
    };
  }
}
