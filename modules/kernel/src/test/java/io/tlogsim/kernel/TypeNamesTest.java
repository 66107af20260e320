package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Values in {@link Typed} fields travel by logical name; a frame that names a class instead (a JDK class above all)
 * is refused, whether it reaches the plain CBOR mapper or Pekko's serializer, as a peer's message or a journal row.
 */
class TypeNamesTest {
  private static final ObjectMapper CBOR = new ObjectMapper(new CBORFactory());
  private static final ObjectMapper JSON = new JsonMapper();
  private static ActorSystem<Void> system;
  private static Serialization serialization;

  @BeforeAll
  static void start() {
    system = ActorSystem.create(Behaviors.empty(), "types");
    serialization = SerializationExtension.get(system);
  }

  @AfterAll
  static void stop() {
    system.terminate();
  }

  @Test
  void aValueIsWrittenWithItsNameNeverItsClassAndReadBack() throws Exception {
    RecordedFact f = new RecordedFact(5, 1, new ToyModels.HopperState(3, 4));
    String json = JSON.writeValueAsString(f);
    assertTrue(json.contains("\"@type\":\"test.ToyModels.HopperState\""), json);
    assertFalse(json.contains("io.tlogsim"), json);
    assertEquals(f, JSON.readValue(json, RecordedFact.class));
    assertEquals(f, CBOR.readValue(CBOR.writeValueAsBytes(f), RecordedFact.class));
  }

  @Test
  void aValueWithoutANameCannotBeWrittenAndTheErrorNamesItsClass() {
    record Unnamed(int x) {}
    JsonMappingException e = assertThrows(JsonMappingException.class,
        () -> CBOR.writeValueAsBytes(new RecordedFact(0, 0, new Unnamed(1))));
    assertTrue(e.getMessage().contains(Unnamed.class.getName() + " has no logical type name"), e.getMessage());
  }

  @Test
  void aJournalRowFromBeforeNamesIsReadThroughItsFormerClassName() throws Exception {
    String old = "{\"time\":5,\"component\":1,\"fact\":{\"@class\":\"io.tlogsim.kernel.KernelTest$Seen\",\"from\":2,"
        + "\"what\":9}}";
    assertEquals(new RecordedFact(5, 1, new KernelTest.Seen(2, 9)), JSON.readValue(old, RecordedFact.class));
  }

  /** What a peer crafts: a fact, a model state or a payload naming java.io.File, by "@type" or by "@class". */
  static List<Map<String, Object>> craftedFrames() {
    List<Map<String, Object>> frames = new ArrayList<>();
    for (Object file : List.of(List.of("java.io.File", "/etc/passwd"), Map.of("@class", "java.io.File"),
        Map.of("@type", "java.io.File"), List.of("[Ljava.io.File;", List.of("/etc/passwd")))) {
      Map<String, Object> fact = new LinkedHashMap<>();
      fact.put("time", 0);
      fact.put("component", 0);
      fact.put("fact", file);
      frames.add(fact);
    }
    return frames;
  }

  @Test
  void aFactNamingAJdkClassIsRefusedByTheMapper() throws Exception {
    for (Map<String, Object> frame : craftedFrames()) {
      byte[] bytes = CBOR.writeValueAsBytes(frame);
      InvalidTypeIdException e = assertThrows(InvalidTypeIdException.class,
          () -> CBOR.readValue(bytes, RecordedFact.class), frame.toString());
      assertTrue(e.getMessage().contains("not a type name tlogsim declares"), e.getMessage());
    }
  }

  @Test
  void pekkosSerializerRefusesAFrameNamingAJdkClassAsItsManifestOrInsideATypedField() throws Exception {
    Serializer cbor = serialization.serializerFor(RecordedFact.class);
    assertEquals("org.apache.pekko.serialization.jackson.JacksonCborSerializer", cbor.getClass().getName());
    // the manifest names the class to build: only classes bound to the serializer (CborSerializable) are allowed
    byte[] path = CBOR.writeValueAsBytes("/etc/passwd");
    assertTrue(serialization.deserialize(path, cbor.identifier(), File.class.getName()).isFailure());
    assertTrue(serialization.deserialize(path, cbor.identifier(), "java.lang.Runtime").isFailure());
    // a message of ours whose typed field names java.io.File: the fact, a component's state, a batch's payload
    for (Map<String, Object> frame : craftedFrames()) {
      assertRefused(frame, RecordedFact.class);
      Map<String, Object> state = new LinkedHashMap<>(Map.of("component", 0, "digest", 0, "events", 0,
          "rngState", 0, "lastHorizon", 0));
      state.put("model", frame.get("fact"));
      assertRefused(state, ComponentState.class);
      Map<String, Object> batch = new LinkedHashMap<>(Map.of("window", 0, "link", 0, "firstSeq", 0,
          "time", List.of(1), "kind", List.of(1), "a", List.of(0), "b", List.of(0)));
      batch.put("payload", List.of(frame.get("fact")));
      assertRefused(batch, EventBatch.class);
    }
    // the same frames with a declared name decode
    Object ok = serialization.deserialize(CBOR.writeValueAsBytes(Map.of("time", 1, "component", 2, "fact",
        Map.of("@type", "test.KernelTest.Seen", "from", 3, "what", 4))), cbor.identifier(),
        Serializers.manifestFor(cbor, new RecordedFact(0, 0, null))).get();
    assertEquals(new RecordedFact(1, 2, new KernelTest.Seen(3, 4)), ok);
  }

  private static void assertRefused(Map<String, Object> frame, Class<?> type) throws Exception {
    Serializer cbor = serialization.serializerFor(type);
    var decoded = serialization.deserialize(CBOR.writeValueAsBytes(frame), cbor.identifier(), type.getName());
    assertTrue(decoded.isFailure(), type.getSimpleName() + " " + frame + " was decoded: " + decoded);
    Throwable why = decoded.failed().get();
    assertTrue(String.valueOf(why.getMessage()).contains("not a type name tlogsim declares"), why.toString());
  }

  @Test
  void twoModulesCannotClaimOneNameOrNameOneTypeTwice() {
    TypeNames a = names -> names.add("X", KernelTest.Seen.class);
    TypeNames b = names -> names.add("X", ToyModels.HopperState.class);
    TypeNames c = names -> names.add("Y", KernelTest.Seen.class);
    assertThrows(IllegalStateException.class, () -> TypeRegistry.load(List.of(a, b)));
    assertThrows(IllegalStateException.class, () -> TypeRegistry.load(List.of(a, c)));
    assertThrows(IllegalStateException.class, () -> TypeRegistry.load(List.of(n -> n.add("java.io.File x", File.class))));
  }
}
