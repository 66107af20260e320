package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.kinds.commitpath.FlushPolicies;
import io.tlogsim.scenario.DeviceParams;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.TypeRegistry;
import io.tlogsim.kernel.Simulation;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in scenario (and every flush policy, log device model and a crash), run whole with checkpoints at windows 1, 2, 4, 8, ... and every fact kept: each checkpoint
 * (also as the run event the journal stores, its large long arrays compact), fact batch and the outcome go through the journal's serializer and come back to the same bytes, and the outcome read
 * back gives the same summary; so do the same bytes rewritten as journals from before logical names hold them (Java
 * class names). A model value without a registered type name (TypeNames) fails here, by its class.
 *
 * <p>Each run is on one thread, and two runs go at once (CI's machine has 2 cores; the runs share only the
 * serializer): the values that go through the serializer, and so their types, do not depend on the thread count (a
 * run's checkpoints, facts and outcome are the same on any number of threads: DESIGN.md principle 2, which the
 * determinism tests check), and these window-bound runs (a stairway: 2.3 million windows) take about half the wall
 * time on one thread that they take on two.
 */
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class TypeNamesCoverageTest {
  private static ActorSystem<Void> system;
  private static Serialization serialization;

  @BeforeAll
  static void start() {
    system = ActorSystem.create(Behaviors.empty(), "types",
        Journal.systemConfig(JournalSettings.of(JournalKind.H2, java.nio.file.Path.of("unused")))
            .withFallback(com.typesafe.config.ConfigFactory.load()));
    serialization = SerializationExtension.get(system);
  }

  @AfterAll
  static void stop() {
    system.terminate();
  }

  /** Every built-in scenario; every flush policy and log device model on oltp-commits; a crash of the log space. */
  static Stream<Arguments> scenarios() {
    Stream<Arguments> builtins = ScenarioKinds.loader().builtins().keySet().stream()
        .map(n -> Arguments.of(n, Map.of()));
    Stream<Arguments> policies = FlushPolicies.NAMES.stream().map(p -> Arguments.of("oltp-commits",
        Map.of("flushPolicy", p, "simulatedSeconds", "0.5", "warmupSeconds", "0.1", "crashAtSeconds", "0.4")));
    Stream<Arguments> devices = DeviceParams.MODELS.stream().filter(m -> !m.equals("profile"))
        .map(m -> Arguments.of("oltp-commits", Map.of("logDevice", m, "simulatedSeconds", "0.5", "warmupSeconds", "0.1")));
    Stream<Arguments> hddCache = Stream.of(Arguments.of("oltp-commits", Map.of("logDevice", "hdd", "hddWriteCache",
        "write-back", "hddCacheMiB", "1", "simulatedSeconds", "0.5", "warmupSeconds", "0.1")));
    return Stream.of(builtins, policies, devices, hddCache,
        Stream.of(Arguments.of("log-backup-cadence", Map.of("crashAtSeconds", "30")))).flatMap(a -> a);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("scenarios")
  void checkpointsFactsAndResultsGoThroughTheJournalsSerializer(String name, Map<String, String> overrides) {
    Scenario s = ScenarioKinds.loader().load(name, new TreeMap<>(overrides));
    AtomicInteger checkpoints = new AtomicInteger(), facts = new AtomicInteger();
    RunControl control = new RunControl(s.seed(), 1, null)
        .withFacts(batch -> {
          roundTrip(batch);
          facts.addAndGet(batch.facts().size());
        })
        .withCheckpoints((window, t) -> Long.bitCount(window) == 1, cp -> {
          roundTrip(cp);
          // as the journal stores it: the run events' serializer, large long[] compact (CompactLongArrays)
          roundTrip(new RunEvent.CheckpointTaken(cp.window(), cp.simulatedNanos(), cp));
          checkpoints.incrementAndGet();
        });
    PreparedRun run = s.prepare(control);
    RunOutcome outcome = Simulation.run(run.topology(), run::models, control.settings(s.endTimeNanos()));
    Outcome stored = (Outcome) roundTrip(Outcome.of(outcome));
    assertEquals(run.result(outcome).summary(), run.result(stored.toRunOutcome()).summary(), name);
    assertTrue(checkpoints.get() > 0, name + ": no checkpoint taken");
    System.out.printf("%s %s: %d checkpoints, %d facts, %d results through the journal's serializer%n", name, overrides,
        checkpoints.get(), facts.get(), outcome.results().size());
  }

  @org.junit.jupiter.api.Test
  void anOutcomeStoredBeforeTheCriticalPathWasKeptReadsWithoutIt() throws Exception {
    Outcome now = new Outcome(1, 2, 3, 4, new java.util.ArrayList<>(), 5, 0, 3, 6, 7, java.util.List.of(0.5), 1.0);
    byte[] bytes = serialization.serialize(now).get();
    ObjectNode tree = (ObjectNode) CBOR.readTree(bytes);
    assertTrue(tree.has("criticalPathCrossingsPerWindow"), "the field's name in the journal: " + tree);
    tree.remove("criticalPathCrossingsPerWindow"); // as a journal written before it was kept
    Serializer ser = serialization.findSerializerFor(now);
    Outcome old = (Outcome) serialization.deserialize(CBOR.writeValueAsBytes(tree), ser.identifier(),
        Serializers.manifestFor(ser, now)).get();
    assertEquals(null, old.criticalPathCrossingsPerWindow(), "unknown: left out of the summary");
    assertEquals(java.util.List.of(0.5), old.threadBusy());
    assertEquals(1.0, now.toRunOutcome().criticalPathCrossingsPerWindow());
  }

  /**
   * Serializes and reads back {@code o}, and reads it also as journals from before logical names hold it (each
   * {@code "@type": name} as {@code "@class": its former Java class name}): both give the same bytes again.
   */
  private static Object roundTrip(Object o) {
    byte[] bytes = serialization.serialize(o).get();
    Serializer ser = serialization.findSerializerFor(o);
    String manifest = Serializers.manifestFor(ser, o);
    Object back = serialization.deserialize(bytes, ser.identifier(), manifest).get();
    assertArrayEquals(bytes, serialization.serialize(back).get(), o.getClass().getSimpleName() + " changed");
    Object former = serialization.deserialize(asFormerly(bytes), ser.identifier(), manifest).get();
    assertArrayEquals(bytes, serialization.serialize(former).get(), o.getClass().getSimpleName()
        + " in the former format changed");
    return back;
  }

  private static final ObjectMapper CBOR = new ObjectMapper(new CBORFactory());
  private static final Map<Class<?>, String> FORMER = new HashMap<>();

  static {
    TypeRegistry.get().formerIds().forEach((id, type) -> FORMER.put(type, id));
  }

  private static byte[] asFormerly(byte[] cbor) {
    try {
      return CBOR.writeValueAsBytes(formerly(CBOR.readTree(cbor)));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static JsonNode formerly(JsonNode n) {
    if (n.isArray()) {
      ArrayNode a = CBOR.createArrayNode();
      n.forEach(e -> a.add(formerly(e)));
      return a;
    }
    if (!n.isObject()) return n;
    ObjectNode o = CBOR.createObjectNode();
    JsonNode name = n.get("@type");
    // a type added after logical names has no former id: no journal from before can hold it, it keeps its name
    String id = name == null ? null : FORMER.get(TypeRegistry.get().typeOf(name.asText()));
    if (id != null) o.put("@class", id);
    n.fields().forEachRemaining(e -> {
      if (!e.getKey().equals("@type") || id == null) o.set(e.getKey(), formerly(e.getValue()));
    });
    return o;
  }
}
