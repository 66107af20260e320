package io.tlogsim.engine;

import io.tlogsim.engine.data.DataFiles;
import io.tlogsim.engine.log.CheckpointCompleted;
import io.tlogsim.engine.log.LogCrash;
import io.tlogsim.engine.log.LogHardened;
import io.tlogsim.engine.log.LogManager;
import io.tlogsim.engine.log.LogStats;
import io.tlogsim.engine.log.policy.GroupCommit;
import io.tlogsim.engine.log.policy.MysqlCommit;
import io.tlogsim.engine.log.policy.PostgresCommit;
import io.tlogsim.engine.log.policy.Stateless;
import io.tlogsim.engine.logspace.LinearLogSpace;
import io.tlogsim.engine.logspace.ManagedLogSpace;
import io.tlogsim.engine.readpath.BackupAgent;
import io.tlogsim.engine.readpath.Database;
import io.tlogsim.engine.readpath.RecoveryManager;
import io.tlogsim.engine.readpath.ReplicationLogReader;
import io.tlogsim.engine.series.CommitInterval;
import io.tlogsim.engine.series.LogInterval;
import io.tlogsim.engine.session.PhaseEnded;
import io.tlogsim.engine.session.PhaseStarted;
import io.tlogsim.engine.session.PoolStats;
import io.tlogsim.engine.session.SessionPool;
import io.tlogsim.kernel.TypeNames;

/**
 * The engine's values that are checkpointed, recorded or reported (model states, facts, results): their
 * logical type names in journals and cluster messages ({@link TypeNames}). A name never changes once released; the
 * third argument is the Java class name journals from before logical names hold (kept when a class moves or is
 * renamed). A new state, fact or result record is added here, or its run fails naming it.
 */
public final class EngineTypeNames implements TypeNames {
  @Override
  public void declare(Declarations names) {
    names
        .add("DataFiles.State", DataFiles.State.class, "io.tlogsim.engine.data.DataFiles$State")
        .add("CheckpointCompleted", CheckpointCompleted.class, "io.tlogsim.engine.log.CheckpointCompleted")
        .add("LogCrash", LogCrash.class, "io.tlogsim.engine.log.LogCrash")
        .add("LogHardened", LogHardened.class, "io.tlogsim.engine.log.LogHardened")
        .add("LogManager.State", LogManager.State.class, "io.tlogsim.engine.log.LogManager$State")
        .add("LogStats", LogStats.class, "io.tlogsim.engine.log.LogStats")
        .add("GroupCommit.State", GroupCommit.State.class, "io.tlogsim.engine.log.policy.GroupCommit$State")
        .add("MysqlCommit.State", MysqlCommit.State.class, "io.tlogsim.engine.log.policy.MysqlCommit$State")
        .add("PostgresCommit.State", PostgresCommit.State.class, "io.tlogsim.engine.log.policy.PostgresCommit$State")
        .add("FlushPolicy.Stateless", Stateless.class, "io.tlogsim.engine.log.policy.Stateless")
        .add("LinearLogSpace.Stateless", LinearLogSpace.Stateless.class,
            "io.tlogsim.engine.logspace.LinearLogSpace$Stateless")
        .add("ManagedLogSpace.LogFull", ManagedLogSpace.LogFull.class,
            "io.tlogsim.engine.logspace.ManagedLogSpace$LogFull")
        .add("ManagedLogSpace.LogGrew", ManagedLogSpace.LogGrew.class,
            "io.tlogsim.engine.logspace.ManagedLogSpace$LogGrew")
        .add("ManagedLogSpace.LogSpaceSample", ManagedLogSpace.LogSpaceSample.class,
            "io.tlogsim.engine.logspace.ManagedLogSpace$LogSpaceSample")
        .add("ManagedLogSpace.Report", ManagedLogSpace.Report.class,
            "io.tlogsim.engine.logspace.ManagedLogSpace$Report")
        .add("ManagedLogSpace.State", ManagedLogSpace.State.class, "io.tlogsim.engine.logspace.ManagedLogSpace$State")
        .add("BackupAgent.State", BackupAgent.State.class, "io.tlogsim.engine.readpath.BackupAgent$State")
        .add("BackupAgent.Stats", BackupAgent.Stats.class, "io.tlogsim.engine.readpath.BackupAgent$Stats")
        .add("Database.State", Database.State.class, "io.tlogsim.engine.readpath.Database$State")
        .add("Database.Stats", Database.Stats.class, "io.tlogsim.engine.readpath.Database$Stats")
        .add("RecoveryManager.State", RecoveryManager.State.class, "io.tlogsim.engine.readpath.RecoveryManager$State")
        .add("RecoveryManager.Stats", RecoveryManager.Stats.class, "io.tlogsim.engine.readpath.RecoveryManager$Stats")
        .add("ReplicationLogReader.State", ReplicationLogReader.State.class,
            "io.tlogsim.engine.readpath.ReplicationLogReader$State")
        .add("ReplicationLogReader.Stats", ReplicationLogReader.Stats.class,
            "io.tlogsim.engine.readpath.ReplicationLogReader$Stats")
        .add("CommitInterval", CommitInterval.class, "io.tlogsim.engine.series.CommitInterval")
        .add("LogInterval", LogInterval.class, "io.tlogsim.engine.series.LogInterval")
        .add("PhaseEnded", PhaseEnded.class, "io.tlogsim.engine.session.PhaseEnded")
        .add("PhaseStarted", PhaseStarted.class, "io.tlogsim.engine.session.PhaseStarted")
        .add("PoolStats", PoolStats.class, "io.tlogsim.engine.session.PoolStats")
        .add("SessionPool.State", SessionPool.State.class, "io.tlogsim.engine.session.SessionPool$State");
  }
}
