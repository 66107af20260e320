package io.tlogsim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.tlogsim.scenario.BadInputException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Nobody joins or submits without the cluster's keys: against a real node (a separate JVM, TLS with the cluster's
 * keys), a node with a key pair of its own, a client with another cluster's keys and a peer that speaks plain TCP are
 * all kept out, while a client with the keys gets in (a node given no keys does not start: ClusterClientTest).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@EnabledIfEnvironmentVariable(named = "TLOGSIM_CLUSTER_TESTS", matches = "1",
    disabledReason = "the loopback cluster tests run with TLOGSIM_CLUSTER_TESTS=1 (CI sets it)")
class ClusterTlsTest {
  static {
    LoggerFactory.getILoggerFactory();
  }

  @TempDir
  Path dir;

  private static Process node(Path log, int port, String seed, ClusterKeys keys) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-D" + NodeMain.PARENT_PID + "=" + ProcessHandle.current().pid(), "-cp",
        System.getProperty("java.class.path"), NodeMain.class.getName(), "--port", String.valueOf(port), "--seed",
        seed));
    if (keys != null) cmd.addAll(List.of("--keys", keys.dir().toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().remove(ClusterKeys.ENV);
    return pb.start();
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static boolean refused(String log) {
    return log.contains("SSLHandshakeException") || log.contains("Handshake with");
  }

  @Test
  void onlyMembersWithTheClustersKeysGetIn() throws Exception {
    try (LoopbackCluster cluster = new LoopbackCluster(dir, 1)) {
      String contact = cluster.contact();
      // a node with a key pair of its own, a client with another cluster's keys, a peer without TLS: all at once
      Path rogueLog = dir.resolve("rogue.log");
      Process rogue = node(rogueLog, freePort(), contact, TestKeys.other());
      CompletableFuture<Throwable> stranger = CompletableFuture.supplyAsync(() -> {
        try {
          // a client with the keys joins in a second or two (the member below): 10 s without an answer is a refusal
          ClusterSubmit.Client.join(contact, TestKeys.other(), Duration.ofSeconds(10)).close();
          return null;
        } catch (Throwable t) {
          return t;
        }
      });
      ActorSystem<Void> plain = ActorSystem.create(Behaviors.empty(), ClusterNode.SYSTEM, ConfigFactory.parseString(
          "pekko.actor.provider = cluster\npekko.remote.artery.transport = tcp\n"
              + "pekko.remote.artery.canonical.hostname = 127.0.0.1\npekko.remote.artery.canonical.port = 0\n"
              + "pekko.cluster.seed-nodes = [\"pekko://" + ClusterNode.SYSTEM + "@" + contact + "\"]\n"
              + "pekko.cluster.roles = [node]\npekko.loglevel = ERROR\n").withFallback(ConfigFactory.load()));
      try {
        Throwable t = stranger.get(90, TimeUnit.SECONDS);
        assertTrue(t instanceof BadInputException && t.getMessage().contains("no cluster answered at " + contact),
            "another cluster's keys: " + t);
        MemberStatus plainStatus = Cluster.get(plain).selfMember().status();
        assertTrue(!List.of(MemberStatus.up(), MemberStatus.joining(), MemberStatus.weaklyUp()).contains(plainStatus),
            "a peer without TLS did not join: " + plainStatus);
        // the rogue node's JVM may still be starting on a busy machine: wait (60 s at most) until TLS has refused it
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!refused(Files.readString(rogueLog)) && rogue.isAlive() && System.nanoTime() < deadline) {
          Thread.sleep(200);
        }
        String log = Files.readString(rogueLog);
        assertFalse(log.contains("tlogsim node up at"), log);
        assertTrue(refused(log), "refused by TLS: " + log);
        // meanwhile the cluster's own client gets in, and sees the one node only
        try (ClusterSubmit.Client member = ClusterSubmit.Client.join(contact, cluster.keys())) {
          assertEquals(1, member.nodes(), "the rogue node is not one of the cluster's");
        }
      } finally {
        rogue.destroyForcibly();
        plain.terminate();
      }
    }
  }
}
