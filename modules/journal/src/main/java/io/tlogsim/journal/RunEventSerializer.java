package io.tlogsim.journal;

import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;
import org.apache.pekko.serialization.jackson.JacksonSerializer;

/**
 * How the journal stores a run's events: as Pekko's Jackson CBOR serializer stores every {@code CborSerializable} (the
 * same settings and object mapper: binding {@code jackson-cbor}), with one difference: the run's writer
 * ({@link RunWriter}) has the bytes made first, to checksum what it writes ({@link EventChecksum}), and the journal's
 * plugin then gets those very bytes instead of making them a second time (a checkpoint of GCM-1 at N = 100,000 is
 * megabytes: making it twice cost as much CPU again). Bytes are handed over once, by identity of the event, and
 * forgotten. Its own identifier, as Pekko wants one per serializer; rows stored by the plain Jackson serializer
 * (journals of earlier versions) are read by that one. Its mapper writes large {@code long[]} compactly
 * ({@link CompactLongArrays}) and reads them in both forms.
 */
public final class RunEventSerializer extends JacksonSerializer {
  /** Any number no other serializer of the system uses ("tlre"). */
  static final int IDENTIFIER = 0x746c7265;

  private final Map<Object, byte[]> made = Collections.synchronizedMap(new IdentityHashMap<>());

  public RunEventSerializer(ExtendedActorSystem system) {
    // a copy of the binding's mapper: large long arrays written compactly in the journal only, not on the wire
    super(system, "jackson-cbor", JacksonObjectMapperProvider.get(system)
        .getOrCreate("jackson-cbor", Optional.of(new CBORFactory())).copy()
        .registerModule(CompactLongArrays.module()));
  }

  /** The bytes of {@code event} as the journal will store them, kept for the plugin's write of that same event. */
  byte[] bytesToWrite(RunEvent event) {
    byte[] b = super.toBinary(event);
    made.put(event, b);
    return b;
  }

  /** Forgets bytes made for an event written or given up (the plugin does not ask for them again). */
  void forget(Object event) {
    made.remove(event);
  }

  @Override
  public int identifier() {
    return IDENTIFIER;
  }

  @Override
  public byte[] toBinary(Object o) {
    byte[] b = made.remove(o);
    return b != null ? b : super.toBinary(o);
  }
}
