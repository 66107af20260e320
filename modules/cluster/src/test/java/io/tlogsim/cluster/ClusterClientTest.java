package io.tlogsim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.BadInputException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The client's side of a cluster, without nodes: how a sweep's runs are sharded, a contact nobody answers at, and the
 * cluster's keys (a node given none does not start; keys others may read, or a wrong password, are refused).
 */
class ClusterClientTest {
  @Test
  void aSweepsRunsAreShardedByTheirSlotWhateverTheirRunIds() {
    ClusterNode.BySlot<Object> bySlot = new ClusterNode.BySlot<>();
    String a = ClusterNode.BySlot.entityId(0, "sweep-1a2b3c4d-0-0");
    String b = ClusterNode.BySlot.entityId(0, "sweep-1a2b3c4d-5-1");
    String c = ClusterNode.BySlot.entityId(1, "sweep-1a2b3c4d-0-1");
    assertEquals("slot-0", bySlot.shardId(a));
    assertEquals(bySlot.shardId(a), bySlot.shardId(b));
    assertEquals("slot-1", bySlot.shardId(c));
  }

  @Test
  void theClientAnnouncesTheAddressItReachesTheContactFrom() throws Exception {
    assertEquals("127.0.0.1", ClusterSubmit.Client.addressToward("127.0.0.1:25520"), "a cluster on this machine");
    assertEquals("127.0.0.1", ClusterSubmit.Client.addressToward("no-such-host.invalid:25520"), "no route: as before");
    // a node at one of this machine's own other addresses is reached from that address (not 127.0.0.1, which a node
    // elsewhere could not answer)
    for (java.net.NetworkInterface nic : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
      if (!nic.isUp() || nic.isLoopback()) continue;
      for (java.net.InetAddress a : java.util.Collections.list(nic.getInetAddresses())) {
        if (a instanceof java.net.Inet4Address) {
          assertEquals(a.getHostAddress(), ClusterSubmit.Client.addressToward(a.getHostAddress() + ":25520"));
          return;
        }
      }
    }
  }

  @Test
  void aContactNobodyAnswersAtIsBadInputInOneLine() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // free once closed: nobody listens there
    }
    String contact = "127.0.0.1:" + port;
    BadInputException e = assertThrows(BadInputException.class,
        () -> ClusterSubmit.Client.join(contact, TestKeys.cluster(), Duration.ofSeconds(2)).close());
    assertEquals("--cluster: no cluster answered at " + contact + " within 2 s (is a node running there, and does it"
        + " have this client's keys? see deploy/local-cluster.sh, docs/security.md)", e.getMessage());
    assertTrue(!e.getMessage().contains("\n"));
  }

  @Test
  void aNodeGivenNoKeysDoesNotStart() throws Exception {
    Path log = Files.createTempFile("tlogsim-nokeys", ".log");
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), NodeMain.class.getName(), "--port", "0", "--seed", "127.0.0.1:25599");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().remove(ClusterKeys.ENV);
    Process p = pb.start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertNotEquals(0, p.exitValue());
    assertTrue(Files.readString(log).contains("no cluster keys: give --keys DIR or TLOGSIM_CLUSTER_KEYS=DIR"),
        Files.readString(log));
  }

  @Test
  void keysOthersMayReadAreRefused() throws Exception {
    ClusterKeys other = TestKeys.other();
    Files.setPosixFilePermissions(other.dir().resolve("password"),
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    BadInputException e = assertThrows(BadInputException.class, () -> ClusterKeys.in(other.dir()));
    assertTrue(e.getMessage().endsWith("password may be read by others; chmod 600 it"), e.getMessage());
    Files.writeString(other.dir().resolve("password"), "wrong\n");
    Files.setPosixFilePermissions(other.dir().resolve("password"),
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    assertTrue(assertThrows(BadInputException.class, () -> ClusterKeys.in(other.dir())).getMessage()
        .contains("cluster.p12 cannot be opened with its password"));
    assertFalse(other.toString().contains(other.password()), "no password in what is printed");
  }
}
