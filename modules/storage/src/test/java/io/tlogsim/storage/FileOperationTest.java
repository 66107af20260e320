package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Simulation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Creating and dropping a file as device operations: the file system's metadata writes made durable, and zeroing when
 * the file must be initialized; what it costs is what the device's mechanisms give.
 */
class FileOperationTest {
  private static final long SUBMIT = 1_000;
  /** An NTFS-like volume: 4 metadata writes of 4 KiB over a 1 GiB zone, 64 KiB clusters (config's assumptions). */
  static final FileOperation.FileSystemSpec FS = new FileOperation.FileSystemSpec(4, 4096, 1L << 30, 64 << 10);

  /** Runs one operation from time 0 and returns when it was done (ns). */
  static final class Runner implements SimComponent {
    private final FileOperation op;
    private final int link;
    private long doneAt = -1;
    private int sent;

    Runner(FileOperation op, int link) {
      this.op = op;
      this.link = link;
    }

    @Override
    public void start(Context ctx) {
      send(ctx, op.start());
      if (op.done()) doneAt = 0;
    }

    private void send(Context ctx, List<FileOperation.Request> rs) {
      for (FileOperation.Request r : rs) ctx.send(link, ctx.now() + SUBMIT, r.kind(), sent++, r.bytes(), r.offset(), 1);
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      send(ctx, op.completed());
      if (op.done()) doneAt = ctx.now();
    }

    @Override
    public long inputDelay(int port) {
      return SUBMIT;
    }

    @Override
    public Object snapshot() {
      return op.state();
    }

    @Override
    public void restore(Object snapshot) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Object results() {
      return new long[] {doneAt, sent};
    }
  }

  record Result(long nanos, long requests, DeviceStats device) {}

  static Result run(DeviceSetup setup, FileOperation op) {
    StorageAssembly a = new StorageAssembly();
    StorageAssembly.Placed dev = a.device("dev", setup);
    int id = a.component("files", List.of(DeviceProtocol.COMPLETIONS), List.of(DeviceProtocol.REQUESTS));
    a.setModel(id, new Runner(op, a.connect(id, dev, 0, SUBMIT)));
    RunOutcome out = Simulation.run(a.topology(), a.models(), RunSettings.of(60_000_000_000L, 1, 2));
    long[] r = (long[]) out.results().get(id);
    return new Result(r[0], r[1], (DeviceStats) out.results().get(dev.id()));
  }

  @Test
  void theSequenceIsMetadataThenFlushThenZeroingThenFlush() {
    FileOperation create = FileOperation.create(FS, 10 * Rigs.GIB, 3L << 30, true);
    List<List<FileOperation.Request>> p = create.phases();
    assertEquals(4, p.size());
    assertEquals(4, p.get(0).size());
    assertTrue(p.get(0).stream().allMatch(r -> r.kind() == DeviceProtocol.WRITE));
    assertEquals(List.of(0L, 256L << 20, 512L << 20, 768L << 20), p.get(0).stream().map(FileOperation.Request::offset)
        .toList(), "spread over the metadata zone");
    assertEquals(8192, p.get(0).get(3).bytes(), "3 GiB in 64 KiB clusters: 49,152 bits of bitmap, two 4 KiB writes");
    assertEquals(DeviceProtocol.FLUSH, p.get(1).get(0).kind());
    assertEquals(new FileOperation.Request(DeviceProtocol.ZERO, 3L << 30, 10 * Rigs.GIB), p.get(2).get(0));
    assertEquals(DeviceProtocol.FLUSH, p.get(3).get(0).kind());
    assertEquals(2, FileOperation.drop(FS, 3L << 30).phases().size(), "a drop: metadata and its flush");
    assertEquals(2, FileOperation.create(FS, 0, 3L << 30, false).phases().size(), "instant initialization: no zeroing");
    FileOperation again = FileOperation.of(create.state());
    assertEquals(create.phases(), again.phases());
  }

  @Test
  void theDefaultFileSystemIsConfigs() {
    com.typesafe.config.Config c = com.typesafe.config.ConfigFactory.parseFile(
        java.nio.file.Path.of("../../config/application.conf").toFile()).getConfig("tlogsim.storage.file-system");
    assertEquals(FS, FileOperation.FileSystemSpec.of(c), "the tests' file system is config's");
    DeviceConfigException e = org.junit.jupiter.api.Assertions.assertThrows(DeviceConfigException.class,
        () -> FileOperation.FileSystemSpec.of(c.withValue("clusterKiB",
            com.typesafe.config.ConfigValueFactory.fromAnyRef(0.1))));
    assertEquals("clusterKiB", e.key());
  }

  @Test
  void onADiskTheMetadataCostsSeeksAndZeroingTheMediaRate() {
    DeviceSetup hdd = new DeviceSetup.OfHdd(Rigs.hdd15k(146 * Rigs.GIB, 1));
    long file = 64L << 20, at = 100 * Rigs.GIB;
    Result bare = run(hdd, FileOperation.create(FS, at, file, false));
    Result zeroed = run(hdd, FileOperation.create(FS, at, file, true));
    Result drop = run(hdd, FileOperation.drop(FS, file));
    System.out.printf("HDD: create 64 MiB %.2f ms (instant initialization), %.1f ms zeroed; drop %.2f ms%n",
        bare.nanos() / 1e6, zeroed.nanos() / 1e6, drop.nanos() / 1e6);
    // four writes in arrival order, each a seek and on average half a revolution (about 5-7 ms on this drive)
    assertTrue(bare.nanos() > 4 * 2_000_000 && bare.nanos() < 4 * 12_000_000, "metadata: " + bare.nanos());
    assertEquals(5, bare.requests(), "4 metadata writes and a flush");
    double zeroMs = (zeroed.nanos() - bare.nanos()) / 1e6;
    assertEquals(file / 75e6 * 1e3, zeroMs, 15, "zeroing 64 MiB at 75 MB/s after a seek back to the file");
    assertEquals(file, zeroed.device().bytesZeroed());
    assertEquals(0, drop.device().bytesZeroed());
    assertTrue(drop.nanos() < zeroed.nanos() / 10);
  }

  @Test
  void onAnSsdCreatingAFileCostsAWriteAndAFlush() {
    DeviceSetup ssd = new DeviceSetup.OfSsd(Rigs.ssd(true));
    Result bare = run(ssd, FileOperation.create(FS, 0, 1L << 30, false));
    // four 4 KiB writes over the bus one after the other (2,048 ns each at 2,000 MB/s), each then 20 us on its own
    // channel; when the last completes the flush goes (35 us with power-loss protection); each send is 1 us away
    assertEquals(SUBMIT + 4 * 2048 + 20_000 + SUBMIT + 35_000, bare.nanos(), 4, "metadata then its flush");
    Result zeroed = run(ssd, FileOperation.create(FS, 0, 1L << 30, true));
    assertEquals((1L << 30) / 2000e6 * 1e9, zeroed.nanos() - bare.nanos(), 100_000, "1 GiB at 2,000 MB/s");
  }
}
