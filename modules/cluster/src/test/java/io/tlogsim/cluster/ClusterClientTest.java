package io.tlogsim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.engine.scenario.BadInputException;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The client's side of a cluster, without nodes: how a sweep's runs are sharded, and a contact nobody answers at. */
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
}
