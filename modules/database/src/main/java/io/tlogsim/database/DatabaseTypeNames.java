package io.tlogsim.database;

import io.tlogsim.database.data.DataFiles;
import io.tlogsim.database.log.CheckpointCompleted;
import io.tlogsim.database.log.LogCrash;
import io.tlogsim.database.log.LogHardened;
import io.tlogsim.database.log.LogManager;
import io.tlogsim.database.log.LogStats;
import io.tlogsim.database.log.policy.GroupCommit;
import io.tlogsim.database.log.policy.MysqlCommit;
import io.tlogsim.database.log.policy.PostgresCommit;
import io.tlogsim.database.log.policy.Stateless;
import io.tlogsim.database.logspace.LinearLogSpace;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readpath.Database;
import io.tlogsim.database.readers.RecoveryManager;
import io.tlogsim.database.readers.ReplicationLogReader;
import io.tlogsim.database.series.CommitInterval;
import io.tlogsim.database.series.LogInterval;
import io.tlogsim.database.session.PhaseEnded;
import io.tlogsim.database.session.PhaseStarted;
import io.tlogsim.database.session.PoolStats;
import io.tlogsim.database.session.SessionPool;
import io.tlogsim.kernel.TypeNames;

/**
 * The database's values that are checkpointed, recorded or reported (model states, facts, results): their
 * logical type names in journals and cluster messages ({@link TypeNames}). A name never changes once released; the
 * third argument is the Java class name journals from before logical names hold (kept when a class moves or is
 * renamed). A new state, fact or result record is added here, or its run fails naming it.
 */
public final class DatabaseTypeNames implements TypeNames {
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
