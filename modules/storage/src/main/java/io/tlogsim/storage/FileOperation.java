package io.tlogsim.storage;

import com.typesafe.config.Config;
import io.tlogsim.kernel.CborSerializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Creating or dropping a file as its device sees it (ALTER DATABASE ... ADD FILE / REMOVE FILE, RESTORE creating the
 * files of a backup): the file system's metadata writes, made durable by a flush, and for a created file that must be
 * zero-initialized (a log file always, a data file unless instant file initialization: REFERENCE.md section 1), the
 * zeroing of its bytes followed by a flush. What it costs comes out of the device's own mechanisms: on a disk the
 * metadata writes pay seeks away from the file and back, on an SSD a write latency and a flush, on a cloud disk its
 * latency and caps.
 *
 * <p>The operation is a sequence of phases of {@link DeviceProtocol} requests; the requests of a phase go at once, the
 * next phase when all of them have completed. A requester (a database's file manager) sends {@link #start()}'s
 * requests, calls {@link #completed()} for each completion, sends what it returns, and is done when {@link #done()}.
 * Its state is a plain value ({@link #state()}, {@link #of(State)}) for the requester's checkpoints.
 *
 * <pre>
 *   create: metadata writes (file record, directory entry, log record..., and the allocation bitmap's share) -> FLUSH
 *           [-> ZERO of the file's bytes -> FLUSH]
 *   drop:   metadata writes (the same records, and the bitmap's share of the freed clusters) -> FLUSH
 * </pre>
 */
public final class FileOperation {

  /**
   * The file system on a device: how many metadata writes a create or a drop makes and of what size, where they
   * land (spread evenly over a zone at the start of the volume, where the file system keeps its tables and log), and
   * the cluster size that sizes the allocation bitmap's share.
   */
  public record FileSystemSpec(int metadataWrites, long metadataWriteBytes, long metadataZoneBytes, long clusterBytes) {
    public FileSystemSpec {
      DeviceConfigException.range("metadataWrites", metadataWrites, 0, 1000, " writes per create or drop");
      DeviceConfigException.range("metadataKiB", metadataWriteBytes / 1024.0, 0.5, 1024, " KiB");
      DeviceConfigException.range("metadataZoneGiB", metadataZoneBytes / (double) (1L << 30), 0, 1 << 20, " GiB");
      DeviceConfigException.range("clusterKiB", clusterBytes / 1024.0, 0.5, 1 << 20, " KiB");
    }

    /**
     * The file system of a config block ({@code tlogsim.storage.file-system}: metadataWrites, metadataKiB,
     * metadataZoneGiB, clusterKiB); a value it refuses is a {@link DeviceConfigException} naming the key.
     */
    public static FileSystemSpec of(Config c) {
      return new FileSystemSpec(c.getInt("metadataWrites"), Math.round(c.getDouble("metadataKiB") * 1024),
          Math.round(c.getDouble("metadataZoneGiB") * (1L << 30)), Math.round(c.getDouble("clusterKiB") * 1024));
    }

    /** Bytes of allocation bitmap a file of {@code fileBytes} touches: a bit per cluster, in whole metadata writes. */
    public long bitmapBytes(long fileBytes) {
      long bits = (fileBytes + clusterBytes - 1) / clusterBytes;
      long bytes = (bits + 7) / 8;
      return Math.max(1, (bytes + metadataWriteBytes - 1) / metadataWriteBytes) * metadataWriteBytes;
    }
  }

  /** One device request of the operation: a {@link DeviceProtocol} kind, bytes and device offset. */
  public record Request(int kind, long bytes, long offset) implements CborSerializable {}

  /** Where an operation is: its phases, the phase under way, and how many of its requests are outstanding. */
  public record State(List<List<Request>> phases, int phase, int outstanding) implements CborSerializable {}

  private final List<List<Request>> phases;
  private int phase = -1;
  private int outstanding;

  private FileOperation(List<List<Request>> phases) {
    this.phases = phases;
  }

  /**
   * Creating a file of {@code fileBytes} at device offset {@code fileOffset}; {@code zero}: zero-initialize it (a log
   * file always; a data file unless instant file initialization).
   */
  public static FileOperation create(FileSystemSpec fs, long fileOffset, long fileBytes, boolean zero) {
    List<List<Request>> p = new ArrayList<>(metadata(fs, fileBytes));
    if (zero && fileBytes > 0) {
      p.add(List.of(new Request(DeviceProtocol.ZERO, fileBytes, fileOffset)));
      p.add(List.of(new Request(DeviceProtocol.FLUSH, 0, fileOffset)));
    }
    return new FileOperation(List.copyOf(p));
  }

  /** Dropping a file of {@code fileBytes}: its clusters freed in the bitmap and its records removed, made durable. */
  public static FileOperation drop(FileSystemSpec fs, long fileBytes) {
    return new FileOperation(List.copyOf(metadata(fs, fileBytes)));
  }

  private static List<List<Request>> metadata(FileSystemSpec fs, long fileBytes) {
    List<Request> writes = new ArrayList<>();
    int n = fs.metadataWrites();
    long stride = n == 0 ? 0 : fs.metadataZoneBytes() / n / fs.metadataWriteBytes() * fs.metadataWriteBytes();
    for (int i = 0; i < n; i++) {
      long bytes = i == n - 1 ? fs.bitmapBytes(fileBytes) : fs.metadataWriteBytes(); // the last: the bitmap's share
      writes.add(new Request(DeviceProtocol.WRITE, bytes, i * stride));
    }
    List<List<Request>> p = new ArrayList<>();
    if (!writes.isEmpty()) {
      p.add(List.copyOf(writes));
      p.add(List.of(new Request(DeviceProtocol.FLUSH, 0, 0)));
    }
    return p;
  }

  /** The requests to send first (none: the operation has nothing to do and is done). */
  public List<Request> start() {
    if (phase >= 0) throw new IllegalStateException("file operation already started");
    return next();
  }

  /** One request completed; returns the next phase's requests when it was the last of its phase, else none. */
  public List<Request> completed() {
    if (outstanding <= 0) throw new IllegalStateException("a completion for no outstanding request");
    return --outstanding > 0 ? List.of() : next();
  }

  private List<Request> next() {
    phase++;
    if (phase >= phases.size()) return List.of();
    List<Request> r = phases.get(phase);
    outstanding = r.size();
    return r;
  }

  /** Every request completed. */
  public boolean done() {
    return phase >= phases.size();
  }

  /** Every phase's requests, in order (for tests and for a requester that wants to show them). */
  public List<List<Request>> phases() {
    return phases;
  }

  public State state() {
    return new State(phases, phase, outstanding);
  }

  public static FileOperation of(State s) {
    FileOperation op = new FileOperation(List.copyOf(s.phases()));
    op.phase = s.phase();
    op.outstanding = s.outstanding();
    return op;
  }
}
