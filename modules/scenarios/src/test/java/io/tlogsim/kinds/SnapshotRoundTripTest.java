package io.tlogsim.kinds;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every model's snapshot holds all of its state (a field left out silently diverges after a resume): each component
 * of a set of runs that between them exercise every model and every part of its state is run part way, given values
 * of its own where a field is still at its default, snapshotted, restored into a fresh model of the same build and
 * compared field by field ({@link SnapshotProbe}). A field no run moves away from its default must be named here as
 * not state, with why.
 */
class SnapshotRoundTripTest {
  /** Fields that are not state: each is set again by the build or by every event, and why. */
  static final Map<String, String> NOT_STATE = new TreeMap<>(Map.ofEntries(
      Map.entry("LogManager.crashNanos", "set by the build (withCrashAt), as every setting is"),
      Map.entry("SessionPool.crashNanos", "set by the build (withCrashAt), as every setting is"),
      Map.entry("LogManager.backupLink", "set by the build (withBackupAgent)"),
      Map.entry("LogManager.recoveryLink", "set by the build (withRecoveryManager)"),
      Map.entry("LogManager.replicationLink", "set by the build (withReplicationReader)"),
      Map.entry("LogManager.replicationNanos", "set by the build (withReplicationReader)"),
      Map.entry("BackupAgent.msdbLink", "set by the build (withMsdb)"),
      Map.entry("Latencies.addingCounts", "true only within one call of add (HdrHistogram copying counts)"),
      Map.entry("DataFiles.dirtyPos", "an index of the dirty pages by page, rebuilt from them by restore"),
      Map.entry("LogManager.ackDetails", "set by the build (withAckDetails)"),
      Map.entry("LogManager.lazyCommitsSent", "set by the build (withLazyCommits)"),
      Map.entry("LogManager.statementReplies", "set by the build (withStatementReplies)"),
      Map.entry("PostgresCommit.pooled", "set by the build (lockInSessions: WALWriteLock in the session pool)"),
      Map.entry("LogManager.hardenedBytes", "set and read within one completion"),
      Map.entry("HostCpu.lastCore", "set by a run and read at once after it"),
      Map.entry("TransactionTable.rangeLongs", "the length of each session's row ranges, which the snapshot holds trimmed to it (rebuilt from them by restore)")));

  /** Queues kept in arrays, whose state is their rows up to a count (the count is state like any field). */
  static final Set<String> ROWS_ONLY = Set.of("BackupAgent.zeros", "BackupAgent.copies", "BackupAgent.dest",
      "BackupAgent.destFirst", "BackupHistory.fileIds", "BackupHistory.lsns", "BackupHistory.first",
      "Hdd.wArrival", "Hdd.wBytes", "Hdd.wFile", "Hdd.wKind", "Hdd.wLink", "Hdd.wOffset", "Hdd.wTag",
      "WalWriteLock.sleepers");

  /** A scenario, the part of its simulated time it runs before it is probed, and what --set changes. */
  record Run(String scenario, double fraction, String... keyValues) {}

  static final List<Run> RUNS = List.of(
      new Run("gcm1", 0.5, "sessions", "2000", "simulatedSeconds", "0.02"),
      new Run("oltp-commits", 0.4, "simulatedSeconds", "0.2", "warmupSeconds", "0.05", "crashRandomSeconds", "0.2"),
      new Run("informix-buffered", 0.3),
      new Run("informix-group-commit", 0.3),
      new Run("log-drive-placement", 0.05),
      new Run("log-backup-cadence", 0.5, "crashAtSeconds", "30", "simulatedSeconds", "60"),
      new Run("log-full-9002", 0.5),
      new Run("log-full-9002-open-transaction", 0.5),
      new Run("log-reservation", 0.5),
      new Run("two-log-files", 0.5),
      new Run("vlf-growth-rules", 0.3),
      new Run("vlf-growth-rules", 0.02),
      new Run("log-full-9002", 0.1),
      new Run("two-log-files", 0.1),
      // a growth while the log is in its file's last VLF: the log goes on in the growth's first VLF once that is full
      new Run("log-space", 0.5, "recoveryModel", "FULL", "logSizeMB", "1", "logGrowthMB", "0", "simulatedSeconds", "20",
          "script", "[{ step = insert, rows = 1200 }, { step = grow-log, mb = 1 },"
              + " { step = insert, rows = 100, thinkUs = 100000 }]"),
      new Run("pg-commit", 0.3, "simulatedSeconds", "0.2"),
      new Run("pg-commit", 0.3, "simulatedSeconds", "0.2", "cores", "2", "fsyncUs", "300", "hostWakeCpuUs", "12",
          "hostSleepCpuUs", "20", "hostSameCoreWakeCpuUs", "2", "hostSameCoreSleepCpuUs", "1", "hostIdleWakeUs", "8",
          "hostWriteCpuUs", "15", "hostFlushCpuUs", "60"),
      new Run("stairway-backup-fragmented", 0.5),
      new Run("stairway-recovery-undo-fragmented", 0.6),
      new Run("stairway-recovery-undo-fragmented", 0.9), // in undo: the recovery plan under way
      new Run("log-backup-cadence", 0.502, "crashAtSeconds", "30", "simulatedSeconds", "60"), // just after the crash
      new Run("log-full-9002-open-transaction", 0.3),
      // two statements fail with 9002 at once: the second's rollback waits for the first's (RecoveryManager.queued)
      new Run("log-full-9002-open-transaction", 0.25, "sessions", "2", "simulatedSeconds", "2"),
      new Run("stairway-restore-two-logs", 0.7),
      new Run("manyfiles-4000", 0.5, "replicationIntervalSeconds", "0.5"),
      new Run("iobench-ssd", 0.5, "runtime", "0.05"),
      new Run("iobench-ssd", 0.5, "runtime", "0.05", "rw", "write"),
      new Run("iobench-ssd", 0.5, "runtime", "0.05", "rate_iops", "2000"),
      new Run("oltp-commits", 0.5, "simulatedSeconds", "0.2", "warmupSeconds", "0", "arrivalRate", "2000"),
      new Run("iobench-ssd", 0.5, "runtime", "0.02", "device", "raid", "raidWriteCache", "write-back",
          "raidBatteryOk", "true", "raidCacheMiB", "1", "raidDestageDepth", "1", "rw", "randwrite", "iodepth", "64",
          "bs", "65536"),
      // an HDD behind a write-back cache kept full (dirty extents and writes waiting for room), reading ahead
      new Run("iobench-ssd", 0.5, "runtime", "0.05", "device", "hdd", "hddWriteCache", "write-back", "hddCacheMiB", "1",
          "rw", "randrw", "iodepth", "64", "bs", "65536"),
      new Run("iobench-ssd", 0.5, "runtime", "0.05", "device", "simple", "simpleLatencyCv", "0.3"),
      new Run("azure-mi-log-1gb", 0.3, "premiumLogRateVCores", "1", "simulatedSeconds", "1"),
      new Run("commit-path", 0.5, "tableRows", "10000", "dataFileMB", "1", "dataGrowthMB", "1", "simulatedSeconds",
          "2", "script", "[{ step = large-insert, rows = 20000, growBytes = 200 }]"),
      new Run("storage-raid-examples", 0.5, "runtime", "0.05"),
      new Run("storage-premium-tiers", 0.01));

  @Test
  void everyModelsSnapshotRestoresItWhole() {
    SnapshotProbe probe = new SnapshotProbe(NOT_STATE, ROWS_ONLY);
    for (Run r : RUNS) {
      Scenario s = ScenarioRuns.scenario(r.scenario(), r.keyValues());
      RunControl control = new RunControl(s.seed(), 1, null);
      PreparedRun prepared = s.prepare(control);
      List<SimComponent> models = prepared.models();
      long until = Math.max(1, (long) (s.endTimeNanos() * r.fraction()));
      Simulation.run(prepared.topology(), models, control.settings(until));
      List<SimComponent> fresh = prepared.models();
      for (int i = 0; i < models.size(); i++) {
        probe.probe(r.scenario() + " " + prepared.topology().name(i), models.get(i), fresh.get(i));
      }
    }
    System.out.println("fields the models refused a value of their own for: " + probe.unsettable);
    assertEquals(List.of(), List.copyOf(probe.problems()), "fields a snapshot does not hold or restore");
    assertEquals(List.of(), List.copyOf(probe.neverExercised()), "state no run moved from its default");
  }
}
