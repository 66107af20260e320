package io.tlogsim.kinds.gcm1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.Params;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On 8 threads every checkpoint of GCM-1 is a consistent cut (checked directly: what each sender had sent is exactly
 * what its receiver had taken in) and resumes, through CBOR as the journal stores it, to the uninterrupted digest.
 */
class Gcm1CheckpointTest {
  private static final ObjectMapper CBOR = new ObjectMapper(new CBORFactory());

  @Test
  void everyCheckpointOfTwentySeedsIsAConsistentCutAndResumesToTheSameDigest() throws Exception {
    Params p = Gcm1Runs.params("sessions", "10000", "simulatedSeconds", "0.03");
    long end = VirtualTime.seconds(0.03);
    int resumes = 0;
    for (long seed = 1; seed <= 20; seed++) {
      List<Checkpoint> taken = new ArrayList<>();
      Gcm1Kind.Model m = Gcm1Kind.build(p);
      RunOutcome whole = Simulation.run(m.topology(), m.components(),
          RunSettings.of(end, seed, 8).withCheckpoints(CheckpointPolicy.everyWindows(25), taken::add));
      assertTrue(taken.size() >= 3, "checkpoints of seed " + seed + ": " + taken.size());
      for (Checkpoint cp : taken) {
        assertEquals(List.of(), cp.inconsistencies(m.topology()), "seed " + seed + ", window " + cp.window());
        Checkpoint stored = CBOR.readValue(CBOR.writeValueAsBytes(cp), Checkpoint.class);
        Gcm1Kind.Model fresh = Gcm1Kind.build(p);
        RunOutcome resumed = Simulation.run(fresh.topology(), fresh.components(),
            RunSettings.of(end, seed, 8).resumingFrom(stored));
        assertEquals(whole.digestHex(), resumed.digestHex(), "seed " + seed + ", window " + cp.window());
        assertEquals(Gcm1Kind.commits(m, whole).count(), Gcm1Kind.commits(fresh, resumed).count());
        resumes++;
      }
    }
    System.out.println("GCM-1 N=10,000 on 8 threads: " + resumes + " checkpoints of 20 seeds resumed to the digest");
  }
}
