package io.tlogsim.cluster;

import com.typesafe.config.ConfigFactory;
import io.tlogsim.journal.JournalKind;
import io.tlogsim.journal.JournalSettings;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Starts one cluster node and waits until it is stopped: {@code NodeMain --keys DIR [--config FILE] [--host H]
 * [--port P] [--seed host:port]... [--journal none|h2|postgres] [--data DIR]}. The command line's {@code tlogsim node} does the
 * same; tests start real JVMs with this.
 */
public final class NodeMain {
  /** A system property: the pid of a process whose end ends this node too (tests' nodes must not outlive them). */
  public static final String PARENT_PID = "tlogsim.node.parentPid";

  private NodeMain() {}

  public static void main(String[] args) throws Exception {
    String file = null, host = null, journal = "none", data = "data", keys = null;
    Integer port = null;
    List<String> seeds = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--config" -> file = args[++i];
        case "--host" -> host = args[++i];
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--seed" -> seeds.add(args[++i]);
        case "--journal" -> journal = args[++i];
        case "--data" -> data = args[++i];
        case "--keys" -> keys = args[++i];
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    String parent = System.getProperty(PARENT_PID);
    if (parent != null) {
      ProcessHandle.of(Long.parseLong(parent)).ifPresentOrElse(
          p -> p.onExit().thenRun(() -> Runtime.getRuntime().halt(0)), () -> Runtime.getRuntime().halt(0));
    }
    JournalKind kind = JournalKind.parse(journal);
    JournalSettings j = kind == JournalKind.NONE ? null : JournalSettings.of(kind, java.nio.file.Path.of(data));
    com.typesafe.config.Config given = file == null ? ConfigFactory.empty() : ConfigFactory.parseFile(new File(file));
    ActorSystem<Void> system = ClusterNode.startNode(ClusterNode.config(given, host, port, seeds, ClusterNode.NODE,
        ClusterKeys.forNode(keys, given)), j);
    System.out.println("tlogsim node started at " + system.address().hostPort() + ", joining "
        + system.settings().config().getStringList("pekko.cluster.seed-nodes"));
    ClusterNode.awaitReady(system);
    System.out.println("tlogsim node up at " + system.address().hostPort());
    System.out.flush();
    system.getWhenTerminated().toCompletableFuture().get();
  }
}
