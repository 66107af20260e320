package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.ComponentState;
import io.tlogsim.kernel.VirtualTime;
import java.io.IOException;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The journal's compact long arrays: every value comes back, old rows read as before, checkpoints get smaller. */
class CompactLongArraysTest {
  private static ActorSystem<Void> system;
  private static Serialization serialization;

  @BeforeAll
  static void start() {
    system = ActorSystem.create(Behaviors.empty(), "compact",
        Journal.systemConfig(JournalSettings.of(JournalKind.H2, java.nio.file.Path.of("unused")))
            .withFallback(com.typesafe.config.ConfigFactory.load()));
    serialization = SerializationExtension.get(system);
  }

  @AfterAll
  static void stop() {
    system.terminate();
  }

  @Test
  void everyValueComesBack() throws IOException {
    SplittableRandom r = new SplittableRandom(7);
    for (int n : new int[] {0, 1, 2, 5, 1023, 1024, 4097, 30_000}) {
      long[] random = r.longs(n).toArray();
      long[] edges = new long[n];
      long[] records = new long[n]; // three longs per record: a rising LSN, a session, a time
      for (int i = 0; i < n; i++) {
        edges[i] = switch (i % 5) {
          case 0 -> Long.MIN_VALUE;
          case 1 -> Long.MAX_VALUE;
          case 2 -> -1;
          case 3 -> 0;
          default -> VirtualTime.NEVER;
        };
        records[i] = switch (i % 3) {
          case 0 -> 1_000_000L + 512L * i;
          case 1 -> r.nextInt(100_000);
          default -> 1_600_000_000L + r.nextInt(1_000_000);
        };
      }
      for (long[] v : List.of(random, edges, records, new long[n])) {
        assertArrayEquals(v, CompactLongArrays.decode(CompactLongArrays.encode(v)), "n = " + n);
      }
    }
    long[] sentinels = new long[10_000];
    java.util.Arrays.fill(sentinels, VirtualTime.NEVER);
    assertTrue(CompactLongArrays.encode(sentinels).length < 10_020, "a repeated sentinel takes a byte each");
  }

  @Test
  void aFormatOfANewerVersionIsRefusedInOneLine() {
    byte[] b = CompactLongArrays.encode(new long[] {1, 2, 3});
    b[0] = 9;
    IOException e = assertThrows(IOException.class, () -> CompactLongArrays.decode(b));
    assertTrue(e.getMessage().contains("newer tlogsim"), e.getMessage());
    assertThrows(IOException.class, () -> CompactLongArrays.decode(java.util.Arrays.copyOf(
        CompactLongArrays.encode(new long[] {1, 2, 3}), 4)));
  }

  /**
   * A real GCM-1 checkpoint as a run event: smaller than its plain CBOR, the same bytes when read back and written
   * again; and its plain CBOR, as journals before the compact arrays hold it, reads to the same event.
   */
  @Test
  void aCheckpointIsSmallerAndRowsOfEarlierVersionsStillRead() throws Exception {
    Checkpoint cp = Gcm1Fixture.checkpoints(Gcm1Fixture.scenario("sessions", "20000", "simulatedSeconds", "0.05"),
        42, 200).get(0);
    RunEvent ev = new RunEvent.CheckpointTaken(cp.window(), cp.simulatedNanos(), cp);
    Serializer ser = serialization.findSerializerFor(ev);
    assertEquals(RunEventSerializer.IDENTIFIER, ser.identifier());
    String manifest = Serializers.manifestFor(ser, ev);
    byte[] compact = ser.toBinary(ev);
    byte[] plain = serialization.serializerFor(Checkpoint.class).toBinary(ev); // the binding's mapper: as before
    assertTrue(compact.length < plain.length * 0.8, compact.length + " bytes against " + plain.length);

    Object back = serialization.deserialize(compact, ser.identifier(), manifest).get();
    assertArrayEquals(compact, ser.toBinary(back), "read back and written again");
    Object old = serialization.deserialize(plain, ser.identifier(), manifest).get();
    assertArrayEquals(compact, ser.toBinary(old), "a row of an earlier version");
    ComponentState a = cp.components().get(0), b = ((RunEvent.CheckpointTaken) old).checkpoint().components().get(0);
    assertArrayEquals(a.outSeq(), b.outSeq());
    assertEquals(a.digest(), b.digest());
  }

  @Test
  void theWireKeepsItsFormat() throws IOException {
    long[] big = new long[5000];
    byte[] wire = serialization.serializerFor(Checkpoint.class).toBinary(
        new Checkpoint(1, 2, 3, List.of(new ComponentState(0, null, null, 0, 0, 0, big, big, 0))));
    assertTrue(new ObjectMapper(new CBORFactory()).readTree(wire).at("/components/0/outSeq").isArray(),
        "the kernel's messages keep their arrays of integers");
  }
}
