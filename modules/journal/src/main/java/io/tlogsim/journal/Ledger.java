package io.tlogsim.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * A small append-only file beside an H2 journal ({@code tlogsim.ledger}) that says which runs the journal must hold and,
 * for each that ended, how many events and what checksum: a journal that lost runs or records (a truncated or
 * replaced file, a disk that lost its last writes) is then noticed instead of silently showing fewer runs
 * ({@code tlogsim runs} marks them lost or damaged, {@code tlogsim journal verify} names them).
 *
 * <p>One line per record, each ending in the CRC-32C of the rest of its line, written in one write and forced to disk
 * before the command goes on: {@code S} a run started (written once its start is durable in the journal, before
 * {@code running} is printed), {@code E} a run ended (its status, events, the checksum of their bytes and the simulated
 * time it reached; written once that end is durable in the journal), {@code F} a run failed because its journal could
 * not be written (the journal itself could not say so), {@code D} a run was deleted from the journal on purpose
 * ({@code runs delete}: from then on its absence is no loss). A line that does not check (a torn last write) is
 * ignored.
 *
 * <p>Beside it, {@code tlogsim.ledger.reserve} holds a few KB of disk: when the disk fills up and the journal's write
 * fails, it is given back so that the {@code F} line still fits.
 */
public final class Ledger {
  static final String FILE_NAME = "tlogsim.ledger";
  static final String RESERVE_NAME = "tlogsim.ledger.reserve";
  private static final int RESERVE_BYTES = 64 * 1024;
  private static final String HEADER = "tlogsim-ledger 1";

  private final Path file;
  private final Path reserve;

  Ledger(Path dir) {
    this.file = dir.resolve(FILE_NAME);
    this.reserve = dir.resolve(RESERVE_NAME);
  }

  /** The ledger of the H2 journal {@code s}; null for a journal without one (PostgreSQL). */
  static Ledger of(JournalSettings s) {
    return s.kind() == JournalKind.H2 ? new Ledger(s.h2File().toAbsolutePath().getParent()) : null;
  }

  public Path file() {
    return file;
  }

  boolean exists() {
    return Files.exists(file);
  }

  /** What the ledger says of one run: it started; and, if it ended, how (the last end it recorded). */
  public record Entry(String runId, long startedAtMillis, End end, String failure) {}

  /**
   * How a run ended, as recorded once durable: its status, its events and their checksum (see {@link RunWriter}), the
   * simulated time reached.
   */
  public record End(RunStatus status, long events, long checksum, long simulatedNanos) {}

  void started(String runId, long startedAtMillis) throws IOException {
    append("S " + runId + " " + startedAtMillis);
  }

  void ended(String runId, End end) throws IOException {
    append("E " + runId + " " + end.status().label() + " " + end.events() + " " + Long.toHexString(end.checksum())
        + " " + end.simulatedNanos());
  }

  /** The run was deleted from the journal on purpose: the ledger forgets it (its absence is no loss). */
  public void deleted(String runId) throws IOException {
    append("D " + runId + " -");
  }

  /** The journal could not be written: the reserve is given back first, so that this line fits on a full disk. */
  void failed(String runId, String reason) throws IOException {
    try {
      Files.deleteIfExists(reserve);
    } catch (IOException ignored) {
      // try the line anyway
    }
    append("F " + runId + " " + reason.replaceAll("\\s+", " ").strip());
  }

  /** Keeps a few KB of the disk for {@link #failed} (best effort: a full disk gets none, and the line may fit still). */
  void reserve() {
    if (Files.exists(reserve)) return;
    try {
      Files.createFile(reserve, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      try (FileChannel ch = FileChannel.open(reserve, StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.allocate(RESERVE_BYTES));
        ch.force(true);
      }
    } catch (FileAlreadyExistsException raced) {
      // another process made it
    } catch (IOException | UnsupportedOperationException full) {
      try {
        Files.deleteIfExists(reserve);
      } catch (IOException ignored) {
        // nothing to give back
      }
    }
  }

  /** Every run the ledger names, in the order they started; an absent ledger names none. */
  public Map<String, Entry> entries() {
    Map<String, Entry> out = new LinkedHashMap<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException absent) {
      return out;
    } catch (IOException e) {
      throw new IllegalStateException("the ledger " + file + " cannot be read: " + e.getMessage(), e);
    }
    for (String line : lines) {
      String body = checked(line);
      if (body == null) continue;
      String[] f = body.split(" ", 3);
      if (f.length < 3) continue;
      String runId = f[1];
      Entry was = out.get(runId);
      try {
        switch (f[0]) {
          case "S" -> out.put(runId, new Entry(runId, Long.parseLong(f[2]), null, null));
          case "E" -> {
            String[] e = f[2].split(" ");
            End end = new End(RunStatus.valueOf(e[0].toUpperCase(Locale.ROOT)), Long.parseLong(e[1]),
                Long.parseUnsignedLong(e[2], 16), Long.parseLong(e[3]));
            out.put(runId, new Entry(runId, was == null ? 0 : was.startedAtMillis(), end, null));
          }
          case "F" -> out.put(runId, new Entry(runId, was == null ? 0 : was.startedAtMillis(),
              was == null ? null : was.end(), f[2]));
          case "D" -> out.remove(runId);
          default -> { } // a record of a later version: not ours to read
        }
      } catch (RuntimeException malformed) {
        // a line that checks but does not parse is of another version: skipped
      }
    }
    return out;
  }

  /** The line without its checksum, or null when it does not check (a torn write, the header). */
  private static String checked(String line) {
    int cut = line.lastIndexOf(' ');
    if (cut <= 0) return null;
    String body = line.substring(0, cut);
    return Long.toHexString(crc(body)).equals(line.substring(cut + 1)) ? body : null;
  }

  private static long crc(String s) {
    CRC32C c = new CRC32C();
    c.update(s.getBytes(StandardCharsets.UTF_8));
    return c.getValue();
  }

  /** One line in one write, under a lock (two runs may end at once), forced to disk before returning. */
  private void append(String body) throws IOException {
    PrivateFiles.createDirectories(file.getParent());
    boolean fresh = !Files.exists(file);
    if (fresh) {
      try {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (FileAlreadyExistsException raced) {
        fresh = false;
      } catch (UnsupportedOperationException notPosix) {
        Files.createFile(file);
      }
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        FileLock lock = ch.lock()) {
      StringBuilder text = new StringBuilder();
      if (ch.size() == 0) text.append(HEADER).append('\n');
      text.append(body).append(' ').append(Long.toHexString(crc(body))).append('\n');
      ByteBuffer buf = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
      while (buf.hasRemaining()) ch.write(buf);
      ch.force(true);
    }
  }

  /** Lines of the ledger as records, for tests and messages. */
  List<String> records() {
    List<String> out = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String body = checked(line);
        if (body != null) out.add(body);
      }
    } catch (IOException e) {
      return out;
    }
    return out;
  }
}
