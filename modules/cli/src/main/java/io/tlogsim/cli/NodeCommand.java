package io.tlogsim.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.tlogsim.cluster.ClusterKeys;
import io.tlogsim.cluster.ClusterNode;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.ScenarioParser;
import io.tlogsim.journal.JournalKind;
import io.tlogsim.journal.JournalSettings;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.pekko.actor.typed.ActorSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim node}: starts a cluster node and serves until stopped (SIGTERM leaves the cluster first). Runs
 * submitted with {@code tlogsim run ... --cluster HOST:PORT} spread their components over the nodes.
 */
@Command(name = "node", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Start a cluster node (Pekko Cluster, static seed nodes); runs submitted with --cluster spread "
        + "over the nodes. Defaults: config/cluster/node.conf.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_JAVA_OPTS, Tlogsim.ENV_JDBC, Tlogsim.ENV_JDBC_USER, Tlogsim.ENV_CLUSTER_KEYS, Tlogsim.ENV_DEBUG})
final class NodeCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--config", paramLabel = "FILE", description = "A HOCON file over config/cluster/node.conf.")
  Path config;

  @Option(names = "--host", paramLabel = "HOST", description = "Address to bind and announce (default 127.0.0.1).")
  String host;

  @Option(names = "--port", paramLabel = "PORT", description = "Port (default 25520).")
  Integer port;

  @Option(names = "--seed", paramLabel = "HOST:PORT",
      description = "A seed node to join through; repeatable (default: this node is the first seed).")
  List<String> seeds = new ArrayList<>();

  @Option(names = "--journal", paramLabel = "none|postgres|h2", defaultValue = "none",
      description = "The cluster's shared journal, where the runs this node coordinates are recorded and from whose "
          + "last checkpoint a run goes on when its coordinator's node is lost (default: ${DEFAULT-VALUE}; postgres: "
          + "TLOGSIM_JDBC_URL or tlogsim.journal.postgres.url, every node the same; h2: the file under --data, "
          + "for nodes on one machine only).")
  String journal;

  @Option(names = "--data", paramLabel = "DIR", description = "Data directory of --journal h2 (default: $TLOGSIM_DATA, else ./data).")
  String data;

  @Option(names = "--keys", paramLabel = "DIR", description = "The cluster's keys (default: $TLOGSIM_CLUSTER_KEYS, "
      + "else tlogsim.node.keys in --config): every member has the same, made by deploy/cluster-keys.sh new DIR; "
      + "without them a node does not start (docs/security.md).")
  String keys;

  @Override
  public Integer call() throws Exception {
    if (config != null && !Files.isRegularFile(config)) {
      throw new BadInputException("--config " + config + ": no such file");
    }
    if (port != null && (port < 0 || port > 65535)) {
      throw new BadInputException("--port: must be an integer from 0 to 65535, got " + port);
    }
    for (String s : seeds) RunCommand.checkHostPort("--seed", s, "of a node of the cluster to join");
    RunOptions.notEmpty("--host", host, "an address to bind, e.g. 127.0.0.1");
    JournalKind kind = JournalKind.parse(journal);
    if (data != null && data.isBlank()) throw new BadInputException("--data: must not be empty; give a directory");
    Config given;
    try {
      if (config != null) ScenarioParser.checkDepth(config.toString(), Files.readString(config));
      given = config == null ? ConfigFactory.empty() : ConfigFactory.parseFile(config.toFile());
    } catch (ConfigException e) { // "node.conf:3: malformed: ...", as a scenario file's error reads
      String msg = e.getMessage();
      if (e.origin() != null && msg.startsWith(e.origin().description() + ": ")) {
        msg = msg.substring(e.origin().description().length() + 2);
      }
      String at = e.origin() != null && e.origin().lineNumber() > 0 ? config + ":" + e.origin().lineNumber()
          : config.toString();
      throw new BadInputException("--config " + at + ": malformed: " + Tlogsim.oneLine(msg));
    }
    Path dataDir = data != null ? Path.of(data)
        : System.getenv("TLOGSIM_DATA") != null && !System.getenv("TLOGSIM_DATA").isBlank()
            ? Path.of(System.getenv("TLOGSIM_DATA")) : Path.of("data");
    ClusterKeys clusterKeys = ClusterKeys.forNode(keys, given); // before anything is opened
    JournalSettings j = kind == JournalKind.NONE ? null : JournalSettings.of(kind, dataDir);
    ActorSystem<Void> system =
        ClusterNode.startNode(ClusterNode.config(given, host, port, seeds, ClusterNode.NODE, clusterKeys), j);
    PrintWriter out = spec.commandLine().getOut();
    if (ClusterNode.awaitReady(system)) {
      out.println("tlogsim node up at " + system.address().hostPort().replaceFirst("^[^@]*@", "") + " (seed nodes: "
          + String.join(", ", system.settings().config().getStringList("pekko.cluster.seed-nodes")) + "; runs "
          + (j == null ? "not journaled" : "journaled in the " + j.describe()) + "; TLS with the cluster "
          + "keys in " + clusterKeys.dir() + ")");
      out.flush();
    }
    system.getWhenTerminated().toCompletableFuture().get();
    return Tlogsim.OK;
  }
}
