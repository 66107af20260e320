package io.tlogsim.cluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Real cluster nodes: separate JVMs on 127.0.0.1, each started with this module's class path. */
final class LoopbackCluster implements AutoCloseable {
  record Node(int port, Process process, Path log) {
    String address() {
      return "127.0.0.1:" + port;
    }

    /** kill -9: the node vanishes without leaving the cluster. */
    void kill() {
      process.destroyForcibly();
    }
  }

  private final Path dir;
  private final List<Node> nodes = new ArrayList<>();
  private final int seedPort;
  private final String journalUrl; // the nodes' shared PostgreSQL journal, or null: runs not journaled
  private final ClusterKeys keys = TestKeys.cluster();

  LoopbackCluster(Path dir, int size) throws Exception {
    this(dir, size, null);
  }

  /** {@code journalUrl}: a PostgreSQL database every node journals its runs in (--journal postgres), or null. */
  LoopbackCluster(Path dir, int size, String journalUrl) throws Exception {
    this.dir = dir;
    this.journalUrl = journalUrl;
    this.seedPort = freePort();
    try {
      for (int i = 0; i < size; i++) add(i == 0 ? seedPort : freePort());
      for (Node n : nodes) awaitUp(n);
    } catch (Exception | Error e) {
      close(); // no node outlives a cluster that failed to start
      throw e;
    }
  }

  String contact() {
    return "127.0.0.1:" + seedPort;
  }

  /** The cluster's keys, which its nodes have and a client needs. */
  ClusterKeys keys() {
    return keys;
  }

  List<Node> nodes() {
    return nodes;
  }

  Node node(String address) {
    return nodes.stream().filter(n -> n.address().equals(address)).findFirst().orElseThrow();
  }

  /** Starts one more node, which joins through the first. */
  Node add() throws Exception {
    Node n = add(freePort());
    awaitUp(n);
    return n;
  }

  private Node add(int port) throws IOException {
    Path log = dir.resolve("node-" + port + ".log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx1g", "-XX:+UseParallelGC",
        "-D" + NodeMain.PARENT_PID + "=" + ProcessHandle.current().pid(), // it ends when this JVM ends, however
        "-cp", System.getProperty("java.class.path"), NodeMain.class.getName(), "--port", String.valueOf(port),
        "--seed", "127.0.0.1:" + seedPort, "--keys", keys.dir().toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    if (journalUrl != null) {
      cmd.addAll(List.of("--journal", "postgres"));
      pb.environment().put("TLOGSIM_JDBC_URL", journalUrl);
    }
    Process p = pb.command(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    Node n = new Node(port, p, log);
    nodes.add(n);
    return n;
  }

  private static void awaitUp(Node n) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(n.log()) && Files.readString(n.log()).contains("tlogsim node up at")) return;
      if (!n.process().isAlive()) {
        throw new IllegalStateException("node " + n.address() + " ended: " + Files.readString(n.log()));
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("node " + n.address() + " did not come up: " + Files.readString(n.log()));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    for (Node n : nodes) n.process().destroyForcibly();
  }
}
