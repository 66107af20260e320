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
 * @param host what waiting for a flush costs on the host ({@link HostCosts#NONE}: nothing)
 */
public record Workload(int cores, long hopNanos, long cpuStatementNanos, long cpuInsertRowNanos,
    long cpuUpdateRowNanos, long cpuDeleteRowNanos, long cpuCommitNanos, int insertRecordBytes, int updateRecordBytes,
    int deleteRecordBytes, int commitRecordBytes, int compensationRecordBytes, long tableRows, int chunkRows,
    long warmupNanos, double arrivalGapNanos, HostCosts host) {

  public Workload {
    if (hopNanos <= 0) throw new IllegalArgumentException("a session's hop must be > 0 ns");
    if (cpuStatementNanos < 0 || cpuInsertRowNanos < 0 || cpuUpdateRowNanos < 0 || cpuDeleteRowNanos < 0
        || cpuCommitNanos < 0) {
      throw new IllegalArgumentException("CPU costs must be >= 0");
    }
    if (warmupNanos < 0) throw new IllegalArgumentException("warm-up must be >= 0 ns");
    if (!(arrivalGapNanos >= 0)) throw new IllegalArgumentException("the arrival gap must be >= 0 ns");
    if (host == null) host = HostCosts.NONE;
  }

  /** The same workload with a warm-up of {@code nanos} left out of the commit statistics. */
  public Workload withWarmup(long nanos) {
    return toBuilder().warmupNanos(nanos).build();
  }

  /** The same workload with a session's transactions starting every {@code gapNanos} on average (Poisson). */
  public Workload withArrivalGap(double gapNanos) {
    return toBuilder().arrivalGapNanos(gapNanos).build();
  }

  /** GCM-1's sessions (BENCH.md): no CPU, a commit record of {@code recordBytes} alone. */
  public static Workload commitsOnly(long hopNanos, int recordBytes) {
    return builder().hopNanos(hopNanos).insertRecordBytes(recordBytes).updateRecordBytes(recordBytes)
        .deleteRecordBytes(recordBytes).commitRecordBytes(recordBytes).compensationRecordBytes(recordBytes).build();
  }

  /** A workload named key by key; what is not given is 0 (no CPU, no table), chunks of one row. */
  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return builder().cores(cores).hopNanos(hopNanos).cpuStatementNanos(cpuStatementNanos)
        .cpuInsertRowNanos(cpuInsertRowNanos).cpuUpdateRowNanos(cpuUpdateRowNanos).cpuDeleteRowNanos(cpuDeleteRowNanos)
        .cpuCommitNanos(cpuCommitNanos).insertRecordBytes(insertRecordBytes).updateRecordBytes(updateRecordBytes)
        .deleteRecordBytes(deleteRecordBytes).commitRecordBytes(commitRecordBytes)
        .compensationRecordBytes(compensationRecordBytes).tableRows(tableRows).chunkRows(chunkRows)
        .warmupNanos(warmupNanos).arrivalGapNanos(arrivalGapNanos).host(host);
  }

  /** Builds a {@link Workload} key by key (its keys as the record names them). */
  public static final class Builder {
    private int cores;
    private long hopNanos;
    private long cpuStatementNanos;
    private long cpuInsertRowNanos;
    private long cpuUpdateRowNanos;
    private long cpuDeleteRowNanos;
    private long cpuCommitNanos;
    private int insertRecordBytes;
    private int updateRecordBytes;
    private int deleteRecordBytes;
    private int commitRecordBytes;
    private int compensationRecordBytes;
    private long tableRows;
    private int chunkRows = 1;
    private long warmupNanos;
    private double arrivalGapNanos;
    private HostCosts host = HostCosts.NONE;

    private Builder() {}

    public Builder cores(int v) {
      cores = v;
      return this;
    }

    public Builder hopNanos(long v) {
      hopNanos = v;
      return this;
    }

    public Builder cpuStatementNanos(long v) {
      cpuStatementNanos = v;
      return this;
    }

    public Builder cpuInsertRowNanos(long v) {
      cpuInsertRowNanos = v;
      return this;
    }

    public Builder cpuUpdateRowNanos(long v) {
      cpuUpdateRowNanos = v;
      return this;
    }

    public Builder cpuDeleteRowNanos(long v) {
      cpuDeleteRowNanos = v;
      return this;
    }

    public Builder cpuCommitNanos(long v) {
      cpuCommitNanos = v;
      return this;
    }

    public Builder insertRecordBytes(int v) {
      insertRecordBytes = v;
      return this;
    }

    public Builder updateRecordBytes(int v) {
      updateRecordBytes = v;
      return this;
    }

    public Builder deleteRecordBytes(int v) {
      deleteRecordBytes = v;
      return this;
    }

    public Builder commitRecordBytes(int v) {
      commitRecordBytes = v;
      return this;
    }

    public Builder compensationRecordBytes(int v) {
      compensationRecordBytes = v;
      return this;
    }

    public Builder tableRows(long v) {
      tableRows = v;
      return this;
    }

    public Builder chunkRows(int v) {
      chunkRows = v;
      return this;
    }

    public Builder warmupNanos(long v) {
      warmupNanos = v;
      return this;
    }

    public Builder arrivalGapNanos(double v) {
      arrivalGapNanos = v;
      return this;
    }

    public Builder host(HostCosts v) {
      host = v;
      return this;
    }

    public Workload build() {
      return new Workload(cores, hopNanos, cpuStatementNanos, cpuInsertRowNanos, cpuUpdateRowNanos, cpuDeleteRowNanos,
          cpuCommitNanos, insertRecordBytes, updateRecordBytes, deleteRecordBytes, commitRecordBytes,
          compensationRecordBytes, tableRows, chunkRows, warmupNanos,
          arrivalGapNanos, host);
    }
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
